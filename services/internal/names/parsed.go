package names

import (
	"slices"
	"strings"
	"unicode"
)

// Parsed is a parser's reading of one line of text: what Mealie's nlp or
// brute parser answered, as names.
type Parsed struct {
	Quantity *float64
	Unit     string
	Food     string
	Note     string
}

// CleanParse mends a parser's reading of line where it disagrees with the
// line's own words, so nothing junk is stored (the recorded real readings
// in services/recipes/testdata/parsed/ show each): a standard unit the
// line begins with is the unit ("2 tsp. red pepper chili flakes" keeps
// teaspoon, "1/2 cup green onions" its cup, a parser's "terabyte" for "6 TB
// butter" is a tablespoon), and is taken out of the note and the food,
// where the parser leaves its abbreviation ("tsp."); a word of the food
// the parser moved into the note ("chili" of "red pepper chili flakes")
// goes back into the food, and so does a cook's word read as the unit
// ("large" of "3 large eggs" by the brute parser); a note of nothing but
// punctuation is dropped.
// Anything the parser read that the line does not contradict is kept.
func CleanParse(line string, p Parsed) Parsed {
	a := ReadAmount(line)
	if a.HasQuantity && p.Quantity == nil {
		q := a.Quantity
		p.Quantity = &q
	}
	if a.HasUnit() {
		if u, ok := StandardUnit(p.Unit); !ok || u.Name != a.Unit.Name {
			// the parser missed the unit, or read it as another thing
			p.Unit = a.UnitText
		}
		if unitWords(line, a.Unit) == 1 {
			// the line names the unit once, at its amount: elsewhere it
			// is the parser's echo ("plus 1 tbsp more" keeps its own)
			p.Note = withoutUnitWords(p.Note, a.Unit)
			p.Food = withoutUnitWords(p.Food, a.Unit)
		}
	}
	if _, ok := StandardUnit(p.Unit); !ok && p.Unit != "" && !a.HasUnit() && allPrep(p.Unit) {
		// a cook's word read as the unit ("3 large eggs" by Mealie's
		// brute parser) is the food's
		p.Food = strings.TrimSpace(p.Unit + " " + p.Food)
		p.Unit = ""
	}
	p.Food, p.Note = foodBack(a.Rest, p.Food, p.Note)
	if !strings.ContainsFunc(p.Note, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		p.Note = ""
	}
	return p
}

// allPrep reports whether every word of s is a preparation word.
func allPrep(s string) bool {
	w := strings.Fields(strings.ToLower(s))
	for _, x := range w {
		if !prepWords[strings.Trim(x, ",;.")] {
			return false
		}
	}
	return len(w) > 0
}

// withoutUnitWords takes the words naming unit u out of s ("tsp. chili"
// -> "chili"), with the punctuation that joined them.
func withoutUnitWords(s string, u Unit) string {
	if s == "" {
		return s
	}
	var keep []string
	for _, w := range strings.Fields(s) {
		bare := strings.Trim(w, ",;:()[]")
		if su, ok := StandardUnit(bare); ok && su.Name == u.Name && isUnitWord(bare, su) {
			continue
		}
		keep = append(keep, w)
	}
	return strings.Trim(strings.Join(keep, " "), " ,;:")
}

// unitWords counts the words of s written as one of u's names.
func unitWords(s string, u Unit) int {
	n := 0
	for _, w := range strings.Fields(s) {
		if isUnitWord(strings.Trim(w, ",;:()[]"), u) {
			n++
		}
	}
	return n
}

// isUnitWord reports whether w is written as one of u's names (not a food
// word StandardUnit reads through, such as "cloves").
func isUnitWord(w string, u Unit) bool {
	k := unitKey(w)
	for _, n := range u.Names() {
		if unitKey(n) == k {
			return true
		}
	}
	return false
}

// foodBack puts back into the food the words of the line the parser moved
// into the note from inside the food: in rest (the line after its amount
// and unit), the food's words span from its first to its last; a note
// word that stands within that span before the first comma is the food's
// ("red pepper chili flakes", read as food "red pepper flakes" and note
// "chili"). Words before the food ("large") and after a comma stay notes.
func foodBack(rest, food, note string) (string, string) {
	if food == "" || note == "" {
		return food, note
	}
	head := rest
	if i := strings.IndexAny(head, ",;("); i >= 0 {
		head = head[:i]
	}
	src := strings.Fields(head)
	fold := func(w string) string { return Fold(strings.Trim(w, ",;:.()[]")) }
	fw := strings.Fields(food)
	first, last := -1, -1
	for i, w := range src {
		if slices.ContainsFunc(fw, func(f string) bool { return fold(f) == fold(w) }) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || last-first+1 <= len(fw) {
		return food, note
	}
	inside := src[first : last+1]
	nw := strings.Fields(note)
	var moved []string
	for _, w := range inside {
		if slices.ContainsFunc(fw, func(f string) bool { return fold(f) == fold(w) }) {
			continue
		}
		i := slices.IndexFunc(nw, func(n string) bool { return fold(n) == fold(w) })
		if i < 0 {
			// a word of the span is neither food nor note: not a split
			return food, note
		}
		moved = append(moved, nw[i])
		nw = slices.Delete(nw, i, i+1)
	}
	if len(moved) == 0 {
		return food, note
	}
	return strings.Join(inside, " "), strings.Trim(strings.Join(nw, " "), " ,;:")
}
