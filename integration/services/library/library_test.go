// Package library_test drives every LibraryService RPC against the Mealie
// emulator (internal/mealieemu), with the real recipes service between
// them for sweeps and cookbook contents, through Connect clients over HTTP
// as a deployment does, once per Mealie version the emulator knows.
package library_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/library"
	"github.com/souskitchen/sous/services/recipes"
)

// versions are the emulator's Mealie profiles (internal/mealieemu
// profile.go); every test runs once on each.
var versions = []string{"2.0", "2.8", "3.11", "3.20"}

// aboutVersion is what each profile's /api/app/about reports (profile.go's
// version field): the 2.0 captures come from a source checkout, which
// reports "v2.0.0"; release images report their tag.
var aboutVersion = map[string]string{"2.0": "v2.0.0", "2.8": "v2.8.0", "3.11": "v3.11.0", "3.20": "v3.20.1"}

// each runs fn as one subtest per Mealie profile, named by the profile;
// fn passes mealieemu.WithVersion(version) to setup.
func each(t *testing.T, fn func(t *testing.T, version string)) {
	t.Helper()
	for _, v := range versions {
		t.Run(v, func(t *testing.T) { fn(t, v) })
	}
}

// callTimeout bounds every RPC of a test; the emulator answers in
// microseconds.
const callTimeout = 30 * time.Second

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), callTimeout)
	t.Cleanup(cancel)
	return c
}

// stack is a library service over the real recipes service over the
// emulator.
type stack struct {
	mealie  *mealieemu.Server
	client  libraryv1connect.LibraryServiceClient
	recipes recipesv1connect.RecipesServiceClient
}

func serve(t testing.TB, path string, h http.Handler) *httptest.Server {
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func setup(t testing.TB, mutate func(*library.Config), opts ...mealieemu.Option) *stack {
	t.Helper()
	m := mealietest.NewServer(t, opts...)
	rs, err := recipes.New(recipes.Config{MealieURL: m.URL, MealieToken: m.Token, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	rpath, rh := rs.Handler()
	rsrv := serve(t, rpath, rh)
	rc := recipesv1connect.NewRecipesServiceClient(rsrv.Client(), rsrv.URL)
	cfg := library.Config{MealieURL: m.URL, MealieToken: m.Token, Recipes: rc}
	if mutate != nil {
		mutate(&cfg)
	}
	ls, err := library.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lpath, lh := ls.Handler()
	lsrv := serve(t, lpath, lh)
	return &stack{mealie: m, client: libraryv1connect.NewLibraryServiceClient(lsrv.Client(), lsrv.URL), recipes: rc}
}

// mealieCall sends one request straight to the emulator, for arranging
// state the library does not write (recipes, foods).
func (s *stack) mealieCall(t testing.TB, method, path string, body, out any) {
	t.Helper()
	var rd bytes.Buffer
	if body != nil {
		_ = json.NewEncoder(&rd).Encode(body)
	}
	req, _ := http.NewRequestWithContext(ctx(t), method, s.mealie.URL+path, &rd)
	req.Header.Set("Authorization", "Bearer "+s.mealie.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d", method, path, resp.StatusCode)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// createRecipe creates a recipe by name and sets its source URL; it
// returns the slug.
func (s *stack) createRecipe(t testing.TB, name, source string) string {
	t.Helper()
	var slug string
	s.mealieCall(t, http.MethodPost, "/api/recipes", map[string]any{"name": name}, &slug)
	if source != "" {
		s.mealieCall(t, http.MethodPatch, "/api/recipes/"+slug, map[string]any{"orgURL": source}, nil)
	}
	return slug
}

// result reads a report stream to its result, checking progress came
// first.
func result[T any, R any](t *testing.T, s *connect.ServerStreamForClient[T], get func(*T) *R) *R {
	t.Helper()
	progress := 0
	var res *R
	for s.Receive() {
		if r := get(s.Msg()); r != nil {
			res = r
			continue
		}
		progress++
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if res == nil || progress == 0 {
		t.Fatalf("result %v after %d progress messages", res, progress)
	}
	return res
}

func TestGetStatus(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, nil, mealieemu.WithVersion(v))
		res, err := s.client.GetStatus(ctx(t), connect.NewRequest(&libraryv1.GetStatusRequest{}))
		if err != nil {
			t.Fatal(err)
		}
		if res.Msg.MealieVersion != aboutVersion[v] || res.Msg.User == "" {
			t.Errorf("status = %v", res.Msg)
		}
	})
}

func TestCookbooks(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, nil, mealieemu.WithVersion(v))
		c := ctx(t)
		created, err := s.client.CreateCookbook(c, connect.NewRequest(&libraryv1.CreateCookbookRequest{
			Name: "Sous Test Book", Tags: []string{strings.ToLower(firstTag(t, s))},
		}))
		if err != nil {
			t.Fatal(err)
		}
		cb := created.Msg.Cookbook
		if !strings.Contains(cb.QueryFilter, `tags.name IN ["`+firstTag(t, s)+`"]`) {
			t.Errorf("filter = %q", cb.QueryFilter)
		}
		list, err := s.client.ListCookbooks(c, connect.NewRequest(&libraryv1.ListCookbooksRequest{}))
		if err != nil || !slices.ContainsFunc(list.Msg.Items, func(x *libraryv1.Cookbook) bool { return x.Id == cb.Id }) {
			t.Fatalf("list = %v, %v", list, err)
		}
		page, err := s.client.GetCookbookRecipes(c, connect.NewRequest(&libraryv1.GetCookbookRecipesRequest{Cookbook: cb.Slug, Limit: 2}))
		if err != nil {
			t.Fatal(err)
		}
		if page.Msg.Total == 0 || len(page.Msg.Items) == 0 || len(page.Msg.Items) > 2 {
			t.Errorf("cookbook page = %v", page.Msg)
		}
		_, err = s.client.GetCookbookRecipes(c, connect.NewRequest(&libraryv1.GetCookbookRecipesRequest{Cookbook: "no-such-book"}))
		if connect.CodeOf(err) != connect.CodeNotFound {
			t.Errorf("unknown cookbook: %v", err)
		}

		updated, err := s.client.UpdateCookbook(c, connect.NewRequest(&libraryv1.UpdateCookbookRequest{
			CookbookId: cb.Id, Description: new("edited"), QueryFilter: new(`last_made IS NULL`),
		}))
		if err != nil {
			t.Fatal(err)
		}
		if u := updated.Msg.Cookbook; u.Id != cb.Id || u.Name != cb.Name || u.Description != "edited" || u.QueryFilter != `last_made IS NULL` {
			t.Errorf("updated = %v", u)
		}

		_, err = s.client.CreateCookbook(c, connect.NewRequest(&libraryv1.CreateCookbookRequest{Name: "Bad", QueryFilter: `nonexistent = "x"`}))
		if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), "nonexistent") {
			t.Errorf("invalid filter: %v", err)
		}
		_, err = s.client.CreateCookbook(c, connect.NewRequest(&libraryv1.CreateCookbookRequest{Name: "Bad", Tags: []string{"no such tag at all"}}))
		if connect.CodeOf(err) != connect.CodeNotFound {
			t.Errorf("unknown tag: %v", err)
		}

		if _, err := s.client.DeleteCookbook(c, connect.NewRequest(&libraryv1.DeleteCookbookRequest{CookbookId: cb.Id})); err != nil {
			t.Fatal(err)
		}
		_, err = s.client.DeleteCookbook(c, connect.NewRequest(&libraryv1.DeleteCookbookRequest{CookbookId: cb.Id}))
		if connect.CodeOf(err) != connect.CodeNotFound {
			t.Errorf("second delete: %v", err)
		}
	})
}

// TestQueryFilterExamples pins the worked examples: each one is accepted by
// the emulator's filter parser (Mealie's grammar) as a cookbook filter.
func TestQueryFilterExamples(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, nil, mealieemu.WithVersion(v))
		for i, e := range library.QueryFilterExamples {
			res, err := s.client.CreateCookbook(ctx(t), connect.NewRequest(&libraryv1.CreateCookbookRequest{
				Name: fmt.Sprintf("Example %d", i), QueryFilter: e.Filter,
			}))
			if err != nil {
				t.Errorf("%s: %v", e.Filter, err)
				continue
			}
			if res.Msg.Cookbook.QueryFilter != e.Filter {
				t.Errorf("stored %q, want %q", res.Msg.Cookbook.QueryFilter, e.Filter)
			}
		}
	})
}

// TestFilterCaseByProfile pins how each Mealie version compares strings in
// a cookbook's filter (internal/mealieemu profile.go,
// caseInsensitiveFilter): 2.0 compares "=" case-sensitively, Mealie PR
// #5162 (in 2.8.0) made every string comparison ignore case. LIKE ignores
// ASCII case on every profile (SQLite's LIKE before 2.8, the PR after), as
// the LIKE worked example in library.QueryFilterExamples says.
func TestFilterCaseByProfile(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, nil, mealieemu.WithVersion(v))
		c := ctx(t)
		count := func(filter string) int32 {
			t.Helper()
			cb, err := s.client.CreateCookbook(c, connect.NewRequest(&libraryv1.CreateCookbookRequest{Name: "Case " + filter, QueryFilter: filter}))
			if err != nil {
				t.Fatalf("%s: %v", filter, err)
			}
			page, err := s.client.GetCookbookRecipes(c, connect.NewRequest(&libraryv1.GetCookbookRecipesRequest{Cookbook: cb.Msg.Cookbook.Slug}))
			if err != nil {
				t.Fatalf("%s: %v", filter, err)
			}
			return page.Msg.Total
		}
		wantEq := map[string]int32{"2.0": 0, "2.8": 1, "3.11": 1, "3.20": 1}[v]
		if n := count(`name = "tomato soup"`); n != wantEq {
			t.Errorf(`name = "tomato soup" matched %d recipes on %s, want %d`, n, v, wantEq)
		}
		if n := count(`name LIKE "%TOMATO SOUP%"`); n != 1 {
			t.Errorf(`name LIKE "%%TOMATO SOUP%%" matched %d recipes on %s, want 1`, n, v)
		}
	})
}

func firstTag(t testing.TB, s *stack) string {
	var page struct {
		Items []struct{ Name string } `json:"items"`
	}
	s.mealieCall(t, http.MethodGet, "/api/organizers/tags?perPage=1&orderBy=name", nil, &page)
	if len(page.Items) == 0 {
		t.Fatal("the demo seed has no tags")
	}
	return page.Items[0].Name
}

func stats(t *testing.T, s *stack, req *libraryv1.LibraryStatsRequest) *libraryv1.LibraryStatsResult {
	t.Helper()
	st, err := s.client.LibraryStats(ctx(t), connect.NewRequest(req))
	if err != nil {
		t.Fatal(err)
	}
	return result(t, st, (*libraryv1.LibraryStatsResponse).GetResult)
}

func TestLibraryStats(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, nil, mealieemu.WithVersion(v))
		var food struct{ ID, Name string }
		s.mealieCall(t, http.MethodPost, "/api/foods", map[string]any{"name": "sous test unused food"}, &food)

		foods := stats(t, s, &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_FOODS, Top: 500})
		if !slices.Contains(foods.Unused, "sous test unused food") {
			t.Errorf("unused foods = %v", foods.Unused)
		}
		if len(foods.Items) == 0 || foods.Items[0].RecipeCount < 1 || foods.Method == "" {
			t.Errorf("foods = %v", foods)
		}
		// An uncapped count covers the whole library, whichever way it
		// was made.
		if foods.Truncated != "" || foods.Scanned != foods.LibraryTotal {
			t.Errorf("uncapped foods (%s): scanned %d of %d, truncated %q", foods.Method, foods.Scanned, foods.LibraryTotal, foods.Truncated)
		}
		// The detail sweep agrees with the per-food queries.
		swept := stats(t, s, &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_FOODS, Top: 500, MaxRecipes: foods.LibraryTotal - 1})
		if !strings.HasPrefix(swept.Method, "detail sweep") || swept.Truncated == "" {
			t.Errorf("method %q truncated %q", swept.Method, swept.Truncated)
		}

		for _, res := range []libraryv1.StatsResource{
			libraryv1.StatsResource_STATS_RESOURCE_TAGS, libraryv1.StatsResource_STATS_RESOURCE_CATEGORIES,
			libraryv1.StatsResource_STATS_RESOURCE_TOOLS, libraryv1.StatsResource_STATS_RESOURCE_UNITS,
		} {
			r := stats(t, s, &libraryv1.LibraryStatsRequest{Resource: res})
			if len(r.Items) == 0 || r.Scanned == 0 || r.Truncated != "" {
				t.Errorf("%v: %v", res, r)
			}
		}

		cut := stats(t, s, &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_TAGS, MaxRecipes: 2})
		if want := fmt.Sprintf("scanned 2 of %d — raise max_recipes", cut.LibraryTotal); !strings.HasPrefix(cut.Truncated, want) {
			t.Errorf("truncated = %q, want %q", cut.Truncated, want)
		}
	})
}

func TestFindDuplicateRecipes(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, nil, mealieemu.WithVersion(v), mealieemu.WithSeed("empty"))
		var slugs []string
		for _, n := range []string{"Pad Thai", "pad thai!", "Pad  Thaï", "Green Curry"} {
			slugs = append(slugs, s.createRecipe(t, n, ""))
		}
		st, err := s.client.FindDuplicateRecipes(ctx(t), connect.NewRequest(&libraryv1.FindDuplicateRecipesRequest{}))
		if err != nil {
			t.Fatal(err)
		}
		res := result(t, st, (*libraryv1.FindDuplicateRecipesResponse).GetResult)
		if len(res.Items) != 1 || res.Items[0].Key != "pad thai" || len(res.Items[0].Recipes) != 3 {
			t.Fatalf("groups = %v (scanned %d)", res.Items, res.Scanned)
		}
		var got []string
		for _, r := range res.Items[0].Recipes {
			got = append(got, r.Slug)
		}
		want := slices.Clone(slugs[:3])
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("slugs = %v, want %v", got, want)
		}
	})
}

func TestCheckRecipeLinks(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/ok":
			case "/moved":
				http.Redirect(w, r, "/ok", http.StatusFound)
			case "/forbidden":
				w.WriteHeader(http.StatusForbidden)
			default:
				http.NotFound(w, r)
			}
		}))
		t.Cleanup(site.Close)

		relaxed := setup(t, func(c *library.Config) { c.AllowPrivateLinks = true }, mealieemu.WithVersion(v), mealieemu.WithSeed("empty"))
		for _, p := range []string{"/ok", "/moved", "/forbidden", "/dead"} {
			relaxed.createRecipe(t, "Page "+p, site.URL+p)
		}
		st, err := relaxed.client.CheckRecipeLinks(ctx(t), connect.NewRequest(&libraryv1.CheckRecipeLinksRequest{}))
		if err != nil {
			t.Fatal(err)
		}
		res := result(t, st, (*libraryv1.CheckRecipeLinksResponse).GetResult)
		if c := res.Counts; c.Ok != 2 || c.Unverified != 1 || c.Broken != 1 || c.NoImage != 4 {
			t.Errorf("counts = %v", c)
		}

		guarded := setup(t, nil, mealieemu.WithVersion(v), mealieemu.WithSeed("empty"))
		guarded.createRecipe(t, "Loopback", site.URL+"/ok")
		guarded.createRecipe(t, "Metadata", "http://169.254.169.254/")
		st, err = guarded.client.CheckRecipeLinks(ctx(t), connect.NewRequest(&libraryv1.CheckRecipeLinksRequest{}))
		if err != nil {
			t.Fatal(err)
		}
		res = result(t, st, (*libraryv1.CheckRecipeLinksResponse).GetResult)
		if res.Counts.Refused != 2 || len(res.Items) != 2 {
			t.Errorf("guarded: %v", res)
		}
		for _, it := range res.Items {
			if it.Status != libraryv1.LinkStatus_LINK_STATUS_REFUSED {
				t.Errorf("%s: %v", it.Slug, it)
			}
		}
	})
}

func TestReadOnly(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, func(c *library.Config) { c.ReadOnly = true }, mealieemu.WithVersion(v))
		_, err := s.client.CreateCookbook(ctx(t), connect.NewRequest(&libraryv1.CreateCookbookRequest{Name: "x"}))
		if connect.CodeOf(err) != connect.CodePermissionDenied {
			t.Errorf("create: %v", err)
		}
	})
}
