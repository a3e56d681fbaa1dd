package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/integration/harness/demotest"
)

// fence matches a fenced code block with its language: group 1 the
// language, group 2 the body.
var fence = regexp.MustCompile("(?ms)^[ \\t]*```([a-z]*)\\n(.*?)^[ \\t]*```")

// blocks returns the bodies of a Markdown file's code blocks in lang.
func blocks(text, lang string) []string {
	var out []string
	for _, m := range fence.FindAllStringSubmatch(text, -1) {
		if m[1] == lang {
			out = append(out, m[2])
		}
	}
	return out
}

// notHere lists what a documented shell block may do that this test cannot
// or must not do; a block containing the key is reported, not run. Any
// other block runs.
var notHere = []struct{ key, why string }{
	{"make demo", "runs until stopped (the tests below start sous demo themselves)"},
	{"mealietest serve", "runs until stopped (integration/cmd/mealietest's tests start it, and stdioSession runs sous mcp --stdio against it)"},
	{"make test", "is the suite this test is part of"},
	{"claude mcp", "configures Claude Code, which the README does not ask for"},
	{"MEALIE_INTEGRATION=1", "needs your own Mealie"},
	{"git clone", "reaches GitHub; this test runs inside a checkout already"},
	{"docker ", "needs a Docker engine"},
	{"go mod edit", "sets up your own Go module (TestConnectClientExampleBuilds compiles the client)"},
	{"git tag", "publishes a release"},
}

// commandPages are the pages whose shell blocks this test runs.
var commandPages = []string{"README.md", "docs/install.md", "docs/connect-api.md"}

// blockTimeout bounds one documented block: make release cross-compiles
// twice, from a cold build cache on a small machine.
const blockTimeout = 15 * time.Minute

// TestDocumentedCommandsRun runs every shell block of the install and
// client pages (and the README) that can run here, against a fresh
// `sous demo` with a service token where they call the Connect API, and
// fails on a non-zero exit or a refusal in the output. The documented
// address 127.0.0.1:8080 is replaced by the demo's, /path/to/sous by this
// checkout, and `cd your-app` runs in an empty directory.
func TestDocumentedCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the documented commands are not run")
	}
	root := repoRoot(t)
	bin, err := demotest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := demotest.Start(t, bin, root)
	for _, page := range commandPages {
		t.Run(filepath.Base(page), func(t *testing.T) {
			ran := 0
			for i, block := range blocks(readFile(t, filepath.Join(root, page)), "sh") {
				name := fmt.Sprintf("%s block %d", page, i+1)
				if why := skipReason(block); why != "" {
					t.Logf("%s not run: it %s", name, why)
					continue
				}
				ran++
				app := t.TempDir()
				if err := os.Mkdir(filepath.Join(app, "your-app"), 0o755); err != nil {
					t.Fatal(err)
				}
				dir, script, env := prepare(t, block, root, bin, d)
				if strings.Contains(block, "cd your-app") {
					dir = app
				}
				runBlock(t, name, dir, script, append(env, "SOUS_SERVICE_TOKEN="+d.Token, "AUTH=Authorization: Bearer "+d.Token)...)
				if page == "docs/connect-api.md" && strings.Contains(block, "cd your-app") {
					runInstalledClient(t, block, filepath.Join(app, "your-app"), d)
				}
			}
			if ran == 0 {
				t.Errorf("%s has no shell block this test can run", page)
			}
		})
	}
}

// skipReason says why a block cannot run here, or "".
func skipReason(block string) string {
	for _, n := range notHere {
		if strings.Contains(block, n.key) {
			return n.why
		}
	}
	return ""
}

// inspectorPkg is how the docs and the banner run the MCP Inspector.
const inspectorPkg = "@modelcontextprotocol/inspector@"

// inspectorFromRoot holds the pinned Inspector (make test-deps installs it),
// from the repository root: the inspectorDir the Inspector tests run.
// Run from there, the documented `npx -y @modelcontextprotocol/inspector@<pin>`
// finds that install instead of fetching the package.
const inspectorFromRoot = "integration/e2e/inspector"

// prepare turns a documented block into what runs against the demo d, the
// directory it runs in and the environment it adds: the documented
// addresses 127.0.0.1:8080 and 127.0.0.1:8765 become the demo's Connect API
// and MCP endpoint, /path/to/sous this checkout; an Inspector command runs
// in inspectorFromRoot with bin/sous meaning the binary under test, and with a
// HOME of its own (the Inspector keeps a server catalog there). Any other
// block runs in the checkout, with the developer's HOME and so Go's caches.
func prepare(t *testing.T, block, root, bin string, d demotest.Demo) (dir, script string, env []string) {
	t.Helper()
	mcpAddr := strings.TrimSuffix(strings.TrimPrefix(d.MCPURL, "http://"), "/mcp")
	script = strings.NewReplacer("127.0.0.1:8080", strings.TrimPrefix(d.ConnectURL, "http://"),
		"127.0.0.1:8765", mcpAddr, "/path/to/sous", root).Replace(block)
	if !strings.Contains(block, inspectorPkg) {
		return root, script, nil
	}
	demotest.Need(t, filepath.Join(root, inspectorFromRoot, "node_modules", ".package-lock.json"), "make test-deps (npm ci --prefix integration/e2e/inspector)")
	script = regexp.MustCompile(`(^|\s)bin/sous\b`).ReplaceAllString(script, "${1}"+bin)
	return filepath.Join(root, inspectorFromRoot), script, []string{"HOME=" + t.TempDir()}
}

// refusal is output that means a documented command was turned away even
// though it exited 0 (curl does on an HTTP error).
var refusal = regexp.MustCompile(`(?i)"code":\s*"[a-z_]+"|unauthenticated|Failure:|command not found`)

// runBlock runs a documented block with bash -e in dir and returns its
// output, failing the test on a non-zero exit or a refusal in the output.
func runBlock(t *testing.T, name, dir, script string, env ...string) string {
	t.Helper()
	out, err := execBlock(t, name, dir, script, env...)
	if err != nil {
		t.Fatalf("%s failed (%v):\n%s", name, err, out)
	}
	if m := refusal.FindString(out); m != "" {
		t.Errorf("%s exited 0 but its output says %q:\n%s", name, m, out)
	}
	return out
}

// execBlock runs a block with bash -e in dir, bounded by blockTimeout, and
// returns its output and exit error.
func execBlock(t *testing.T, name, dir, script string, env ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), blockTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(demotest.CleanEnv(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("%s (in %s):\n%s\n%s", name, dir, script, out.String())
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish in %s", name, blockTimeout)
	}
	return out.String(), err
}

// runInstalledClient runs the page's program for the client block just
// installed into app, as that app would: the TypeScript one compiled with
// tsc, the Python one with the app's virtualenv.
func runInstalledClient(t *testing.T, block, app string, d demotest.Demo) {
	t.Helper()
	root := repoRoot(t)
	text := readFile(t, filepath.Join(root, "docs", "connect-api.md"))
	env := []string{"SOUS_URL=" + d.ConnectURL, "SOUS_SERVICE_TOKEN=" + d.Token}
	var script string
	switch {
	case strings.Contains(block, "npm install"):
		ts := blocks(text, "ts")
		if len(ts) != 1 {
			t.Fatalf("docs/connect-api.md has %d TypeScript blocks, want the one program", len(ts))
		}
		if err := os.WriteFile(filepath.Join(app, "search-and-shop.ts"), []byte(ts[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		// The app's own tsconfig; @types/node from the client's dev tools.
		tsconfig := fmt.Sprintf(`{"compilerOptions": {"target": "ES2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": true,
  "typeRoots": [%q], "types": ["node"]}, "files": ["search-and-shop.ts"]}`, filepath.Join(root, "clients", "typescript", "node_modules", "@types"))
		if err := os.WriteFile(filepath.Join(app, "tsconfig.json"), []byte(tsconfig), 0o644); err != nil {
			t.Fatal(err)
		}
		// package.json must say "module" for nodenext to emit ESM.
		script = `node -e 'const f="package.json",p=JSON.parse(require("fs").readFileSync(f));p.type="module";require("fs").writeFileSync(f,JSON.stringify(p))' && ` +
			filepath.Join(root, "clients", "typescript", "node_modules", ".bin", "tsc") + ` -p . && node search-and-shop.js chili`
	case strings.Contains(block, "pip install"):
		py := blocks(text, "python")
		if len(py) != 1 {
			t.Fatalf("docs/connect-api.md has %d Python blocks, want the one program", len(py))
		}
		if err := os.WriteFile(filepath.Join(app, "search_and_shop.py"), []byte(py[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		script = ".venv/bin/python search_and_shop.py chili"
	default:
		t.Fatalf("a your-app block that installs neither client:\n%s", block)
	}
	out := runBlock(t, "the documented program", app, script, env...)
	if !strings.Contains(out, "found weeknight-chili: Weeknight Chili\n") || (!strings.Contains(out, "\nadded ") && !strings.Contains(out, "\nmerged ") && !strings.Contains(out, "\nalready on the list: weeknight-chili")) {
		t.Errorf("the documented program, installed as the page says, did not search and add:\n%s", out)
	}
}

// TestClientProgramsAreTheExamples checks the programs docs/connect-api.md
// shows are the examples `make test` runs, byte for byte.
func TestClientProgramsAreTheExamples(t *testing.T) {
	root := repoRoot(t)
	text := readFile(t, filepath.Join(root, "docs", "connect-api.md"))
	tests := []struct {
		lang, file string
	}{
		{"ts", "clients/typescript/example/search-and-shop.ts"},
		{"python", "clients/python/examples/search_and_shop.py"},
	}
	for _, tt := range tests {
		got := blocks(text, tt.lang)
		if len(got) != 1 || got[0] != readFile(t, filepath.Join(root, tt.file)) {
			t.Errorf("docs/connect-api.md's %s block is not %s: copy the file into the page", tt.lang, tt.file)
		}
	}
}

// benchCatalogRow finds the catalog rows of docs/benchmarks.md's results:
// configuration, tools, bytes, tokens, bytes per tool.
var benchCatalogRow = regexp.MustCompile(`(?m)^\| (all toolsets|read-only \(MEALIE_READ_ONLY\)) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|`)

// TestREADMEQuotesTheBenchmarkCatalog checks the README gives the catalog
// figure `make bench` last wrote, and no other.
func TestREADMEQuotesTheBenchmarkCatalog(t *testing.T) {
	root := repoRoot(t)
	rows := benchCatalogRow.FindAllStringSubmatch(readFile(t, filepath.Join(root, "docs", "benchmarks.md")), -1)
	if len(rows) != 2 {
		t.Fatalf("docs/benchmarks.md has %d catalog rows, want all toolsets and read-only", len(rows))
	}
	all, ro := rows[0], rows[1]
	want := fmt.Sprintf("%s tools, %s bytes, %s a tool (%s o200k tokens); read-only mode, %s tools, %s bytes.", all[2], all[3], all[5], all[4], ro[2], ro[3])
	readme := strings.Join(strings.Fields(readFile(t, filepath.Join(root, "README.md"))), " ")
	if !strings.Contains(readme, want) {
		t.Errorf("README.md does not quote make bench's catalog figure; want %q", want)
	}
	if figures := regexp.MustCompile(`\d+ (?:bytes )?a tool`).FindAllString(readme, -1); len(figures) != 1 {
		t.Errorf("README.md gives %d per-tool catalog figures %q; give only make bench's", len(figures), figures)
	}
}
