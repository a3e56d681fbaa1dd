package library

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"connectrpc.com/connect"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// LibraryStats limits.
const (
	// DefaultTop is how many items LibraryStats returns unless asked: a
	// screenful.
	DefaultTop = limits.DefaultTop
	// MaxTop caps top: past 500 rows the report stops being a summary.
	MaxTop = limits.Top
	// MaxUnusedListed caps the unused names listed: a generated taxonomy of
	// thousands of foods would otherwise be a reply of thousands of lines.
	MaxUnusedListed = 500
	// sweepPageSize is the recipes service's list page size
	// (mealie.RecipePageSize: 100 a request), used to price a detail sweep.
	sweepPageSize = 100
	// foodChunk is how many food ids one count query carries at first:
	// 64 UUIDs make a URL of about 3 KB, well under the 8 KB request-line
	// limits of common proxies in front of Mealie.
	foodChunk = 64
	// foodQueryFanout is how many count queries run at once, as many as
	// the detail sweep runs (mealie.Fanout).
	foodQueryFanout = 8
)

// errOverBudget stops the per-food queries once they cost more than the
// detail sweep would have.
var errOverBudget = errors.New("per-food queries over budget")

// statsEntry is a counted resource, cached until the library changes.
type statsEntry struct {
	fingerprint string
	counts      map[string]int32
	names       map[string]string
	stats       sweepStats
	method      string
	// items is the resource's item list the counts were made against.
	items []taxonomyItem
}

// statsCache holds the last counts per resource and scan size.
type statsCache struct {
	mu sync.Mutex
	m  map[string]*statsEntry
	// foodQueryCost is the request count of the last per-food count, the
	// best estimate of the next one.
	foodQueryCost int
}

// LibraryStats counts the recipes using each item of a resource.
//
// Tags, categories and tools come from a summary sweep (a handful of
// requests). Foods come from whichever of two methods needs fewer Mealie
// requests, counted before choosing:
//
//   - the detail sweep through the recipes service: one list request per
//     100 recipes plus one detail request per recipe not in its cache;
//   - per-food count queries (GET /api/recipes?foods=…&perPage=1, whose
//     total is the number of recipes using any of the foods), split like a
//     group test: a chunk of 64 foods whose total is 0 settles 64 unused
//     foods in one request, and a chunk with a total is halved until each
//     used food has its own count. The cost is about the number of chunks
//     plus two per used food.
//
// On a cold 2,000-recipe library with 1,040 foods the detail sweep is
// 2,020 requests and the per-food queries about 150; once the recipes
// service holds every detail, the detail sweep is 20. The per-food queries
// are run under a budget of the detail sweep's price and abandoned for it
// if they overrun. They count the whole library, so they run only when
// max_recipes covers it. Units always take the detail sweep: Mealie's list
// has no units filter.
//
// Counts are cached with a fingerprint of the library: the total and the
// most recently updated row of the recipe list and of the resource's list,
// two requests made at once. A warm report with an unchanged fingerprint
// costs only those; after a write the count is made again, by per-food
// queries or by a detail sweep in which the recipes service re-reads only
// the recipes written.
func (s *Service) LibraryStats(ctx context.Context, req *connect.Request[libraryv1.LibraryStatsRequest], stream *connect.ServerStream[libraryv1.LibraryStatsResponse]) error {
	m := req.Msg
	kind, ok := statsKinds[m.GetResource()]
	if !ok {
		return invalid("resource is required: tags, categories, tools, foods or units")
	}
	top := m.GetTop()
	if top == 0 {
		top = DefaultTop
	}
	if top < 1 || top > MaxTop {
		return invalid("top must be between 1 and %d, got %d", MaxTop, top)
	}
	max, err := scanLimit(m.GetMaxRecipes(), MaxScanRecipes)
	if err != nil {
		return err
	}
	includeUnused := m.IncludeUnused == nil || m.GetIncludeUnused()
	progress := func(p *libraryv1.ReportProgress) error {
		return stream.Send(&libraryv1.LibraryStatsResponse{Event: &libraryv1.LibraryStatsResponse_Progress{Progress: p}})
	}
	entry, items, err := s.countResource(ctx, m.GetResource(), kind, max, progress)
	if err != nil {
		if ctx.Err() != nil {
			return connect.NewError(connect.CodeCanceled, ctx.Err())
		}
		return mealie.ConnectError(err)
	}
	res := buildStats(kind, entry, items, int(top), includeUnused)
	return stream.Send(&libraryv1.LibraryStatsResponse{Event: &libraryv1.LibraryStatsResponse_Result{Result: res}})
}

var statsKinds = map[libraryv1.StatsResource]taxonomyKind{
	libraryv1.StatsResource_STATS_RESOURCE_TAGS:       kindTags,
	libraryv1.StatsResource_STATS_RESOURCE_CATEGORIES: kindCategories,
	libraryv1.StatsResource_STATS_RESOURCE_TOOLS:      kindTools,
	libraryv1.StatsResource_STATS_RESOURCE_FOODS:      kindFoods,
	libraryv1.StatsResource_STATS_RESOURCE_UNITS:      kindUnits,
}

// countResource returns the counts (from the cache when the library has not
// changed) and the resource's items.
func (s *Service) countResource(ctx context.Context, res libraryv1.StatsResource, kind taxonomyKind, max int32, progress progressFunc) (*statsEntry, []taxonomyItem, error) {
	var (
		recipesFP, itemsFP   libraryPrint
		recipesErr, itemsErr error
		wg                   sync.WaitGroup
	)
	wg.Add(2)
	go func() { defer wg.Done(); recipesFP, recipesErr = s.newest(ctx, "/api/recipes", "recipe list") }()
	go func() { defer wg.Done(); itemsFP, itemsErr = s.newest(ctx, kind.path, kind.noun+" list") }()
	wg.Wait()
	if err := errors.Join(recipesErr, itemsErr); err != nil {
		return nil, nil, err
	}
	key := fmt.Sprintf("%s/%d", kind.plural, max)
	cacheable := recipesFP.ok && itemsFP.ok
	print := recipesFP.print + "/" + itemsFP.print
	c := &s.stats
	c.mu.Lock()
	if e := c.m[key]; e != nil && cacheable && e.fingerprint == print {
		c.mu.Unlock()
		out := *e
		out.method = "cached: library unchanged since the last count (2 Mealie requests to check); " + e.method
		if err := progress(&libraryv1.ReportProgress{Scanned: e.stats.scanned, Total: e.stats.total, Message: "library unchanged: reusing the last count"}); err != nil {
			return nil, nil, err
		}
		return &out, e.items, nil
	}
	queryCost := c.foodQueryCost
	c.mu.Unlock()

	items, _, err := s.taxonomyList(ctx, kind)
	if err != nil {
		return nil, nil, err
	}
	var e *statsEntry
	switch res {
	case libraryv1.StatsResource_STATS_RESOURCE_FOODS:
		e, err = s.countFoods(ctx, items, recipesFP.total, max, queryCost, progress)
	default:
		e, err = s.countBySweep(ctx, res, items, max, progress)
	}
	if err != nil {
		return nil, nil, err
	}
	e.fingerprint, e.items = print, items
	if cacheable {
		c.mu.Lock()
		c.m[key] = e
		c.mu.Unlock()
	}
	return e, items, nil
}

// libraryPrint identifies the state of one Mealie list in one request.
type libraryPrint struct {
	print string
	total int32
	// ok is false when Mealie refused every ordering tried: then nothing
	// is cached.
	ok bool
}

// updateColumns are the names Mealie's lists may accept for "last
// updated", tried in order: update_at is the column of Mealie's base model
// (and what the emulator's recipe list takes), updated_at what the
// emulator's taxonomy lists take. The first one a path accepts is
// remembered.
var updateColumns = []string{"update_at", "updated_at"}

// newest reads a list's total and its most recently updated row
// (?perPage=1&orderBy=update_at&orderDirection=desc). Creating, editing or
// deleting a row changes one or the other, so together they fingerprint the
// list: a recipe write, a food renamed, merged or deleted.
func (s *Service) newest(ctx context.Context, path, resource string) (libraryPrint, error) {
	start := 0
	if v, ok := s.orderColumn.Load(path); ok {
		start = v.(int)
	}
	var last error
	for i := start; i < len(updateColumns); i++ {
		var p mealie.Page[json.RawMessage]
		q := url.Values{"page": {"1"}, "perPage": {"1"}, "orderBy": {updateColumns[i]}, "orderDirection": {"desc"}}
		err := s.mealie.Do(ctx, mealie.Request{Method: http.MethodGet, Path: path, Query: q, Resource: resource}, &p)
		if err == nil {
			s.orderColumn.Store(path, i)
			h := sha256.New()
			fmt.Fprintf(h, "%d\n", p.Total)
			for _, it := range p.Items {
				h.Write(it)
			}
			return libraryPrint{print: hex.EncodeToString(h.Sum(nil)), total: int32(p.Total), ok: true}, nil
		}
		if mealie.StatusOf(err) != http.StatusBadRequest && mealie.StatusOf(err) != http.StatusUnprocessableEntity {
			return libraryPrint{}, err
		}
		last = err
	}
	s.log.Debug("no update ordering on this list: reports are not cached", "path", path, "err", last)
	s.orderColumn.Store(path, len(updateColumns))
	var p mealie.Page[json.RawMessage]
	q := url.Values{"page": {"1"}, "perPage": {"1"}}
	if err := s.mealie.Do(ctx, mealie.Request{Method: http.MethodGet, Path: path, Query: q, Resource: resource}, &p); err != nil {
		return libraryPrint{}, err
	}
	return libraryPrint{total: int32(p.Total)}, nil
}

// countBySweep counts through the recipes service's sweep: summaries for
// tags, categories and tools, details for foods and units.
func (s *Service) countBySweep(ctx context.Context, res libraryv1.StatsResource, items []taxonomyItem, max int32, progress progressFunc) (*statsEntry, error) {
	byName := map[string]string{}
	for _, it := range items {
		byName[strings.ToLower(strings.TrimSpace(it.Name))] = it.ID
	}
	e := &statsEntry{counts: map[string]int32{}, names: map[string]string{}}
	// key maps a name (and id, when the payload has one) to a count key:
	// the item's id when it is known, else the name, so an item created
	// during the sweep is still counted.
	key := func(id, name string) string {
		if id != "" {
			return id
		}
		if known := byName[strings.ToLower(strings.TrimSpace(name))]; known != "" {
			return known
		}
		return "name:" + name
	}
	view := recipesv1.RecipeView_RECIPE_VIEW_SUMMARY
	what := "reading recipe summaries"
	if res == libraryv1.StatsResource_STATS_RESOURCE_FOODS || res == libraryv1.StatsResource_STATS_RESOURCE_UNITS {
		view, what = recipesv1.RecipeView_RECIPE_VIEW_DETAIL, "reading recipe details"
	}
	var slugs []string
	st, err := s.sweep(ctx, max, view, what, progress, func(r *recipesv1.Recipe) {
		slugs = append(slugs, r.GetSlug())
		seen := map[string]bool{}
		add := func(id, name string) {
			if id == "" && strings.TrimSpace(name) == "" {
				return
			}
			k := key(id, name)
			if !seen[k] {
				seen[k] = true
				e.counts[k]++
				e.names[k] = name
			}
		}
		switch res {
		case libraryv1.StatsResource_STATS_RESOURCE_TAGS:
			for _, n := range r.GetTags() {
				add("", n)
			}
		case libraryv1.StatsResource_STATS_RESOURCE_CATEGORIES:
			for _, n := range r.GetCategories() {
				add("", n)
			}
		case libraryv1.StatsResource_STATS_RESOURCE_TOOLS:
			for _, n := range r.GetTools() {
				add("", n)
			}
		case libraryv1.StatsResource_STATS_RESOURCE_FOODS:
			for _, in := range r.GetIngredients() {
				add(in.GetFoodId(), in.GetFood())
			}
		case libraryv1.StatsResource_STATS_RESOURCE_UNITS:
			for _, in := range r.GetIngredients() {
				add(in.GetUnitId(), in.GetUnit())
			}
		}
	})
	if err != nil {
		return nil, err
	}
	e.stats = *st
	if view == recipesv1.RecipeView_RECIPE_VIEW_DETAIL {
		s.detailMu.Lock()
		uncached := 0
		for _, sl := range slugs {
			if !s.detailSeen[sl] {
				uncached++
			}
			if len(s.detailSeen) < MaxScanRecipes*2 {
				s.detailSeen[sl] = true
			}
		}
		s.detailMu.Unlock()
		e.method = fmt.Sprintf("detail sweep through the recipes service: %d recipes, about %d Mealie requests (%d list pages, %d details not read before)",
			st.scanned, pages(st.total)+uncached, pages(st.total), uncached)
	} else {
		e.method = fmt.Sprintf("summary sweep through the recipes service: %d recipes, about %d Mealie requests", st.scanned, pages(st.total))
	}
	return e, nil
}

func pages(n int32) int { return int((n + sweepPageSize - 1) / sweepPageSize) }

// detailPrice estimates the Mealie requests of a detail sweep of n
// recipes: list pages plus the details this process has not read before.
func (s *Service) detailPrice(n int32) int {
	s.detailMu.Lock()
	seen := len(s.detailSeen)
	s.detailMu.Unlock()
	return pages(n) + max(0, int(n)-seen)
}

// countFoods chooses between per-food queries and the detail sweep by
// their request counts (see LibraryStats) and runs the cheaper.
func (s *Service) countFoods(ctx context.Context, foods []taxonomyItem, libraryTotal, maxRecipes int32, lastQueryCost int, progress progressFunc) (*statsEntry, error) {
	scan := min(libraryTotal, maxRecipes)
	detail := s.detailPrice(scan)
	queryEstimate := lastQueryCost
	if queryEstimate == 0 {
		// Never run: its floor is one request per chunk.
		queryEstimate = (len(foods) + foodChunk - 1) / foodChunk
	}
	if maxRecipes < libraryTotal || queryEstimate >= detail {
		return s.countBySweep(ctx, libraryv1.StatsResource_STATS_RESOURCE_FOODS, foods, maxRecipes, progress)
	}
	counts, used, err := s.countFoodsByQuery(ctx, foods, detail, progress)
	if errors.Is(err, errOverBudget) {
		s.log.Info("per-food queries overran the detail sweep's price; sweeping", "requests", used, "budget", detail)
		e, err := s.countBySweep(ctx, libraryv1.StatsResource_STATS_RESOURCE_FOODS, foods, maxRecipes, progress)
		if e != nil {
			e.method += fmt.Sprintf(" (after %d per-food queries overran it)", used)
		}
		return e, err
	}
	if err != nil {
		return nil, err
	}
	c := &s.stats
	c.mu.Lock()
	c.foodQueryCost = used
	c.mu.Unlock()
	e := &statsEntry{counts: counts, names: map[string]string{}}
	for _, f := range foods {
		e.names[f.ID] = f.Name
	}
	// The queries cover every recipe: all were reached and counted.
	e.stats = sweepStats{total: libraryTotal, libraryTotal: libraryTotal, scanned: libraryTotal, processed: libraryTotal}
	e.method = fmt.Sprintf("per-food count queries: %d Mealie requests for %d foods (a detail sweep would take about %d)", used, len(foods), detail)
	return e, nil
}

// countFoodsByQuery counts recipes per food with list queries whose total is
// the number of recipes using any of the foods given. It returns the counts
// of used foods and the requests made; past budget requests it stops with
// errOverBudget.
func (s *Service) countFoodsByQuery(ctx context.Context, foods []taxonomyItem, budget int, progress progressFunc) (map[string]int32, int, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		requests atomic.Int64
		done     atomic.Int64
		mu       sync.Mutex
		counts   = map[string]int32{}
		sem      = make(chan struct{}, foodQueryFanout)
		wg       sync.WaitGroup
		progMu   sync.Mutex
		lastSent int64
	)
	total := int32(len(foods))
	if err := progress(&libraryv1.ReportProgress{Scanned: 0, Total: total, Message: "counting recipes per food"}); err != nil {
		return nil, 0, err
	}
	query := func(ids []string) (int, error) {
		if n := requests.Add(1); int(n) > budget {
			return 0, errOverBudget
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return 0, context.Cause(ctx)
		}
		defer func() { <-sem }()
		p, err := s.mealie.ListRecipes(ctx, mealie.RecipeQuery{Page: 1, PerPage: 1, Foods: ids})
		if err != nil {
			return 0, err
		}
		return p.Total, nil
	}
	settle := func(n int) {
		d := done.Add(int64(n))
		progMu.Lock()
		defer progMu.Unlock()
		// About twenty messages whatever the number of foods.
		if d < int64(total) && d-lastSent < max(1, int64(total)/20) {
			return
		}
		lastSent = d
		if err := progress(&libraryv1.ReportProgress{Scanned: int32(d), Total: total, Message: "counting recipes per food"}); err != nil {
			cancel(err)
		}
	}
	// solve settles group, whose total is known (or -1 for unknown).
	var solve func(group []taxonomyItem, known int)
	solve = func(group []taxonomyItem, known int) {
		defer wg.Done()
		if ctx.Err() != nil {
			return
		}
		if known < 0 {
			ids := make([]string, len(group))
			for i, f := range group {
				ids[i] = f.ID
			}
			t, err := query(ids)
			if err != nil {
				cancel(err)
				return
			}
			known = t
		}
		if known == 0 {
			settle(len(group))
			return
		}
		if len(group) == 1 {
			mu.Lock()
			counts[group[0].ID] = int32(known)
			mu.Unlock()
			settle(1)
			return
		}
		half := len(group) / 2
		left, right := group[:half], group[half:]
		ids := make([]string, len(left))
		for i, f := range left {
			ids[i] = f.ID
		}
		tl, err := query(ids)
		if err != nil {
			cancel(err)
			return
		}
		if tl == 0 {
			// Nothing on the left: the right holds the whole total.
			settle(len(left))
			wg.Add(1)
			solve(right, known)
			return
		}
		wg.Add(2)
		go solve(left, tl)
		go solve(right, -1)
	}
	for lo := 0; lo < len(foods); lo += foodChunk {
		wg.Add(1)
		go solve(foods[lo:min(lo+foodChunk, len(foods))], -1)
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, int(min(requests.Load(), int64(budget))), err
	}
	return counts, int(requests.Load()), nil
}

// buildStats turns counts into the report: used items by count (then
// name), the unused ones by name, and what was left out.
func buildStats(kind taxonomyKind, e *statsEntry, items []taxonomyItem, top int, includeUnused bool) *libraryv1.LibraryStatsResult {
	out := &libraryv1.LibraryStatsResult{
		Scanned:      e.stats.scanned,
		LibraryTotal: e.stats.libraryTotal,
		Unreadable:   e.stats.failures,
		Method:       e.method,
	}
	idName := map[string]string{}
	for _, it := range items {
		idName[it.ID] = it.Name
	}
	for k, n := range e.counts {
		name := idName[k]
		id := k
		if name == "" {
			name = e.names[k]
		}
		if strings.HasPrefix(k, "name:") {
			id = ""
		}
		out.Items = append(out.Items, &libraryv1.UsageCount{Name: name, Id: id, RecipeCount: n})
	}
	slices.SortFunc(out.Items, func(a, b *libraryv1.UsageCount) int {
		if a.RecipeCount != b.RecipeCount {
			return int(b.RecipeCount - a.RecipeCount)
		}
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	var notes []string
	if note := e.stats.truncatedNote(); note != "" {
		notes = append(notes, note)
	}
	if len(out.Items) > top {
		notes = append(notes, fmt.Sprintf("showing %d of %d %s — raise top", top, len(out.Items), kind.plural))
		out.Items = out.Items[:top]
	}
	// An unreadable recipe may use any item, so with one in the sweep no
	// item is known to be unused: listing them would invite deleting
	// what is in use.
	if includeUnused && len(e.stats.failures) > 0 {
		notes = append(notes, fmt.Sprintf("unused %s not listed: the unreadable recipes may use them", kind.plural))
		includeUnused = false
	}
	if includeUnused {
		for _, it := range items {
			if _, used := e.counts[it.ID]; !used {
				out.Unused = append(out.Unused, it.Name)
			}
		}
		slices.SortFunc(out.Unused, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
		if len(out.Unused) > MaxUnusedListed {
			notes = append(notes, fmt.Sprintf("listing %d of %d unused %s", MaxUnusedListed, len(out.Unused), kind.plural))
			out.Unused = out.Unused[:MaxUnusedListed]
		}
	}
	if kind == kindFoods || kind == kindUnits {
		out.NearDuplicates = nearDuplicates(items)
		if len(out.NearDuplicates) > MaxNearDuplicates {
			notes = append(notes, fmt.Sprintf("showing %d of %d groups of near-duplicate %s", MaxNearDuplicates, len(out.NearDuplicates), kind.plural))
			out.NearDuplicates = out.NearDuplicates[:MaxNearDuplicates]
		}
	}
	out.Truncated = strings.Join(notes, "; ")
	return out
}

// MaxNearDuplicates bounds the groups a report lists: a library imported
// from priced recipe pages has a few dozen, and each is one merge.
const MaxNearDuplicates = 50

// nearDuplicates groups items whose names share names.Key: the same food
// however it is cased, counted, spelt or priced ("tomato ($0.45)" beside
// "tomato"), or named in another English ("aubergine" beside "eggplant").
// In each group a clean name (names.IsDebris) comes first, then by
// length, so the first is the one to merge the others into.
func nearDuplicates(items []taxonomyItem) []*libraryv1.NameGroup {
	by := map[string][]string{}
	var keys []string
	for _, it := range items {
		k := names.Key(it.Name)
		if k == "" {
			continue
		}
		// numbers set aside by Key still tell "00 flour" from "flour";
		// a price does not
		for _, w := range strings.Fields(it.Name) {
			if strings.ContainsFunc(w, unicode.IsDigit) && !strings.Contains(w, "$") {
				k += " " + w
			}
		}
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], it.Name)
	}
	slices.Sort(keys)
	var out []*libraryv1.NameGroup
	for _, k := range keys {
		ns := by[k]
		if len(ns) < 2 {
			continue
		}
		slices.SortStableFunc(ns, func(a, b string) int {
			if da, db := names.IsDebris(a), names.IsDebris(b); da != db {
				if da {
					return 1
				}
				return -1
			}
			return len(a) - len(b)
		})
		out = append(out, &libraryv1.NameGroup{Key: k, Names: ns})
	}
	return out
}
