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
	"github.com/mozillazg/go-unidecode"
)

// searchPunctuation is what Mealie's SearchFilter turns into spaces before it
// splits a search into tokens: string.punctuation without the quotes
// (mealie/schema/response/query_search.py).
const searchPunctuation = "!#$%&()*+,-./:;<=>?@[\\]^_`{|}~"

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
	joined := -1 // rows of the filter's join, when a filter ran
	if filter != "" {
		expr, err := parseQueryFilter(filter, st.recipeFilterAttrs())
		if err != nil {
			err.write(w)
			return
		}
		expr.foldCase = st.profile.caseInsensitiveFilter
		expr.oneIsIn = st.profile.containsAllOneIsIn
		var kept []*recipe
		joined = 0
		for _, rc := range rows {
			if n := expr.matchCount(rc); n > 0 {
				kept = append(kept, rc)
				joined += n
			}
		}
		rows = kept
	}
	search := q.Get("search")
	if search != "" {
		rows = st.searchRecipes(rows, search)
	}
	if pq.hasOrderBy {
		if err := st.orderRecipes(rows, pq); err != nil {
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
	}
	total := len(rows)
	if st.profile.filterCountsJoinRows && joined >= 0 && search == "" {
		total = joined
	}
	pg, pp, totalPages, lo, hi := window(total, pq.Page, pq.PerPage)
	lo, hi = min(lo, len(rows)), min(hi, len(rows))
	items := make([]any, 0, hi-lo)
	for _, rc := range rows[lo:hi] {
		items = append(items, st.renderSummary(rc))
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

// normalizeSearch lowercases and transliterates, as Mealie's *_normalized
// columns and RecipeSummary._normalize_search do.
func normalizeSearch(s string) string {
	return strings.ToLower(unidecode.Unidecode(s))
}

// searchTokens splits a search the way Mealie's SearchFilter does: quoted
// phrases stay whole, everything else is split on whitespace and punctuation.
func searchTokens(search string) []string {
	search = normalizeSearch(search)
	var tokens []string
	for {
		i := strings.IndexAny(search, `"'`)
		if i < 0 {
			break
		}
		j := strings.IndexByte(search[i+1:], search[i])
		if j < 0 {
			break
		}
		if phrase := strings.TrimSpace(search[i+1 : i+1+j]); phrase != "" {
			tokens = append(tokens, phrase)
		}
		search = search[:i] + " " + search[i+2+j:]
	}
	search = strings.Map(func(r rune) rune {
		if strings.ContainsRune(searchPunctuation, r) {
			return ' '
		}
		return r
	}, search)
	return append(tokens, strings.Fields(search)...)
}

// searchRecipes keeps recipes where any token is a substring of the name, the
// description, or an ingredient's note or original text, and puts recipes whose
// name contains the whole search first (Mealie 2.0 RecipeSummary.filter_search_query,
// tokenized branch).
func (st *store) searchRecipes(rows []*recipe, search string) []*recipe {
	tokens := searchTokens(search)
	if len(tokens) == 0 {
		return rows
	}
	whole := normalizeSearch(strings.TrimSpace(search))
	var hits, rest []*recipe
	for _, r := range rows {
		fields := []string{normalizeSearch(r.Name), normalizeSearch(r.Description)}
		for _, in := range r.Ingredients {
			fields = append(fields, normalizeSearch(in.Note))
			if in.OriginalText != nil {
				fields = append(fields, normalizeSearch(*in.OriginalText))
			}
		}
		match := false
		for _, t := range tokens {
			for _, f := range fields {
				if strings.Contains(f, t) {
					match = true
				}
			}
		}
		if !match {
			continue
		}
		if strings.Contains(normalizeSearch(r.Name), whole) {
			hits = append(hits, r)
		} else {
			rest = append(rest, r)
		}
	}
	return append(hits, rest...)
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
// shuffles deterministically by paginationSeed.
func (st *store) orderRecipes(rows []*recipe, pq pageQuery) error {
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
