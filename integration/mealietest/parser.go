package mealietest

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// parsers are the parser names Mealie accepts (parser_ingredients__bad_parser_422.json).
var parsers = []string{"nlp", "brute", "openai"}

// leadingQuantity matches "2", "1.5", "1/2" or "1 1/2" at the start of a line.
var leadingQuantity = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)(?:\s+(\d+)/(\d+)|/(\d+))?\s*`)

// parsedLine is one parsed ingredient line. A unit or food that matches no
// row keeps its name with id null, as Mealie's brute parser returns it.
type parsedLine struct {
	qty            float64
	unit           *unit
	unitName       string
	food           *food
	foodName, note string
}

// parseLine follows Mealie's brute parser as captured
// (parser_ingredients__brute.json): the leading amount; then, when an amount
// was found and more than one word follows, the first word as the unit (known
// or not, "3 large eggs" gives unit "large"); the rest up to a comma is the
// food, matched by name or plural name ("eggs" links "egg"); after the comma,
// the note. Without an amount the whole text is the food and the unit is empty.
func (st *store) parseLine(line string) parsedLine {
	var p parsedLine
	rest := line
	found := false
	if m := leadingQuantity.FindStringSubmatch(rest); m != nil {
		found = true
		p.qty, _ = strconv.ParseFloat(m[1], 64)
		switch {
		case m[2] != "":
			n, _ := strconv.ParseFloat(m[2], 64)
			d, _ := strconv.ParseFloat(m[3], 64)
			if d != 0 {
				p.qty += n / d
			}
		case m[4] != "":
			d, _ := strconv.ParseFloat(m[4], 64)
			if d != 0 {
				p.qty /= d
			}
		}
		rest = rest[len(m[0]):]
	}
	foodPart, notePart, _ := strings.Cut(rest, ",")
	p.note = strings.TrimSpace(notePart)
	words := strings.Fields(foodPart)
	if found && len(words) > 1 {
		p.unitName = words[0]
		p.unit = st.matchUnit(words[0])
		words = words[1:]
	}
	p.foodName = strings.Join(words, " ")
	p.food = st.matchFood(p.foodName)
	return p
}

func (st *store) matchUnit(w string) *unit {
	w = strings.ToLower(strings.TrimSuffix(w, "."))
	for _, x := range st.units {
		if w == strings.ToLower(x.Name) || (x.PluralName != nil && w == strings.ToLower(*x.PluralName)) ||
			(x.Abbreviation != "" && w == strings.ToLower(x.Abbreviation)) || w == strings.ToLower(x.Name)+"s" {
			return x
		}
	}
	return nil
}

func (st *store) matchFood(name string) *food {
	if f := st.foodByName(name); f != nil {
		return f
	}
	for _, x := range st.foods {
		if x.PluralName != nil && strings.EqualFold(*x.PluralName, name) {
			return x
		}
	}
	return nil
}

func (st *store) renderParsed(line string) object {
	p := st.parseLine(line)
	var unitJSON, foodJSON any
	switch {
	case p.unit != nil:
		unitJSON = st.renderUnit(p.unit)
	default:
		// An unmatched unit renders as CreateIngredientUnit: onHand only
		// before the household migration, as render.go does for stored units.
		u := object{{"id", nil}, {"name", p.unitName}, {"pluralName", nil}, {"description", ""},
			{"extras", map[string]any{}}}
		if !st.profile.householdOnHand {
			u = append(u, field{"onHand", false})
		}
		unitJSON = append(u, field{"fraction", true}, field{"abbreviation", ""},
			field{"pluralAbbreviation", ""}, field{"useAbbreviation", false}, field{"aliases", []any{}})
	}
	f := p.food
	if f != nil {
		foodJSON = st.renderFood(f)
	} else {
		// An unmatched food renders as CreateIngredientFood: onHand before the
		// household migration, householdsWithIngredientFood after it (the
		// 3.x openapi.json CreateIngredientFood; mcp-mealie
		// parsed_ingredients.json).
		if st.profile.householdOnHand {
			foodJSON = object{{"id", nil}, {"name", p.foodName}, {"pluralName", nil}, {"description", ""},
				{"extras", map[string]any{}}, {"labelId", nil}, {"aliases", []any{}}, {"householdsWithIngredientFood", []any{}}}
		} else {
			foodJSON = object{{"id", nil}, {"name", p.foodName}, {"pluralName", nil}, {"description", ""},
				{"extras", map[string]any{}}, {"onHand", false}, {"labelId", nil}, {"aliases", []any{}}}
		}
		f = &food{Name: p.foodName}
	}
	u := p.unit
	if u == nil && p.unitName != "" {
		u = &unit{Name: p.unitName, Fraction: true}
	}
	o := object{{"quantity", p.qty}, {"unit", unitJSON}, {"food", foodJSON}, {"note", p.note}}
	if st.profile.ingredientFlags {
		o = append(o, field{"isFood", true}, field{"disableAmount", false})
	}
	o = append(o, field{"display", ingredientDisplay(&p.qty, u, f, p.note, true)}, field{"title", nil},
		field{"originalText", nil}, field{"referenceId", newID()})
	return object{{"input", line}, {"confidence", object{{"average", nil}, {"comment", nil}, {"name", nil},
		{"unit", nil}, {"quantity", nil}, {"food", nil}}}, {"ingredient", o}}
}

// checkParser validates the parser name; "openai" fails as it does on a
// server without OpenAI configured (parser_ingredients__openai.json).
func checkParser(st *store, w http.ResponseWriter, b jsonBody) bool {
	p, ok := b.str("parser")
	if !ok {
		return true
	}
	if !contains(parsers, p) {
		exp := quotedList(parsers)
		writeValidation(w, valErr{typ: "enum", loc: []any{"body", "parser"}, msg: "Input should be " + exp, input: p, ctx: object{{"expected", exp}}})
		return false
	}
	if p == "openai" || st.parserFails(p) {
		writeInternal(w)
		return false
	}
	return true
}

// handleParseIngredients is POST /api/parser/ingredients: a bare array of
// parsed lines. The emulator answers every parser but openai with its own
// rule-based parse; real Mealie's nlp model is not reproduced.
func (s *Server) handleParseIngredients(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	lines, ok := b.list("ingredients")
	if !ok {
		writeValidation(w, missing(b.raw(), "ingredients"))
		return
	}
	if !checkParser(s.store, w, b) {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	out := []any{}
	for _, l := range lines {
		if s, ok := l.(string); ok {
			out = append(out, st.renderParsed(s))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// handleParseIngredient is POST /api/parser/ingredient {ingredient}.
func (s *Server) handleParseIngredient(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	line, ok := b.str("ingredient")
	if !ok {
		writeValidation(w, missing(b.raw(), "ingredient"))
		return
	}
	if !checkParser(s.store, w, b) {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	writeJSON(w, http.StatusOK, st.renderParsed(line))
}

// handleSuggestions is GET /api/recipes/suggestions (profiles with
// suggestions; mealie-3.x openapi.json RecipeSuggestionResponse): recipes
// ranked by how few of their foods and tools are missing from the given ones.
func (s *Server) handleSuggestions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, maxFoods, maxTools := 10, 5, 5
	for _, p := range []struct {
		k   string
		dst *int
	}{{"limit", &limit}, {"maxMissingFoods", &maxFoods}, {"maxMissingTools", &maxTools}} {
		if v := q.Get(p.k); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				writeValidation(w, intParsing("query", p.k, v))
				return
			}
			*p.dst = n
		}
	}
	have := map[string]bool{}
	for _, id := range append(q["foods"], q["tools"]...) {
		have[id] = true
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	type cand struct {
		rc           *recipe
		foods, tools []any
		matched      int
	}
	var cands []cand
	for _, rc := range st.recipes {
		c := cand{rc: rc, foods: []any{}, tools: []any{}}
		for _, in := range rc.Ingredients {
			if in.FoodID == nil {
				continue
			}
			if have[*in.FoodID] {
				c.matched++
			} else if f := st.foodByID(*in.FoodID); f != nil {
				c.foods = append(c.foods, st.renderFood(f))
			}
		}
		for _, id := range rc.ToolIDs {
			if have[id] {
				c.matched++
			} else if t := findOrganizer(st.tools, id); t != nil {
				c.tools = append(c.tools, st.renderTool(t))
			}
		}
		if c.matched > 0 && len(c.foods) <= maxFoods && len(c.tools) <= maxTools {
			cands = append(cands, c)
		}
	}
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && len(cands[j].foods)+len(cands[j].tools) < len(cands[j-1].foods)+len(cands[j-1].tools); j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	items := []any{}
	for i, c := range cands {
		if i >= limit {
			break
		}
		items = append(items, object{{"recipe", st.renderEmbeddedSummary(c.rc)}, {"missingFoods", c.foods}, {"missingTools", c.tools}})
	}
	writeJSON(w, http.StatusOK, object{{"items", items}})
}
