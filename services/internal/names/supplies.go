package names

import (
	"slices"
	"strings"
)

// Kind is how Supplies reads a pantry item that is a more specific kind of
// the recipe's food ("jasmine rice" for "rice"). Resolve never answers it:
// a read goes the other way, from a general name to its kinds.
const Kind = General + 1

// sameParts are the words a name may add after a food and still be that
// food as a shop sells it: "garlic cloves" are garlic, "parsley leaves"
// parsley, "egg yolks" eggs, "parmesan cheese" parmesan. A cut of meat, a
// juice or a zest is not here: chicken thighs are not a chicken, and a
// bottle of lime juice is not limes.
var sameParts = map[string]bool{
	"clove": true, "sprig": true, "leaf": true, "stalk": true, "stem": true,
	"floret": true, "bulb": true, "wedge": true, "segment": true,
	"piece": true, "chunk": true, "cube": true, "slice": true, "strip": true,
	"half": true, "yolk": true, "white": true, "cheese": true,
}

// Supplies reports whether a pantry item named have supplies a recipe's
// food named want, and how it was read: the pantry skip of a shopping list
// leaves want off the list only then. Unlike a read (Index.Covered), it
// never widens: the item must be the same thing (how Exact, Plural or
// Synonym: "eggs" for "2 large eggs, beaten", "prawns" for "shrimp") or a
// more specific kind of it (Kind: "light brown sugar" supplies "sugar",
// "jasmine rice" "rice"), never a more general one ("sugar" does not supply
// "light brown sugar", "onions" not "red onion", "flour" not "flour
// tortillas") nor another food named by the same last word ("coconut milk"
// is not milk, see otherFoods). A cook's words in want ("fresh", "large",
// "chopped") do not separate it from the item; a form word in the item's
// own name is a product ("chopped tomatoes" on the shelf are tinned, and
// supply only a recipe's "chopped tomatoes", see formWords), and a
// processed product is never its fresh food, nor the other way ("dried
// apricots", "smoked salmon", see productWords). A line of
// text is read whole and by each part between commas, and
// by each of its alternatives ("butter or margarine"); foods joined by
// "and" or "+" are all needed, so one item supplies none of them ("salt
// and pepper", "pork & beans").
func Supplies(have, want string) (How, bool) {
	if Fold(have) == "" || Fold(want) == "" {
		return None, false
	}
	if Fold(have) == Fold(want) {
		return Exact, true
	}
	h := stockWords(have)
	if len(h) == 0 {
		return None, false
	}
	best := None
	raw := stockWordsOf(phraseWords(have))
	read := func(part string) {
		words := phraseWords(afterAmount(part))
		for _, alt := range orAlternatives(canonical(words)) {
			how, ok := suppliesAlt(h, alt)
			if !ok {
				continue
			}
			if how == Synonym && slices.ContainsFunc(orAlternatives(words), func(r []string) bool {
				rh, same := suppliesAlt(raw, r)
				return same && rh == Synonym
			}) {
				// the same words once plural and spelling are set aside
				how = Plural
			}
			if best == None || how < best {
				best = how
			}
		}
	}
	read(want)
	for _, part := range strings.FieldsFunc(want, func(r rune) bool { return strings.ContainsRune(",;", r) }) {
		read(part)
	}
	return best, best != None
}

// afterAmount is a line of text without the amount and unit it begins
// with ("a pinch of salt" is salt, "2 cups light brown sugar" light brown
// sugar); a name without an amount keeps a first word that is also a unit
// ("clove oil", "head cheese").
func afterAmount(s string) string {
	a := ReadAmount(s)
	if a.HasQuantity && a.Rest != "" {
		return a.Rest
	}
	return s
}

// stockWords are a pantry item's words as Supplies reads them: canonical,
// a cook's words set aside, its form words kept.
func stockWords(have string) []string { return stockWordsOf(canonical(phraseWords(have))) }

func stockWordsOf(words []string) []string {
	var out []string
	for _, w := range words {
		if prepWords[w] && !formWords[w] {
			continue
		}
		out = append(out, w)
	}
	return out
}

// orAlternatives splits words on "or": either food will do.
func orAlternatives(words []string) [][]string {
	var out [][]string
	start := 0
	for i, w := range words {
		if w == "or" {
			if i > start {
				out = append(out, words[start:i])
			}
			start = i + 1
		}
	}
	if start < len(words) {
		out = append(out, words[start:])
	}
	return out
}

// suppliesAlt reads one alternative of a recipe's food (its words,
// preparation words kept) against a pantry item's stockWords h: Synonym
// for the same thing, Kind for a more specific one.
func suppliesAlt(h, alt []string) (How, bool) {
	for _, w := range h {
		if (formWords[w] || productWords[w]) && !slices.Contains(alt, w) {
			return None, false
		}
	}
	for _, w := range alt {
		if productWords[w] && !slices.Contains(h, w) {
			return None, false
		}
	}
	form := func(w string) bool { return formWords[w] || productWords[w] }
	hc := withoutParts(slices.DeleteFunc(slices.Clone(h), form))
	ac := withoutParts(slices.DeleteFunc(dropAllPrep(alt), form))
	if len(hc) == 0 || len(ac) == 0 {
		return None, false
	}
	switch {
	case slices.Equal(hc, ac):
		return Synonym, true
	case len(hc) > len(ac) && hasAt(hc, len(hc)-len(ac), ac) && !otherFood(hc, len(hc)-len(ac), len(ac)):
		return Kind, true
	}
	return None, false
}

// dropAllPrep sets aside every preparation word (a recipe's "chopped" is
// the cook's doing), keeping a name that is nothing else.
func dropAllPrep(words []string) []string {
	out := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return prepWords[w] })
	if len(out) == 0 {
		return words
	}
	return out
}

// withoutParts drops the sameParts that end a name ("garlic cloves" ->
// "garlic"), keeping a name that is nothing else ("cloves") and another
// cheese ("cream cheese", see notCheese).
func withoutParts(words []string) []string {
	for len(words) > 1 {
		last := words[len(words)-1]
		if !sameParts[last] || last == "cheese" && notCheese[words[len(words)-2]] {
			break
		}
		words = words[:len(words)-1]
	}
	return words
}
