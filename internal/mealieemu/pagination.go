package mealieemu

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// defaultPerPage is PaginationQuery.per_page's default in Mealie 2.0
// (mealie/schema/response/pagination.py), visible as per_page 50 in
// services/recipes/testdata/units__list.json.
const defaultPerPage = 50

// pageQuery is Mealie's PaginationQuery, parsed from the query string.
type pageQuery struct {
	Page           int
	PerPage        int
	OrderBy        string
	OrderByNull    string
	OrderDirection string
	QueryFilter    string
	PaginationSeed string
	hasOrderBy     bool
	hasQueryFilter bool
	hasSeed        bool
	hasOrderByNull bool
}

// parsePageQuery reads page, perPage, orderBy, orderByNullPosition,
// orderDirection, queryFilter and paginationSeed. A non-integer page or perPage
// is a 422; orderBy=random without a
// seed is the odd stringified 422.
func parsePageQuery(w http.ResponseWriter, r *http.Request) (pageQuery, bool) {
	q := r.URL.Query()
	pq := pageQuery{Page: 1, PerPage: defaultPerPage, OrderDirection: "desc"}
	var errs []valErr
	for _, p := range []struct {
		key string
		dst *int
	}{{"page", &pq.Page}, {"perPage", &pq.PerPage}} {
		if v, ok := q[p.key]; ok {
			n, err := strconv.Atoi(strings.TrimSpace(v[len(v)-1]))
			if err != nil {
				errs = append(errs, intParsing("query", p.key, v[len(v)-1]))
				continue
			}
			*p.dst = n
		}
	}
	if v := q.Get("orderDirection"); v != "" {
		if v != "asc" && v != "desc" {
			errs = append(errs, valErr{typ: "enum", loc: []any{"query", "orderDirection"},
				msg: "Input should be 'asc' or 'desc'", input: v, ctx: object{{"expected", "'asc' or 'desc'"}}})
		}
		pq.OrderDirection = v
	}
	if v := q.Get("orderByNullPosition"); v != "" {
		if v != "first" && v != "last" {
			errs = append(errs, valErr{typ: "enum", loc: []any{"query", "orderByNullPosition"},
				msg: "Input should be 'first' or 'last'", input: v, ctx: object{{"expected", "'first' or 'last'"}}})
		}
		pq.OrderByNull, pq.hasOrderByNull = v, true
	}
	if len(errs) > 0 {
		writeValidation(w, errs...)
		return pq, false
	}
	if q.Has("orderBy") && q.Get("orderBy") != "" {
		pq.OrderBy, pq.hasOrderBy = q.Get("orderBy"), true
	}
	if q.Has("queryFilter") && q.Get("queryFilter") != "" {
		pq.QueryFilter, pq.hasQueryFilter = q.Get("queryFilter"), true
	}
	if q.Has("paginationSeed") && q.Get("paginationSeed") != "" {
		pq.PaginationSeed, pq.hasSeed = q.Get("paginationSeed"), true
	}
	if pq.OrderBy == "random" && !pq.hasSeed {
		// FastAPI re-raises the dependency's ValidationError as a list holding
		// the str() of pydantic's error dict.
		writeJSON(w, http.StatusUnprocessableEntity, object{{"detail", []any{
			"dict: {'type': 'value_error', 'loc': ('paginationSeed',), 'msg': 'Value error, paginationSeed is required when orderBy is random', 'input': None, 'ctx': {'error': ValueError('paginationSeed is required when orderBy is random')}, 'url': 'https://errors.pydantic.dev/2.10/v/value_error'}",
		}}})
		return pq, false
	}
	return pq, true
}

// window applies Mealie's paging rules to n rows
// (mealie/repos/repository_generic.py add_pagination_to_query): perPage -1 means
// all rows, page -1 means the last page, page < 1 means page 1, perPage 0 gives
// no rows and total_pages 0. It returns the
// effective page and perPage, total_pages and the slice bounds.
func window(n int, page, perPage int) (pg, pp, totalPages, lo, hi int) {
	pp = perPage
	if pp == -1 {
		pp = n
	}
	if pp > 0 {
		totalPages = (n + pp - 1) / pp
	}
	pg = page
	if pg == -1 {
		pg = totalPages
	}
	if pg < 1 {
		pg = 1
	}
	if pp <= 0 {
		return pg, pp, totalPages, 0, 0
	}
	lo = (pg - 1) * pp
	if lo > n {
		lo = n
	}
	hi = lo + pp
	if hi > n {
		hi = n
	}
	return pg, pp, totalPages, lo, hi
}

// linkParam is one query parameter of a next/previous link, in order.
type linkParam struct{ k, v string }

// envelope renders the pagination envelope with snake_case keys.
// route is the path without /api, and
// params are the link's parameters in order, with "page" among them.
func envelope(route string, pg, pp, total, totalPages int, items []any, params []linkParam) object {
	link := func(page int) any {
		vals := make([]string, 0, len(params))
		for _, p := range params {
			v := p.v
			if p.k == "page" {
				v = strconv.Itoa(page)
			}
			vals = append(vals, url.QueryEscape(p.k)+"="+url.QueryEscape(v))
		}
		return route + "?" + strings.Join(vals, "&")
	}
	var next, prev any
	if pg < totalPages {
		next = link(pg + 1)
	}
	if pg > 1 {
		prev = link(pg - 1)
	}
	if items == nil {
		items = []any{}
	}
	return object{{"page", pg}, {"per_page", pp}, {"total", total}, {"total_pages", totalPages},
		{"items", items}, {"next", next}, {"previous", prev}}
}

// genericLinkParams are the link parameters of every list except recipes: the
// whole PaginationQuery dumped in field order, with Python's None spelled out
// (services/internal/mealie/testdata/foods__list_paged.json).
func genericLinkParams(pq pageQuery, pp int, pageLast bool) []linkParam {
	none := func(ok bool, v string) string {
		if !ok {
			return "None"
		}
		return v
	}
	return pageParamsAt([]linkParam{
		{"page", ""}, {"perPage", strconv.Itoa(pp)},
		{"orderBy", none(pq.hasOrderBy, pq.OrderBy)},
		{"orderByNullPosition", none(pq.hasOrderByNull, pq.OrderByNull)},
		{"orderDirection", pq.OrderDirection},
		{"queryFilter", none(pq.hasQueryFilter, pq.QueryFilter)},
		{"paginationSeed", none(pq.hasSeed, pq.PaginationSeed)},
	}, pageLast)
}

// pageParamsAt moves page and perPage, which params starts with, behind the
// other PaginationQuery fields when pageLast is set: from 2.8 on the model
// declares them after the sort fields, and a link lists the fields in model
// order (profile.go, pageParamsLast).
func pageParamsAt(params []linkParam, pageLast bool) []linkParam {
	if !pageLast {
		return params
	}
	return append(append([]linkParam{}, params[2:]...), params[:2]...)
}

// recipeLinkParams are the recipe list's link parameters: the non-null
// PaginationQuery fields merged with the request's own parameters, each key once
// (Mealie's mealie/routes/recipe/recipe_crud_routes.py get_all: page 1 of
// perPage=2 links next as "/recipes?page=2&perPage=2&orderDirection=desc").
func recipeLinkParams(r *http.Request, pq pageQuery, pageLast bool) []linkParam {
	params := []linkParam{{"page", ""}, {"perPage", strconv.Itoa(pq.PerPage)}}
	if pq.hasOrderBy {
		params = append(params, linkParam{"orderBy", pq.OrderBy})
	}
	if pq.hasOrderByNull {
		params = append(params, linkParam{"orderByNullPosition", pq.OrderByNull})
	}
	params = append(params, linkParam{"orderDirection", pq.OrderDirection})
	if pq.hasQueryFilter {
		params = append(params, linkParam{"queryFilter", pq.QueryFilter})
	}
	if pq.hasSeed {
		params = append(params, linkParam{"paginationSeed", pq.PaginationSeed})
	}
	params = pageParamsAt(params, pageLast)
	seen := map[string]bool{}
	for _, p := range params {
		seen[p.k] = true
	}
	// The request's raw values override in place (perPage keeps its raw text),
	// and keys the model does not know are appended in request order, the last
	// value of a repeated key winning.
	raw := r.URL.Query()
	for i, p := range params {
		if v, ok := raw[p.k]; ok && p.k != "page" {
			params[i].v = v[len(v)-1]
		}
	}
	for _, kv := range strings.Split(r.URL.RawQuery, "&") {
		k, _, _ := strings.Cut(kv, "=")
		k, err := url.QueryUnescape(k)
		if err != nil || k == "" || seen[k] {
			continue
		}
		seen[k] = true
		v := raw[k]
		params = append(params, linkParam{k, v[len(v)-1]})
	}
	return params
}
