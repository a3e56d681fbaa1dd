// The layering suite holds sous to its one direction of dependency: the
// MCP front reaches the services only through their Connect clients, a
// service reaches no other service except through Connect (the shared
// Mealie client in services/internal is the one package they share),
// services are built only by the binaries, from one service table
// (cmd/internal/stack),
// mcpfront's argument checker (mcpfront/internal/toolschema) imports
// nothing of sous, and product code links no test machinery, so what
// ships is what runs.
//
// It reads the import graph of every module in go.work with `go list -deps
// -json`, so a new package is held to the rules without being named here.

package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the import path every sous package starts with.
const module = "github.com/souskitchen/sous"

// toolschema is the package of mcpfront's tool input schemas and their
// argument checker (mcpfront/internal/toolschema).
const toolschema = module + "/mcpfront/internal/toolschema"

// pkg is the part of `go list -json` the rules read.
type pkg struct {
	ImportPath string
	// Imports are the direct imports of the package's non-test files;
	// Deps are all packages those reach.
	Imports []string
	Deps    []string
}

// testMachinery are packages (or path prefixes, ending in "/") that exist
// only to run tests; no product package may link one.
var testMachinery = []string{
	"testing",
	"testing/",
	"net/http/httptest",
	module + "/internal/mealieemu/mealietest",
	module + "/mcpfront/oauth/oauthtest",
	module + "/integration/",
	"github.com/testcontainers/",
	"go.uber.org/goleak",
	"github.com/stretchr/testify/",
}

// testHelpers are sous packages that are test machinery themselves: the
// harness and suites under integration/ and the emulator's NewServer(t).
var testHelpers = []string{
	module + "/integration",
	module + "/integration/",
	module + "/internal/mealieemu/mealietest",
}

// matches reports whether path is one of the entries, an entry ending in
// "/" matching every path under it.
func matches(path string, entries []string) bool {
	for _, e := range entries {
		if path == e || (strings.HasSuffix(e, "/") && strings.HasPrefix(path, e)) {
			return true
		}
	}
	return false
}

// service returns the service a package belongs to ("recipes" for
// services/recipes/internal/x), "" when it is not under services/.
func service(path string) string {
	rest, ok := strings.CutPrefix(path, module+"/services/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// rule is one layering rule: it returns why the importer may not import
// dep, or "" when it may. direct says whether dep is a direct import (the
// service rules are about direct imports; test machinery may not be linked
// at all).
type rule struct {
	name  string
	check func(importer, dep string, direct bool) string
}

var rules = []rule{
	{"mcpfront imports no service package", func(importer, dep string, direct bool) string {
		if !direct || !strings.HasPrefix(importer, module+"/mcpfront") || service(dep) == "" {
			return ""
		}
		return "mcpfront talks to the services only through their Connect clients in proto/gen"
	}},
	{"a service imports no other service", func(importer, dep string, direct bool) string {
		from, to := service(importer), service(dep)
		if !direct || from == "" || to == "" || from == to || to == "internal" {
			return ""
		}
		return "services call each other through Connect clients; only services/internal is shared"
	}},
	{"only the binaries wire services", func(importer, dep string, direct bool) string {
		to := service(dep)
		if !direct || to == "" || to == "internal" || service(importer) != "" ||
			strings.HasPrefix(importer, module+"/cmd/") || matches(importer, testHelpers) {
			return ""
		}
		// The service table (cmd/internal/stack) is where a service is
		// built; a shared package that built one would be a second table.
		return "services are built only under cmd/, from the service table"
	}},
	{"mcpfront's schema checker imports nothing of sous", func(importer, dep string, direct bool) string {
		if !strings.HasPrefix(importer, toolschema) || !strings.HasPrefix(dep, module+"/") {
			return ""
		}
		// The tools pass their limits in as values (proto/limits stays
		// on their side), so the checker can be read and tested as JSON
		// Schema alone, and no tool or Connect client leaks into it.
		return "the argument checker stands alone: the tools import it, never the reverse"
	}},
	{"product code links no test machinery", func(importer, dep string, direct bool) string {
		if matches(importer, testHelpers) || !matches(dep, testMachinery) {
			return ""
		}
		if direct {
			return "product code imports test machinery"
		}
		return "product code links test machinery through its dependencies"
	}},
}

// violations applies every rule to every sous package of pkgs.
func violations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		if !strings.HasPrefix(p.ImportPath, module+"/") && p.ImportPath != module {
			continue
		}
		for _, r := range rules {
			for _, dep := range p.Deps {
				if why := r.check(p.ImportPath, dep, slices.Contains(p.Imports, dep)); why != "" {
					out = append(out, fmt.Sprintf("%s: %s depends on %s (%s)", r.name, p.ImportPath, dep, why))
				}
			}
		}
	}
	return out
}

// TestRules checks each rule against import graphs made up for it, so that
// a rule that cannot fail shows here.
func TestRules(t *testing.T) {
	const (
		recipes  = module + "/services/recipes"
		pantry   = module + "/services/pantry"
		shared   = module + "/services/internal/mealie"
		front    = module + "/mcpfront"
		gen      = module + "/proto/gen/sous/recipes/v1/recipesv1connect"
		emulator = module + "/internal/mealieemu"
		helper   = module + "/internal/mealieemu/mealietest"
		harness  = module + "/integration/harness"
		sous     = module + "/cmd/sous"
		table    = module + "/cmd/internal/stack"
	)
	cases := []struct {
		name    string
		pkg     pkg
		wantBad bool
	}{
		{"mcpfront over a Connect client", pkg{ImportPath: front, Imports: []string{gen}}, false},
		{"mcpfront importing a service", pkg{ImportPath: front, Imports: []string{recipes}}, true},
		{"mcpfront's command importing a service", pkg{ImportPath: front + "/cmd/mcpfront", Imports: []string{pantry}}, true},
		{"a service importing its own subpackage", pkg{ImportPath: recipes, Imports: []string{recipes + "/internal/x"}}, false},
		{"a service importing the shared Mealie client", pkg{ImportPath: recipes, Imports: []string{shared}}, false},
		{"a service importing another service", pkg{ImportPath: recipes, Imports: []string{pantry}}, true},
		{"a service linking another only through a third package", pkg{ImportPath: recipes, Imports: []string{gen}, Deps: []string{pantry}}, false},
		{"the sous binary wiring the services", pkg{ImportPath: sous, Imports: []string{recipes, pantry, front}}, false},
		{"the service table wiring the services", pkg{ImportPath: table, Imports: []string{recipes, pantry, front}}, false},
		{"a service binary over the service table", pkg{ImportPath: module + "/cmd/recipes", Imports: []string{table}}, false},
		{"a shared package building a service", pkg{ImportPath: module + "/internal/serve", Imports: []string{recipes}}, true},
		{"a shared package on the services' Mealie client", pkg{ImportPath: module + "/internal/serve", Imports: []string{shared}}, false},
		{"the sous binary running the emulator", pkg{ImportPath: sous, Imports: []string{emulator}}, false},
		{"the schema checker on the standard library and jsonschema", pkg{ImportPath: toolschema, Imports: []string{"regexp", "github.com/google/jsonschema-go/jsonschema"}}, false},
		{"the schema checker importing the tools", pkg{ImportPath: toolschema, Imports: []string{front}}, true},
		{"the schema checker importing a Connect client", pkg{ImportPath: toolschema, Imports: []string{gen}}, true},
		{"the schema checker linking proto/limits through a dependency", pkg{ImportPath: toolschema, Imports: []string{"regexp"}, Deps: []string{module + "/proto/limits"}}, true},
		{"mcpfront importing the schema checker", pkg{ImportPath: front, Imports: []string{toolschema}}, false},
		{"product code importing testing", pkg{ImportPath: emulator, Imports: []string{"testing"}}, true},
		{"product code importing httptest", pkg{ImportPath: front, Imports: []string{"net/http/httptest"}}, true},
		{"product code importing the emulator's test helper", pkg{ImportPath: sous, Imports: []string{helper}}, true},
		{"product code linking testing through a dependency", pkg{ImportPath: sous, Imports: []string{emulator}, Deps: []string{"testing"}}, true},
		{"product code importing testcontainers", pkg{ImportPath: sous, Imports: []string{"github.com/testcontainers/testcontainers-go"}}, true},
		{"product code importing the integration harness", pkg{ImportPath: sous, Imports: []string{harness}}, true},
		{"the emulator's test helper importing testing", pkg{ImportPath: helper, Imports: []string{"testing", emulator}}, false},
		{"the integration harness importing httptest", pkg{ImportPath: harness, Imports: []string{"net/http/httptest", helper}}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.pkg
			p.Deps = append(slices.Clone(p.Deps), p.Imports...)
			got := violations([]pkg{p})
			if bad := len(got) > 0; bad != tc.wantBad {
				t.Errorf("violations = %q, want a violation: %v", got, tc.wantBad)
			}
		})
	}
}

// TestLayering applies the rules to every package of every module in
// go.work, as built (test files are not part of the graph `go list -deps`
// reads, so tests may use whatever they need).
func TestLayering(t *testing.T) {
	pkgs := listPackages(t)
	var sousPkgs int
	for _, p := range pkgs {
		if strings.HasPrefix(p.ImportPath, module+"/") {
			sousPkgs++
		}
	}
	// A graph without the services, mcpfront and the sous binary would
	// pass every rule; make sure the workspace was read.
	for _, want := range []string{module + "/cmd/sous", module + "/cmd/internal/stack", module + "/mcpfront", module + "/services/recipes", module + "/internal/mealieemu", toolschema} {
		if !slices.ContainsFunc(pkgs, func(p pkg) bool { return p.ImportPath == want }) {
			t.Fatalf("go list did not list %s; is go.work in use?", want)
		}
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
	t.Logf("%d sous packages checked", sousPkgs)
}

// listPackages runs `go list -deps -json` over every module of the
// workspace at the repository root.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports,Deps", module+"/...")
	cmd.Dir = root
	// The rules are about the whole workspace, even when the test runs
	// with GOWORK=off inside the integration module.
	cmd.Env = append(os.Environ(), "GOWORK="+filepath.Join(root, "go.work"), "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}
