package library

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/names"
)

func TestNameKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Pad Thai", "pad thai"},
		{"pad thai!", "pad thai"},
		{"Pad  Thaï", "pad thai"},
		{"  Crème Brûlée ", "creme brulee"},
		{"Mac & Cheese", "mac cheese"},
		{"Mac-and-Cheese", "mac and cheese"},
		{"!!!", ""},
		{"Chili 2", "chili 2"},
		{"Pad Thai (1)", "pad thai"},
		{"pad thai! (12) ", "pad thai"},
		{"(3)", "3"},
		{"Soup (for 2)", "soup for 2"},
	} {
		if got := nameKey(tc.in); got != tc.want {
			t.Errorf("nameKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// collect reads a report stream, checking that progress comes first (with
// its total) and the result last.
func collect[T any, R any](t *testing.T, s *connect.ServerStreamForClient[T], result func(*T) *R, progress func(*T) *libraryv1.ReportProgress) (*R, []*libraryv1.ReportProgress) {
	t.Helper()
	var res *R
	var prog []*libraryv1.ReportProgress
	for s.Receive() {
		if res != nil {
			t.Fatal("a message after the result")
		}
		if p := progress(s.Msg()); p != nil {
			prog = append(prog, p)
			continue
		}
		res = result(s.Msg())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if res == nil {
		t.Fatal("no result")
	}
	if len(prog) == 0 {
		t.Fatal("no progress before the result")
	}
	return res, prog
}

func duplicates(t *testing.T, h *harness, max int32) *libraryv1.FindDuplicateRecipesResult {
	t.Helper()
	s, err := h.client.FindDuplicateRecipes(context.Background(), connect.NewRequest(&libraryv1.FindDuplicateRecipesRequest{MaxRecipes: max}))
	if err != nil {
		t.Fatal(err)
	}
	res, _ := collect(t, s, (*libraryv1.FindDuplicateRecipesResponse).GetResult, (*libraryv1.FindDuplicateRecipesResponse).GetProgress)
	return res
}

func TestFindDuplicateRecipes(t *testing.T) {
	h := newHarness(t, nil)
	for _, r := range [][2]string{
		{"pad-thai", "Pad Thai"}, {"pad-thai-1", "pad thai!"}, {"pad-thai-2", "Pad  Thaï"},
		{"green-curry", "Green Curry"}, {"pancakes", "Pancakes"}, {"pancakes-1", "PANCAKES"},
	} {
		h.addRecipe(&recipesv1.Recipe{Slug: r[0], Name: r[1]})
	}
	res := duplicates(t, h, 0)
	if len(res.Items) != 2 {
		t.Fatalf("groups = %v", res.Items)
	}
	pad := res.Items[0]
	if pad.Key != "pad thai" || pad.Reason == "" {
		t.Errorf("group = %v", pad)
	}
	var slugs []string
	for _, r := range pad.Recipes {
		slugs = append(slugs, r.Slug)
	}
	if !slices.Equal(slugs, []string{"pad-thai", "pad-thai-1", "pad-thai-2"}) {
		t.Errorf("slugs = %v", slugs)
	}
	if res.Truncated != "" || res.Scanned != 6 || res.LibraryTotal != 6 {
		t.Errorf("scanned %d of %d, truncated %q", res.Scanned, res.LibraryTotal, res.Truncated)
	}

	cut := duplicates(t, h, 4)
	if cut.Truncated != "scanned 4 of 6 — raise max_recipes" {
		t.Errorf("truncated = %q", cut.Truncated)
	}
	if len(cut.Items) != 1 {
		t.Errorf("groups in the first 4 = %v", cut.Items)
	}
}

func stats(t *testing.T, h *harness, req *libraryv1.LibraryStatsRequest) (*libraryv1.LibraryStatsResult, []*libraryv1.ReportProgress) {
	t.Helper()
	s, err := h.client.LibraryStats(context.Background(), connect.NewRequest(req))
	if err != nil {
		t.Fatal(err)
	}
	return collect(t, s, (*libraryv1.LibraryStatsResponse).GetResult, (*libraryv1.LibraryStatsResponse).GetProgress)
}

func TestLibraryStatsTags(t *testing.T) {
	h := newHarness(t, nil)
	h.mealie.taxonomy[kindTags.path] = []taxonomyItem{{ID: "t1", Name: "Quick & Easy"}, {ID: "t2", Name: "Breakfast"}, {ID: "t3", Name: "Holiday"}}
	h.addRecipe(&recipesv1.Recipe{Slug: "a", Name: "A", Tags: []string{"Breakfast", "Quick & Easy"}})
	h.addRecipe(&recipesv1.Recipe{Slug: "b", Name: "B", Tags: []string{"Breakfast"}})
	h.addRecipe(&recipesv1.Recipe{Slug: "c", Name: "C"})
	h.recipes.failures = map[string]bool{"c": true}

	res, prog := stats(t, h, &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_TAGS})
	if prog[0].Total != 3 {
		t.Errorf("first progress = %v", prog[0])
	}
	want := []string{"Breakfast:t2:2", "Quick & Easy:t1:1"}
	var got []string
	for _, it := range res.Items {
		got = append(got, fmt.Sprintf("%s:%s:%d", it.Name, it.Id, it.RecipeCount))
	}
	if !slices.Equal(got, want) {
		t.Errorf("items = %v, want %v", got, want)
	}
	// C could not be read, so it is not scanned, and Holiday is not
	// called unused: C may carry it.
	if len(res.Unused) != 0 || res.Truncated != "unused tags not listed: the unreadable recipes may use them" {
		t.Errorf("unused = %v, truncated = %q", res.Unused, res.Truncated)
	}
	if res.Scanned != 2 || res.LibraryTotal != 3 {
		t.Errorf("scanned %d of %d", res.Scanned, res.LibraryTotal)
	}
	if len(res.Unreadable) != 1 || res.Unreadable[0].Slug != "c" {
		t.Errorf("unreadable = %v", res.Unreadable)
	}
	if !strings.HasPrefix(res.Method, "summary sweep") {
		t.Errorf("method = %q", res.Method)
	}

	top, _ := stats(t, h, &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_TAGS, Top: 1, MaxRecipes: 2, IncludeUnused: new(false)})
	if top.Truncated != "scanned 2 of 3 — raise max_recipes; showing 1 of 2 tags — raise top" {
		t.Errorf("truncated = %q", top.Truncated)
	}
	if len(top.Unused) != 0 || len(top.Items) != 1 {
		t.Errorf("items %v unused %v", top.Items, top.Unused)
	}
}

// foodLibrary fills a harness with foods and units and n recipes using
// some of them; foods f0..f(used-1) are used, the rest are not.
func foodLibrary(h *harness, n, foods, used int) {
	var fs, us []taxonomyItem
	for i := range foods {
		fs = append(fs, taxonomyItem{ID: fmt.Sprintf("20000000-0000-4000-8000-%012d", i), Name: fmt.Sprintf("food %03d", i)})
	}
	for i := range 3 {
		us = append(us, taxonomyItem{ID: fmt.Sprintf("30000000-0000-4000-8000-%012d", i), Name: fmt.Sprintf("unit %d", i)})
	}
	h.mealie.taxonomy[kindFoods.path] = fs
	h.mealie.taxonomy[kindUnits.path] = us
	for i := range n {
		r := &recipesv1.Recipe{Slug: fmt.Sprintf("r%03d", i), Name: fmt.Sprintf("Recipe %d", i)}
		for j := range 3 {
			f := fs[(i*3+j*7)%used]
			r.Ingredients = append(r.Ingredients, &recipesv1.Ingredient{Food: f.Name, FoodId: f.ID, Unit: us[j%2].Name, UnitId: us[j%2].ID})
		}
		// One line repeats a food: a recipe counts once.
		r.Ingredients = append(r.Ingredients, r.Ingredients[0])
		h.addRecipe(r)
	}
}

func countsOf(res *libraryv1.LibraryStatsResult) map[string]int32 {
	out := map[string]int32{}
	for _, it := range res.Items {
		out[it.Name] = it.RecipeCount
	}
	return out
}

func TestLibraryStatsFoodsMethodsAgree(t *testing.T) {
	h := newHarness(t, nil)
	foodLibrary(h, 150, 200, 12)
	req := &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_FOODS, Top: 500}

	cold, _ := stats(t, h, req)
	if !strings.HasPrefix(cold.Method, "per-food count queries") {
		t.Fatalf("cold method = %q", cold.Method)
	}
	// The queries count the whole library: nothing was capped.
	if cold.Truncated != "" || cold.Scanned != 150 || cold.LibraryTotal != 150 {
		t.Errorf("scanned %d of %d, truncated %q", cold.Scanned, cold.LibraryTotal, cold.Truncated)
	}
	queries := h.mealie.count("GET /api/recipes")
	// A detail sweep would read 150 details and 2 pages; the queries must
	// beat it, as the cost model promises.
	if queries >= 152 {
		t.Errorf("per-food queries took %d list requests", queries)
	}
	if len(cold.Unused) != 200-12 || cold.Unused[0] != "food 012" {
		t.Errorf("unused = %d, first %q", len(cold.Unused), cold.Unused[0])
	}
	if h.recipes.sweeps != 0 {
		t.Errorf("per-food queries swept the library %d times", h.recipes.sweeps)
	}

	// The same counts through the detail sweep.
	entry, err := h.svc.countBySweep(context.Background(), libraryv1.StatsResource_STATS_RESOURCE_FOODS, h.mealie.taxonomy[kindFoods.path], MaxScanRecipes, func(*libraryv1.ReportProgress) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	swept := buildStats(kindFoods, entry, h.mealie.taxonomy[kindFoods.path], 500, true)
	if a, b := countsOf(cold), countsOf(swept); fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 12 {
		t.Errorf("per-food counts %v\ndetail counts %v", a, b)
	}

	// Warm: nothing changed, the fingerprint holds.
	before := h.mealie.total()
	warm, _ := stats(t, h, req)
	if !strings.HasPrefix(warm.Method, "cached") || fmt.Sprint(countsOf(warm)) != fmt.Sprint(countsOf(cold)) {
		t.Errorf("warm method %q counts %v", warm.Method, countsOf(warm))
	}
	if n := h.mealie.total() - before; n != 2 {
		t.Errorf("warm report made %d Mealie requests, want 2 (fingerprint and food list)", n)
	}

	// A write changes the fingerprint: the counts follow it.
	h.touch("r000", func(r *recipesv1.Recipe) {
		r.Ingredients = []*recipesv1.Ingredient{{Food: "food 150", FoodId: h.mealie.taxonomy[kindFoods.path][150].ID}}
	})
	after, _ := stats(t, h, req)
	if strings.HasPrefix(after.Method, "cached") {
		t.Fatalf("a write left the cache in place: %q", after.Method)
	}
	if countsOf(after)["food 150"] != 1 || slices.Contains(after.Unused, "food 150") {
		t.Errorf("after the write: food 150 = %d", countsOf(after)["food 150"])
	}
}

func TestLibraryStatsFoodsTruncatedUsesSweep(t *testing.T) {
	h := newHarness(t, nil)
	foodLibrary(h, 30, 20, 10)
	res, _ := stats(t, h, &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_FOODS, MaxRecipes: 10})
	if !strings.HasPrefix(res.Method, "detail sweep") {
		t.Errorf("method = %q", res.Method)
	}
	if res.Truncated != "scanned 10 of 30 — raise max_recipes" || res.Scanned != 10 {
		t.Errorf("truncated %q scanned %d", res.Truncated, res.Scanned)
	}
}

func TestLibraryStatsUnits(t *testing.T) {
	h := newHarness(t, nil)
	foodLibrary(h, 5, 10, 4)
	res, _ := stats(t, h, &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_UNITS})
	if got := countsOf(res); got["unit 0"] != 5 || got["unit 1"] != 5 || len(got) != 2 {
		t.Errorf("counts = %v", got)
	}
	if !slices.Equal(res.Unused, []string{"unit 2"}) {
		t.Errorf("unused = %v", res.Unused)
	}
}

func TestLibraryStatsValidation(t *testing.T) {
	h := newHarness(t, nil)
	for _, req := range []*libraryv1.LibraryStatsRequest{
		{},
		{Resource: libraryv1.StatsResource_STATS_RESOURCE_TAGS, Top: 501},
		{Resource: libraryv1.StatsResource_STATS_RESOURCE_TAGS, MaxRecipes: 2001},
	} {
		s, err := h.client.LibraryStats(context.Background(), connect.NewRequest(req))
		if err == nil {
			for s.Receive() {
			}
			err = s.Err()
		}
		if connect.CodeOf(err) != connect.CodeInvalidArgument {
			t.Errorf("%v: %v", req, err)
		}
	}
}

func TestCancelStopsSweep(t *testing.T) {
	h := newHarness(t, nil)
	h.recipes.block = true
	h.addRecipe(&recipesv1.Recipe{Slug: "a", Name: "A"})
	h.addRecipe(&recipesv1.Recipe{Slug: "b", Name: "B"})
	ctx, cancel := context.WithCancel(context.Background())
	s, err := h.client.FindDuplicateRecipes(ctx, connect.NewRequest(&libraryv1.FindDuplicateRecipesRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Receive() || s.Msg().GetProgress() == nil {
		t.Fatal("no progress first")
	}
	cancel()
	for s.Receive() {
	}
	select {
	case <-h.recipes.swept:
	case <-time.After(10 * time.Second):
		t.Fatal("the recipes service's sweep was not cancelled")
	}
}

func TestLibraryStatsFoodsOverBudgetFallsBackToSweep(t *testing.T) {
	h := newHarness(t, nil)
	// Ten recipes over many used foods: the detail sweep (1 page and 10
	// details) is cheaper than settling 30 used foods one by one.
	foodLibrary(h, 10, 200, 30)
	res, _ := stats(t, h, &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_FOODS, Top: 500})
	if !strings.HasPrefix(res.Method, "detail sweep") || !strings.Contains(res.Method, "overran") {
		t.Fatalf("method = %q", res.Method)
	}
	if h.recipes.sweeps != 1 {
		t.Errorf("sweeps = %d", h.recipes.sweeps)
	}
	var total int32
	for _, it := range res.Items {
		total += it.RecipeCount
	}
	// Three distinct foods per recipe.
	if total != 30 || len(res.Unused) != 200-len(res.Items) {
		t.Errorf("sum of counts %d, %d used, %d unused", total, len(res.Items), len(res.Unused))
	}
}

func TestNewestWithoutUpdateOrdering(t *testing.T) {
	h := newHarness(t, nil)
	h.mealie.refuseOrder = true
	h.addRecipe(&recipesv1.Recipe{Slug: "a", Name: "A", Tags: []string{"X"}})
	h.mealie.taxonomy[kindTags.path] = []taxonomyItem{{ID: "t1", Name: "X"}}
	for range 2 {
		res, _ := stats(t, h, &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_TAGS})
		if strings.HasPrefix(res.Method, "cached") || len(res.Items) != 1 {
			t.Errorf("without a fingerprint nothing is cached: %v", res)
		}
	}
	if h.recipes.sweeps != 2 {
		t.Errorf("sweeps = %d", h.recipes.sweeps)
	}
}

// TestNearDuplicateFoods groups the food names of a real imported library
// (services/internal/names/testdata/messy-foods.json) that read as one
// thing, the clean name first: the fourth tomato, priced, among them.
func TestNearDuplicateFoods(t *testing.T) {
	var foods []taxonomyItem
	b, err := os.ReadFile(filepath.Join("..", "internal", "names", "testdata", "messy-foods.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &foods); err != nil {
		t.Fatal(err)
	}
	foods = append(foods, taxonomyItem{ID: "x1", Name: "tomato ($0.45)"}, taxonomyItem{ID: "x2", Name: "aubergine"}, taxonomyItem{ID: "x3", Name: "eggplant"},
		taxonomyItem{ID: "x4", Name: "00 flour"}, taxonomyItem{ID: "x5", Name: "flour"}, taxonomyItem{ID: "x6", Name: "ground turmeric"}, taxonomyItem{ID: "x7", Name: "turmeric"}, taxonomyItem{ID: "x8", Name: "rice"})
	groups := map[string][]string{}
	for _, g := range nearDuplicates(foods) {
		groups[g.GetKey()] = g.GetNames()
	}
	tomato := groups["tomato"]
	if len(tomato) < 4 || names.IsDebris(tomato[0]) || !slices.Contains(tomato, "tomato ($0.45)") || !slices.Contains(tomato, "Tomato") || !slices.Contains(tomato, "tomatoes") {
		t.Errorf("tomato group = %q", tomato)
	}
	if g := groups["eggplant"]; len(g) != 2 {
		t.Errorf("eggplant group = %q", g)
	}
	if g := groups["rice"]; !slices.Contains(g, "rice ($0.60)") {
		t.Errorf("rice group = %q", g)
	}
	for k, g := range groups {
		if slices.Contains(g, "00 flour") || slices.Contains(g, "ground turmeric") && slices.Contains(g, "turmeric") {
			t.Errorf("group %q = %q joins different foods", k, g)
		}
	}
}
