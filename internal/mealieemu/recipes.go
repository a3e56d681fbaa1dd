package mealieemu

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// handleListRecipes is GET /api/recipes: filters, search, ordering and the
// pagination envelope of recipes_list__*.json.
func (s *Server) handleListRecipes(w http.ResponseWriter, r *http.Request) {
	pq, ok := parsePageQuery(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()

	rows := slices.Clone(st.recipes)
	filter := pq.QueryFilter
	if cb := q.Get("cookbook"); cb != "" {
		book := st.cookbookByKey(cb)
		if book == nil {
			writeDetail(w, http.StatusNotFound, "cookbook not found")
			return
		}
		// A cookbook replaces the organizer filters with its own query filter,
		// ANDed with any queryFilter (mealie/repos/repository_recipes.py page_all).
		switch {
		case filter != "" && book.QueryFilterString != "":
			filter = "(" + filter + ") AND (" + book.QueryFilterString + ")"
		case book.QueryFilterString != "":
			filter = book.QueryFilterString
		}
	} else {
		var failed bool
		rows, failed = st.filterByOrganizers(rows, q)
		if failed {
			// foods accepts ids only; a name makes the query fail unhandled.
			writeInternal(w)
			return
		}
	}
	// joins is how many rows of the filter's join each recipe is
	// (queryfilter.go matchCount); nil when no filter ran.
	var joins map[*recipe]int
	if filter != "" {
		expr, err := parseQueryFilter(filter, st.recipeFilterAttrs())
		if err != nil {
			err.write(w)
			return
		}
		expr.foldCase = st.profile.caseInsensitiveFilter
		expr.oneIsIn = st.profile.containsAllOneIsIn
		var kept []*recipe
		joins = map[*recipe]int{}
		for _, rc := range rows {
			if n := expr.matchCount(rc); n > 0 {
				kept = append(kept, rc)
				joins[rc] = n
			}
		}
		rows = kept
	}
	search := q.Get("search")
	var ranks map[*recipe]float64
	if search != "" {
		rows, ranks = st.searchRecipes(rows, search)
	}
	if pq.hasOrderBy {
		if err := st.orderRecipes(rows, pq, ranks); err != nil {
			writeDetail(w, http.StatusBadRequest, err.Error())
			return
		}
	} else if search == "" {
		// Default ordering is created_at, newest first
		// (mealie/repos/repository_generic.py page_all).
		slices.Reverse(rows)
		if pq.OrderDirection == "asc" {
			slices.Reverse(rows)
		}
	} else if ranks != nil {
		slices.SortStableFunc(rows, func(a, b *recipe) int { return cmp.Compare(ranks[a], ranks[b]) })
	}
	// Mealie pages the rows of the filter's join, each recipe as many rows
	// as it joins, and lists each recipe of a page once; 2.x counts those
	// rows for total, 3.x counts recipes
	// (testdata/recordings/<version>/TestFilterPagesJoinedRows.json in the
	// contract package).
	var joined []*recipe
	for _, rc := range rows {
		n := 1
		if joins != nil {
			n = joins[rc]
		}
		for range n {
			joined = append(joined, rc)
		}
	}
	total := len(rows)
	if st.profile.filterCountsJoinRows && joins != nil && search == "" {
		total = len(joined)
	}
	pg, pp, totalPages, _, _ := window(total, pq.Page, pq.PerPage)
	// every row for perPage=-1: 2.x takes per_page rows, its row count;
	// 3.x sets no limit
	lo, hi := 0, len(joined)
	if pq.PerPage != -1 {
		lo, hi = min((pg-1)*pq.PerPage, len(joined)), min(pg*pq.PerPage, len(joined))
	}
	items := make([]any, 0, hi-lo)
	seen := map[*recipe]bool{}
	for _, rc := range joined[lo:hi] {
		if !seen[rc] {
			seen[rc] = true
			items = append(items, st.renderSummary(rc))
		}
	}
	writeJSON(w, http.StatusOK, envelope("/recipes", pg, pp, total, totalPages, items, recipeLinkParams(r, pq, st.profile.pageParamsLast)))
}

// filterByOrganizers applies the categories, tags, tools and foods filters.
// Each accepts slugs or ids, repeated values are ORed unless requireAllX=true,
// and a value that resolves to nothing is dropped, so an unknown slug alone
// leaves the list unfiltered. Foods take
// ids only; failed reports a food given by name.
func (st *store) filterByOrganizers(rows []*recipe, q map[string][]string) (out []*recipe, failed bool) {
	type dim struct {
		key, requireKey string
		list            []*organizer
		ids             func(*recipe) []string
	}
	dims := []dim{
		{"categories", "requireAllCategories", st.categories, func(r *recipe) []string { return r.CategoryIDs }},
		{"tags", "requireAllTags", st.tags, func(r *recipe) []string { return r.TagIDs }},
		{"tools", "requireAllTools", st.tools, func(r *recipe) []string { return r.ToolIDs }},
	}
	for _, d := range dims {
		var want []string
		for _, v := range q[d.key] {
			if o := findOrganizer(d.list, v); o != nil {
				want = append(want, o.ID)
			}
		}
		if len(want) == 0 {
			continue
		}
		all := truthy(first(q[d.requireKey]))
		rows = filterRows(rows, func(r *recipe) bool { return matchIDs(d.ids(r), want, all) })
	}
	if foods := q["foods"]; len(foods) > 0 {
		for _, f := range foods {
			if _, err := uuid.Parse(f); err != nil {
				return nil, true
			}
		}
		all := truthy(first(q["requireAllFoods"]))
		rows = filterRows(rows, func(r *recipe) bool {
			var ids []string
			for _, in := range r.Ingredients {
				if in.FoodID != nil {
					ids = append(ids, *in.FoodID)
				}
			}
			return matchIDs(ids, foods, all)
		})
	}
	return rows, false
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// truthy parses a boolean query value as FastAPI does.
func truthy(v string) bool {
	switch strings.ToLower(v) {
	case "1", "true", "on", "yes", "t", "y":
		return true
	}
	return false
}

func filterRows(rows []*recipe, keep func(*recipe) bool) []*recipe {
	var out []*recipe
	for _, r := range rows {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func matchIDs(have, want []string, all bool) bool {
	for _, w := range want {
		found := slices.Contains(have, w)
		if all && !found {
			return false
		}
		if !all && found {
			return true
		}
	}
	return all
}

// recipeOrderKeys maps an orderBy attribute, in either case style, to a sort
// key. Anything else is Mealie's 400.
func (st *store) recipeOrderKey(attr string) (func(*recipe) (any, bool), bool) {
	str := func(f func(*recipe) string) func(*recipe) (any, bool) {
		return func(r *recipe) (any, bool) { return strings.ToLower(f(r)), true }
	}
	tm := func(f func(*recipe) time.Time) func(*recipe) (any, bool) {
		return func(r *recipe) (any, bool) { return f(r), true }
	}
	switch attr {
	case "name":
		return str(func(r *recipe) string { return r.Name }), true
	case "slug":
		return str(func(r *recipe) string { return r.Slug }), true
	case "description":
		return str(func(r *recipe) string { return r.Description }), true
	case "created_at", "createdAt":
		return tm(func(r *recipe) time.Time { return r.CreatedAt }), true
	case "updated_at", "updatedAt", "update_at":
		return tm(func(r *recipe) time.Time { return r.UpdatedAt }), true
	case "date_added", "dateAdded":
		return tm(func(r *recipe) time.Time { return r.DateAdded }), true
	case "date_updated", "dateUpdated":
		return tm(func(r *recipe) time.Time { return r.DateUpdated }), true
	case "last_made", "lastMade":
		return func(r *recipe) (any, bool) {
			if r.LastMade == nil {
				return nil, false
			}
			return *r.LastMade, true
		}, true
	case "rating":
		return func(r *recipe) (any, bool) {
			if r.Rating == nil {
				return nil, false
			}
			return *r.Rating, true
		}, true
	case "total_time", "totalTime", "prep_time", "prepTime", "perform_time", "performTime", "cook_time", "cookTime":
		return func(r *recipe) (any, bool) {
			v := map[string]*string{"total": r.TotalTime, "prep": r.PrepTime, "perform": r.PerformTime, "cook": r.CookTime}[strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(attr), "_time"), "time")]
			if v == nil {
				return nil, false
			}
			return strings.ToLower(*v), true
		}, true
	}
	return nil, false
}

// orderRecipes sorts rows by pq.OrderBy, which may list several attributes
// separated by commas, each optionally suffixed ":asc" or ":desc". Rows whose
// key is null go last unless orderByNullPosition says first. orderBy=random
// shuffles deterministically by paginationSeed. ranks, when a search ran,
// is the search's order, which comes first (search.go).
func (st *store) orderRecipes(rows []*recipe, pq pageQuery, ranks map[*recipe]float64) error {
	if ranks != nil {
		defer slices.SortStableFunc(rows, func(a, b *recipe) int { return cmp.Compare(ranks[a], ranks[b]) })
	}
	if pq.OrderBy == "random" {
		h := func(r *recipe) uint64 {
			f := fnv.New64a()
			_, _ = f.Write([]byte(pq.PaginationSeed + r.ID))
			return f.Sum64()
		}
		slices.SortStableFunc(rows, func(a, b *recipe) int { return cmp.Compare(h(a), h(b)) })
		return nil
	}
	type key struct {
		get  func(*recipe) (any, bool)
		desc bool
	}
	var keys []key
	for _, part := range strings.Split(pq.OrderBy, ",") {
		attr, dir, hasDir := strings.Cut(strings.TrimSpace(part), ":")
		get, ok := st.recipeOrderKey(attr)
		if !ok {
			return fmt.Errorf("Invalid order_by statement %q: %q is invalid", pq.OrderBy, attr)
		}
		desc := pq.OrderDirection == "desc"
		if hasDir {
			desc = dir == "desc"
		}
		keys = append(keys, key{get, desc})
	}
	nullsFirst := pq.OrderByNull == "first"
	slices.SortStableFunc(rows, func(a, b *recipe) int {
		for _, k := range keys {
			va, oka := k.get(a)
			vb, okb := k.get(b)
			if !oka || !okb {
				if oka == okb {
					continue
				}
				c := 1
				if !oka {
					c = -1
				}
				if !nullsFirst {
					c = -c
				}
				return c
			}
			c := compareAny(va, vb)
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return nil
}

func compareAny(a, b any) int {
	switch x := a.(type) {
	case string:
		return cmp.Compare(x, b.(string))
	case float64:
		return cmp.Compare(x, b.(float64))
	case time.Time:
		return x.Compare(b.(time.Time))
	}
	return 0
}

// handleGetRecipe is GET /api/recipes/{slug}, by slug or id
// (services/internal/mealie/testdata/recipes_get__fresh.json).
func (s *Server) handleGetRecipe(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rc := st.findRecipe(r.PathValue("slug"))
	if rc == nil {
		writeNoEntry(w)
		return
	}
	if rc.broken {
		writeUnknownError(w, "ValidationError")
		return
	}
	w.Header().Set("Last-Modified", rc.UpdatedAt.UTC().Format(layoutZ))
	w.Header().Set("Cache-Control", "no-cache, no-store, must-revalidate")
	writeJSON(w, http.StatusOK, st.renderRecipe(rc))
}
