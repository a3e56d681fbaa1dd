package recipes

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/souskitchen/sous/internal/mealieslug"
)

// fakeMealie is a small stand-in for Mealie 2.0 built from the captures in
// testdata: enough state for the write paths, with 2.0's quirks where a test
// depends on them (PATCH {name} does not move the stored slug, the
// suggestions route is absent). Every request is logged.
type fakeMealie struct {
	t   testing.TB
	mu  sync.Mutex
	srv *httptest.Server

	recipes  map[string]map[string]any // by stored slug
	taxonomy map[string][]map[string]any
	log      []logged

	// Status overrides: when set, the route answers with it.
	deleteStatus, patchStatus int
	// putKeepsSlug makes PUT ignore a new name's slug (a rename that does
	// not move).
	putKeepsSlug bool
	// putStores, when set, is the slug PUT stores the recipe under while
	// answering with slugify(name); putDrops makes PUT lose the recipe.
	// Both model a rename whose answer does not match what Mealie kept.
	putStores *string
	putDrops  bool
	// suggestions, when set, serves /api/recipes/suggestions (Mealie 3.x).
	suggestions bool
	// parses answers the parser for these lines with these ingredients
	// (unit and food as {"name": ...} without an id, as Mealie answers
	// names it did not match).
	parses map[string]map[string]any
}

// addFood adds a food to the fake's list and returns its id.
func (f *fakeMealie) addFood(name, plural string, aliases ...string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := uuid.NewString()
	var as []any
	for _, a := range aliases {
		as = append(as, map[string]any{"name": a})
	}
	f.taxonomy["foods"] = append(f.taxonomy["foods"], map[string]any{"id": id, "name": name, "pluralName": plural, "aliases": as})
	return id
}

type logged struct {
	Method, Path, Query, Body string
}

func newFake(t testing.TB) *fakeMealie {
	f := &fakeMealie{t: t, recipes: map[string]map[string]any{}, taxonomy: map[string][]map[string]any{}}
	var r map[string]any
	captureBody(t, "recipes_get__after_patches", &r)
	f.recipes[r["slug"].(string)] = r
	for kind, capture := range map[string]string{
		"tags": "organizers_tags__list_after", "categories": "organizers_categories__list", "tools": "organizers_tools__list",
		"foods": "foods__list_paged", "units": "units__list", "labels": "groups_labels__list",
	} {
		var page struct {
			Items []map[string]any `json:"items"`
		}
		captureBody(t, capture, &page)
		f.taxonomy[kind] = page.Items
	}
	// The recipe uses flour, egg and whole milk; make every one resolvable.
	for _, in := range r["recipeIngredient"].([]any) {
		if food, ok := in.(map[string]any)["food"].(map[string]any); ok && f.find("foods", food["id"].(string)) == nil {
			f.taxonomy["foods"] = append(f.taxonomy["foods"], food)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/recipes", f.list)
	mux.HandleFunc("GET /api/recipes/{slug}", f.get)
	mux.HandleFunc("POST /api/recipes", f.create)
	mux.HandleFunc("PATCH /api/recipes/{slug}", f.patch)
	mux.HandleFunc("PUT /api/recipes/{slug}", f.put)
	mux.HandleFunc("DELETE /api/recipes/{slug}", f.del)
	mux.HandleFunc("POST /api/recipes/bulk-actions/delete", f.bulkDelete)
	mux.HandleFunc("POST /api/recipes/bulk-actions/tag", f.bulkAdd("tags", "tags"))
	mux.HandleFunc("POST /api/recipes/bulk-actions/categorize", f.bulkAdd("categories", "recipeCategory"))
	mux.HandleFunc("POST /api/parser/ingredients", f.parse)
	mux.HandleFunc("POST /api/recipes/timeline/events", f.event)
	mux.HandleFunc("PATCH /api/recipes/{slug}/last-made", f.lastMade)
	mux.HandleFunc("PUT /api/recipes/{slug}/image", f.ok)
	mux.HandleFunc("POST /api/recipes/{slug}/image", f.ok)
	for _, kind := range []string{"tags", "categories", "tools"} {
		mux.HandleFunc("GET /api/organizers/"+kind, f.taxList(kind))
		mux.HandleFunc("POST /api/organizers/"+kind, f.taxCreate(kind))
		mux.HandleFunc("DELETE /api/organizers/"+kind+"/{id}", f.taxDelete(kind))
	}
	for _, kind := range []string{"foods", "units"} {
		mux.HandleFunc("GET /api/"+kind, f.taxList(kind))
		mux.HandleFunc("POST /api/"+kind, f.taxCreate(kind))
		mux.HandleFunc("GET /api/"+kind+"/{id}", f.taxGet(kind))
		mux.HandleFunc("PUT /api/"+kind+"/{id}", f.taxPut(kind))
		mux.HandleFunc("DELETE /api/"+kind+"/{id}", f.taxDelete(kind))
		mux.HandleFunc("PUT /api/"+kind+"/merge", f.ok)
	}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		f.mu.Lock()
		f.log = append(f.log, logged{r.Method, r.URL.Path, r.URL.RawQuery, string(body)})
		f.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeMealie) requests() []logged {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]logged(nil), f.log...)
}

// writes lists the non-GET requests as "METHOD path".
func (f *fakeMealie) writes() []string {
	var out []string
	for _, l := range f.requests() {
		if l.Method != http.MethodGet {
			out = append(out, l.Method+" "+l.Path)
		}
	}
	return out
}

// lastBody decodes the body of the last request to method path.
func (f *fakeMealie) lastBody(method, path string) map[string]any {
	f.t.Helper()
	reqs := f.requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Method == method && reqs[i].Path == path {
			var m map[string]any
			if err := json.Unmarshal([]byte(reqs[i].Body), &m); err != nil {
				f.t.Fatalf("%s %s body: %v", method, path, err)
			}
			return m
		}
	}
	f.t.Fatalf("no %s %s in %v", method, path, f.writes())
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, 404, map[string]any{"detail": map[string]any{"message": "No Entry Found", "error": true, "exception": nil}})
}

func decode(r *http.Request) map[string]any {
	var m map[string]any
	_ = json.NewDecoder(r.Body).Decode(&m)
	return m
}

func (f *fakeMealie) ok(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, nil) }

func (f *fakeMealie) lookup(key string) (string, map[string]any) {
	if r, ok := f.recipes[key]; ok {
		return key, r
	}
	for s, r := range f.recipes {
		if r["id"] == key {
			return s, r
		}
	}
	return "", nil
}

func (f *fakeMealie) list(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var slugs []string
	for s := range f.recipes {
		slugs = append(slugs, s)
	}
	sort.Strings(slugs)
	q := r.URL.Query()
	items := []any{}
	for _, s := range slugs {
		rec := f.recipes[s]
		if carries(rec, "tags", q["tags"]) && carries(rec, "recipeCategory", q["categories"]) && carries(rec, "tools", q["tools"]) {
			items = append(items, rec)
		}
	}
	total := len(items)
	perPage := total
	if pp, err := strconv.Atoi(q.Get("perPage")); err == nil && pp > 0 && pp < total {
		items, perPage = items[:pp], pp
	}
	writeJSON(w, 200, map[string]any{"page": 1, "per_page": perPage, "total": total, "total_pages": 1, "items": items})
}

// carries reports whether rec's organizer list key holds any of want, by id
// or slug, as Mealie's tags/categories/tools filters do;
// no want is no filter.
func carries(rec map[string]any, key string, want []string) bool {
	if len(want) == 0 {
		return true
	}
	list, _ := rec[key].([]any)
	for _, it := range list {
		o, _ := it.(map[string]any)
		for _, w := range want {
			if o["id"] == w || o["slug"] == w {
				return true
			}
		}
	}
	return false
}

func (f *fakeMealie) get(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := r.PathValue("slug")
	if key == "suggestions" && f.suggestions {
		writeJSON(w, 200, map[string]any{"items": []any{}})
		return
	}
	if _, rec := f.lookup(key); rec != nil {
		writeJSON(w, 200, rec)
		return
	}
	notFound(w)
}

func (f *fakeMealie) create(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name, _ := decode(r)["name"].(string)
	var rec map[string]any
	captureBody(f.t, "recipes_get__fresh", &rec)
	slug := mealieslug.Make(name)
	for i := 1; f.recipes[slug] != nil; i++ {
		slug = fmt.Sprintf("%s-%d", mealieslug.Make(name), i)
	}
	rec["name"], rec["slug"], rec["id"] = name, slug, uuid.NewString()
	f.recipes[slug] = rec
	writeJSON(w, 201, slug)
}

// patch applies the body. Like Mealie 2.0 it answers a name change with
// slugify(name) but keeps the stored slug (TestPatchNameKeepsStoredSlug in integration/contract).
func (f *fakeMealie) patch(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.patchStatus != 0 {
		writeJSON(w, f.patchStatus, map[string]any{"detail": map[string]any{"message": "Unknown Error", "error": true}})
		return
	}
	_, rec := f.lookup(r.PathValue("slug"))
	if rec == nil {
		notFound(w)
		return
	}
	for k, v := range decode(r) {
		rec[k] = v
	}
	out := map[string]any{}
	for k, v := range rec {
		out[k] = v
	}
	if n, ok := out["name"].(string); ok {
		out["slug"] = mealieslug.Make(n)
	}
	writeJSON(w, 200, out)
}

// put replaces the recipe and stores slugify(name), like Mealie 2.0
// (TestRenameWithSlugOrPut in integration/contract).
func (f *fakeMealie) put(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	old, rec := f.lookup(r.PathValue("slug"))
	if rec == nil {
		notFound(w)
		return
	}
	body := decode(r)
	slug := mealieslug.Make(body["name"].(string))
	if f.putKeepsSlug {
		slug = old
	}
	body["slug"] = slug
	delete(f.recipes, old)
	answer := map[string]any{}
	for k, v := range body {
		answer[k] = v
	}
	switch {
	case f.putDrops:
	case f.putStores != nil:
		stored := map[string]any{}
		for k, v := range body {
			stored[k] = v
		}
		stored["slug"] = *f.putStores
		f.recipes[*f.putStores] = stored
	default:
		f.recipes[slug] = body
	}
	writeJSON(w, 200, answer)
}

func (f *fakeMealie) del(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.deleteStatus != 0 {
		writeJSON(w, f.deleteStatus, map[string]any{"detail": map[string]any{"message": "Unknown Error", "error": true, "exception": "ValidationError"}})
		return
	}
	s, rec := f.lookup(r.PathValue("slug"))
	if rec == nil {
		notFound(w)
		return
	}
	delete(f.recipes, s)
	writeJSON(w, 200, rec)
}

func (f *fakeMealie) bulkDelete(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range decode(r)["recipes"].([]any) {
		delete(f.recipes, s.(string))
	}
	writeJSON(w, 200, nil)
}

func (f *fakeMealie) bulkAdd(bodyKey, recipeKey string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		b := decode(r)
		for _, s := range b["recipes"].([]any) {
			rec := f.recipes[s.(string)]
			if rec == nil {
				w.WriteHeader(500)
				_, _ = w.Write([]byte("Internal Server Error"))
				return
			}
			have, _ := rec[recipeKey].([]any)
			rec[recipeKey] = append(have, b[bodyKey].([]any)...)
		}
		writeJSON(w, 200, nil)
	}
}

// parse answers known lines from testdata/parser_ingredients__brute.json and any
// other line as an unmatched food named after it.
func (f *fakeMealie) parse(w http.ResponseWriter, r *http.Request) {
	var known []map[string]any
	captureBody(f.t, "parser_ingredients__brute", &known)
	var out []any
	for _, l := range decode(r)["ingredients"].([]any) {
		var hit any
		for _, k := range known {
			if k["input"] == l {
				hit = k
			}
		}
		if in, ok := f.parses[l.(string)]; ok {
			hit = map[string]any{"input": l, "confidence": map[string]any{}, "ingredient": in}
		}
		if hit == nil {
			hit = map[string]any{"input": l, "confidence": map[string]any{}, "ingredient": map[string]any{
				"quantity": 0, "unit": nil, "food": map[string]any{"id": nil, "name": l}, "note": "", "referenceId": uuid.NewString(),
			}}
		}
		out = append(out, hit)
	}
	writeJSON(w, 200, out)
}

func (f *fakeMealie) event(w http.ResponseWriter, r *http.Request) {
	b := decode(r)
	b["id"] = uuid.NewString()
	writeJSON(w, 201, b)
}

func (f *fakeMealie) lastMade(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, rec := f.lookup(r.PathValue("slug"))
	if rec == nil {
		notFound(w)
		return
	}
	rec["lastMade"] = decode(r)["timestamp"]
	writeJSON(w, 200, rec)
}

func (f *fakeMealie) find(kind, id string) map[string]any {
	for _, it := range f.taxonomy[kind] {
		if it["id"] == id {
			return it
		}
	}
	return nil
}

func (f *fakeMealie) taxList(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		items := f.taxonomy[kind]
		writeJSON(w, 200, map[string]any{"page": 1, "per_page": 500, "total": len(items), "total_pages": 1, "items": items})
	}
}

func (f *fakeMealie) taxCreate(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		b := decode(r)
		b["id"] = uuid.NewString()
		if kind == "tags" || kind == "categories" || kind == "tools" {
			b["slug"] = mealieslug.Make(b["name"].(string))
		}
		f.taxonomy[kind] = append(f.taxonomy[kind], b)
		writeJSON(w, 201, b)
	}
}

func (f *fakeMealie) taxGet(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if it := f.find(kind, r.PathValue("id")); it != nil {
			writeJSON(w, 200, it)
			return
		}
		writeJSON(w, 404, map[string]any{"detail": map[string]any{"message": "Not found.", "error": true}})
	}
}

func (f *fakeMealie) taxPut(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		it := f.find(kind, r.PathValue("id"))
		if it == nil {
			writeJSON(w, 404, map[string]any{"detail": "Not Found"})
			return
		}
		for k := range it {
			delete(it, k)
		}
		for k, v := range decode(r) {
			it[k] = v
		}
		writeJSON(w, 200, it)
	}
}

// taxDelete deletes whatever recipes use, like Mealie 2.0
// (TestDeleteFoodInUseNullsIngredient in integration/contract); a deleted tag, category or tool
// leaves every recipe's list, as Mealie drops the association rows.
func (f *fakeMealie) taxDelete(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		id := r.PathValue("id")
		items := f.taxonomy[kind]
		for i, it := range items {
			if it["id"] == id {
				f.taxonomy[kind] = append(items[:i:i], items[i+1:]...)
				key := map[string]string{"tags": "tags", "categories": "recipeCategory", "tools": "tools"}[kind]
				for _, rec := range f.recipes {
					if list, ok := rec[key].([]any); key != "" && ok {
						rec[key] = slices.DeleteFunc(slices.Clone(list), func(o any) bool { return o.(map[string]any)["id"] == id })
					}
				}
				writeJSON(w, 200, it)
				return
			}
		}
		writeJSON(w, 400, map[string]any{"detail": "Bad Request"})
	}
}

// isSearch reports whether a request is a search of the recipe list, the
// request an unknown filter must never reach: SearchRecipes asks for A to Z
// (orderDirection=asc), which the library sweeps (AllRecipes) do not.
func isSearch(l logged) bool {
	return l.Method == http.MethodGet && l.Path == "/api/recipes" && strings.Contains(l.Query, "orderDirection=asc")
}
