package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/souskitchen/sous/integration/harness/demotest"
)

// bannerCommands returns the commands `sous demo` prints: the indented
// lines under each line that ends "for example:" (or "for example (…):"),
// up to the next blank line.
func bannerCommands(banner string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(banner, "\n") {
		switch {
		case strings.TrimSpace(line) == "":
			in = false
		case exampleHeader.MatchString(line):
			in = true
		case in && strings.HasPrefix(line, "  "):
			out = append(out, strings.TrimSpace(line))
		default:
			in = false
		}
	}
	return out
}

// exampleHeader is the banner line that introduces commands.
var exampleHeader = regexp.MustCompile(`for example(?: \([^)]*\))?:$`)

func TestBannerCommands(t *testing.T) {
	banner := "sous demo is running.\n\n  MCP:  http://x\n\nConnect an MCP client, for example:\n  npx a\n  claude b\n\nCall the Connect API, for example (the first run compiles grpcurl):\n  go tool c\n(with X set)\n\nPress Ctrl-C to stop.\n"
	got := bannerCommands(banner)
	want := []string{"npx a", "claude b", "go tool c"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("bannerCommands = %q, want %q", got, want)
	}
}

// demoPages are the pages whose blocks run against a demo started as
// `make demo` starts it; only holds a filter: a block runs when it
// contains that string ("" for every block the page has).
var demoPages = []struct{ page, only string }{
	{"docs/try-it.md", ""},
	// The rest of clients.md configures clients and servers elsewhere.
	{"docs/clients.md", inspectorPkg},
}

// TestDemoPrintedCommandsRun runs what a new user copies while `make
// demo` runs, against a `sous demo` started the same way (no service
// token): every command the banner prints, as printed, and the shell blocks
// of docs/try-it.md and the Inspector commands of docs/clients.md, with
// MEALIE_URL and MEALIE_API_TOKEN set in the shell to the banner's Mealie
// emulator (the stdio form passes them on with -e). It also holds the docs'
// reason for -e: the same stdio command without it, the variables only
// exported, ends in "no backend is configured".
func TestDemoPrintedCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the demo's printed commands are not run")
	}
	root := repoRoot(t)
	bin, err := demotest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := demotest.StartWithoutToken(t, bin, root)
	mealie := []string{"MEALIE_URL=" + d.MealieURL, "MEALIE_API_TOKEN=" + d.MealieToken}

	t.Run("banner", func(t *testing.T) {
		cmds := bannerCommands(d.Banner)
		ran := 0
		for _, c := range cmds {
			name := fmt.Sprintf("the banner's %q", c)
			if why := skipReason(c); why != "" {
				t.Logf("%s not run: it %s", name, why)
				continue
			}
			ran++
			// The banner's addresses are the demo's own: prepare changes
			// nothing but where an Inspector command runs.
			dir, script, env := prepare(t, c, root, bin, d)
			out := runBlock(t, name, dir, script, append(env, mealie...)...)
			if strings.Contains(c, " list") && !strings.Contains(out, "search_recipes") && !strings.Contains(out, "sous.recipes.v1.RecipesService") {
				t.Errorf("%s listed neither the tools nor the services:\n%s", name, out)
			}
		}
		for _, want := range []string{inspectorPkg, "grpcurl"} {
			if !strings.Contains(strings.Join(cmds, "\n"), want) {
				t.Errorf("the banner prints no %s command:\n%s", want, d.Banner)
			}
		}
		if ran < 2 {
			t.Errorf("ran %d of the banner's commands %q; want the Inspector and grpcurl", ran, cmds)
		}
	})

	var stdio string
	for _, p := range demoPages {
		t.Run(filepath.Base(p.page), func(t *testing.T) {
			ran := 0
			for i, block := range blocks(readFile(t, filepath.Join(root, p.page)), "sh") {
				name := fmt.Sprintf("%s block %d", p.page, i+1)
				if !strings.Contains(block, p.only) {
					continue
				}
				if why := skipReason(block); why != "" {
					t.Logf("%s not run: it %s", name, why)
					continue
				}
				ran++
				dir, script, env := prepare(t, block, root, bin, d)
				runBlock(t, name, dir, script, append(env, mealie...)...)
				if strings.Contains(block, "--stdio") && stdio == "" {
					stdio = block
				}
			}
			if ran == 0 {
				t.Errorf("%s has no shell block this test can run", p.page)
			}
		})
	}

	t.Run("stdio without -e", func(t *testing.T) {
		// The pages' Inspector blocks skip without the pinned Inspector, and
		// so does this: it reruns one of them.
		demotest.Need(t, filepath.Join(root, inspectorFromRoot, "node_modules", ".package-lock.json"), "make test-deps (npm ci --prefix integration/e2e/inspector)")
		if stdio == "" {
			t.Fatal("no documented Inspector command runs bin/sous mcp --stdio")
		}
		bare := regexp.MustCompile(`-e [A-Z_]+="\$[A-Z_]+"\s*`).ReplaceAllString(stdio, "")
		if bare == stdio || strings.Contains(bare, " -e ") {
			t.Fatalf("cannot take -e out of the documented stdio command:\n%s", stdio)
		}
		dir, script, env := prepare(t, bare, root, bin, d)
		out, _ := execBlock(t, "the stdio command without -e", dir, script, append(env, mealie...)...)
		if !strings.Contains(out, "no backend is configured") {
			t.Errorf("without -e, with MEALIE_URL and MEALIE_API_TOKEN exported, sous did not stop with \"no backend is configured\": the docs' reason for -e no longer holds:\n%s", out)
		}
	})
}
