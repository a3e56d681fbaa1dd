package library

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// fixture is one captured exchange from testdata (copied from the Mealie 2.0
// captures).
type fixture struct {
	Request struct {
		Method string         `json:"method"`
		Path   string         `json:"path"`
		JSON   map[string]any `json:"json"`
	} `json:"request"`
	Response struct {
		Status  int               `json:"status"`
		Headers map[string]string `json:"headers"`
		JSON    json.RawMessage   `json:"json"`
		Text    string            `json:"text"`
	} `json:"response"`
}

func loadFixture(t testing.TB, name string) fixture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

// replay writes a fixture's response.
func replay(w http.ResponseWriter, f fixture) {
	if len(f.Response.JSON) > 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.Response.Status)
		_, _ = w.Write(f.Response.JSON)
		return
	}
	w.Header().Set("Content-Type", f.Response.Headers["content-type"])
	w.WriteHeader(f.Response.Status)
	_, _ = w.Write([]byte(f.Response.Text))
}

// fakeRecipe is a recipe in the fake library: its detail as the recipes
// service shapes it, plus a version bumped on every write.
type fakeRecipe struct {
	r       *recipesv1.Recipe
	version int
}

// fakeMealie answers the Mealie routes the library calls, from memory and
// from captured fixtures.
type fakeMealie struct {
	t  testing.TB
	mu sync.Mutex
	// recipes in creation order.
	recipes []*fakeRecipe
	// taxonomy by Mealie path.
	taxonomy map[string][]taxonomyItem
	// cookbooks as Mealie's JSON objects.
	cookbooks []map[string]any
	// requests counts requests by "METHOD path".
	requests map[string]int
	// bodies keeps write bodies by "METHOD path".
	bodies map[string][]map[string]any
	// refuseOrder answers any orderBy but name with 400, as a Mealie
	// without those columns would.
	refuseOrder bool
}

func newFakeMealie(t testing.TB) *fakeMealie {
	f := &fakeMealie{t: t, taxonomy: map[string][]taxonomyItem{}, requests: map[string]int{}, bodies: map[string][]map[string]any{}}
	var page struct {
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal(loadFixture(t, "cookbooks__list").Response.JSON, &page); err != nil {
		t.Fatal(err)
	}
	f.cookbooks = page.Items
	return f
}

func (f *fakeMealie) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[key]
}

func (f *fakeMealie) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, v := range f.requests {
		n += v
	}
	return n
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func envelope(items []any, page, perPage, total int) map[string]any {
	pages := 0
	if perPage > 0 {
		pages = (total + perPage - 1) / perPage
	}
	return map[string]any{"page": page, "per_page": perPage, "total": total, "total_pages": pages, "items": items}
}

func (f *fakeMealie) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests[r.Method+" "+r.URL.Path]++
	if r.Header.Get("Authorization") != "Bearer test-token" {
		writeJSON(w, 401, map[string]any{"detail": "Could not validate credentials"})
		return
	}
	if r.Body != nil && (r.Method == http.MethodPost || r.Method == http.MethodPut) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		f.bodies[r.Method+" "+r.URL.Path] = append(f.bodies[r.Method+" "+r.URL.Path], body)
		r.Body = http.NoBody
		f.serveWrite(w, r, body)
		return
	}
	q := r.URL.Query()
	if ob := q.Get("orderBy"); f.refuseOrder && ob != "" && ob != "name" {
		writeJSON(w, 400, map[string]any{"detail": "Invalid order_by statement"})
		return
	}
	page, _ := strconv.Atoi(q.Get("page"))
	perPage, _ := strconv.Atoi(q.Get("perPage"))
	if page < 1 {
		page = 1
	}
	if perPage == 0 {
		perPage = 50
	}
	if items, ok := f.taxonomy[r.URL.Path]; ok && r.Method == http.MethodGet {
		sorted := slices.Clone(items)
		slices.SortFunc(sorted, func(a, b taxonomyItem) int { return strings.Compare(a.Name, b.Name) })
		lo, hi := min((page-1)*perPage, len(sorted)), min(page*perPage, len(sorted))
		var out []any
		for _, it := range sorted[lo:hi] {
			out = append(out, it)
		}
		writeJSON(w, 200, envelope(out, page, perPage, len(sorted)))
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/recipes":
		f.listRecipes(w, q, page, perPage)
	case r.Method == http.MethodGet && r.URL.Path == "/api/app/about":
		writeJSON(w, 200, map[string]any{"version": "v2.8.0"})
	case r.Method == http.MethodGet && r.URL.Path == "/api/users/self":
		writeJSON(w, 200, map[string]any{"username": "cook", "household": "Family"})
	case r.Method == http.MethodGet && r.URL.Path == "/api/households/cookbooks":
		var out []any
		for _, c := range f.cookbooks {
			out = append(out, c)
		}
		writeJSON(w, 200, envelope(out, 1, 100, len(out)))
	case strings.HasPrefix(r.URL.Path, "/api/households/cookbooks/"):
		key := strings.TrimPrefix(r.URL.Path, "/api/households/cookbooks/")
		i := slices.IndexFunc(f.cookbooks, func(c map[string]any) bool { return c["id"] == key || c["slug"] == key })
		if i < 0 {
			if r.Method == http.MethodDelete {
				writeJSON(w, 400, map[string]any{"detail": map[string]any{"message": "An unexpected error occurred", "error": true, "exception": "No row was found when one was required"}})
				return
			}
			replay(w, loadFixture(f.t, "cookbooks__get_unknown"))
			return
		}
		c := f.cookbooks[i]
		if r.Method == http.MethodDelete {
			f.cookbooks = slices.Delete(f.cookbooks, i, i+1)
		}
		writeJSON(w, 200, c)
	default:
		writeJSON(w, 404, map[string]any{"detail": "Not Found"})
	}
}

// listRecipes answers GET /api/recipes: queryFilter (fixture replay for
// the captured failures), foods (recipes using any), orderBy=update_at.
func (f *fakeMealie) listRecipes(w http.ResponseWriter, q map[string][]string, page, perPage int) {
	filter := first(q["queryFilter"])
	switch {
	case strings.Contains(filter, "nonexistent"):
		replay(w, loadFixture(f.t, "recipes_list__queryfilter_unknown_attr"))
		return
	case strings.HasSuffix(strings.TrimSpace(filter), "="):
		replay(w, loadFixture(f.t, "recipes_list__queryfilter_broken_syntax"))
		return
	}
	rows := slices.Clone(f.recipes)
	if foods := q["foods"]; len(foods) > 0 {
		rows = slices.DeleteFunc(rows, func(fr *fakeRecipe) bool {
			for _, in := range fr.r.GetIngredients() {
				if slices.Contains(foods, in.GetFoodId()) {
					return false
				}
			}
			return true
		})
	}
	if first(q["orderBy"]) == "update_at" {
		slices.SortStableFunc(rows, func(a, b *fakeRecipe) int { return b.version - a.version })
	}
	lo, hi := min((page-1)*perPage, len(rows)), min(page*perPage, len(rows))
	var out []any
	for _, fr := range rows[lo:hi] {
		out = append(out, map[string]any{"id": fr.r.GetId(), "slug": fr.r.GetSlug(), "name": fr.r.GetName(), "updatedAt": fakeStamp(fr.version)})
	}
	writeJSON(w, 200, envelope(out, page, perPage, len(rows)))
}

// fakeStamp renders a recipe's version as Mealie writes updatedAt in its
// list: a timestamp string, never a number.
func fakeStamp(version int) string {
	return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(version) * time.Second).Format("2006-01-02T15:04:05.000000+00:00")
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func (f *fakeMealie) serveWrite(w http.ResponseWriter, r *http.Request, body map[string]any) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/api/households/cookbooks":
		if qf, _ := body["queryFilterString"].(string); strings.Contains(qf, "nope") {
			replay(w, loadFixture(f.t, "cookbooks__create_unknown_attr_filter_422"))
			return
		}
		c := map[string]any{}
		_ = json.Unmarshal(loadFixture(f.t, "cookbooks__create_ok").Response.JSON, &c)
		for k, v := range body {
			c[k] = v
		}
		c["id"] = fmt.Sprintf("00000000-0000-4000-8000-%012d", len(f.cookbooks)+1)
		c["slug"] = strings.ToLower(strings.ReplaceAll(body["name"].(string), " ", "-"))
		f.cookbooks = append(f.cookbooks, c)
		writeJSON(w, 201, c)
	case r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, "/api/households/cookbooks/"):
		id := strings.TrimPrefix(r.URL.Path, "/api/households/cookbooks/")
		i := slices.IndexFunc(f.cookbooks, func(c map[string]any) bool { return c["id"] == id })
		if i < 0 {
			writeJSON(w, 404, map[string]any{"detail": "Not Found"})
			return
		}
		// Mealie's PUT replaces the row: what is not sent is reset.
		c := map[string]any{"description": "", "queryFilterString": "", "public": false, "position": 1}
		for k, v := range body {
			c[k] = v
		}
		c["id"] = id
		f.cookbooks[i] = c
		writeJSON(w, 200, c)
	default:
		writeJSON(w, 405, map[string]any{"detail": "Method Not Allowed"})
	}
}

// fakeRecipes is a recipes service serving SweepRecipes and SearchRecipes
// from the fake Mealie's recipes.
type fakeRecipes struct {
	recipesv1connect.UnimplementedRecipesServiceHandler
	m *fakeMealie
	// block, when set, makes a sweep wait for the caller to go away after
	// sending its first recipe; swept is closed then.
	block  bool
	swept  chan struct{}
	sweeps int
	// failures names slugs reported as unreadable.
	failures map[string]bool
}

func (f *fakeRecipes) SweepRecipes(ctx context.Context, req *connect.Request[recipesv1.SweepRecipesRequest], stream *connect.ServerStream[recipesv1.SweepRecipesResponse]) error {
	f.m.mu.Lock()
	f.sweeps++
	all := slices.Clone(f.m.recipes)
	f.m.mu.Unlock()
	max := int(req.Msg.GetMaxRecipes())
	list := all[:min(max, len(all))]
	if err := stream.Send(&recipesv1.SweepRecipesResponse{Item: &recipesv1.SweepRecipesResponse_Progress{Progress: &recipesv1.SweepProgress{Total: int32(len(list)), LibraryTotal: int32(len(all))}}}); err != nil {
		return err
	}
	for i, fr := range list {
		r := fr.r
		if req.Msg.GetView() != recipesv1.RecipeView_RECIPE_VIEW_DETAIL {
			r = &recipesv1.Recipe{Slug: r.Slug, Name: r.Name, Id: r.Id, Tags: r.Tags, Categories: r.Categories, Tools: r.Tools, SourceUrl: r.SourceUrl, HasImage: r.HasImage}
		}
		msg := &recipesv1.SweepRecipesResponse{Item: &recipesv1.SweepRecipesResponse_Recipe{Recipe: r}}
		if f.failures[r.Slug] {
			msg = &recipesv1.SweepRecipesResponse{Item: &recipesv1.SweepRecipesResponse_Failure{Failure: &recipesv1.SweepFailure{Slug: r.Slug, Message: "Mealie returned 500"}}}
		}
		if err := stream.Send(msg); err != nil {
			return err
		}
		if f.block && i == 0 {
			<-ctx.Done()
			close(f.swept)
			return ctx.Err()
		}
	}
	return nil
}

func (f *fakeRecipes) SearchRecipes(_ context.Context, req *connect.Request[recipesv1.SearchRecipesRequest]) (*connect.Response[recipesv1.SearchRecipesResponse], error) {
	if req.Msg.GetCookbook() != "breakfast-book" {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("recipe list not found"))
	}
	return connect.NewResponse(&recipesv1.SearchRecipesResponse{
		Items: []*recipesv1.RecipeSummary{{Slug: "fixture-pancakes", Name: "Fixture Pancakes"}},
		Page:  req.Msg.GetPage(), Limit: req.Msg.GetLimit(), Total: 1, TotalPages: 1,
	}), nil
}

// harness is a library service over a fake Mealie and a fake recipes
// service, reached through a real Connect client.
type harness struct {
	mealie  *fakeMealie
	recipes *fakeRecipes
	svc     *Service
	client  libraryv1connect.LibraryServiceClient
}

func newHarness(t *testing.T, mutate func(*Config)) *harness {
	t.Helper()
	fm := newFakeMealie(t)
	mealieSrv := httptest.NewServer(fm)
	t.Cleanup(mealieSrv.Close)
	fr := &fakeRecipes{m: fm, swept: make(chan struct{})}
	rpath, rh := recipesv1connect.NewRecipesServiceHandler(fr)
	rmux := http.NewServeMux()
	rmux.Handle(rpath, rh)
	recipesSrv := httptest.NewServer(rmux)
	t.Cleanup(recipesSrv.Close)
	cfg := Config{
		MealieURL: mealieSrv.URL, MealieToken: "test-token",
		Recipes: recipesv1connect.NewRecipesServiceClient(recipesSrv.Client(), recipesSrv.URL),
	}
	if mutate != nil {
		mutate(&cfg)
	}
	svc, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lpath, lh := svc.Handler()
	lmux := http.NewServeMux()
	lmux.Handle(lpath, lh)
	libSrv := httptest.NewServer(lmux)
	t.Cleanup(libSrv.Close)
	return &harness{mealie: fm, recipes: fr, svc: svc, client: libraryv1connect.NewLibraryServiceClient(libSrv.Client(), libSrv.URL)}
}

// addRecipe adds a recipe to the fake library.
func (h *harness) addRecipe(r *recipesv1.Recipe) {
	h.mealie.mu.Lock()
	defer h.mealie.mu.Unlock()
	if r.Id == "" {
		r.Id = fmt.Sprintf("10000000-0000-4000-8000-%012d", len(h.mealie.recipes)+1)
	}
	h.mealie.recipes = append(h.mealie.recipes, &fakeRecipe{r: r, version: len(h.mealie.recipes) + 1})
}

// touch bumps a recipe's version, as a write does.
func (h *harness) touch(slug string, edit func(*recipesv1.Recipe)) {
	h.mealie.mu.Lock()
	defer h.mealie.mu.Unlock()
	top := 0
	for _, fr := range h.mealie.recipes {
		top = max(top, fr.version)
	}
	for _, fr := range h.mealie.recipes {
		if fr.r.Slug == slug {
			edit(fr.r)
			fr.version = top + 1
		}
	}
}
