// Package clients_test runs the TypeScript and Python clients' examples
// (clients/typescript/example, clients/python/examples) against `sous demo`'s
// Connect API with a service token, the way another homelab app would call
// sous, and checks what they wrote through the Go client.
package clients_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
)

// Bounds: building sous or the examples, starting the demo, one example run.
const (
	buildTimeout = 5 * time.Minute
	startTimeout = time.Minute
	runTimeout   = 2 * time.Minute
)

// root is the repository root, two levels up from this package.
var root = func() string {
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return r
}()

// sousBin is the sous binary built once for the package's tests.
var sousBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sous-clients-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sousBin = filepath.Join(dir, "sous")
	build := exec.Command("go", "build", "-o", sousBin, "github.com/souskitchen/sous/cmd/sous")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building sous:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// need skips the test when a tool the Makefile installs is missing, except
// in CI, where .ci/run installs it and a skip would hide the examples.
func need(t *testing.T, path, install string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing in CI: %s", path, install)
		}
		t.Skipf("%s is missing: run %s", path, install)
	}
}

// demo is a running `sous demo`.
type demo struct {
	connectURL string
	token      string
}

var (
	connectLine = regexp.MustCompile(`Connect API:\s+(http://\S+)`)
	foodLine    = regexp.MustCompile(`Food API \(pantry\):\s+(\S+)`)
)

// startDemo runs `sous demo` on loopback ports the kernel picks, with a
// fresh service token, and stops it by its PID when the test ends.
func startDemo(t *testing.T) demo {
	t.Helper()
	need(t, filepath.Join(root, "integration", "foodapi", ".venv", "bin", "python"), "make -C integration/foodapi venv (the demo pantry)")
	b := make([]byte, 16)
	rand.Read(b)
	token := hex.EncodeToString(b)
	cmd := exec.Command(sousBin, "demo", "--addr", "127.0.0.1:0", "--connect-addr", "127.0.0.1:0")
	cmd.Dir = root // the demo finds the bundled food API from here
	cmd.Env = append(cleanEnv(), "SOUS_SERVICE_TOKEN="+token)
	cmd.Stderr = testWriter{t}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	banner := make(chan string, 1)
	go func() {
		var seen strings.Builder
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			seen.WriteString(sc.Text() + "\n")
			if strings.HasPrefix(sc.Text(), "Press Ctrl-C") {
				banner <- seen.String()
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case text := <-banner:
		m := connectLine.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("the demo banner names no Connect API:\n%s", text)
		}
		if f := foodLine.FindStringSubmatch(text); f == nil || !strings.HasPrefix(f[1], "http://") {
			t.Fatalf("the demo pantry is off, so the examples cannot skip what is in stock:\n%s", text)
		}
		return demo{connectURL: m[1], token: token}
	case <-time.After(startTimeout):
		t.Fatal("sous demo printed no banner")
	}
	return demo{}
}

// cleanEnv is this process's environment without sous's, Mealie's and the
// food API's variables, so a developer's settings do not leak in.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MEALIE_") || strings.HasPrefix(k, "SOUS_") || strings.HasPrefix(k, "FOOD_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// run runs a command in the repository with a bound, returning its exit
// code and output.
func run(t *testing.T, timeout time.Duration, env []string, name string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = root
	cmd.Env = append(cleanEnv(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %v did not finish in %s", name, args, timeout)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return code, stdout.String(), stderr.String()
}

// client is one language's example: how to build it and how to run it.
type client struct {
	name string
	// build prepares the example and returns the command that runs it
	// (program and arguments before the search query) and its environment.
	build func(t *testing.T) (argv, env []string)
	// unauthenticated is how the example names the code of a refused token.
	unauthenticated string
}

var clients = []client{
	{
		name: "typescript",
		// tsc type-checks the example against the generated .d.ts (strict)
		// and writes it to example/dist; the example imports the client by
		// its package name, through package.json's exports.
		build: func(t *testing.T) ([]string, []string) {
			dir := filepath.Join(root, "clients", "typescript")
			tsc := filepath.Join(dir, "node_modules", ".bin", "tsc")
			need(t, tsc, "make clients-tools")
			if code, out, errOut := run(t, buildTimeout, nil, tsc, "-p", dir); code != 0 {
				t.Fatalf("tsc: exit %d\n%s%s", code, out, errOut)
			}
			return []string{"node", filepath.Join(dir, "example", "dist", "search-and-shop.js")}, nil
		},
		unauthenticated: "Unauthenticated",
	},
	{
		name: "python",
		// The package is installed the way an app installs it (pip, from
		// clients/python's pyproject.toml) into a directory of its own, so
		// the example sees what an app would: the built package, not src/.
		build: func(t *testing.T) ([]string, []string) {
			dir := filepath.Join(root, "clients", "python")
			python := filepath.Join(dir, ".venv", "bin", "python")
			need(t, python, "make clients-tools")
			target := t.TempDir()
			code, out, errOut := run(t, buildTimeout, nil, python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
				"--no-deps", "--no-build-isolation", "--no-cache-dir", "--target", target, dir)
			if code != 0 {
				t.Fatalf("pip install clients/python: exit %d\n%s%s", code, out, errOut)
			}
			if _, err := os.Stat(filepath.Join(target, "sous", "py.typed")); err != nil {
				t.Errorf("the installed package has no py.typed marker: %v", err)
			}
			return []string{python, filepath.Join(dir, "examples", "search_and_shop.py")}, []string{"PYTHONPATH=" + target}
		},
		unauthenticated: "unauthenticated",
	},
}

// TestClientExamples runs each example as a user would: search, then add the
// first recipe's ingredients to the shopping list, then check that the list
// holds what the example says it added. A wrong token must be refused with
// the code named.
func TestClientExamples(t *testing.T) {
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			argv, env := c.build(t)
			d := startDemo(t)
			base := append(env, "SOUS_URL="+d.connectURL)

			tests := []struct {
				name     string
				token    string
				wantCode int
			}{
				{"service token", d.token, 0},
				{"wrong token", "not-" + d.token, 2},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					before := shoppingRows(t, d)
					code, out, errOut := run(t, runTimeout, append(slices.Clone(base), "SOUS_SERVICE_TOKEN="+tt.token), argv[0], append(argv[1:], "chili")...)
					if code != tt.wantCode {
						t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out, errOut)
					}
					if tt.wantCode != 0 {
						want := "sous refused (" + c.unauthenticated + "): a valid service token is required"
						if !strings.Contains(errOut, want) {
							t.Errorf("stderr %q lacks %q", errOut, want)
						}
						if after := shoppingRows(t, d); !slices.Equal(before, after) {
							t.Errorf("a refused example changed the list from %q to %q", before, after)
						}
						return
					}
					t.Logf("%s example:\n%s", c.name, out)
					checkShopping(t, before, shoppingRows(t, d), out)
				})
			}
		})
	}
}

// checkShopping compares the example's report with the shopping list as
// the Go client reads it before and after: every row the example says it
// added is a new row of the list.
func checkShopping(t *testing.T, before, after []string, out string) {
	t.Helper()
	if !strings.Contains(out, "found weeknight-chili: Weeknight Chili\n") {
		t.Errorf("the search found no Weeknight Chili:\n%s", out)
	}
	var added []string
	for _, line := range strings.Split(out, "\n") {
		if a, ok := strings.CutPrefix(line, "added "); ok {
			added = append(added, a)
		}
	}
	if len(added) == 0 {
		t.Fatalf("the example added no row to the list:\n%s", out)
	}
	for _, a := range added {
		if slices.Contains(before, a) || !slices.Contains(after, a) {
			t.Errorf("the example added %q; the list held %q before and %q after", a, before, after)
		}
	}
}

// shoppingRows reads the demo's one shopping list through the Go client and
// returns its unchecked rows as displayed.
func shoppingRows(t *testing.T, d demo) []string {
	t.Helper()
	mp := mealplanv1connect.NewMealPlanServiceClient(http.DefaultClient, d.connectURL)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	lists, err := mp.GetShoppingList(ctx, authed(&mealplanv1.GetShoppingListRequest{}, d.token))
	if err != nil || len(lists.Msg.GetItems()) != 1 {
		t.Fatalf("GetShoppingList: %v (want the demo's one list)", err)
	}
	list, err := mp.GetShoppingList(ctx, authed(&mealplanv1.GetShoppingListRequest{ListId: lists.Msg.GetItems()[0].GetId()}, d.token))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, g := range list.Msg.GetList().GetGroups() {
		for _, it := range g.GetItems() {
			rows = append(rows, it.GetDisplay())
		}
	}
	return rows
}

func authed[T any](msg *T, token string) *connect.Request[T] {
	req := connect.NewRequest(msg)
	req.Header().Set("Authorization", "Bearer "+token)
	return req
}
