package recipes

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/google/uuid"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// steps builds the instruction payload from text steps.
func steps(texts []string) []mealie.InstructionStep {
	out := make([]mealie.InstructionStep, 0, len(texts))
	for _, t := range texts {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, mealie.InstructionStep{ID: uuid.NewString(), Text: t, IngredientReferences: []string{}})
		}
	}
	return out
}

// formatQty renders a quantity for a note ("1.5", "2").
func formatQty(q float64) string { return strconv.FormatFloat(q, 'f', -1, 64) }

// joinNote appends parts to a note with ", ", skipping empties.
func joinNote(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, ", ")
}

// lineParts is one ingredient before it is resolved: what the caller wrote
// or what the parser read.
type lineParts struct {
	source   string // the text line, or the structured parts joined
	quantity *float64
	unit     string // a name
	unitID   string // set when the parser matched a Mealie unit
	food     string
	foodID   string
	note     string
	title    string
}

// lineReport is what resolving one line found, for the answer.
type lineReport struct {
	unresolved []string
	resolved   [][2]string // name as given, name written
	changed    bool        // sous changed the parser's reading
}

// resolveLine turns parts into a write, resolving names against the food
// and unit indexes (see services/internal/names: "tomatoes" binds to
// "tomato", a general "chicken" never binds to "chicken thighs"). A food no
// index binds is looked up in made (the foods this write created); names
// still unknown fold into the note and are reported. A unit that does not
// resolve keeps the line in the cook's order: quantity, then the unit's,
// the food's and the note's words as one note, as Mealie's app shows a
// line with no unit and no food ("1 tsp turmeric", not "1 turmeric tsp").
// When nothing resolved although a unit or food was named, the whole source
// line becomes the note and the quantity is dropped, or Mealie would render
// "500 500 g flour". Last, every word of the source line the parts lost
// goes back into the note (see restoreWords).
func resolveLine(p lineParts, fx, ux *itemIndex, made map[string]*mealie.TaxonomyItem) (mealie.IngredientLine, lineReport, error) {
	w := mealie.IngredientLine{ReferenceID: uuid.NewString(), Quantity: p.quantity, Title: p.title}
	var rep lineReport
	if p.source != "" {
		w.OriginalText = p.source
	}
	var extra []string
	unitLost := false
	if p.unit != "" || p.unitID != "" {
		if p.unitID != "" {
			w.Unit = &mealie.IngredientRef{ID: p.unitID, Name: p.unit}
		} else if it, err := bindUnit(ux, p.unit); err != nil {
			return w, rep, invalid("unit %q: %s", p.unit, err.Error())
		} else if it != nil {
			w.Unit = &mealie.IngredientRef{ID: it.ID, Name: it.Name}
			rep.resolved = append(rep.resolved, [2]string{p.unit, it.Name})
		} else {
			rep.unresolved = append(rep.unresolved, p.unit)
			extra = append(extra, p.unit)
			unitLost = true
		}
	}
	if p.food != "" || p.foodID != "" {
		if p.foodID != "" {
			w.Food = &mealie.IngredientRef{ID: p.foodID, Name: p.food}
		} else if it, _, err := fx.bind(p.food); err != nil {
			return w, rep, invalid("food %q: %s", p.food, err.Error())
		} else if it != nil {
			w.Food = &mealie.IngredientRef{ID: it.ID, Name: it.Name}
			rep.resolved = append(rep.resolved, [2]string{p.food, it.Name})
			rep.changed = readOther(p.food, it.Name)
		} else if it := made[names.Key(p.food)]; it != nil {
			w.Food = &mealie.IngredientRef{ID: it.ID, Name: it.Name}
			rep.changed = readOther(p.food, it.Name)
		} else {
			rep.unresolved = append(rep.unresolved, p.food)
			extra = append(extra, p.food)
		}
	}
	named := p.unit != "" || p.food != "" || p.unitID != "" || p.foodID != ""
	switch {
	case named && w.Unit == nil && w.Food == nil:
		w.Quantity = nil
		w.Note = p.source
		if w.Note == "" {
			w.Note = joinNote(strings.Join(extra, " "), p.note)
		}
		w.Display = w.Note
		return w, rep, nil
	case unitLost && w.Food != nil:
		// The unit's words must stand before the food's, and Mealie
		// shows a note after the food ("1 turmeric tsp"): the line is
		// kept as the cook wrote it, as text, and the food link is given
		// up (suggestions still match it by its words, see rankOne). The
		// parser's unit is not the cook's word either ("6 TB butter" is
		// read as 6 "terabyte").
		w.Quantity, w.Food = nil, nil
		w.Note = p.source
		if w.Note == "" {
			w.Note = strings.TrimSpace(strings.Join(append(extra, p.food), " ") + noteTail(p.note))
		}
		w.Display = w.Note
		rep.changed = true
		return w, rep, nil
	default:
		w.Note = joinNote(strings.Join(extra, " "), p.note)
	}
	if note, lost := restoreWords(p, w, fx, ux); lost {
		w.Note = note
		rep.changed = true
	}
	return w, rep, nil
}

// noteTail is a note as it follows other words: ", note".
func noteTail(note string) string {
	if note = strings.TrimSpace(note); note == "" {
		return ""
	}
	return ", " + note
}

// skipWords are words whose loss changes nothing a cook reads.
var skipWords = map[string]bool{"of": true, "a": true, "an": true, "the": true}

// lineWords are the words of letters in s, lower case, singular and in one
// spelling ("chili" of a line is the library's "chilli").
func lineWords(s string) []string {
	f := strings.FieldsFunc(names.Fold(s), func(r rune) bool { return !unicode.IsLetter(r) })
	for i, w := range f {
		f[i] = names.WordKey(w)
	}
	return f
}

// restoreWords puts back into the note the words of the source line that
// the write lost: Mealie's parser drops what follows some foods ("1/3 cup
// avocado oil or canola oil" loses "or canola oil", "1 Tbsp. cornstarch + 1
// Tbsp. water" the water), and a unit read as its singular or a food bound
// through its plural ("fresh cilantro" -> "cilantro") leaves a word
// behind. Words count as kept when the unit's or food's names (plural,
// abbreviation, aliases), the title or the note hold them, as often as the
// line has them; lost words are appended to the note in the line's order.
func restoreWords(p lineParts, w mealie.IngredientLine, fx, ux *itemIndex) (string, bool) {
	if p.source == "" {
		return w.Note, false
	}
	// Each part keeps as many of a word as its longest name holds ("oil"
	// once for "avocado oil", so the second "oil" of "or canola oil" is
	// lost); the parts add up.
	kept := map[string]int{}
	part := func(ns ...string) {
		most := map[string]int{}
		for _, n := range ns {
			c := map[string]int{}
			for _, x := range lineWords(n) {
				c[x]++
			}
			for x, k := range c {
				most[x] = max(most[x], k)
			}
		}
		for x, k := range most {
			kept[x] += k
		}
	}
	part(w.Note)
	part(p.title)
	if w.Unit != nil {
		ns := []string{w.Unit.Name}
		if it := ux.byID[w.Unit.ID]; it != nil {
			ns = append(ns, itemNames(it)...)
		}
		// a standard unit answers to its abbreviations whether or not
		// the library's row carries them: "1 tsp turmeric" stored as
		// teaspoon loses no "tsp"
		if std, ok := names.StandardUnit(w.Unit.Name); ok {
			ns = append(ns, std.Names()...)
		}
		part(ns...)
	}
	if w.Food != nil {
		ns := []string{w.Food.Name}
		if it := fx.byID[w.Food.ID]; it != nil {
			ns = append(ns, itemNames(it)...)
		}
		// the line's food in another English is the food ("zucchini"
		// stored as the library's courgette, "Spring Onion" as its
		// scallions)
		if t := names.FoodText(p.source); t != "" && slices.ContainsFunc(ns, func(n string) bool { return names.Key(n) == names.Key(t) }) {
			// its words as a name is read, without its cook's words
			// ("large") and notes ("to serve")
			ns = append(ns, strings.Join(names.Words(t), " "))
		}
		part(ns...)
	}
	// Numbers are kept by the quantity, except those that lead lost words
	// ("+ 1 Tbsp. water"): those go with them, and so does a "+" or "&"
	// before them, or the app reads "cornstarch optional, 1 Tbsp. water".
	// The line's first numbers are its quantity.
	var lost, numbers []string
	seenWord := false
	for _, tok := range strings.Fields(p.source) {
		if names.CountMarker(tok) {
			continue // "2 unit(s) Spring Onion": the count is the quantity
		}
		ws := lineWords(names.Fold(tok)) // the cook's case is what goes back
		if len(ws) == 0 {
			if seenWord && (strings.ContainsFunc(tok, unicode.IsDigit) || tok == "+" || tok == "&") {
				numbers = append(numbers, tok)
			}
			continue
		}
		seenWord = true
		missing := false
		for _, x := range ws {
			switch {
			case kept[x] > 0:
				kept[x]--
			case !skipWords[x]:
				missing = true
			}
		}
		if missing {
			for _, n := range numbers {
				lost = append(lost, strings.Trim(n, ",;()"))
			}
			lost = append(lost, strings.Trim(tok, ",;()"))
		}
		numbers = nil
	}
	if len(lost) == 0 {
		return w.Note, false
	}
	return joinNote(w.Note, strings.Join(lost, " ")), true
}

// structuredParts reads a StructuredIngredient.
func structuredParts(s *recipesv1.StructuredIngredient) lineParts {
	p := lineParts{unit: strings.TrimSpace(s.GetUnit()), food: strings.TrimSpace(s.GetFood()), note: strings.TrimSpace(s.GetNote()), title: strings.TrimSpace(s.GetTitle())}
	if s.Quantity != nil {
		q := s.GetQuantity()
		p.quantity = &q
	}
	var src []string
	if p.quantity != nil {
		src = append(src, formatQty(*p.quantity))
	}
	src = append(src, p.unit, p.food)
	p.source = strings.Join(strings.Fields(strings.Join(src, " ")), " ")
	if p.note != "" {
		p.source = joinNote(p.source, p.note)
	}
	return p
}

// parsedParts reads one parser answer for line, mended where the line's
// own words contradict it (names.CleanParse: a unit's abbreviation left in
// the note, a dropped unit, a food word moved into the note). The parser
// returns foods and units it never matched, without an id; those count as
// names only, and so does a unit or food CleanParse changed.
func parsedParts(line string, pi *mealie.ParsedIngredient) lineParts {
	in := &pi.Ingredient
	p := lineParts{source: line, note: str(in.Note), title: str(in.Title)}
	if in.Quantity != nil && *in.Quantity != 0 {
		q := *in.Quantity
		p.quantity = &q
	}
	if in.Unit != nil {
		p.unit, p.unitID = strings.TrimSpace(in.Unit.Name), in.Unit.ID
		if p.unitID != "" {
			p.unit, p.unitID = unitInLine(line, in.Unit)
		}
	}
	if in.Food != nil {
		p.food, p.foodID = strings.TrimSpace(in.Food.Name), in.Food.ID
		if p.foodID == "" {
			p.food = firstFood(p.food)
		} else if f, kept := names.MatchedFood(line, p.food); !kept {
			// the line's own words are the food, bound as any other name
			p.food, p.foodID = f, ""
		}
	}
	c := names.CleanParse(line, names.Parsed{Quantity: p.quantity, Unit: p.unit, Food: p.food, Note: p.note})
	if c.Unit != p.unit {
		p.unit, p.unitID = c.Unit, ""
	}
	if c.Food != p.food {
		p.food, p.foodID = c.Food, ""
	}
	if c.Quantity != nil && *c.Quantity != 0 {
		p.quantity = c.Quantity
	}
	p.note = c.Note
	return p
}

// unitInLine checks a unit Mealie's parser matched against the line: its
// nlp parser matches loosely, and on a library whose units an import named
// ("g blocks") reads "1 block tofu" as that unit. A unit none of whose
// names stands in the line is read again from the line: the word after
// the amount, when it is a word of the matched unit's name, is the unit
// the cook wrote, and sous binds or creates it as any other; otherwise the
// line has no unit but the standard one it begins with, if any.
func unitInLine(line string, u *mealie.Unit) (string, string) {
	have := lineWords(line)
	for _, n := range []string{u.Name, u.Abbreviation} {
		w := lineWords(n)
		if len(w) > 0 && !slices.ContainsFunc(w, func(x string) bool { return !slices.Contains(have, x) }) {
			return strings.TrimSpace(u.Name), u.ID
		}
	}
	if f := strings.Fields(names.ReadAmount(line).Rest); len(f) > 1 {
		if slices.Contains(lineWords(u.Name), names.Singular(strings.ToLower(strings.Trim(f[0], ",;.")))) {
			return f[0], ""
		}
	}
	// a unit the line does not name at all ("serving" for "5 fresh sprigs
	// of thyme") is not the line's: names.CleanParse reads the line's own
	return "", ""
}

// firstFood is the first food of a parsed food name that joins two: the
// parser reads "1 Tbsp. cornstarch + 1 Tbsp. water" as a food
// "cornstarch + 1 Tbsp. water" (the emulator; real 2.8's nlp says
// "cornstarch +", testdata/parsed) and "avocado oil or canola oil" as one
// food. The line's food is the first; the rest of the words go back into the
// note (restoreWords), so no food is ever created from two.
func firstFood(name string) string {
	w := strings.Fields(name)
	for i, x := range w {
		if i > 0 && (x == "+" || x == "&" || strings.EqualFold(x, "or") || strings.EqualFold(x, "plus")) {
			return strings.Join(w[:i], " ")
		}
	}
	if i := strings.IndexAny(name, "+&"); i > 0 {
		return strings.TrimSpace(name[:i])
	}
	return name
}
