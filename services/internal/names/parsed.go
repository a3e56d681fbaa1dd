package names

import (
	"regexp"
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
	if strings.Contains(strings.ToLower(line), "unit(s)") {
		// the parser reads a meal-kit count marker as the food ("unit",
		// "unit Red Chilli" of "½ unit(s) Red Chilli")
		if f := strings.Fields(p.Food); len(f) > 0 && (strings.EqualFold(f[0], "unit") || CountMarker(f[0])) {
			p.Food = FoodText(line)
		}
	}
	if q := qualityPrefix(p.Food); q != "" {
		// a cook's word of quality is no food: "good-quality" of "4 cups
		// good-quality chicken stock" (2.8's nlp, testdata/parsed); the
		// food is the rest of the line, the word a note
		food := strings.TrimSpace(p.Food[len(q):])
		if food == "" {
			t := FoodText(line)
			food = strings.TrimSpace(t[len(qualityPrefix(t)):])
			p.Note = withoutWords(p.Note, food)
		}
		if food != "" {
			p.Food = food
			p.Note = strings.TrimSpace(qualityNote(q) + noteAfter(p.Note))
		}
	}
	p.Food, p.Note = foodBack(a.Rest, p.Food, p.Note)
	p.Note = noteWithoutDebris(line, p.Note)
	if a.Size != "" {
		// a pack's size stands whole, first in the note ("1 can
		// tomatoes (14 oz) chopped" in Mealie's app): the parser drops
		// it (2.8's nlp) or leaves pieces ("oz", 3.20's "or 14 ounce")
		p.Note = strings.TrimSpace(a.Size + " " + withoutSize(line, p.Note, a.Size))
		p.Food = withoutSize(line, p.Food, a.Size)
	}
	if !strings.ContainsFunc(p.Note, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		p.Note = ""
	}
	return p
}

// qualityWord is a cook's word of quality before a food, and never a
// food: "good-quality", "high quality", "best", "homemade".
var qualityWord = regexp.MustCompile(`(?i)^(?:(?:(?:good|high|top|best|finest|premium|very good)[- ]quality|good|best|finest|premium|homemade|home-made|store-bought|shop-bought|storebought|your favou?rite|favou?rite)(?:\s*(?:,|or|and|/)\s*|\s+|$))+`)

// qualityPrefix is the run of qualityWords food begins with, as written
// ("good-quality or "), empty when there is none.
func qualityPrefix(food string) string {
	return qualityWord.FindString(food)
}

// qualityNote is a qualityPrefix as a note: without the connector that
// joined it to the food ("good-quality or" of "good-quality or stock").
func qualityNote(q string) string {
	f := strings.Fields(strings.Trim(q, " ,/"))
	for len(f) > 0 && (strings.EqualFold(f[len(f)-1], "or") || strings.EqualFold(f[len(f)-1], "and")) {
		f = f[:len(f)-1]
	}
	return strings.Trim(strings.Join(f, " "), " ,/")
}

// QualityOnly reports whether a parser's food is nothing but cook's words
// of quality ("good-quality"), which no food is named by.
func QualityOnly(food string) bool {
	food = strings.TrimSpace(food)
	return food != "" && len(qualityPrefix(food)) == len(food)
}

// noteAfter is a note as it follows other words of a note: ", note".
func noteAfter(note string) string {
	if note = strings.TrimSpace(note); note == "" {
		return ""
	}
	return ", " + note
}

// withoutWords takes the words of phrase out of s, once each.
func withoutWords(s, phrase string) string {
	nw := strings.Fields(s)
	for _, w := range strings.Fields(phrase) {
		if i := slices.IndexFunc(nw, func(n string) bool { return Fold(strings.Trim(n, ",;:.")) == Fold(w) }); i >= 0 {
			nw = slices.Delete(nw, i, i+1)
		}
	}
	return strings.Trim(strings.Join(nw, " "), " ,;:")
}

// withoutSize takes out of s what a parser left of a pack's size: its
// numbers with their units ("14 oz", "or 14 ounce", "28-ounce"), and a
// lone unit word of the size ("oz", "oz.") the line writes nowhere else.
func withoutSize(line, s, size string) string {
	amounts := packAmounts(size)
	isNumber := func(w string) bool {
		return slices.ContainsFunc(amounts, func(a packAmount) bool {
			return strings.ReplaceAll(w, ",", ".") == strings.ReplaceAll(a.Number, ",", ".")
		})
	}
	isUnit := func(w string) bool {
		u, ok := StandardUnit(w)
		return ok && slices.ContainsFunc(amounts, func(a packAmount) bool { return a.Unit.Name == u.Name })
	}
	outside := strings.Replace(line, size, " ", 1)
	var keep []string
	f := strings.Fields(s)
	for i := 0; i < len(f); i++ {
		w := strings.Trim(f[i], ",;:()")
		drop := false
		switch {
		case isNumber(w) && i+1 < len(f) && isUnit(strings.Trim(f[i+1], ",;:()")):
			i++
			drop = true
		case sizeAmountRe.FindString(w) == w && len(packAmounts(w)) == 1 && isNumber(packAmounts(w)[0].Number):
			drop = true
		case isUnit(w) && !slices.ContainsFunc(strings.Fields(outside), func(o string) bool { return strings.EqualFold(strings.Trim(o, ",;:()"), w) }):
			drop = true
		}
		if drop {
			if n := len(keep); n > 0 && strings.EqualFold(strings.Trim(keep[n-1], ","), "or") {
				keep = keep[:n-1]
			}
			continue
		}
		keep = append(keep, f[i])
	}
	return strings.Trim(strings.Join(keep, " "), " ,;:")
}

// noteWithoutDebris takes out of a note what a page leaves in a line
// that is no cook's word: a price ("3 cups fresh baby spinach ($1.61)"
// read with the note "$1.61") and the pieces of a meal-kit count marker
// ("unit(s)", read as "s").
func noteWithoutDebris(line, note string) string {
	note = bracketedPrice.ReplaceAllString(note, " ")
	note = price.ReplaceAllString(note, " ")
	var keep []string
	marker := strings.Contains(strings.ToLower(line), "unit(s)")
	for _, w := range strings.Fields(note) {
		t := strings.ToLower(strings.Trim(w, ",;:()"))
		if marker && (t == "s" || t == "unit" || t == "units" || countMarker.MatchString(strings.Trim(w, ",;:")) || t == "unit(s") {
			continue
		}
		keep = append(keep, w)
	}
	return strings.Trim(strings.Join(keep, " "), " ,;:")
}

// CountMarker reports whether a word of a line is the count marker
// meal-kit pages write after an amount ("unit(s)").
func CountMarker(w string) bool { return countMarker.MatchString(strings.Trim(w, ",;:")) }

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
// into the note, or dropped, from inside the food: in rest (the line after
// its amount and unit), the food's words span from its first to its last;
// a word that stands within that span before the first comma is the
// food's ("red pepper chili flakes", read as food "red pepper flakes" and
// note "chili", or matched to the library's "red pepper flakes"). Words
// before the food ("large") and after a comma stay notes, and a span
// joining two foods ("white or yellow onion") is left as the parser read
// it.
func foodBack(rest, food, note string) (string, string) {
	if food == "" {
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
	moved := false
	for i, w := range inside {
		if slices.ContainsFunc(fw, func(f string) bool { return fold(f) == fold(w) }) {
			continue
		}
		if connectors[fold(w)] {
			if fold(w) == "+" && i > 0 {
				// "cornstarch + 1 tbsp water" read as the food "cornstarch
				// water" (3.11's nlp): the food is what stands before the
				// "+", the rest goes back to the note
				return strings.Join(inside[:i], " "), note
			}
			// "white or yellow onion" is two foods, not one
			return food, note
		}
		moved = true
		// a word the parser moved into the note leaves it; one it
		// dropped altogether comes back all the same
		if i := slices.IndexFunc(nw, func(n string) bool { return fold(n) == fold(w) }); i >= 0 {
			nw = slices.Delete(nw, i, i+1)
		}
	}
	if !moved {
		return food, note
	}
	return strings.Join(inside, " "), strings.Trim(strings.Join(nw, " "), " ,;:")
}

// InLine reports whether a name the parser matched stands in a line of
// text: each of its words (read as Canon reads them, in any order) is a
// word of the line. Mealie's nlp parser matches a library's foods and
// units loosely, and on a real library reads "Rapeseed oil" as its
// "grapeseed oil" and "red wine vinegar" as its "rice wine vinegar"
// (services/recipes/testdata/parsed/); such a match is not the line's.
func InLine(name, line string) bool {
	w := dropPrep(canonical(phraseWords(name)))
	if len(w) == 0 {
		return true
	}
	have := canonical(phraseWords(line))
	have = append(have, phraseWords(line)...)
	for _, x := range w {
		if !slices.Contains(have, x) {
			return false
		}
	}
	return true
}

// MatchedFood checks a food Mealie's parser matched in the library against
// the line it read: its parsers match loosely ("grapeseed oil" for
// "Rapeseed oil", "Vegetable Stock Cube" for "vegetable stock"), so a food
// the line does not name gives way to the line's own words (FoodText), and
// kept is false. A line whose food cannot be read keeps Mealie's match.
func MatchedFood(line, food string) (name string, kept bool) {
	if InLine(food, ReadAmount(line).Rest) {
		return food, true
	}
	if t := FoodText(line); t != "" {
		return t, false
	}
	return food, true
}

// asideDash is a dash after a space: " -raw", " – juiced", " — optional".
var asideDash = regexp.MustCompile(`\s[-–—]`)

// FoodText is the food a line of text names, as the line writes it: the
// words after its amount and unit (ReadAmount) up to a comma, a bracket or
// a dash set off before a word ("16 ounces large shrimp -raw, peeled",
// "2 limes – juiced": an aside, as a comma sets one off; a hyphen inside
// a word, "sun-dried", is the word's).
func FoodText(line string) string {
	rest := ReadAmount(line).Rest
	if i := strings.IndexAny(rest, ",;(["); i >= 0 {
		rest = rest[:i]
	}
	if m := asideDash.FindStringIndex(rest); m != nil {
		rest = rest[:m[0]]
	}
	f := strings.Fields(rest)
	if len(f) > 1 && strings.EqualFold(f[0], "of") {
		f = f[1:]
	}
	return strings.Join(f, " ")
}
