package mealieemu

import (
	"iter"
	"net/http"
	"strings"
)

// organizerKind is one of /api/organizers/{tags,categories,tools}.
type organizerKind struct {
	path string
	rows func(*store) *[]*organizer
	// tool: tools carry onHand and render differently.
	tool bool
	// uniqueName: a duplicate name is an unhandled IntegrityError, 500
	// text/plain (services/internal/mealie/testdata/organizers_tags__create_duplicate.json). Tool names lost their
	// unique constraint in Mealie migration
	// 2023-08-15-16.25.07_bcfdad6b7355_remove_tool_name_and_slug_unique_.
	uniqueName bool
	// deleteAgain is the body of a second delete: tags answer 400 "Bad Request".
}

var organizerKinds = []organizerKind{
	{path: "tags", rows: func(s *store) *[]*organizer { return &s.tags }, uniqueName: true},
	{path: "categories", rows: func(s *store) *[]*organizer { return &s.categories }, uniqueName: true},
	{path: "tools", rows: func(s *store) *[]*organizer { return &s.tools }, tool: true},
}

func (s *Server) organizerRoutes(mux *http.ServeMux) {
	for _, k := range organizerKinds {
		base := "/api/organizers/" + k.path
		mux.HandleFunc("GET "+base, func(w http.ResponseWriter, r *http.Request) { s.listOrganizers(w, r, k) })
		mux.HandleFunc("POST "+base, func(w http.ResponseWriter, r *http.Request) { s.createOrganizer(w, r, k) })
		mux.HandleFunc("GET "+base+"/slug/{slug}", func(w http.ResponseWriter, r *http.Request) { s.getOrganizer(w, r, k, true) })
		mux.HandleFunc("GET "+base+"/{id}", func(w http.ResponseWriter, r *http.Request) { s.getOrganizer(w, r, k, false) })
		mux.HandleFunc("PUT "+base+"/{id}", func(w http.ResponseWriter, r *http.Request) { s.updateOrganizer(w, r, k) })
		mux.HandleFunc("DELETE "+base+"/{id}", func(w http.ResponseWriter, r *http.Request) { s.deleteOrganizer(w, r, k) })
	}
}

func organizerAttrs() map[string]attrDef[*organizer] {
	return map[string]attrDef[*organizer]{
		"id":      {kindUUID, func(o *organizer) []any { return one(o.ID) }},
		"name":    {kindString, func(o *organizer) []any { return one(o.Name) }},
		"slug":    {kindString, func(o *organizer) []any { return one(o.Slug) }},
		"on_hand": {kindBool, func(o *organizer) []any { return one(o.OnHand) }},
		// Mealie's base-model column (accepted on 2.0, 2.8 and 3.11).
		"update_at": {kindTime, func(o *organizer) []any { return one(o.UpdatedAt) }},
	}
}

// renderOrganizer is a list item: {id,name,slug} for tags and categories
// (services/library/testdata/organizers_tags__list_after.json), with groupId on profiles with
// organizerGroupID; the tool shape for tools.
func (st *store) renderOrganizer(k organizerKind, o *organizer) any {
	if k.tool {
		return st.renderTool(o)
	}
	return st.renderTagLike(o, true)
}

// renderOrganizerDetail is a single read. A tag carries a recipes list, empty
// even when recipes carry it;
// a category and a tool read as they list, a category without groupId, on
// every recorded version (testdata/recordings/<version>/TestTaxonomyCreateRenameDelete.json
// in the contract package).
func (st *store) renderOrganizerDetail(k organizerKind, o *organizer) any {
	switch {
	case k.tool:
		return st.renderTool(o)
	case k.path == "categories":
		return st.renderTagLike(o, false)
	}
	return append(st.renderTagLike(o, true), field{"recipes", []any{}})
}

func (s *Server) listOrganizers(w http.ResponseWriter, r *http.Request, k organizerKind) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(st, w, r, *k.rows(st), listSpec[*organizer]{
		route: "/organizers/" + k.path, attrs: organizerAttrs(),
		text: func(o *organizer) string { return o.Name },
		// RecipeTag, RecipeCategory and RecipeTool search name, not
		// normalized (their schemas' _searchable_properties)
		columns: func(o *organizer) []*string { return []*string{&o.Name} },
		render:  func(o *organizer) any { return st.renderOrganizer(k, o) },
	})
}

func (s *Server) createOrganizer(w http.ResponseWriter, r *http.Request, k organizerKind) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	name, ok := b.str("name")
	if !ok {
		writeValidation(w, missing(b.raw(), "name"))
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rows := k.rows(st)
	slug := slugOf(name)
	for _, o := range *rows {
		if k.uniqueName && (o.Name == name || o.Slug == slug) {
			writeInternal(w)
			return
		}
	}
	o := &organizer{ID: newID(), Name: name, Slug: slug, UpdatedAt: st.now().UTC()}
	if v, ok := b.boolean("onHand"); ok && k.tool {
		o.OnHand = v
	}
	*rows = append(*rows, o)
	if k.tool {
		writeJSON(w, http.StatusCreated, st.renderTool(o))
		return
	}
	writeJSON(w, http.StatusCreated, object{{"name", o.Name}, {"groupId", st.user.GroupID}, {"id", o.ID}, {"slug", o.Slug}})
}

func (s *Server) getOrganizer(w http.ResponseWriter, r *http.Request, k organizerKind, bySlug bool) {
	key := r.PathValue("slug")
	if !bySlug {
		var ok bool
		if key, ok = itemUUID(w, r); !ok {
			return
		}
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, o := range *k.rows(st) {
		if (bySlug && o.Slug == key) || (!bySlug && o.ID == key) {
			writeJSON(w, http.StatusOK, st.renderOrganizerDetail(k, o))
			return
		}
	}
	writeNotFoundMixin(w)
}

// updateOrganizer is PUT: the name re-slugs the row.
func (s *Server) updateOrganizer(w http.ResponseWriter, r *http.Request, k organizerKind) {
	id, ok := itemUUID(w, r)
	if !ok {
		return
	}
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	name, ok := b.str("name")
	if !ok {
		writeValidation(w, missing(b.raw(), "name"))
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, o := range *k.rows(st) {
		if o.ID == id {
			o.Name, o.Slug, o.UpdatedAt = name, slugOf(name), st.now().UTC()
			if v, ok := b.boolean("onHand"); ok && k.tool {
				o.OnHand = v
			}
			switch {
			case k.tool:
				writeJSON(w, http.StatusOK, st.renderTool(o))
			default:
				writeJSON(w, http.StatusOK, st.renderOrganizerDetail(k, o))
			}
			return
		}
	}
	st.writeNoRow(w)
}

// deleteOrganizer answers 200 null, and 400 "Bad Request" once the row is gone.
// Recipes
// lose the organizer.
func (s *Server) deleteOrganizer(w http.ResponseWriter, r *http.Request, k organizerKind) {
	id, ok := itemUUID(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rows := k.rows(st)
	for i, o := range *rows {
		if o.ID == id {
			*rows = append((*rows)[:i], (*rows)[i+1:]...)
			for _, rc := range st.recipes {
				rc.TagIDs, rc.CategoryIDs, rc.ToolIDs = without(rc.TagIDs, id), without(rc.CategoryIDs, id), without(rc.ToolIDs, id)
			}
			// A deleted tool is answered back; tags and categories answer
			// null (testdata/recordings/<version>/TestTaxonomyCreateRenameDelete.json).
			var out any
			if k.tool {
				out = st.renderTool(o)
			}
			writeJSON(w, http.StatusOK, out)
			return
		}
	}
	writeDetail(w, http.StatusBadRequest, "Bad Request")
}

func without(ids []string, id string) []string {
	out := ids[:0:0]
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

// foods ---------------------------------------------------------------

func foodAttrs() map[string]attrDef[*food] {
	return map[string]attrDef[*food]{
		"id":          {kindUUID, func(f *food) []any { return one(f.ID) }},
		"name":        {kindString, func(f *food) []any { return one(f.Name) }},
		"plural_name": {kindString, func(f *food) []any { return optOne(f.PluralName) }},
		"description": {kindString, func(f *food) []any { return one(f.Description) }},
		"on_hand":     {kindBool, func(f *food) []any { return one(f.OnHand) }},
		"label_id":    {kindUUID, func(f *food) []any { return optOne(f.LabelID) }},
		"created_at":  {kindTime, func(f *food) []any { return one(f.CreatedAt) }},
		"updated_at":  {kindTime, func(f *food) []any { return one(f.UpdatedAt) }},
		// Mealie's base-model column: orderBy=update_at is accepted on 2.0,
		// 2.8 and 3.11, and a rename makes the row the newest.
		"update_at": {kindTime, func(f *food) []any { return one(f.UpdatedAt) }},
	}
}

func unitAttrs() map[string]attrDef[*unit] {
	return map[string]attrDef[*unit]{
		"id":           {kindUUID, func(u *unit) []any { return one(u.ID) }},
		"name":         {kindString, func(u *unit) []any { return one(u.Name) }},
		"abbreviation": {kindString, func(u *unit) []any { return one(u.Abbreviation) }},
		"created_at":   {kindTime, func(u *unit) []any { return one(u.CreatedAt) }},
		"updated_at":   {kindTime, func(u *unit) []any { return one(u.UpdatedAt) }},
		"update_at":    {kindTime, func(u *unit) []any { return one(u.UpdatedAt) }},
	}
}

func (s *Server) taxonomyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/foods", s.listFoods)
	mux.HandleFunc("POST /api/foods", foodRows.create(s))
	mux.HandleFunc("PUT /api/foods/merge", foodRows.merge(s))
	mux.HandleFunc("GET /api/foods/{id}", foodRows.get(s))
	mux.HandleFunc("PUT /api/foods/{id}", foodRows.update(s))
	mux.HandleFunc("DELETE /api/foods/{id}", foodRows.delete(s))
	mux.HandleFunc("GET /api/units", s.listUnits)
	mux.HandleFunc("POST /api/units", unitRows.create(s))
	mux.HandleFunc("PUT /api/units/merge", unitRows.merge(s))
	mux.HandleFunc("GET /api/units/{id}", unitRows.get(s))
	mux.HandleFunc("PUT /api/units/{id}", unitRows.update(s))
	mux.HandleFunc("DELETE /api/units/{id}", unitRows.delete(s))
	mux.HandleFunc("POST /api/groups/seeders/units", s.handleSeedUnits)
	mux.HandleFunc("GET /api/groups/labels", s.listLabels)
	mux.HandleFunc("POST /api/groups/labels", s.createLabel)
	mux.HandleFunc("GET /api/groups/labels/{id}", s.getLabel)
	mux.HandleFunc("PUT /api/groups/labels/{id}", s.updateLabel)
	mux.HandleFunc("DELETE /api/groups/labels/{id}", s.deleteLabel)
}

func (s *Server) listFoods(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(st, w, r, st.foods, listSpec[*food]{route: "/foods", attrs: foodAttrs(),
		text: func(f *food) string {
			txt := f.Name + " " + f.Description
			if f.PluralName != nil {
				txt += " " + *f.PluralName
			}
			return txt + " " + strings.Join(f.Aliases, " ")
		},
		// IngredientFood's _searchable_properties
		columns: func(f *food) []*string {
			return []*string{ptr(normalizeSearch(f.Name)), normalizedOrNil(f.PluralName)}
		},
		normalized: true,
		render:     func(f *food) any { return st.renderFood(f) }})
}

// applyFood sets a food's fields from a create or PUT body. PUT replaces: a
// field left out takes its default.
func (st *store) applyFood(f *food, b jsonBody) {
	f.Name, _ = b.str("name")
	f.PluralName = b.optStr("pluralName")
	f.Description, _ = b.str("description")
	f.OnHand, _ = b.boolean("onHand")
	f.LabelID = nil
	if id := b.optStr("labelId"); id != nil && st.labelByID(*id) != nil {
		f.LabelID = id
	}
	f.Aliases = aliasNames(b)
	f.UpdatedAt = st.now().UTC()
}

func aliasNames(b jsonBody) []string {
	out := []string{}
	l, _ := b.list("aliases")
	for _, a := range l {
		if ab, ok := asBody(a); ok {
			if n, ok := ab.str("name"); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// units -----------------------------------------------------------------

func (s *Server) listUnits(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(st, w, r, st.units, listSpec[*unit]{route: "/units", attrs: unitAttrs(),
		text: func(u *unit) string { return u.Name + " " + u.Abbreviation },
		// IngredientUnit's _searchable_properties
		columns: func(u *unit) []*string {
			return []*string{ptr(normalizeSearch(u.Name)), normalizedOrNil(u.PluralName), ptr(normalizeSearch(u.Abbreviation)), ptr(normalizeSearch(u.PluralAbbreviation))}
		},
		normalized: true,
		render:     func(u *unit) any { return st.renderUnit(u) }})
}

func (st *store) applyUnit(u *unit, b jsonBody) {
	u.Name, _ = b.str("name")
	u.PluralName = b.optStr("pluralName")
	u.Description, _ = b.str("description")
	u.OnHand, _ = b.boolean("onHand")
	u.Fraction = true
	if v, ok := b.boolean("fraction"); ok {
		u.Fraction = v
	}
	u.Abbreviation, _ = b.str("abbreviation")
	u.PluralAbbreviation, _ = b.str("pluralAbbreviation")
	u.pluralAbbrNull = false
	u.UseAbbreviation, _ = b.boolean("useAbbreviation")
	u.Aliases = aliasNames(b)
	u.UpdatedAt = st.now().UTC()
}

// ingredientRow is what foods and units share: recipe ingredients and
// shopping items point at them by id, and their create, get, PUT, delete and
// merge routes differ only in the row they touch and the words they answer
// with.
type ingredientRow[T any] struct {
	// noun is the plural in merge answers: "Failed to merge foods",
	// "Successfully merged units".
	noun string
	// fromKey and toKey name the merge body's fields: fromFood/toFood,
	// fromUnit/toUnit (TestFoodAndUnitMerge in integration/contract).
	fromKey, toKey string
	rows           func(*store) *[]*T
	id             func(*T) string
	// fresh is a new row before the body is applied.
	fresh  func(*store) *T
	apply  func(*store, *T, jsonBody)
	render func(*store, *T) object
	// refuse answers a create Mealie turns down and reports whether it did;
	// nil when every create with a name goes through.
	refuse func(w http.ResponseWriter, st *store, name string) bool
	// created finishes a row a create made (3.20's unit standards); nil
	// when there is nothing to finish.
	created func(*store, *T)
	ref     refField
}

// refField picks the pointer a recipe ingredient and a shopping item hold to
// a food or a unit.
type refField struct {
	ingredient func(*ingredient) **string
	item       func(*shoppingItem) **string
}

var (
	foodRef = refField{
		ingredient: func(in *ingredient) **string { return &in.FoodID },
		item:       func(it *shoppingItem) **string { return &it.FoodID },
	}
	unitRef = refField{
		ingredient: func(in *ingredient) **string { return &in.UnitID },
		item:       func(it *shoppingItem) **string { return &it.UnitID },
	}
)

var foodRows = ingredientRow[food]{
	noun: "foods", fromKey: "fromFood", toKey: "toFood",
	rows:   func(st *store) *[]*food { return &st.foods },
	id:     func(f *food) string { return f.ID },
	fresh:  func(st *store) *food { now := st.now().UTC(); return &food{ID: newID(), CreatedAt: now} },
	apply:  (*store).applyFood,
	render: (*store).renderFood,
	refuse: refuseFoodName,
	ref:    foodRef,
}

var unitRows = ingredientRow[unit]{
	noun: "units", fromKey: "fromUnit", toKey: "toUnit",
	rows:    func(st *store) *[]*unit { return &st.units },
	id:      func(u *unit) string { return u.ID },
	fresh:   func(st *store) *unit { return &unit{ID: newID(), CreatedAt: st.now().UTC()} },
	apply:   (*store).applyUnit,
	render:  (*store).renderUnit,
	created: (*store).standardize,
	ref:     unitRef,
}

// refuseFoodName answers a create whose name another food has.
func refuseFoodName(w http.ResponseWriter, st *store, name string) bool {
	for _, f := range st.foods {
		if f.Name == name {
			// services/internal/mealie/testdata/foods__create_same_name.json: the IntegrityError text leaks.
			writeErrorResponse(w, http.StatusBadRequest, "An unexpected error occurred",
				"(sqlite3.IntegrityError) UNIQUE constraint failed: ingredient_foods.name, ingredient_foods.group_id\n"+
					"[SQL: INSERT INTO ingredient_foods (id, group_id, name, plural_name, description, on_hand, label_id, name_normalized, plural_name_normalized, created_at, update_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)]\n"+
					"(Background on this error at: https://sqlalche.me/e/20/gkpj)")
			return true
		}
	}
	return false
}

func (k ingredientRow[T]) find(st *store, id string) *T {
	for _, v := range *k.rows(st) {
		if k.id(v) == id {
			return v
		}
	}
	return nil
}

func (k ingredientRow[T]) create(s *Server) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, ok := decodeBody(w, r)
		if !ok {
			return
		}
		name, ok := b.str("name")
		if !ok {
			writeValidation(w, missing(b.raw(), "name"))
			return
		}
		st := s.store
		st.mu.Lock()
		defer st.mu.Unlock()
		if k.refuse != nil && k.refuse(w, st, name) {
			return
		}
		v := k.fresh(st)
		k.apply(st, v, b)
		if k.created != nil {
			k.created(st, v)
		}
		rows := k.rows(st)
		*rows = append(*rows, v)
		writeJSON(w, http.StatusCreated, k.render(st, v))
	}
}

func (k ingredientRow[T]) get(s *Server) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { getByID(s, w, r, k.find, k.render) }
}

func (k ingredientRow[T]) update(s *Server) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, b, ok := readPut(w, r, "name")
		if !ok {
			return
		}
		st := s.store
		st.mu.Lock()
		defer st.mu.Unlock()
		v := k.find(st, id)
		if v == nil {
			st.writeNoRow(w)
			return
		}
		k.apply(st, v, b)
		writeJSON(w, http.StatusOK, k.render(st, v))
	}
}

// delete succeeds even when recipes use the row; their ingredients keep
// quantity and note with food (or unit) null
// (on every recorded version:
// testdata/recordings/<version>/TestDeleteFoodInUseNullsIngredient.json in the
// contract package).
func (k ingredientRow[T]) delete(s *Server) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := itemUUID(w, r)
		if !ok {
			return
		}
		st := s.store
		st.mu.Lock()
		defer st.mu.Unlock()
		v := k.find(st, id)
		if v == nil {
			st.writeNoRow(w)
			return
		}
		out := k.render(st, v)
		k.remove(st, id, nil)
		writeJSON(w, http.StatusOK, out)
	}
}

// remove deletes a row; uses of it move to replacement (nil: null).
func (k ingredientRow[T]) remove(st *store, id string, replacement *string) {
	rows := k.rows(st)
	for i, v := range *rows {
		if k.id(v) == id {
			*rows = append((*rows)[:i], (*rows)[i+1:]...)
			break
		}
	}
	st.repoint(k.ref, id, replacement)
}

// merge is PUT .../merge {fromFood,toFood} or {fromUnit,toUnit}: every use of
// the first row moves to the second and the first is deleted
// (TestFoodAndUnitMerge in integration/contract). Merging a row into itself deletes it and its uses
// turn null.
func (k ingredientRow[T]) merge(s *Server) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, ok := decodeBody(w, r)
		if !ok {
			return
		}
		// Both ids are required.
		if !requireStrings(w, b, k.fromKey, k.toKey) {
			return
		}
		from, _ := b.str(k.fromKey)
		to, _ := b.str(k.toKey)
		st := s.store
		st.mu.Lock()
		defer st.mu.Unlock()
		if k.find(st, from) == nil || k.find(st, to) == nil {
			// Mealie 2.0 foods.merge_one raises 500 "Failed to merge foods".
			writeErrorResponse(w, http.StatusInternalServerError, "Failed to merge "+k.noun, "")
			return
		}
		if from == to {
			k.remove(st, from, nil)
		} else {
			k.remove(st, from, strp(to))
		}
		writeJSON(w, http.StatusOK, object{{"message", "Successfully merged " + k.noun}, {"error", false}})
	}
}

// refs yields the food (or unit) pointer of every recipe ingredient and
// every shopping-list item.
func (st *store) refs(f refField) iter.Seq[**string] {
	return func(yield func(**string) bool) {
		for _, r := range st.recipes {
			for i := range r.Ingredients {
				if !yield(f.ingredient(&r.Ingredients[i])) {
					return
				}
			}
		}
		for _, l := range st.shoppingLists {
			for _, it := range l.Items {
				if !yield(f.item(it)) {
					return
				}
			}
		}
	}
}

// repoint moves every pointer at id to replacement (nil: null).
func (st *store) repoint(f refField, id string, replacement *string) {
	for p := range st.refs(f) {
		if *p != nil && **p == id {
			*p = replacement
		}
	}
}

// labels ----------------------------------------------------------------

// defaultLabelColor is what Mealie gives a label created without a colour.
const defaultLabelColor = "#959595"

func (s *Server) listLabels(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(st, w, r, st.labels, listSpec[*label]{route: "/groups/labels",
		attrs: map[string]attrDef[*label]{
			"id":   {kindUUID, func(l *label) []any { return one(l.ID) }},
			"name": {kindString, func(l *label) []any { return one(l.Name) }},
		},
		text:    func(l *label) string { return l.Name },
		columns: func(l *label) []*string { return []*string{&l.Name} },
		render:  func(l *label) any { return st.renderLabel(l) }})
}

// createLabel answers 200, not 201.
func (s *Server) createLabel(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	name, ok := b.str("name")
	if !ok {
		writeValidation(w, missing(b.raw(), "name"))
		return
	}
	color, ok := b.str("color")
	if !ok {
		color = defaultLabelColor
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	l := &label{ID: newID(), Name: name, Color: color}
	st.labels = append(st.labels, l)
	writeJSON(w, http.StatusOK, st.renderLabel(l))
}

// getLabel answers an unknown id with an unhandled 500 on every recorded
// version (testdata/recordings/<version>/TestTaxonomyCreateRenameDelete.json
// in the contract package, the read after the delete).
func (s *Server) getLabel(w http.ResponseWriter, r *http.Request) {
	id, ok := itemUUID(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if l := st.labelByID(id); l != nil {
		writeJSON(w, http.StatusOK, st.renderLabel(l))
		return
	}
	writeInternal(w)
}

// updateLabel needs the whole label, id and groupId included
// (without them Mealie's 422 lists groupId and id as missing).
func (s *Server) updateLabel(w http.ResponseWriter, r *http.Request) {
	id, b, ok := readPut(w, r, "name", "groupId", "id")
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	l := st.labelByID(id)
	if l == nil {
		st.writeNoRow(w)
		return
	}
	l.Name, _ = b.str("name")
	if c, ok := b.str("color"); ok {
		l.Color = c
	} else {
		l.Color = defaultLabelColor
	}
	writeJSON(w, http.StatusOK, st.renderLabel(l))
}

// deleteLabel returns the deleted label and
// unlinks it from foods (shopping items keep their own label field, which no
// capture shows being cleared).
func (s *Server) deleteLabel(w http.ResponseWriter, r *http.Request) {
	rowDelete[label, string]{parse: itemUUID,
		rows:   func(st *store) *[]*label { return &st.labels },
		key:    func(l *label) string { return l.ID },
		render: (*store).renderLabel,
		unlink: func(st *store, id string) {
			for _, f := range st.foods {
				if f.LabelID != nil && *f.LabelID == id {
					f.LabelID = nil
				}
			}
		},
	}.serve(s, w, r)
}
