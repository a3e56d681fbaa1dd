package mcpfront

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// allBackends are clients of nothing: the catalog tests list tools and never
// call them.
func allBackends() Backends {
	const nowhere = "http://127.0.0.1:1"
	hc := http.DefaultClient
	return Backends{
		Recipes:  recipesv1connect.NewRecipesServiceClient(hc, nowhere),
		MealPlan: mealplanv1connect.NewMealPlanServiceClient(hc, nowhere),
		Library:  libraryv1connect.NewLibraryServiceClient(hc, nowhere),
		Pantry:   pantryv1connect.NewPantryServiceClient(hc, nowhere),
	}
}

// listTools returns what tools/list shows a client, as the client receives
// it.
func listTools(t *testing.T, b Backends, opts Options) []*mcp.Tool {
	t.Helper()
	cs := session(t, b, opts, nil)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

func toolNames(tools []*mcp.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	slices.Sort(out)
	return out
}

var fullOpts = Options{ImageDir: "/images"}

// TestToolSnapshots pins what a model sees of every tool (name, title,
// description, input schema, annotations) in testdata/toolsnaps, one file
// per tool, so every change is a reviewed diff. UPDATE_TOOLSNAPS=true
// rewrites them.
func TestToolSnapshots(t *testing.T) {
	update := os.Getenv("UPDATE_TOOLSNAPS") == "true"
	dir := filepath.Join("testdata", "toolsnaps")
	snaps := map[string]*mcp.Tool{}
	for _, tool := range listTools(t, allBackends(), fullOpts) {
		snaps[tool.Name] = tool
	}
	for _, tool := range listTools(t, allBackends(), Options{ReadOnly: true}) {
		if tool.Name == "manage_taxonomy" {
			snaps["manage_taxonomy.read_only"] = tool
		}
	}
	if update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, tool := range snaps {
		got, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join(dir, name+".json")
		if update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no snapshot (run with UPDATE_TOOLSNAPS=true): %v", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: tool changed from its snapshot %s (run with UPDATE_TOOLSNAPS=true and review the diff):\n%s", name, path, got)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if !update && len(files) != len(snaps) {
		t.Errorf("%d snapshot files for %d tools: remove stale ones with UPDATE_TOOLSNAPS=true", len(files), len(snaps))
	}
}

// catalogSize measures the tools/list answer a client receives, compact.
func catalogSize(t *testing.T, opts Options) (tools, bytes int) {
	list := listTools(t, allBackends(), opts)
	raw, err := json.Marshal(map[string]any{"tools": list})
	if err != nil {
		t.Fatal(err)
	}
	return len(list), len(raw)
}

// maxBytesPerTool is the catalog's size budget: the average bytes of one
// tool in the whole tools/list answer. Every session pays for the whole
// catalog before its first call. The line is mcp-mealie 0.3.1's own cost:
// run against the same Mealie it lists 25 tools in 20,622 bytes, 825 a
// tool (docs/benchmarks.md, figure 1), so sous keeps those tools' names and
// parameter names and still costs no more a tool. It is a few bytes a tool
// less here because the list re-encoded by this test comes out slightly
// smaller than the answer as sous sends it, which is what the benchmark
// measures.
const maxBytesPerTool = 820

// TestCatalogBudget fails when the catalog grows past maxBytesPerTool on
// average, with every toolset on and in read-only mode, and shows the
// largest tools so the trim starts where it pays.
func TestCatalogBudget(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
	}{{"all toolsets", fullOpts}, {"read-only", Options{ReadOnly: true}}} {
		list := listTools(t, allBackends(), c.opts)
		// The whole tools/list answer as it crosses the wire, JSON-RPC
		// envelope included: the figure docs/benchmarks.md publishes.
		raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{"tools": list}})
		if err != nil {
			t.Fatal(err)
		}
		avg := len(raw) / len(list)
		t.Logf("%s: %d tools, %d bytes, %d bytes a tool", c.name, len(list), len(raw), avg)
		if len(raw) <= maxBytesPerTool*len(list) {
			continue
		}
		sizes := map[string]int{}
		for _, tool := range list {
			b, _ := json.Marshal(tool)
			sizes[tool.Name] = len(b)
		}
		names := slices.SortedFunc(maps.Keys(sizes), func(a, b string) int { return sizes[b] - sizes[a] })
		var top []string
		for _, n := range names[:min(5, len(names))] {
			top = append(top, fmt.Sprintf("%s %d", n, sizes[n]))
		}
		t.Errorf("%s: %d bytes for %d tools is %d a tool, over the budget of %d (largest: %s)",
			c.name, len(raw), len(list), avg, maxBytesPerTool, strings.Join(top, ", "))
	}
}

// bytesPerToken is the rough rule for English and JSON in current
// tokenizers; the pinned size line states it with the figure.
const bytesPerToken = 4

// catalogSizeFile pins the catalog's size as this package measures it (the
// tools/list result without the JSON-RPC envelope), so a change in what the
// catalog costs is a reviewed diff. The README quotes `make bench`'s figure
// instead (docs/benchmarks.md), which counts the answer as sent.
var catalogSizeFile = filepath.Join("testdata", "catalog-size.txt")

// TestCatalogSize keeps testdata/catalog-size.txt equal to the catalog's
// size (UPDATE_TOOLSNAPS=true rewrites it).
func TestCatalogSize(t *testing.T) {
	n, size := catalogSize(t, fullOpts)
	rn, rsize := catalogSize(t, Options{ReadOnly: true})
	line := fmt.Sprintf("Measured size: all %d tools, %d bytes of `tools/list` JSON, %d a tool (about %d tokens at %d bytes a token); read-only mode, %d tools, %d bytes (about %d tokens).\n",
		n, size, size/n, size/bytesPerToken, bytesPerToken, rn, rsize, rsize/bytesPerToken)
	if os.Getenv("UPDATE_TOOLSNAPS") == "true" {
		if err := os.WriteFile(catalogSizeFile, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	cur, err := os.ReadFile(catalogSizeFile)
	if err != nil {
		t.Fatalf("%v (UPDATE_TOOLSNAPS=true go test ./mcpfront writes it)", err)
	}
	if string(cur) != line {
		t.Errorf("%s says\n  %s\nthe catalog measures\n  %s(UPDATE_TOOLSNAPS=true rewrites it)", catalogSizeFile, cur, line)
	}
}

// mcp-mealie's twelve read tools plus the read tools of pantry and shopping:
// what docs/tools.md lists as kept in read-only mode.
var wantReadOnly = []string{
	"check_recipe_links", "find_duplicate_recipes", "get_cookbook_recipes", "get_meal_plan", "get_meta_recipes", "get_pantry",
	"get_recipe", "get_shopping_list", "get_todays_meals", "library_stats", "list_cookbooks", "manage_taxonomy",
	"parse_ingredients", "search_recipes", "suggest_recipes", "what_can_i_cook",
}

func TestCatalogInventory(t *testing.T) {
	all := catalog()
	if len(all) != 38 {
		t.Errorf("catalog has %d tools, want 38 (mcp-mealie's 25, the pantry spec's 7, 4 shopping, mark_recipe_made, update_meal_plan_entry)", len(all))
	}
	seen := map[string]bool{}
	for _, tool := range all {
		name := tool.Def.Name
		if seen[name] {
			t.Errorf("%s declared twice", name)
		}
		seen[name] = true
		a := tool.Def.Annotations
		if a == nil {
			t.Errorf("%s: no annotations", name)
			continue
		}
		if a.OpenWorldHint == nil {
			t.Errorf("%s: openWorldHint unset (MCP reads unset as true)", name)
		}
		if !a.ReadOnlyHint && a.DestructiveHint == nil {
			t.Errorf("%s: a write with destructiveHint unset (MCP reads unset as true)", name)
		}
		if strings.HasPrefix(name, "delete_") && (a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint) {
			t.Errorf("%s: a delete must be annotated destructive", name)
		}
		if strings.HasPrefix(name, "get_") || strings.HasPrefix(name, "list_") {
			if !a.ReadOnlyHint {
				t.Errorf("%s: a get or list must be read-only", name)
			}
		}
		if !slices.Contains(Toolsets, tool.Toolset) {
			t.Errorf("%s: unknown toolset %q", name, tool.Toolset)
		}
		if !strings.HasPrefix(tool.Def.Description, "Call ") {
			t.Errorf("%s: the description does not say when to call it", name)
		}
	}
}
