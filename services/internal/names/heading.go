package names

import (
	"strings"
	"unicode"
)

// sectionWords are the words a recipe's section heading is made of when it
// names no food: the part of the dish ("marinade", "topping"), the words
// around it ("for the", "to serve") and the heading's own ("ingredients",
// "optional"). A line all of whose words are among them ("SAUCE", "For the
// topping", "Marinade ingredients") is a heading; one word outside them
// ("SOY SAUCE", "SALT") makes it an ingredient. A part sold as such
// ("stock", "pastry", "salsa") is not among them: alone on a line it is
// bought.
var sectionWords = map[string]bool{
	"for": true, "the": true, "a": true, "to": true, "and": true, "of": true, "main": true, "other": true,
	"serve": true, "serving": true, "servings": true, "finish": true, "finishing": true, "assemble": true, "assembly": true,
	"garnish": true, "garnishes": true, "decorate": true, "decoration": true, "optional": true, "ingredient": true, "ingredients": true,
	"marinade": true, "sauce": true, "dressing": true, "topping": true, "toppings": true, "filling": true, "glaze": true,
	"icing": true, "frosting": true, "crust": true, "dough": true, "batter": true, "base": true, "rub": true,
}

// IsHeading reports whether a recipe line of text alone (no amount, unit
// or food) is a section heading rather than something to buy: recipes
// imported and never parsed carry their sites' headings as lines ("FOR THE
// MARINADE", "For the sauce:", "To serve"). A line is a heading when it
// has no digit and it ends with a colon ("Garnish:"), begins with "for" or
// "to" followed by a word ("For the sauce", "To serve", "For serving"), or
// is made of heading words alone (sectionWords: "SAUCE", "Marinade
// ingredients"). Capitals alone do not make a heading: "SALT" and "SOY
// SAUCE" are ingredients a site wrote in capitals, and buying a heading is
// the smaller harm than leaving an ingredient off the list.
func IsHeading(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" || strings.ContainsFunc(t, unicode.IsDigit) || !strings.ContainsFunc(t, unicode.IsLetter) {
		return false
	}
	if strings.HasSuffix(t, ":") {
		return true
	}
	words := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(words) == 0 || len(words) > 6 {
		return false
	}
	if len(words) >= 2 && (words[0] == "for" || words[0] == "to") && !strings.ContainsAny(t, ",") {
		return true
	}
	for _, w := range words {
		if !sectionWords[w] {
			return false
		}
	}
	return true
}
