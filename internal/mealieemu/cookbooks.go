package mealieemu

import (
	"net/http"
	"strconv"
)

func (s *Server) cookbookRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/households/cookbooks", s.listCookbooks)
	mux.HandleFunc("POST /api/households/cookbooks", s.createCookbook)
	mux.HandleFunc("PUT /api/households/cookbooks", s.updateCookbooks)
	mux.HandleFunc("GET /api/households/cookbooks/{id}", s.getCookbook)
	mux.HandleFunc("PUT /api/households/cookbooks/{id}", s.updateCookbook)
	mux.HandleFunc("DELETE /api/households/cookbooks/{id}", s.deleteCookbook)
}

// cookbookParts parses a cookbook's filter for its queryFilter.parts. Free text
// that is not a filter is accepted with no parts.
func (st *store) cookbookParts(filter string) []filterPart {
	if filter == "" {
		return nil
	}
	q, err := parseQueryFilter(filter, st.recipeFilterAttrs())
	if err != nil {
		return nil
	}
	return q.parts
}

// checkCookbookFilter rejects a filter naming an unknown attribute with a 422
// (services/library/testdata/cookbooks__create_unknown_attr_filter_422.json); other parse failures pass.
func (st *store) checkCookbookFilter(filter string) *valErr {
	if filter == "" {
		return nil
	}
	_, err := parseQueryFilter(filter, st.recipeFilterAttrs())
	if err != nil && err.status == http.StatusBadRequest && len(err.msg) > 25 && err.msg[:25] == "invalid attribute string:" {
		return &valErr{typ: "value_error", loc: []any{"body", "queryFilterString"},
			msg: "Value error, Invalid query filter string", input: filter, ctx: object{{"error", object{}}}}
	}
	return nil
}

// cookbookRecipes returns the recipes a cookbook's filter selects.
func (st *store) cookbookRecipes(c *cookbook) []*recipe {
	if c.QueryFilterString == "" {
		return st.recipes
	}
	q, err := parseQueryFilter(c.QueryFilterString, st.recipeFilterAttrs())
	if err != nil {
		return nil
	}
	q.foldCase = st.profile.caseInsensitiveFilter
	q.oneIsIn = st.profile.containsAllOneIsIn
	var out []*recipe
	for _, r := range st.recipes {
		if q.matches(r) {
			out = append(out, r)
		}
	}
	return out
}

// renderCookbook is ReadCookBook; withRecipes adds RecipeCookBook's recipes,
// which profiles without cookbookRecipes omit.
func (st *store) renderCookbook(c *cookbook, withRecipes bool) object {
	o := object{{"name", c.Name}, {"description", c.Description}, {"slug", c.Slug}, {"position", c.Position},
		{"public", c.Public}, {"queryFilterString", c.QueryFilterString}, {"groupId", st.user.GroupID},
		{"householdId", st.user.HouseholdID}, {"id", c.ID}, {"queryFilter", renderParts(st.cookbookParts(c.QueryFilterString))}}
	if st.profile.cookbookHousehold {
		o = append(o, field{"household", object{{"id", st.user.HouseholdID}, {"name", st.user.HouseholdName}}})
	}
	if withRecipes && st.profile.cookbookRecipes {
		recipes := []any{}
		for _, r := range st.cookbookRecipes(c) {
			recipes = append(recipes, st.renderEmbeddedSummary(r))
		}
		o = append(o, field{"recipes", recipes})
	}
	return o
}

func (s *Server) listCookbooks(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(st, w, r, st.cookbooks, listSpec[*cookbook]{route: "/households/cookbooks",
		attrs: map[string]attrDef[*cookbook]{
			"id":       {kindUUID, func(c *cookbook) []any { return one(c.ID) }},
			"name":     {kindString, func(c *cookbook) []any { return one(c.Name) }},
			"slug":     {kindString, func(c *cookbook) []any { return one(c.Slug) }},
			"position": {kindNumber, func(c *cookbook) []any { return one(float64(c.Position)) }},
		},
		render: func(c *cookbook) any { return st.renderCookbook(c, false) }})
}

// uniqueCookbookSlug suffixes -1, -2... for a repeated name.
func (st *store) uniqueCookbookSlug(name string, except *cookbook) string {
	base := slugOf(name)
	slug := base
	for i := 1; ; i++ {
		taken := false
		for _, c := range st.cookbooks {
			if c != except && c.Slug == slug {
				taken = true
			}
		}
		if !taken {
			return slug
		}
		slug = base + "-" + strconv.Itoa(i)
	}
}

// applyCookbook sets the fields of a create or PUT body; what is left out is
// reset, so PUT {name} clears description and filter.
func (st *store) applyCookbook(c *cookbook, b jsonBody) *valErr {
	c.Name, _ = b.str("name")
	c.Description, _ = b.str("description")
	c.QueryFilterString, _ = b.str("queryFilterString")
	c.Public, _ = b.boolean("public")
	c.Position = 1
	if p, ok := b.num("position"); ok {
		c.Position = int(p)
	}
	return st.checkCookbookFilter(c.QueryFilterString)
}

func (s *Server) createCookbook(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	if !requireStrings(w, b, "name") {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	c := &cookbook{ID: newID()}
	if e := st.applyCookbook(c, b); e != nil {
		writeValidation(w, *e)
		return
	}
	c.Slug = st.uniqueCookbookSlug(c.Name, nil)
	st.cookbooks = append(st.cookbooks, c)
	writeJSON(w, http.StatusCreated, st.renderCookbook(c, false))
}

// getCookbook accepts an id or a slug; an unknown one is the router-style 404
// (services/library/testdata/cookbooks__get_unknown.json).
func (s *Server) getCookbook(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.cookbookByKey(r.PathValue("id"))
	if c == nil {
		writeDetail(w, http.StatusNotFound, "Not Found")
		return
	}
	writeJSON(w, http.StatusOK, st.renderCookbook(c, true))
}

func (s *Server) updateCookbook(w http.ResponseWriter, r *http.Request) {
	id, b, ok := readPut(w, r, "name")
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.cookbookByKey(id)
	if c == nil {
		st.writeNoRow(w)
		return
	}
	next := *c
	if e := st.applyCookbook(&next, b); e != nil {
		writeValidation(w, *e)
		return
	}
	next.Slug = st.uniqueCookbookSlug(next.Name, c)
	*c = next
	writeJSON(w, http.StatusOK, st.renderCookbook(c, false))
}

// updateCookbooks is PUT /api/households/cookbooks with a list, used to
// reorder.
func (s *Server) updateCookbooks(w http.ResponseWriter, r *http.Request) {
	var items []map[string]any
	if err := decodeList(r, &items); err != nil {
		writeValidation(w, valErr{typ: "list_type", loc: []any{"body"}, msg: "Input should be a valid list", input: nil})
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	out := []any{}
	for i, it := range items {
		b := jsonBody(it)
		id, _ := b.str("id")
		c := st.cookbookByKey(id)
		if c == nil {
			writeValidation(w, missing(b.raw(), i, "id"))
			return
		}
		if e := st.applyCookbook(c, b); e != nil {
			writeValidation(w, *e)
			return
		}
		if slug, ok := b.str("slug"); ok {
			c.Slug = slug
		}
		out = append(out, st.renderCookbook(c, false))
	}
	writeJSON(w, http.StatusOK, out)
}

// deleteCookbook returns the deleted cookbook, then 400 "No row was found".
func (s *Server) deleteCookbook(w http.ResponseWriter, r *http.Request) {
	rowDelete[cookbook, string]{parse: itemUUID,
		rows:   func(st *store) *[]*cookbook { return &st.cookbooks },
		key:    func(c *cookbook) string { return c.ID },
		render: func(st *store, c *cookbook) object { return st.renderCookbook(c, false) },
	}.serve(s, w, r)
}
