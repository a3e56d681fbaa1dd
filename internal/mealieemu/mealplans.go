package mealieemu

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// entryTypes are the meal-plan types Mealie 2.0 accepts
// (services/mealplan/testdata/mealplans__create_422_bad_entry_type.json); profiles with extraEntryTypes
// add the 3.x ones.
var entryTypes = []string{"breakfast", "lunch", "dinner", "side"}

var extraEntryTypes = []string{"snack", "drink", "dessert"}

func (st *store) entryTypes() []string {
	if st.profile.extraEntryTypes {
		return append(append([]string{}, entryTypes...), extraEntryTypes...)
	}
	return entryTypes
}

// renderMealplan is ReadPlanEntry with the recipe summary or null
// (services/mealplan/testdata/mealplans__get_one.json, services/mealplan/testdata/mealplans__create_unknown_recipe.json).
func (st *store) renderMealplan(m *mealplan) object {
	var rec any
	if m.RecipeID != nil {
		if rc := st.recipeByID(*m.RecipeID); rc != nil {
			rec = st.renderEmbeddedSummary(rc)
		}
	}
	return object{{"date", m.Date}, {"entryType", m.EntryType}, {"title", m.Title}, {"text", m.Text},
		{"recipeId", optString(m.RecipeID)}, {"id", m.ID}, {"groupId", st.user.GroupID},
		{"userId", st.user.ID}, {"householdId", st.user.HouseholdID}, {"recipe", rec}}
}

func (s *Server) mealplanRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/households/mealplans", s.listMealplans)
	mux.HandleFunc("POST /api/households/mealplans", s.createMealplan)
	mux.HandleFunc("GET /api/households/mealplans/today", s.todayMealplans)
	mux.HandleFunc("POST /api/households/mealplans/random", s.randomMealplan)
	mux.HandleFunc("GET /api/households/mealplans/{id}", s.getMealplan)
	mux.HandleFunc("PUT /api/households/mealplans/{id}", s.updateMealplan)
	mux.HandleFunc("DELETE /api/households/mealplans/{id}", s.deleteMealplan)
}

// listMealplans filters on start_date/end_date, snake_case only: camelCase
// names are ignored (services/mealplan/testdata/mealplans__list_camel_dates.json).
func (s *Server) listMealplans(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var verrs []valErr
	bounds := map[string]string{}
	for _, k := range []string{"start_date", "end_date"} {
		if v := q.Get(k); v != "" {
			if _, err := time.Parse(layoutDate, v); err != nil {
				verrs = append(verrs, valErr{typ: "date_from_datetime_parsing", loc: []any{"query", k},
					msg: "Input should be a valid date or datetime, input is too short", input: v, ctx: object{{"error", "input is too short"}}})
			}
			bounds[k] = v
		}
	}
	if len(verrs) > 0 {
		writeValidation(w, verrs...)
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	var rows []*mealplan
	for _, m := range st.mealplans {
		if (bounds["start_date"] == "" || m.Date >= bounds["start_date"]) && (bounds["end_date"] == "" || m.Date <= bounds["end_date"]) {
			rows = append(rows, m)
		}
	}
	listRows(st, w, r, rows, listSpec[*mealplan]{route: "/households/mealplans",
		attrs: map[string]attrDef[*mealplan]{
			"id":         {kindNumber, func(m *mealplan) []any { return one(float64(m.ID)) }},
			"date":       {kindTime, func(m *mealplan) []any { t, _ := time.Parse(layoutDate, m.Date); return one(t) }},
			"entry_type": {kindString, func(m *mealplan) []any { return one(m.EntryType) }},
			"title":      {kindString, func(m *mealplan) []any { return one(m.Title) }},
			"recipe_id":  {kindUUID, func(m *mealplan) []any { return optOne(m.RecipeID) }},
		},
		render: func(m *mealplan) any { return st.renderMealplan(m) }})
}

// parsePlanBody validates a create body: date, entryType among the profile's
// types (default breakfast), and a recipeId or a title
// (services/mealplan/testdata/mealplans__create_422_no_recipe_no_title.json reports loc body.recipe_id).
func (st *store) parsePlanBody(b jsonBody, m *mealplan) []valErr {
	var verrs []valErr
	if d, ok := b.str("date"); !ok {
		verrs = append(verrs, missing(b.raw(), "date"))
	} else if _, err := time.Parse(layoutDate, d); err != nil {
		verrs = append(verrs, valErr{typ: "date_from_datetime_parsing", loc: []any{"body", "date"},
			msg: "Input should be a valid date or datetime, input is too short", input: d, ctx: object{{"error", "input is too short"}}})
	} else {
		m.Date = d
	}
	m.EntryType = "breakfast"
	if et, ok := b.str("entryType"); ok {
		valid := st.entryTypes()
		if !contains(valid, et) {
			exp := quotedList(valid)
			verrs = append(verrs, valErr{typ: "enum", loc: []any{"body", "entryType"}, msg: "Input should be " + exp,
				input: et, ctx: object{{"expected", exp}}})
		}
		m.EntryType = et
	}
	m.Title, _ = b.str("title")
	m.Text, _ = b.str("text")
	m.RecipeID = nil
	if id, ok := b.str("recipeId"); ok {
		if e := uuid4Error(id); e != nil {
			e.loc = []any{"body", "recipeId"}
			verrs = append(verrs, *e)
		} else {
			m.RecipeID = strp(id)
		}
	}
	if len(verrs) == 0 && m.RecipeID == nil && m.Title == "" {
		verrs = append(verrs, valErr{typ: "value_error", loc: []any{"body", "recipe_id"},
			msg: "Value error, `recipe_id=None` or `title=` must be provided", input: nil, ctx: object{{"error", object{}}}})
	}
	return verrs
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// quotedList renders Python's enum expectation: "'a', 'b' or 'c'".
func quotedList(vals []string) string {
	out := ""
	for i, v := range vals {
		switch {
		case i == 0:
		case i == len(vals)-1:
			out += " or "
		default:
			out += ", "
		}
		out += "'" + v + "'"
	}
	return out
}

// createMealplan answers 201; an unknown but well-formed recipeId is kept and
// shows recipe null (services/mealplan/testdata/mealplans__create_unknown_recipe.json).
func (s *Server) createMealplan(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	m := &mealplan{}
	if verrs := st.parsePlanBody(b, m); len(verrs) > 0 {
		writeValidation(w, verrs...)
		return
	}
	m.ID = st.newMealplanID()
	st.mealplans = append(st.mealplans, m)
	writeJSON(w, http.StatusCreated, st.renderMealplan(m))
}

// todayMealplans returns a bare array of today's entries. Mealie 2.0 takes
// "today" in UTC (RepositoryMeals.get_today).
func (s *Server) todayMealplans(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	today := st.now().UTC().Format(layoutDate)
	out := []any{}
	for _, m := range st.mealplans {
		if m.Date == today {
			out = append(out, st.renderMealplan(m))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// randomMealplan is POST /api/households/mealplans/random {date, entryType}:
// an entry with a random recipe, answered 200 (services/mealplan/testdata/mealplans__random.json).
func (s *Server) randomMealplan(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.recipes) > 0 {
		b["recipeId"] = st.recipes[rand.IntN(len(st.recipes))].ID
	}
	m := &mealplan{}
	verrs := st.parsePlanBody(b, m)
	if len(verrs) > 0 {
		// Only the date and type are the caller's (services/mealplan/testdata/mealplans__random_422.json).
		var kept []valErr
		for _, e := range verrs {
			if e.typ != "value_error" {
				if e.input != nil {
					if ib, ok := e.input.(map[string]any); ok {
						delete(ib, "recipeId")
					}
				}
				kept = append(kept, e)
			}
		}
		if len(kept) == 0 {
			writeErrorResponse(w, http.StatusNotFound, "No recipes match your rules", "")
			return
		}
		writeValidation(w, kept...)
		return
	}
	m.ID = st.newMealplanID()
	st.mealplans = append(st.mealplans, m)
	writeJSON(w, http.StatusOK, st.renderMealplan(m))
}

// planID parses an integer entry id (services/mealplan/testdata/mealplans__get_uuid_instead_of_int_422.json).
func planID(w http.ResponseWriter, r *http.Request) (int, bool) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		writeValidation(w, intParsing("path", "item_id", r.PathValue("id")))
		return 0, false
	}
	return id, true
}

func (s *Server) getMealplan(w http.ResponseWriter, r *http.Request) {
	id, ok := planID(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if m := st.mealplanByID(id); m != nil {
		writeJSON(w, http.StatusOK, st.renderMealplan(m))
		return
	}
	writeNotFoundMixin(w)
}

// updateMealplan needs the full entry: date, id, groupId and userId
// (services/mealplan/testdata/mealplans__put_partial_422.json).
func (s *Server) updateMealplan(w http.ResponseWriter, r *http.Request) {
	id, ok := planID(w, r)
	if !ok {
		return
	}
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	var verrs []valErr
	if _, ok := b.str("date"); !ok {
		verrs = append(verrs, missing(b.raw(), "date"))
	}
	if _, ok := b.num("id"); !ok {
		verrs = append(verrs, missing(b.raw(), "id"))
	}
	verrs = append(verrs, b.missingStrings("groupId", "userId")...)
	if len(verrs) > 0 {
		writeValidation(w, verrs...)
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	m := st.mealplanByID(id)
	if m == nil {
		st.writeNoRow(w)
		return
	}
	next := *m
	if verrs := st.parsePlanBody(b, &next); len(verrs) > 0 {
		writeValidation(w, verrs...)
		return
	}
	*m = next
	writeJSON(w, http.StatusOK, st.renderMealplan(m))
}

// deleteMealplan returns the deleted entry, then 400 "No row was found"
// (services/mealplan/testdata/mealplans__delete.json, services/mealplan/testdata/mealplans__delete_again.json).
func (s *Server) deleteMealplan(w http.ResponseWriter, r *http.Request) {
	rowDelete[mealplan, int]{parse: planID,
		rows:   func(st *store) *[]*mealplan { return &st.mealplans },
		key:    func(m *mealplan) int { return m.ID },
		render: (*store).renderMealplan,
	}.serve(s, w, r)
}

// newMealplanID is the id SQLite gives a new meal-plan row: one above the
// highest id still in the table, so the id of a deleted last entry is given
// again (testdata/recordings/<version>/TestMealPlanFlow.json in the contract
// package: the random entry made after the first was deleted gets id 1).
func (st *store) newMealplanID() int {
	id := 1
	for _, m := range st.mealplans {
		id = max(id, m.ID+1)
	}
	if st.profile.postgres {
		// A PostgreSQL sequence never hands out an id again: after a
		// delete the next plan takes the next number, where SQLite takes
		// the largest left plus one
		// (testdata/recordings/3.20-pg/TestMealPlanFlow.json in the
		// contract package: 2, deleted, then 3).
		id = max(id, st.lastMealplanID+1)
		st.lastMealplanID = id
	}
	return id
}
