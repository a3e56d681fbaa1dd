// The clients suite runs the TypeScript and Python clients' examples
// (clients/typescript/example, clients/python/examples) against `sous demo`'s
// Connect API with a service token, the way another homelab app would call
// sous, and checks what they wrote through the Go client.

package e2e

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/integration/harness/demotest"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
)

// Bounds: building an example, one example run.
const (
	buildTimeout = 5 * time.Minute
	runTimeout   = 2 * time.Minute
)

// clientsRoot is the repository root, two levels up from this package,
// where the clients' examples build and run.
var clientsRoot = func() string {
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return r
}()

// run runs a command in the repository with a bound, returning its exit
// code and output.
func run(t *testing.T, timeout time.Duration, env []string, name string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = clientsRoot
	cmd.Env = append(demotest.CleanEnv(), env...)
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
			dir := filepath.Join(clientsRoot, "clients", "typescript")
			tsc := filepath.Join(dir, "node_modules", ".bin", "tsc")
			demotest.Need(t, tsc, "make clients-tools")
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
			dir := filepath.Join(clientsRoot, "clients", "python")
			python := filepath.Join(dir, ".venv", "bin", "python")
			demotest.Need(t, python, "make clients-tools")
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
			d := demotest.Start(t, sousBin, clientsRoot)
			base := append(env, "SOUS_URL="+d.ConnectURL)

			tests := []struct {
				name     string
				token    string
				wantCode int
			}{
				{"service token", d.Token, 0},
				{"wrong token", "not-" + d.Token, 2},
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
func shoppingRows(t *testing.T, d demotest.Demo) []string {
	t.Helper()
	mp := mealplanv1connect.NewMealPlanServiceClient(http.DefaultClient, d.ConnectURL)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	lists, err := mp.GetShoppingList(ctx, authed(&mealplanv1.GetShoppingListRequest{}, d.Token))
	if err != nil || len(lists.Msg.GetItems()) != 1 {
		t.Fatalf("GetShoppingList: %v (want the demo's one list)", err)
	}
	list, err := mp.GetShoppingList(ctx, authed(&mealplanv1.GetShoppingListRequest{ListId: lists.Msg.GetItems()[0].GetId()}, d.Token))
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
