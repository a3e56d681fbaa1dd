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
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/proto"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"

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
	if len(all) != 37 {
		t.Errorf("catalog has %d tools, want 37 (mcp-mealie's 25, the pantry spec's 7, 4 shopping, mark_recipe_made)", len(all))
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

func TestSelect(t *testing.T) {
	b := allBackends()
	tests := []struct {
		name    string
		b       Backends
		opts    Options
		want    []string // exact set, or nil to check only count
		count   int
		wantErr string
	}{
		{name: "read-only mode", b: b, opts: Options{ReadOnly: true, ImageDir: "/x"}, want: wantReadOnly},
		{name: "all", b: b, opts: fullOpts, count: 37},
		{name: "no image dir leaves upload out", b: b, count: 36},
		{name: "shopping alone", b: b, opts: Options{Toolsets: []string{"shopping"}}, want: []string{"add_to_shopping_list", "get_shopping_list", "manage_shopping_lists", "update_shopping_items"}},
		{name: "pantry alone", b: b, opts: Options{Toolsets: []string{" Pantry "}}, want: []string{"add_to_pantry", "create_meta_recipe", "get_meta_recipes", "get_pantry", "log_cook", "set_item_state", "what_can_i_cook"}},
		{name: "mealplan alone", b: b, opts: Options{Toolsets: []string{"mealplan"}}, want: []string{"add_meal_plan_entry", "delete_meal_plan_entry", "get_meal_plan", "get_todays_meals", "random_meal_plan"}},
		{name: "library alone", b: b, opts: Options{Toolsets: []string{"library"}}, count: 8},
		{name: "recipes alone", b: b, opts: Options{Toolsets: []string{"recipes"}}, count: 12},
		{name: "a missing backend turns its tools off", b: Backends{Pantry: b.Pantry}, want: []string{"add_to_pantry", "create_meta_recipe", "get_meta_recipes", "get_pantry", "log_cook", "set_item_state", "what_can_i_cook"}},
		{name: "unknown toolset", b: b, opts: Options{Toolsets: []string{"desserts"}}, wantErr: `unknown toolset "desserts"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Select(tt.b, tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range got {
				names = append(names, tool.Def.Name)
				if tt.opts.ReadOnly && !tool.ReadOnly() {
					t.Errorf("%s registered in read-only mode", tool.Def.Name)
				}
			}
			slices.Sort(names)
			if tt.want != nil && !slices.Equal(names, tt.want) {
				t.Errorf("tools = %v\nwant   %v", names, tt.want)
			}
			if tt.count != 0 && len(names) != tt.count {
				t.Errorf("%d tools, want %d: %v", len(names), tt.count, names)
			}
		})
	}
}

func TestNoToolsIsAnError(t *testing.T) {
	if _, err := NewServer(Backends{}, Options{}); err == nil {
		t.Fatal("a server with no tools was built")
	}
}

func TestReadOnlyMode(t *testing.T) {
	f := newFakes(t)
	cs := session(t, f.backends, Options{ReadOnly: true}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(res.Tools); !slices.Equal(got, wantReadOnly) {
		t.Errorf("read-only tools = %v", got)
	}
	for _, tool := range res.Tools {
		if tool.Name != "manage_taxonomy" {
			continue
		}
		if tool.Description != manageTaxonomyReadOnlyDesc || !tool.Annotations.ReadOnlyHint {
			t.Errorf("manage_taxonomy is not the list-only variant: %q", tool.Description)
		}
	}
	// A write, hidden or restricted, answers the read-only sentence and
	// reaches no service.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"delete_recipe", map[string]any{"slug": "a", "confirm_slug": "a"}},
		{"set_item_state", map[string]any{"ingredient": "eggs", "state": "out"}},
		{"add_to_shopping_list", map[string]any{"items": []string{"milk"}}},
		{"manage_taxonomy", map[string]any{"resource": "tags", "action": "delete", "item_id": "t"}},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || text != ReadOnlyMessage {
			t.Errorf("%s in read-only mode: isError=%v %q", c.tool, isErr, text)
		}
	}
	if n := f.recipes.calls() + f.mealplan.calls() + f.pantry.calls(); n != 0 {
		t.Errorf("read-only mode let %d calls through to the services", n)
	}
	// Listing still works.
	if _, isErr := call(t, cs, "manage_taxonomy", map[string]any{"resource": "tags"}); isErr {
		t.Error("manage_taxonomy list refused in read-only mode")
	}
}

// TestOutsideToolsets: a tool the enabled toolsets leave out answers with
// its toolset and the setting that enables it, not the read-only sentence,
// in read-only mode or not; a write of an enabled toolset in read-only mode
// still answers ReadOnlyMessage. No call reaches a service.
func TestOutsideToolsets(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
		tool string
		args map[string]any
		want string
	}{
		{"read tool", Options{Toolsets: []string{"recipes"}}, "get_meal_plan", map[string]any{"start_date": "2026-01-01", "end_date": "2026-01-02"},
			"get_meal_plan is in the mealplan toolset, which this server does not enable (SOUS_TOOLSETS=recipes): add mealplan to SOUS_TOOLSETS to use it"},
		{"write tool", Options{Toolsets: []string{"recipes", "library"}}, "set_item_state", map[string]any{"ingredient": "eggs", "state": "out"},
			"set_item_state is in the pantry toolset, which this server does not enable (SOUS_TOOLSETS=recipes,library): add pantry to SOUS_TOOLSETS to use it"},
		{"write tool, read-only", Options{Toolsets: []string{"recipes"}, ReadOnly: true}, "add_meal_plan_entry", map[string]any{"date": "2026-01-01", "title": "Eat out"},
			"add_meal_plan_entry is in the mealplan toolset, which this server does not enable (SOUS_TOOLSETS=recipes): add mealplan to SOUS_TOOLSETS to use it"},
		{"enabled write, read-only", Options{Toolsets: []string{"recipes"}, ReadOnly: true}, "delete_recipe", map[string]any{"slug": "a", "confirm_slug": "a"},
			ReadOnlyMessage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakes(t)
			cs := session(t, f.backends, tt.opts, nil)
			text, isErr := call(t, cs, tt.tool, tt.args)
			if !isErr || text != tt.want {
				t.Errorf("isError=%v %q, want %q", isErr, text, tt.want)
			}
			if n := f.recipes.calls() + f.mealplan.calls() + f.pantry.calls(); n != 0 {
				t.Errorf("%d calls reached the services", n)
			}
		})
	}
}

func TestReportProgress(t *testing.T) {
	f := newFakes(t)
	f.library.streams["LibraryStats"] = []proto.Message{
		statsProgress(0, 3, "reading recipes"), statsProgress(2, 3, ""), statsProgress(3, 3, ""),
		&libraryv1.LibraryStatsResponse{Event: &libraryv1.LibraryStatsResponse_Result{Result: &libraryv1.LibraryStatsResult{Scanned: 3, LibraryTotal: 3}}},
	}
	var mu sync.Mutex
	var got []float64
	cs := session(t, f.backends, Options{}, func(r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		if r.Params.ProgressToken != "tok-1" || r.Params.Total != 3 {
			t.Errorf("progress %+v", r.Params)
		}
		got = append(got, r.Params.Progress)
	})
	p := &mcp.CallToolParams{Name: "library_stats", Arguments: map[string]any{"resource": "tags"}}
	p.SetProgressToken("tok-1")
	if text, isErr := callParams(t, cs, p); isErr {
		t.Fatal(text)
	}
	// Notifications may trail the result on the in-memory transport.
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got, []float64{0, 2, 3}) {
		t.Errorf("progress = %v, want [0 2 3]", got)
	}
}

func statsProgress(scanned, total int32, msg string) *libraryv1.LibraryStatsResponse {
	return &libraryv1.LibraryStatsResponse{Event: &libraryv1.LibraryStatsResponse_Progress{Progress: &libraryv1.ReportProgress{Scanned: scanned, Total: total, Message: msg}}}
}

func TestNullArgumentsDoNotCrash(t *testing.T) {
	f := newFakes(t)
	cs := session(t, f.backends, Options{}, nil)
	// A JSON null for arguments once panicked go-sdk's default filling.
	if _, isErr := callParams(t, cs, &mcp.CallToolParams{Name: "get_pantry", Arguments: json.RawMessage("null")}); isErr {
		t.Error("get_pantry with null arguments failed")
	}
}

// TestStrictArguments checks that the published schema is enforced: an
// undeclared parameter, at the top or inside an object, and a date that is
// not YYYY-MM-DD are tool errors naming the parameter, and reach no
// service.
func TestStrictArguments(t *testing.T) {
	f := newFakes(t)
	cs := session(t, f.backends, fullOpts, nil)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"get_pantry", map[string]any{"made_up_param": 1}, "made_up_param"},
		{"get_meal_plan", map[string]any{"start_date": "12/01/2026", "end_date": "2026-12-02"}, "start_date"},
		{"add_to_shopping_list", map[string]any{"meal_plan_range": map[string]any{"start_date": "2026-12-01", "end_date": "2026-12-02", "days": 3}}, "days"},
		{"create_recipe", map[string]any{"name": "Toast", "ingredients": []any{map[string]any{"food": "bread", "colour": "brown"}}}, "ingredients"},
		{"update_recipe", map[string]any{"slug": "toast", "replace_tags": "yes please"}, "replace_tags"},
		{"update_recipe", map[string]any{"slug": "toast", "replace": []any{"tags"}}, "replace_tags"},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: isError=%v %q, want a refusal naming %q", c.tool, c.args, isErr, text, c.want)
		}
	}
	if n := f.recipes.calls() + f.mealplan.calls() + f.pantry.calls(); n != 0 {
		t.Errorf("%d malformed calls reached the services", n)
	}
}

// TestAdvertisedSchemaSaysWhatIsEnforced pins what tools/list shows of
// the checks: every object that refuses unknown arguments says
// additionalProperties false, a tool without parameters lists empty
// properties, a date is described as YYYY-MM-DD (format date, no regular
// expression), and no internal mark leaks.
func TestAdvertisedSchemaSaysWhatIsEnforced(t *testing.T) {
	var walk func(tool, path string, s map[string]any)
	walk = func(tool, path string, s map[string]any) {
		if s["type"] == "object" && s["additionalProperties"] != false {
			t.Errorf("%s %s: an object without additionalProperties false", tool, path)
		}
		if s["format"] == "date" && !strings.Contains(fmt.Sprint(s["description"]), "YYYY-MM-DD") && path != "meal_plan_range.start_date" && path != "meal_plan_range.end_date" {
			t.Errorf("%s %s: a date whose description does not say YYYY-MM-DD", tool, path)
		}
		for k := range s {
			if k == "pattern" || strings.HasPrefix(k, "x-") {
				t.Errorf("%s %s shows %s", tool, path, k)
			}
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for k, v := range props {
				walk(tool, strings.TrimPrefix(path+"."+k, "."), v.(map[string]any))
			}
		}
		if it, ok := s["items"].(map[string]any); ok {
			walk(tool, path+"[]", it)
		}
		if alts, ok := s["anyOf"].([]any); ok {
			for _, a := range alts {
				walk(tool, path, a.(map[string]any))
			}
		}
	}
	for _, tool := range listTools(t, allBackends(), fullOpts) {
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		if _, ok := s["properties"]; !ok {
			t.Errorf("%s lists no properties: %s", tool.Name, raw)
		}
		walk(tool.Name, "", s)
	}
}
