package library

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"
	"github.com/agnivade/levenshtein"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// Cookbook limits.
const (
	// MaxCookbookName bounds a cookbook's name: Mealie stores any length,
	// but a name is a heading, and 200 characters is already a sentence.
	MaxCookbookName = limits.CookbookNameChars
	// DefaultCookbookLimit is the page size of GetCookbookRecipes, the
	// search's default (the recipes service's DefaultSearchLimit).
	DefaultCookbookLimit = limits.DefaultCookbookLimit
	// MaxCookbookLimit caps a page, as the search does.
	MaxCookbookLimit = limits.CookbookLimit
	// MaxCookbookDescription caps a cookbook's description, in
	// characters: a paragraph or two is what one holds; the cap keeps a
	// runaway caller's megabyte from being stored on Mealie.
	MaxCookbookDescription = limits.CookbookDescriptionChars
	// MaxCookbookIDChars caps a cookbook id or slug: ids are 36-character
	// UUIDs, slugs come from names (MaxCookbookName). Checked before the
	// lookup, so an overlong id is neither sent nor echoed back.
	MaxCookbookIDChars = limits.CookbookIDChars
	// MaxCookbookQueryFilter caps a cookbook's query_filter.
	MaxCookbookQueryFilter = limits.CookbookQueryFilterChars
	// MaxCookbookPosition caps a cookbook's position.
	MaxCookbookPosition = limits.CookbookPosition
	// maxCloseMatches bounds the suggestions an unknown name gets.
	maxCloseMatches = 3
)

// FilterExample is one worked example of Mealie's queryFilterString syntax.
type FilterExample struct {
	// Filter is the filter text, as a cookbook's query_filter takes it.
	Filter string
	// Means says what it selects.
	Means string
}

// QueryFilterExamples are the worked examples of Mealie's filter syntax. A
// filter Mealie refuses is answered with them (filterHint), so a model meets
// the syntax when it needs it rather than in every session's catalog, whose
// query_filter description can afford only two (mcpfront, tools_library.go).
// Each is accepted by Mealie's parser: TestQueryFilterExamples in
// integration/services/library pins that.
var QueryFilterExamples = []FilterExample{
	{`last_made IS NULL`, "recipes never cooked"},
	// LIKE ignores case from Mealie 2.8 (PR #5162, "case insensitive query
	// filters") and on SQLite before it; only 2.x before 2.8 on PostgreSQL
	// matches case.
	{`name LIKE "%soup%"`, "names containing soup (% is any text; Mealie 2.8 and later ignore case)"},
	{`rating >= 4`, "rated 4 or more"},
	{`tags.name IN ["Quick", "Weeknight"]`, "tagged Quick or Weeknight (names as Mealie spells them)"},
	{`tags.name CONTAINS ALL ["Vegan", "Dinner"]`, "tagged both Vegan and Dinner"},
	{`recipe_category.name NOT IN ["Dessert"]`, "not in the Dessert category"},
	{`date_added > "2024-01-01"`, "added since 2024"},
	{`(tools.name IN ["Wok"]) OR (name LIKE "%stir%")`, "parentheses group; AND and OR combine"},
}

// filterHint is what a refused filter's error adds: the syntax's rules and
// every worked example, on one line each.
func filterHint() string {
	var b strings.Builder
	b.WriteString("Attributes are snake_case, strings in double quotes, lists in [...]; examples:")
	for _, e := range QueryFilterExamples {
		fmt.Fprintf(&b, "\n- `%s` — %s", e.Filter, e.Means)
	}
	return b.String()
}

// ListCookbooks lists the household's cookbooks by position.
func (s *Service) ListCookbooks(ctx context.Context, _ *connect.Request[libraryv1.ListCookbooksRequest]) (*connect.Response[libraryv1.ListCookbooksResponse], error) {
	books, err := s.mealie.ListCookbooks(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out := &libraryv1.ListCookbooksResponse{}
	for i := range books {
		out.Items = append(out.Items, cookbook(&books[i]))
	}
	// Mealie gives every new cookbook position 1 (testdata/cookbooks__list.json), so
	// the name breaks ties for a stable order.
	slices.SortStableFunc(out.Items, func(a, b *libraryv1.Cookbook) int {
		if a.Position != b.Position {
			return int(a.Position - b.Position)
		}
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	return connect.NewResponse(out), nil
}

// GetCookbookRecipes pages a cookbook's recipes through the recipes
// service's search, so they are shaped like search results.
func (s *Service) GetCookbookRecipes(ctx context.Context, req *connect.Request[libraryv1.GetCookbookRecipesRequest]) (*connect.Response[libraryv1.GetCookbookRecipesResponse], error) {
	m := req.Msg
	book := strings.TrimSpace(m.GetCookbook())
	if book == "" {
		return nil, invalid("cookbook is required")
	}
	page, limit := m.GetPage(), m.GetLimit()
	if page == 0 {
		page = 1
	}
	if limit == 0 {
		limit = DefaultCookbookLimit
	}
	if page < 1 {
		return nil, invalid("page must be 1 or more, got %d", page)
	}
	if limit < 1 || limit > MaxCookbookLimit {
		return nil, invalid("limit must be between 1 and %d, got %d", MaxCookbookLimit, limit)
	}
	res, err := s.recipes.SearchRecipes(ctx, connect.NewRequest(&recipesv1.SearchRecipesRequest{
		Cookbook: book, Page: &page, Limit: &limit,
	}))
	if err != nil {
		// Mealie answers an unknown cookbook with 404 "cookbook not found"
		// (testdata/recipes_list__cookbook_unknown_404.json); say which.
		if connect.CodeOf(err) == connect.CodeNotFound {
			return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("cookbook '%s' not found", book))
		}
		return nil, err
	}
	r := res.Msg
	return connect.NewResponse(&libraryv1.GetCookbookRecipesResponse{
		Items: r.GetItems(), Page: r.GetPage(), Limit: limit, Total: r.GetTotal(), TotalPages: r.GetTotalPages(),
	}), nil
}

// filterSpec is what a cookbook's filter is built from.
type filterSpec struct {
	tags, categories, tools []string
	requireAll              bool
	extra                   string
}

// CreateCookbook resolves names, checks the filter with Mealie, and creates
// the cookbook.
func (s *Service) CreateCookbook(ctx context.Context, req *connect.Request[libraryv1.CreateCookbookRequest]) (*connect.Response[libraryv1.CreateCookbookResponse], error) {
	m := req.Msg
	name := strings.TrimSpace(m.GetName())
	if err := checkName(name); err != nil {
		return nil, err
	}
	if err := checkDescription(m.GetDescription()); err != nil {
		return nil, err
	}
	if err := checkQueryFilter(m.GetQueryFilter()); err != nil {
		return nil, err
	}
	if m.MaxTotalMinutes != nil {
		if err := checkBound(m.GetMaxTotalMinutes(), false); err != nil {
			return nil, err
		}
	}
	filter, err := s.buildFilter(ctx, filterSpec{
		tags: m.GetTags(), categories: m.GetCategories(), tools: m.GetTools(),
		requireAll: m.GetRequireAll(), extra: m.GetQueryFilter(),
	})
	if err != nil {
		return nil, err
	}
	// The filter is checked before the tag is written: a refused
	// cookbook leaves no tag behind.
	var kept *libraryv1.TimeKeeping
	if m.MaxTotalMinutes != nil {
		bound := int(m.GetMaxTotalMinutes())
		if kept, err = s.keepTime(ctx, bound); err != nil {
			return nil, err
		}
		filter = withTime(filter, bound)
	}
	cb, err := s.mealie.CreateCookbook(ctx, mealie.CookbookCreate{
		Name: name, Description: strings.TrimSpace(m.GetDescription()), QueryFilterString: filter, Public: m.GetPublic(),
	})
	if err != nil {
		return nil, filterError(err)
	}
	return connect.NewResponse(&libraryv1.CreateCookbookResponse{Cookbook: cookbook(cb), Time: kept}), nil
}

// UpdateCookbook reads the cookbook, applies the fields set, and PUTs it
// whole, keeping its id.
func (s *Service) UpdateCookbook(ctx context.Context, req *connect.Request[libraryv1.UpdateCookbookRequest]) (*connect.Response[libraryv1.UpdateCookbookResponse], error) {
	m := req.Msg
	id, err := checkCookbookID(m.GetCookbookId())
	if err != nil {
		return nil, err
	}
	if err := checkDescription(m.GetDescription()); err != nil {
		return nil, err
	}
	if err := checkQueryFilter(m.GetQueryFilter()); err != nil {
		return nil, err
	}
	if m.Position != nil && (m.GetPosition() < 1 || m.GetPosition() > MaxCookbookPosition) {
		return nil, invalid("position must be between 1 and %d, got %d", MaxCookbookPosition, m.GetPosition())
	}
	if m.MaxTotalMinutes != nil {
		if err := checkBound(m.GetMaxTotalMinutes(), true); err != nil {
			return nil, err
		}
	}
	cur, err := s.mealie.GetCookbook(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	next := *cur
	if m.Name != nil {
		name := strings.TrimSpace(m.GetName())
		if err := checkName(name); err != nil {
			return nil, err
		}
		next.Name = name
	}
	if m.Description != nil {
		next.Description = strings.TrimSpace(m.GetDescription())
	}
	if m.Public != nil {
		next.Public = m.GetPublic()
	}
	if m.Position != nil {
		next.Position = int(m.GetPosition())
	}
	// A cookbook by time keeps its bound unless one is given (0 drops
	// it); the rest of its filter is rebuilt as for any cookbook.
	bound := cookbookBound(cur.QueryFilterString)
	if m.MaxTotalMinutes != nil {
		bound = int(m.GetMaxTotalMinutes())
	}
	rest := withoutTime(cur.QueryFilterString)
	if len(m.GetTags())+len(m.GetCategories())+len(m.GetTools()) > 0 || m.RequireAll != nil || m.QueryFilter != nil {
		filter, err := s.buildFilter(ctx, filterSpec{
			tags: m.GetTags(), categories: m.GetCategories(), tools: m.GetTools(),
			requireAll: m.GetRequireAll(), extra: m.GetQueryFilter(),
		})
		if err != nil {
			return nil, err
		}
		rest = filter
	}
	next.QueryFilterString = rest
	// An update of a cookbook by time reads the library again, so it is
	// also how recipes changed in Mealie's app are brought in.
	var kept *libraryv1.TimeKeeping
	if bound > 0 {
		if kept, err = s.keepTime(ctx, bound); err != nil {
			return nil, err
		}
		next.QueryFilterString = withTime(rest, bound)
	}
	out, err := s.mealie.UpdateCookbook(ctx, next)
	if err != nil {
		return nil, filterError(err)
	}
	return connect.NewResponse(&libraryv1.UpdateCookbookResponse{Cookbook: cookbook(out), Time: kept}), nil
}

// DeleteCookbook reads the cookbook (so an unknown id is NotFound rather
// than Mealie's 400 "No row was found" for a second delete), then
// deletes it.
func (s *Service) DeleteCookbook(ctx context.Context, req *connect.Request[libraryv1.DeleteCookbookRequest]) (*connect.Response[libraryv1.DeleteCookbookResponse], error) {
	id, err := checkCookbookID(req.Msg.GetCookbookId())
	if err != nil {
		return nil, err
	}
	cur, err := s.mealie.GetCookbook(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	gone, err := s.mealie.DeleteCookbook(ctx, cur.ID)
	if err != nil {
		if mealie.StatusOf(err) == http.StatusBadRequest {
			return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("cookbook '%s' not found", id))
		}
		return nil, mealie.ConnectError(err)
	}
	if gone.ID == "" {
		gone = cur
	}
	return connect.NewResponse(&libraryv1.DeleteCookbookResponse{Cookbook: cookbook(gone)}), nil
}

func checkName(name string) error {
	if name == "" {
		return invalid("name is required")
	}
	if n := utf8.RuneCountInString(name); n > MaxCookbookName {
		return invalid("name must be at most %d characters, got %d", MaxCookbookName, n)
	}
	return nil
}

// filterError turns Mealie's refusal of a filter into InvalidArgument
// quoting Mealie: 422 "Value error, Invalid query filter string"
// (testdata/cookbooks__create_unknown_attr_filter_422.json).
func filterError(err error) error {
	var me *mealie.Error
	if errors.As(err, &me) && me.Kind == mealie.KindInvalid {
		return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("the cookbook was refused by Mealie: %s", me.Detail))
	}
	return mealie.ConnectError(err)
}

// buildFilter resolves names to Mealie's spelling and builds the
// queryFilterString, then has Mealie's recipe list parse it.
func (s *Service) buildFilter(ctx context.Context, spec filterSpec) (string, error) {
	var parts []string
	groups := []struct {
		kind  taxonomyKind
		attr  string
		names []string
	}{
		{kindTags, "tags.name", spec.tags},
		{kindCategories, "recipe_category.name", spec.categories},
		{kindTools, "tools.name", spec.tools},
	}
	for _, g := range groups {
		if len(g.names) == 0 {
			continue
		}
		items, _, err := s.taxonomyList(ctx, g.kind)
		if err != nil {
			return "", mealie.ConnectError(err)
		}
		canon, err := resolveNames(g.kind, strings.TrimSuffix(g.attr, ".name"), g.names, items)
		if err != nil {
			return "", err
		}
		op := "IN"
		if spec.requireAll {
			op = "CONTAINS ALL"
		}
		list, err := quoteList(canon)
		if err != nil {
			return "", err
		}
		parts = append(parts, fmt.Sprintf("%s %s [%s]", g.attr, op, list))
	}
	names := strings.Join(parts, " OR ")
	if spec.requireAll {
		names = strings.Join(parts, " AND ")
	}
	extra := strings.TrimSpace(spec.extra)
	filter := names
	switch {
	case names != "" && extra != "":
		if len(parts) > 1 {
			names = "(" + names + ")"
		}
		filter = names + " AND (" + extra + ")"
	case extra != "":
		filter = extra
	}
	if extra != "" {
		if err := s.checkFilter(ctx, extra); err != nil {
			return "", err
		}
	}
	return filter, nil
}

// checkFilter has Mealie parse a filter on its recipe list (one row). A
// cookbook's own endpoint accepts free text such as "this is not a filter"
// and then matches every recipe;
// the list refuses it, so the user hears about it now, in Mealie's words
// (testdata/recipes_list__queryfilter_unknown_attr.json). Broken syntax is a
// text/plain 500 there (testdata/recipes_list__queryfilter_broken_syntax.json).
func (s *Service) checkFilter(ctx context.Context, filter string) error {
	_, err := s.mealie.ListRecipes(ctx, mealie.RecipeQuery{Page: 1, PerPage: 1, QueryFilter: filter})
	if err == nil {
		return nil
	}
	var me *mealie.Error
	if errors.As(err, &me) {
		switch {
		case me.Kind == mealie.KindInvalid:
			return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("query_filter: Mealie says: %s. %s", me.Detail, filterHint()))
		case me.Kind == mealie.KindServer && me.Detail == "":
			return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("query_filter: Mealie could not parse %q (check quotes, brackets and operators). %s", filter, filterHint()))
		}
	}
	return mealie.ConnectError(err)
}

// resolveNames maps names to Mealie's spelling, matching case-insensitively
// because Mealie's filter parser compares names exactly. An unknown name is
// NotFound with close matches; a name the filter syntax cannot carry
// (filterSafe) is InvalidArgument naming the id to filter on instead, as
// attr.id (attr is the filter's relation, such as "tags").
func resolveNames(k taxonomyKind, attr string, names []string, items []taxonomyItem) ([]string, error) {
	byKey := make(map[string]string, len(items))
	for _, it := range items {
		byKey[strings.ToLower(strings.TrimSpace(it.Name))] = it.Name
	}
	var out []string
	for _, n := range names {
		key := strings.ToLower(strings.TrimSpace(n))
		if key == "" {
			continue
		}
		canon, ok := byKey[key]
		if !ok {
			msg := fmt.Sprintf("%s '%s' not found", k.noun, strings.TrimSpace(n))
			if close := closeMatches(key, items); len(close) > 0 {
				msg += " — did you mean " + strings.Join(close, ", ") + "?"
			}
			return nil, connect.NewError(connect.CodeNotFound, errors.New(msg))
		}
		if !filterSafe(canon) {
			var id string
			for _, it := range items {
				if it.Name == canon {
					id = it.ID
					break
				}
			}
			return nil, invalid("%s '%s' holds one of %s, which Mealie's filter syntax cannot carry in a list; use query_filter: %s.id IN [\"%s\"]", k.noun, canon, filterUnsafe, attr, id)
		}
		if !slices.Contains(out, canon) {
			out = append(out, canon)
		}
	}
	return out, nil
}

// closeMatches lists up to maxCloseMatches names near key: containing it,
// contained in it, or within two edits.
func closeMatches(key string, items []taxonomyItem) []string {
	var out []string
	for _, it := range items {
		n := strings.ToLower(it.Name)
		if strings.Contains(n, key) || strings.Contains(key, n) || editDistance(n, key) <= 2 {
			out = append(out, "'"+it.Name+"'")
			if len(out) == maxCloseMatches {
				break
			}
		}
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, by runes.
func editDistance(a, b string) int { return levenshtein.ComputeDistance(a, b) }

// filterUnsafe are the characters a name in a filter list cannot hold.
// Mealie's QueryFilterBuilder (mealie/services/query_filter/builder.py,
// _break_components_into_base_components) has no escape: it ends a list
// at the first ']' and splits it at every ',' whether or not they stand
// inside double quotes, a '[' opens another list, and a '"' ends the
// string. A name holding any of them would read back as other values, or
// as filter syntax.
const filterUnsafe = `" , [ ]`

// filterSafe reports whether name can be written as one quoted list value
// and read back unchanged: not empty (Mealie keeps `""` as a two-character
// value) and free of filterUnsafe.
func filterSafe(name string) bool {
	return name != "" && !strings.ContainsAny(name, `",[]`)
}

// quoteList writes names as the inside of a filter list: `"a", "b"`. It
// refuses a name filterSafe rejects, naming it, rather than writing it:
// resolveNames refuses such names first, with the id to filter by instead;
// this is the last guard before the text reaches Mealie.
func quoteList(names []string) (string, error) {
	q := make([]string, len(names))
	for i, n := range names {
		if !filterSafe(n) {
			return "", invalid("the name '%s' holds one of %s or is empty, which Mealie's filter syntax cannot carry in a list", n, filterUnsafe)
		}
		q[i] = `"` + n + `"`
	}
	return strings.Join(q, ", "), nil
}

// checkCookbookID trims a cookbook id and refuses it when empty or longer
// than MaxCookbookIDChars, without quoting it.
func checkCookbookID(id string) (string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", invalid("cookbook_id is required")
	}
	if n := utf8.RuneCountInString(id); n > MaxCookbookIDChars {
		return "", invalid("cookbook_id: at most %d characters, got %d", MaxCookbookIDChars, n)
	}
	return id, nil
}

// checkQueryFilter refuses a query_filter past MaxCookbookQueryFilter,
// without quoting it.
func checkQueryFilter(f string) error {
	if n := utf8.RuneCountInString(f); n > MaxCookbookQueryFilter {
		return invalid("query_filter: at most %d characters, got %d", MaxCookbookQueryFilter, n)
	}
	return nil
}

// checkDescription refuses a description past MaxCookbookDescription.
func checkDescription(d string) error {
	if n := utf8.RuneCountInString(d); n > MaxCookbookDescription {
		return invalid("description: at most %d characters, got %d", MaxCookbookDescription, n)
	}
	return nil
}
