package mealietest

import (
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
	// text/plain (organizers_tags__create_duplicate.json). Tool names lost their
	// unique constraint in Mealie migration
	// 2023-08-15-16.25.07_bcfdad6b7355_remove_tool_name_and_slug_unique_.
	uniqueName bool
	// deleteAgain is the body of a second delete: tags answer 400 "Bad Request"
	// (organizers_tags__delete_again.json).
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
	}
}

// renderOrganizer is a list item: {id,name,slug} for tags and categories
// (organizers_tags__list_after.json), the tool shape for tools.
func (st *store) renderOrganizer(k organizerKind, o *organizer) any {
	if k.tool {
		return st.renderTool(o)
	}
	return object{{"id", o.ID}, {"name", o.Name}, {"slug", o.Slug}}
}

// renderOrganizerDetail is a single read. Mealie 2.0 answers an empty recipes
// list even when recipes carry the organizer
// (organizers_tags__get_after_recipe_patch_rename.json); tools put onHand
// after the name (organizers_tools__get_by_slug.json).
func (st *store) renderOrganizerDetail(k organizerKind, o *organizer) any {
	if k.tool {
		if st.profile.householdOnHand {
			return append(st.renderTool(o), field{"recipes", []any{}})
		}
		return object{{"name", o.Name}, {"onHand", o.OnHand}, {"id", o.ID}, {"slug", o.Slug}, {"recipes", []any{}}}
	}
	return object{{"name", o.Name}, {"id", o.ID}, {"slug", o.Slug}, {"recipes", []any{}}}
}

func (s *Server) listOrganizers(w http.ResponseWriter, r *http.Request, k organizerKind) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(w, r, *k.rows(st), listSpec[*organizer]{
		route: "/organizers/" + k.path, attrs: organizerAttrs(),
		text:   func(o *organizer) string { return o.Name },
		render: func(o *organizer) any { return st.renderOrganizer(k, o) },
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
	o := &organizer{ID: newID(), Name: name, Slug: slug}
	if v, ok := b.boolean("onHand"); ok && k.tool {
		o.OnHand = v
	}
	*rows = append(*rows, o)
	if k.tool {
		writeJSON(w, http.StatusCreated, st.renderTool(o))
		return
	}
	// organizers_tags__create_ok.json, organizers_categories__create_ok.json
	writeJSON(w, http.StatusCreated, object{{"name", o.Name}, {"groupId", st.user.GroupID}, {"id", o.ID}, {"slug", o.Slug}})
}

func (s *Server) getOrganizer(w http.ResponseWriter, r *http.Request, k organizerKind, bySlug bool) {
	key := r.PathValue("slug")
	if !bySlug {
		var ok bool
		if key, ok = pathUUID(w, "item_id", r.PathValue("id")); !ok {
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

// updateOrganizer is PUT: the name re-slugs the row (organizers_tags__put_rename.json).
func (s *Server) updateOrganizer(w http.ResponseWriter, r *http.Request, k organizerKind) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
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
			o.Name, o.Slug = name, slugOf(name)
			if v, ok := b.boolean("onHand"); ok && k.tool {
				o.OnHand = v
			}
			switch {
			case k.tool:
				writeJSON(w, http.StatusOK, st.renderTool(o))
			case k.path == "categories":
				// organizers_categories__put.json has no recipes key.
				writeJSON(w, http.StatusOK, object{{"id", o.ID}, {"slug", o.Slug}, {"name", o.Name}})
			default:
				writeJSON(w, http.StatusOK, st.renderOrganizerDetail(k, o))
			}
			return
		}
	}
	writeNoRow(w)
}

// deleteOrganizer answers 200 null, and 400 "Bad Request" once the row is gone
// (organizers_tags__delete_ok.json, organizers_tags__delete_again.json). Recipes
// lose the organizer.
func (s *Server) deleteOrganizer(w http.ResponseWriter, r *http.Request, k organizerKind) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
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
			writeJSON(w, http.StatusOK, nil)
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
	}
}

func unitAttrs() map[string]attrDef[*unit] {
	return map[string]attrDef[*unit]{
		"id":           {kindUUID, func(u *unit) []any { return one(u.ID) }},
		"name":         {kindString, func(u *unit) []any { return one(u.Name) }},
		"abbreviation": {kindString, func(u *unit) []any { return one(u.Abbreviation) }},
		"created_at":   {kindTime, func(u *unit) []any { return one(u.CreatedAt) }},
		"updated_at":   {kindTime, func(u *unit) []any { return one(u.UpdatedAt) }},
	}
}

func (s *Server) taxonomyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/foods", s.listFoods)
	mux.HandleFunc("POST /api/foods", s.createFood)
	mux.HandleFunc("PUT /api/foods/merge", s.mergeFoods)
	mux.HandleFunc("GET /api/foods/{id}", s.getFood)
	mux.HandleFunc("PUT /api/foods/{id}", s.updateFood)
	mux.HandleFunc("DELETE /api/foods/{id}", s.deleteFood)
	mux.HandleFunc("GET /api/units", s.listUnits)
	mux.HandleFunc("POST /api/units", s.createUnit)
	mux.HandleFunc("PUT /api/units/merge", s.mergeUnits)
	mux.HandleFunc("GET /api/units/{id}", s.getUnit)
	mux.HandleFunc("PUT /api/units/{id}", s.updateUnit)
	mux.HandleFunc("DELETE /api/units/{id}", s.deleteUnit)
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
	listRows(w, r, st.foods, listSpec[*food]{route: "/foods", attrs: foodAttrs(),
		text: func(f *food) string {
			txt := f.Name + " " + f.Description
			if f.PluralName != nil {
				txt += " " + *f.PluralName
			}
			return txt + " " + strings.Join(f.Aliases, " ")
		},
		render: func(f *food) any { return st.renderFood(f) }})
}

// applyFood sets a food's fields from a create or PUT body. PUT replaces: a
// field left out takes its default (cases C30).
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

func (s *Server) createFood(w http.ResponseWriter, r *http.Request) {
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
	for _, f := range st.foods {
		if f.Name == name {
			// foods__create_same_name.json: the IntegrityError text leaks.
			writeErrorResponse(w, http.StatusBadRequest, "An unexpected error occurred",
				"(sqlite3.IntegrityError) UNIQUE constraint failed: ingredient_foods.name, ingredient_foods.group_id\n"+
					"[SQL: INSERT INTO ingredient_foods (id, group_id, name, plural_name, description, on_hand, label_id, name_normalized, plural_name_normalized, created_at, update_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)]\n"+
					"(Background on this error at: https://sqlalche.me/e/20/gkpj)")
			return
		}
	}
	now := st.now().UTC()
	f := &food{ID: newID(), CreatedAt: now}
	st.applyFood(f, b)
	st.foods = append(st.foods, f)
	writeJSON(w, http.StatusCreated, st.renderFood(f))
}

func (s *Server) getFood(w http.ResponseWriter, r *http.Request) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if f := st.foodByID(id); f != nil {
		writeJSON(w, http.StatusOK, st.renderFood(f))
		return
	}
	writeNotFoundMixin(w)
}

func (s *Server) updateFood(w http.ResponseWriter, r *http.Request) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
	if !ok {
		return
	}
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	if _, ok := b.str("name"); !ok {
		writeValidation(w, missing(b.raw(), "name"))
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	f := st.foodByID(id)
	if f == nil {
		writeNoRow(w)
		return
	}
	st.applyFood(f, b)
	writeJSON(w, http.StatusOK, st.renderFood(f))
}

// deleteFood succeeds even when recipes use the food; their ingredients keep
// quantity and note with food null (foods_delete__in_use_by_recipe.json).
// Profiles with inUseDeleteConflict refuse with 409 instead.
func (s *Server) deleteFood(w http.ResponseWriter, r *http.Request) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	f := st.foodByID(id)
	if f == nil {
		writeNoRow(w)
		return
	}
	if st.profile.inUseDeleteConflict && st.foodInUse(id) {
		writeInUse(w)
		return
	}
	out := st.renderFood(f)
	st.removeFood(id)
	writeJSON(w, http.StatusOK, out)
}

func (st *store) removeFood(id string) {
	for i, f := range st.foods {
		if f.ID == id {
			st.foods = append(st.foods[:i], st.foods[i+1:]...)
			break
		}
	}
	for _, r := range st.recipes {
		for i := range r.Ingredients {
			if in := &r.Ingredients[i]; in.FoodID != nil && *in.FoodID == id {
				in.FoodID = nil
			}
		}
	}
	for _, l := range st.shoppingLists {
		for _, it := range l.Items {
			if it.FoodID != nil && *it.FoodID == id {
				it.FoodID = nil
			}
		}
	}
}

// mergeFoods re-points every use of fromFood to toFood and deletes fromFood.
// Merging a food into itself deletes it (foods_merge__into_itself.json).
func (s *Server) mergeFoods(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	var errs []valErr
	for _, k := range []string{"fromFood", "toFood"} {
		if _, ok := b.str(k); !ok {
			errs = append(errs, missing(b.raw(), k))
		}
	}
	if len(errs) > 0 {
		writeValidation(w, errs...)
		return
	}
	from, _ := b.str("fromFood")
	to, _ := b.str("toFood")
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.foodByID(from) == nil || st.foodByID(to) == nil {
		// Mealie 2.0 foods.merge_one raises 500 "Failed to merge foods" (cases C09).
		writeErrorResponse(w, http.StatusInternalServerError, "Failed to merge foods", "")
		return
	}
	for _, rc := range st.recipes {
		for i := range rc.Ingredients {
			if in := &rc.Ingredients[i]; in.FoodID != nil && *in.FoodID == from {
				in.FoodID = strp(to)
			}
		}
	}
	for _, l := range st.shoppingLists {
		for _, it := range l.Items {
			if it.FoodID != nil && *it.FoodID == from {
				it.FoodID = strp(to)
			}
		}
	}
	st.removeFood(from)
	writeJSON(w, http.StatusOK, object{{"message", "Successfully merged foods"}, {"error", false}})
}

// units -----------------------------------------------------------------

func (s *Server) listUnits(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(w, r, st.units, listSpec[*unit]{route: "/units", attrs: unitAttrs(),
		text:   func(u *unit) string { return u.Name + " " + u.Abbreviation },
		render: func(u *unit) any { return st.renderUnit(u) }})
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
	u.UseAbbreviation, _ = b.boolean("useAbbreviation")
	u.Aliases = aliasNames(b)
	u.UpdatedAt = st.now().UTC()
}

func (s *Server) createUnit(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	if _, ok := b.str("name"); !ok {
		writeValidation(w, missing(b.raw(), "name"))
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	u := &unit{ID: newID(), CreatedAt: st.now().UTC()}
	st.applyUnit(u, b)
	st.units = append(st.units, u)
	writeJSON(w, http.StatusCreated, st.renderUnit(u))
}

func (s *Server) getUnit(w http.ResponseWriter, r *http.Request) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if u := st.unitByID(id); u != nil {
		writeJSON(w, http.StatusOK, st.renderUnit(u))
		return
	}
	writeNotFoundMixin(w)
}

func (s *Server) updateUnit(w http.ResponseWriter, r *http.Request) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
	if !ok {
		return
	}
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	if _, ok := b.str("name"); !ok {
		writeValidation(w, missing(b.raw(), "name"))
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	u := st.unitByID(id)
	if u == nil {
		writeNoRow(w)
		return
	}
	st.applyUnit(u, b)
	writeJSON(w, http.StatusOK, st.renderUnit(u))
}

func (s *Server) deleteUnit(w http.ResponseWriter, r *http.Request) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	u := st.unitByID(id)
	if u == nil {
		writeNoRow(w)
		return
	}
	if st.profile.inUseDeleteConflict && st.unitInUse(id) {
		writeInUse(w)
		return
	}
	out := st.renderUnit(u)
	st.removeUnit(id, nil)
	writeJSON(w, http.StatusOK, out)
}

// removeUnit deletes a unit; uses of it move to replacement (nil: null).
func (st *store) removeUnit(id string, replacement *string) {
	for i, u := range st.units {
		if u.ID == id {
			st.units = append(st.units[:i], st.units[i+1:]...)
			break
		}
	}
	for _, r := range st.recipes {
		for i := range r.Ingredients {
			if in := &r.Ingredients[i]; in.UnitID != nil && *in.UnitID == id {
				in.UnitID = replacement
			}
		}
	}
	for _, l := range st.shoppingLists {
		for _, it := range l.Items {
			if it.UnitID != nil && *it.UnitID == id {
				it.UnitID = replacement
			}
		}
	}
}

// mergeUnits is PUT /api/units/merge {fromUnit,toUnit} (units_merge__ok.json).
func (s *Server) mergeUnits(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	var errs []valErr
	for _, k := range []string{"fromUnit", "toUnit"} {
		if _, ok := b.str(k); !ok {
			errs = append(errs, missing(b.raw(), k))
		}
	}
	if len(errs) > 0 {
		// units_merge__422.json
		writeValidation(w, errs...)
		return
	}
	from, _ := b.str("fromUnit")
	to, _ := b.str("toUnit")
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.unitByID(from) == nil || st.unitByID(to) == nil {
		writeErrorResponse(w, http.StatusInternalServerError, "Failed to merge units", "")
		return
	}
	if from == to {
		st.removeUnit(from, nil)
	} else {
		st.removeUnit(from, strp(to))
	}
	writeJSON(w, http.StatusOK, object{{"message", "Successfully merged units"}, {"error", false}})
}

// labels ----------------------------------------------------------------

// defaultLabelColor is what Mealie gives a label created without a colour
// (groups_labels__create_name_only.json).
const defaultLabelColor = "#959595"

func (s *Server) listLabels(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(w, r, st.labels, listSpec[*label]{route: "/groups/labels",
		attrs: map[string]attrDef[*label]{
			"id":   {kindUUID, func(l *label) []any { return one(l.ID) }},
			"name": {kindString, func(l *label) []any { return one(l.Name) }},
		},
		text:   func(l *label) string { return l.Name },
		render: func(l *label) any { return st.renderLabel(l) }})
}

// createLabel answers 200, not 201 (groups_labels__create_ok.json).
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

func (s *Server) getLabel(w http.ResponseWriter, r *http.Request) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
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
	writeNotFoundMixin(w)
}

// updateLabel needs the whole label, id and groupId included
// (groups_labels__put.json lists groupId and id as missing).
func (s *Server) updateLabel(w http.ResponseWriter, r *http.Request) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
	if !ok {
		return
	}
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	var errs []valErr
	for _, k := range []string{"name", "groupId", "id"} {
		if _, ok := b.str(k); !ok {
			errs = append(errs, missing(b.raw(), k))
		}
	}
	if len(errs) > 0 {
		writeValidation(w, errs...)
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	l := st.labelByID(id)
	if l == nil {
		writeNoRow(w)
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

// deleteLabel returns the deleted label (groups_labels__delete_ok.json) and
// unlinks it from foods and shopping items.
func (s *Server) deleteLabel(w http.ResponseWriter, r *http.Request) {
	id, ok := pathUUID(w, "item_id", r.PathValue("id"))
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	for i, l := range st.labels {
		if l.ID == id {
			out := st.renderLabel(l)
			st.labels = append(st.labels[:i], st.labels[i+1:]...)
			for _, f := range st.foods {
				if f.LabelID != nil && *f.LabelID == id {
					f.LabelID = nil
				}
			}
			writeJSON(w, http.StatusOK, out)
			return
		}
	}
	writeNoRow(w)
}

// foodInUse reports whether a recipe ingredient or a shopping-list item uses
// the food.
func (st *store) foodInUse(id string) bool {
	for _, r := range st.recipes {
		for _, in := range r.Ingredients {
			if in.FoodID != nil && *in.FoodID == id {
				return true
			}
		}
	}
	for _, l := range st.shoppingLists {
		for _, it := range l.Items {
			if it.FoodID != nil && *it.FoodID == id {
				return true
			}
		}
	}
	return false
}

// unitInUse reports whether a recipe ingredient or a shopping-list item uses
// the unit.
func (st *store) unitInUse(id string) bool {
	for _, r := range st.recipes {
		for _, in := range r.Ingredients {
			if in.UnitID != nil && *in.UnitID == id {
				return true
			}
		}
	}
	for _, l := range st.shoppingLists {
		for _, it := range l.Items {
			if it.UnitID != nil && *it.UnitID == id {
				return true
			}
		}
	}
	return false
}
