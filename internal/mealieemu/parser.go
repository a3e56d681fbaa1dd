package mealieemu

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// parsers are the parser names Mealie accepts (services/mealplan/testdata/parser_ingredients__bad_parser_422.json).
var parsers = []string{"nlp", "brute", "openai"}

// leadingQuantity matches "2", "1.5", "1/2" or "1 1/2" at the start of a line.
var leadingQuantity = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)(?:\s+(\d+)/(\d+)|/(\d+))?\s*`)

// vulgar spells out the fraction characters Mealie's parsers read as
// amounts: "½ cup of granulated sugar" is 0.5 cup and "1½ pounds steak"
// 1.5 pounds on 2.0 brute and 2.8/3.11 nlp alike
// (services/recipes/testdata/parsed/).
var vulgar = strings.NewReplacer(
	"½", " 1/2", "¼", " 1/4", "¾", " 3/4", "⅓", " 1/3", "⅔", " 2/3",
	"⅛", " 1/8", "⅜", " 3/8", "⅝", " 5/8", "⅞", " 7/8", "⅕", " 1/5", "⅙", " 1/6",
)

// parsedLine is one parsed ingredient line. A unit or food that matches no
// row keeps its name with id null, as Mealie's brute parser returns it.
type parsedLine struct {
	qty            float64
	found          bool // the line starts with an amount
	unit           *unit
	unitName       string
	food           *food
	foodName, note string
}

// pintUnits are the unit names the nlp parser (the ingredient-parser-nlp
// package) gives for common spellings: pint's singular full names
// (testdata/recordings/2.8/TestParserShapes.json in the contract package:
// "cups" is "cup", "tsp" is "teaspoon").
var pintUnits = map[string]string{
	"cup": "cup", "cups": "cup", "c": "cup",
	"tsp": "teaspoon", "teaspoon": "teaspoon", "teaspoons": "teaspoon",
	"tbsp": "tablespoon", "tablespoon": "tablespoon", "tablespoons": "tablespoon",
	"g": "gram", "gram": "gram", "grams": "gram", "kg": "kilogram", "kilogram": "kilogram", "kilograms": "kilogram",
	"ml": "milliliter", "milliliter": "milliliter", "milliliters": "milliliter",
	"l": "liter", "liter": "liter", "liters": "liter",
	"oz": "ounce", "ounce": "ounce", "ounces": "ounce",
	"lb": "pound", "lbs": "pound", "pound": "pound", "pounds": "pound",
	"pint": "pint", "pints": "pint", "quart": "quart", "quarts": "quart",
	// counting words the nlp model reads as units though no unit is
	// stored for them: real 2.8 and 3.11 answer unit "package", "stick"
	// and "packet" for "1 package (8 oz) cream cheese", "1 stick melted
	// butter" and "1 packet (2¼ tsp instant dry yeast)"
	// (services/recipes/testdata/parsed/parsed-nlp-*.json); the emulator
	// reads block, jar and slice alike
	"package": "package", "packages": "package", "stick": "stick", "sticks": "stick",
	"packet": "packet", "packets": "packet", "block": "block", "blocks": "block",
	"jar": "jar", "jars": "jar", "slice": "slice", "slices": "slice",
}

// parseLine follows Mealie's brute parser as captured
// (services/mealplan/testdata/parser_ingredients__brute.json): the leading amount; then, when an amount
// was found and more than one word follows, the first word as the unit (known
// or not, "3 large eggs" gives unit "large"); the rest up to a comma is the
// food, matched by name or plural name ("eggs" links "egg"); after the comma,
// the note. Without an amount the whole text is the food and the unit is empty.
func (st *store) parseLine(line string) parsedLine {
	var p parsedLine
	rest := vulgar.Replace(line)
	found := false
	if m := leadingQuantity.FindStringSubmatch(rest); m != nil {
		found = true
		p.found = true
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

// renderParsed is one ParsedIngredient. brute follows parseLine; nlp, which
// the emulator approximates with the same rules, takes the first word as the
// unit only when it is a unit (renamed as pintUnits does), reports a
// confidence for what it found, and sets title "". On 3.11 an empty unit or
// food is null, after the display was made with it ("3  eggs" from brute)
// (testdata/recordings/<version>/TestParserShapes.json in the contract
// package).
func (st *store) renderParsed(line, parser string) object {
	p := st.parseLine(line)
	nlp := parser != "brute"
	if nlp && p.unitName != "" && p.unit == nil {
		if name, ok := pintUnits[strings.ToLower(strings.TrimSuffix(p.unitName, "."))]; ok {
			p.unitName = name
		} else {
			p.foodName = strings.TrimSpace(p.unitName + " " + p.foodName)
			p.unitName = ""
			p.food = st.matchFood(p.foodName)
		}
	}
	// brute always makes a unit once it read an amount, named "" when no
	// unit word followed; nlp makes one only for a unit it found.
	hasUnit := p.unit != nil || p.unitName != "" || (!nlp && p.found)
	var unitJSON, foodJSON any
	switch {
	case p.unit != nil:
		unitJSON = st.renderUnit(p.unit)
	case hasUnit:
		// An unmatched unit renders as CreateIngredientUnit: onHand only
		// before the household migration, as render.go does for stored units.
		u := object{{"id", nil}, {"name", p.unitName}, {"pluralName", nil}, {"description", ""},
			{"extras", map[string]any{}}}
		if !st.profile.householdOnHand {
			u = append(u, field{"onHand", false})
		}
		unitJSON = st.unitStandardFields(append(u, field{"fraction", true}, field{"abbreviation", ""},
			field{"pluralAbbreviation", ""}, field{"useAbbreviation", false}, field{"aliases", []any{}}))
	}
	f := p.food
	if f != nil {
		foodJSON = st.renderFood(f)
	} else if p.foodName != "" || !nlp {
		// An unmatched food renders as CreateIngredientFood: onHand before the
		// household migration, householdsWithIngredientFood after it.
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
	if u == nil && hasUnit {
		u = &unit{Name: p.unitName, Fraction: true}
	}
	// Mealie joins an empty unit name too: "3  eggs".
	display := st.ingredientDisplay(&p.qty, u, f, p.note, true)
	if !st.profile.ingredientFlags {
		if u != nil && u.Name == "" {
			unitJSON = nil
		}
		if f != nil && f.Name == "" {
			foodJSON = nil
		}
	}
	o := object{{"quantity", p.qty}, {"unit", unitJSON}, {"food", foodJSON}, {"note", p.note}}
	if st.profile.ingredientFlags {
		o = append(o, field{"isFood", true}, field{"disableAmount", false})
	} else {
		o = append(o, field{"referencedRecipe", nil})
	}
	var title any
	if nlp && !st.profile.nlpTitleNull {
		title = ""
	}
	o = append(o, field{"display", display}, field{"title", title},
		field{"originalText", nil}, field{"referenceId", newID()})
	return object{{"input", line}, {"confidence", st.parseConfidence(p, parser, u, f)}, {"ingredient", o}}
}

// parseConfidence is IngredientConfidence. 2.x's brute parser sets none;
// 3.11's gives 1 for quantity and note and 1 for a unit or food only when it
// matched a stored one, averaged over the four. nlp gives the tagger's
// confidence for each part found (a unit's is its amount's), averaged over
// those; the emulator says 1 for each part found and 0 for the others.
func (st *store) parseConfidence(p parsedLine, parser string, u *unit, f *food) object {
	num := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	switch {
	case parser == "brute" && st.profile.ingredientFlags:
		return object{{"average", nil}, {"comment", nil}, {"name", nil}, {"unit", nil}, {"quantity", nil}, {"food", nil}}
	case parser == "brute":
		unitConf, foodConf := num(p.unit != nil), num(p.food != nil)
		return object{{"average", (2 + unitConf + foodConf) / 4}, {"comment", 1.0}, {"name", nil},
			{"unit", unitConf}, {"quantity", 1.0}, {"food", foodConf}}
	}
	var found []float64
	for _, has := range []bool{p.qty != 0, u != nil && u.Name != "", f != nil && f.Name != "", p.note != ""} {
		if has {
			found = append(found, 1)
		}
	}
	avg := 0.0
	if len(found) > 0 {
		avg = 1
	}
	// The unit's confidence is the amount's, unit or not.
	return object{{"average", avg}, {"comment", num(p.note != "")}, {"name", nil},
		{"unit", num(p.qty != 0)}, {"quantity", num(p.qty != 0)}, {"food", num(f != nil && f.Name != "")}}
}

// checkParser validates the parser name; "openai" fails as it does on a
// server without OpenAI configured (services/mealplan/testdata/parser_ingredients__openai.json).
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

// nlpFails reports the nlp parser (the default) failing as on a 2.0 install
// without CRF++'s model (profile nlpNeedsModel, WithoutNLPModel): an
// unhandled 500, text/plain.
func (s *Server) nlpFails(b jsonBody) bool {
	p, _ := b.str("parser")
	return s.cfg.noNLPModel && s.store.profile.nlpNeedsModel && (p == "" || p == "nlp")
}

// handleParseIngredients is POST /api/parser/ingredients: a bare array of
// parsed lines. The emulator answers every parser but openai with its own
// rule-based parse; real Mealie's nlp model is not reproduced.
func (s *Server) handleParseIngredients(w http.ResponseWriter, r *http.Request) {
	s.parse(w, r, "ingredients", func(b jsonBody) (any, bool) {
		lines, ok := b.list("ingredients")
		return lines, ok
	}, func(st *store, v any, parser string) any {
		out := []any{}
		for _, l := range v.([]any) {
			if line, ok := l.(string); ok {
				out = append(out, st.renderParsed(line, parser))
			}
		}
		return out
	})
}

// handleParseIngredient is POST /api/parser/ingredient {ingredient}.
func (s *Server) handleParseIngredient(w http.ResponseWriter, r *http.Request) {
	s.parse(w, r, "ingredient", func(b jsonBody) (any, bool) {
		line, ok := b.str("ingredient")
		return line, ok
	}, func(st *store, v any, parser string) any {
		return st.renderParsed(v.(string), parser)
	})
}

// parse is what both parser routes share: the body's key read by get (a
// 422 naming it when missing), the parser checked, a missing nlp model
// answered 500 as Mealie does, and the answer rendered under the store's
// lock.
func (s *Server) parse(w http.ResponseWriter, r *http.Request, key string, get func(jsonBody) (any, bool), render func(*store, any, string) any) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	v, ok := get(b)
	if !ok {
		writeValidation(w, missing(b.raw(), key))
		return
	}
	if !checkParser(s.store, w, b) {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if s.nlpFails(b) {
		writeInternal(w)
		return
	}
	parser, _ := b.str("parser")
	writeJSON(w, http.StatusOK, render(st, v, parser))
}

// handleSuggestions is GET /api/recipes/suggestions (profiles with
// suggestions; testdata/recordings/3.11/TestVersionSwitches.json): recipes
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
		if st.profile.ingredientFlags && rc.Settings.DisableAmount {
			// 2.x ranks only recipes whose amounts are on; a new recipe has
			// them off (testdata/recordings/2.8/TestVersionSwitches.json in
			// the contract package finds nothing).
			continue
		}
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
