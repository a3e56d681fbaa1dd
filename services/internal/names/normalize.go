package names

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/gertd/go-pluralize"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// english is read-only once built (its rule maps are filled once), so one
// client serves every goroutine.
var english = newEnglish()

// newEnglish is go-pluralize's client with the kitchen words its rules get
// wrong: "chillies" is not the plural of "chilly", "molasses" and
// "brussels" are one thing, "octopi" is octopus (TestSingularKitchenWords).
func newEnglish() *pluralize.Client {
	c := pluralize.NewClient()
	for _, p := range [][2]string{{"chilli", "chillies"}, {"chili", "chilies"}, {"chile", "chiles"}, {"octopus", "octopi"}} {
		c.AddIrregularRule(p[0], p[1])
	}
	for _, w := range []string{"molasses", "brussels", "tbs", "hummus", "couscous", "swiss", "jus", "mayonnaise"} {
		c.AddUncountableRule(w)
	}
	return c
}

// Fold is the exact-match key: lower case, accents removed, runs of spacing
// made one space. "Crème  Fraîche" and "creme fraiche" fold alike; nothing
// else is taken away, so a folded match is still the name as written.
func Fold(s string) string {
	if isASCII(s) {
		return strings.Join(strings.Fields(strings.ToLower(s)), " ")
	}
	t := transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.Join(strings.Fields(strings.ToLower(out)), " ")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

var (
	// bracketed text is a note in a stored name: "rice ($0.60)", "flour [sifted]".
	bracketed = regexp.MustCompile(`\([^)]*\)?|\[[^\]]*\]?`)
	// a price anywhere: "$0.60", "$ 2".
	price = regexp.MustCompile(`\$\s*[0-9]+(?:[.,][0-9]+)?`)
)

// notePhrases are the words of a note that stored names and pasted lines
// carry without naming a different food ("milk of choice", "salt to taste").
var notePhrases = [][]string{
	{"to", "taste"}, {"of", "choice"}, {"your", "choice"}, {"optional"},
	{"for", "serving"}, {"for", "garnish"}, {"to", "serve"}, {"divided"},
	{"as", "needed"}, {"if", "needed"}, {"or", "more"}, {"plus", "more"},
}

// packWords are the counts that lead a stored name without being the food:
// "pkt Ranch Seasoning", "can chickpeas". Only a leading one is dropped, and
// only when a word follows it.
var packWords = map[string]bool{
	"pkt": true, "pkg": true, "packet": true, "package": true, "pack": true,
	"can": true, "tin": true, "jar": true, "bag": true, "box": true,
	"bottle": true, "carton": true, "x": true,
}

// prepWords describe a state of the food, not a different food: "fresh
// cilantro" is cilantro, "COLD cooked brown rice" is brown rice. Words that
// do make another product ("ground", "dried", "smoked", "unsalted", "hot")
// are not here. Reads set them all aside; a write binds across them only
// as far as linkWords allow, and the pantry skip reads the formWords of a
// pantry item as a product (see Supplies).
var prepWords = map[string]bool{
	"fresh": true, "freshly": true, "chopped": true, "minced": true,
	"diced": true, "sliced": true, "grated": true, "shredded": true,
	"crushed": true, "cooked": true, "uncooked": true, "cold": true,
	"warm": true, "large": true, "small": true, "medium": true, "ripe": true,
	"peeled": true, "finely": true, "roughly": true, "thinly": true,
	"coarsely": true, "packed": true, "softened": true, "melted": true,
	"heaping": true, "level": true, "halved": true, "quartered": true,
	"good": true, "quality": true, "best": true,
}

// formWords are the prepWords a product is sold by: tinned "chopped
// tomatoes", "grated parmesan", "cooked rice". In a recipe's line they say
// what the cook does; in a pantry item's name they name what is on the
// shelf, which fresh tomatoes are not (Supplies).
var formWords = map[string]bool{
	"chopped": true, "minced": true, "diced": true, "sliced": true,
	"grated": true, "shredded": true, "crushed": true, "cooked": true,
	"peeled": true, "halved": true, "quartered": true,
}

// productWords name a processed product, and are not preparation words
// at all: dried apricots, smoked salmon and tinned tomatoes are other
// things on the shelf than the fresh food, on either side of the pantry
// skip (Supplies).
var productWords = map[string]bool{
	"tinned": true, "canned": true, "jarred": true, "dried": true, "dehydrated": true,
	"smoked": true, "pickled": true, "cured": true, "powdered": true, "pureed": true,
}

// linkWords are the prepWords a write binds across when one stored food
// alone differs from the name by them ("grated ginger" is the library's
// "fresh ginger"): all but "cooked" and "uncooked", since "brown rice" is
// not "COLD cooked brown rice" (Index.Bind).
func linkWord(w string) bool { return prepWords[w] && w != "cooked" && w != "uncooked" }

// Normalize reads a stored or typed name for matching: folded (see Fold),
// with what a name carries besides the food taken away: bracketed notes and
// prices ("rice ($0.60)"), anything after a comma or semicolon
// ("chicken thighs, boneless"), counts and fractions, marks ("vegetable
// oil*"), note phrases ("milk of choice", "to taste"), a connector at
// either end ("cornstarch +") and a leading package word ("pkt Ranch
// Seasoning"). Hyphens split words ("long-grain"). What is
// left is words of letters separated by single spaces; it may be empty.
func Normalize(s string) string {
	s = Fold(s)
	s = bracketed.ReplaceAllString(s, " ")
	s = price.ReplaceAllString(s, " ")
	if i := strings.IndexAny(s, ",;"); i > 0 && strings.TrimSpace(s[:i]) != "" {
		s = s[:i]
	}
	s = strings.ReplaceAll(s, "'", "")
	s = strings.ReplaceAll(s, "’", "")
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '&' || r == '+' {
			return r
		}
		return ' '
	}, s)
	// A count is a word without letters ("2", "1/2"); digits within a word
	// are part of the name ("7up", "400g").
	var kept []string
	for _, w := range strings.Fields(s) {
		if strings.ContainsFunc(w, unicode.IsLetter) || w == "&" || w == "+" {
			kept = append(kept, w)
		}
	}
	words := trimConnectors(dropPhrases(kept))
	if len(words) > 1 && packWords[words[0]] {
		words = words[1:]
		if len(words) > 1 && words[0] == "of" {
			words = words[1:]
		}
	}
	return strings.Join(words, " ")
}

// connectors join alternatives ("or", "+"); one at either end joins nothing
// (Mealie 2.8's parser reads "1 Tbsp. cornstarch + 1 Tbsp. water" as the
// food "cornstarch +").
var connectors = map[string]bool{"and": true, "or": true, "+": true, "&": true}

func trimConnectors(words []string) []string {
	for len(words) > 0 && connectors[words[0]] {
		words = words[1:]
	}
	for len(words) > 0 && connectors[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	return words
}

func dropPhrases(words []string) []string {
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); {
		n := 0
		for _, p := range notePhrases {
			if hasAt(words, i, p) {
				n = len(p)
				break
			}
		}
		if n > 0 {
			i += n
			continue
		}
		out = append(out, words[i])
		i++
	}
	return out
}

func hasAt(words []string, i int, p []string) bool {
	if i+len(p) > len(words) {
		return false
	}
	for j, w := range p {
		if words[i+j] != w {
			return false
		}
	}
	return true
}

// Singular is the English singular of one word ("tomatoes" -> "tomato",
// "leaves" -> "leaf"), by go-pluralize's rules, which know uncountables
// ("rice") and words that end in -ss ("lemongrass", "bass").
// Results are kept: go-pluralize tries its rules (regular expressions) one by
// one, and an index of a few thousand foods asks for the same words often.
func Singular(word string) string {
	if s, ok := singulars.Load(word); ok {
		return s.(string)
	}
	s := english.Singular(word)
	singulars.Store(word, s)
	return s
}

var singulars sync.Map

// PluralOf is the English plural of one word ("block" -> "blocks"), by the
// same rules as Singular: the pluralName a unit sous creates carries, so
// Mealie shows "2 blocks tofu".
func PluralOf(word string) string { return english.Plural(word) }

// Words is the matching key of a name: Normalize, without preparation words
// ("fresh", "chopped", "cooked"), each word made singular. Two names with
// equal Words name the same food for a cook.
func Words(s string) []string {
	fields := strings.Fields(Normalize(s))
	for i, w := range fields {
		fields[i] = Singular(w)
	}
	return dropPrep(fields)
}

// Canon is Words read in one English: each word in the American spelling
// and each name of synonyms.txt as the thing's first name, so "aubergines"
// and "eggplant", "king prawns" and "king shrimp", "yoghurt" and "yogurt"
// have one Canon. Synonyms are read before preparation words are set
// aside ("minced beef" is ground beef).
func Canon(s string) []string { return dropPrep(canonical(phraseWords(s))) }

// dropPrep sets aside the preparation words of a name, unless they are all
// it has (then the name is all there is).
func dropPrep(fields []string) []string {
	out := make([]string, 0, len(fields))
	for _, w := range fields {
		if prepWords[w] && len(fields) > 1 {
			continue
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		return fields
	}
	return out
}

// Key is Canon joined by spaces: the one key of a food however it is
// spelt, counted or named ("Tomatoes", "tomato ($0.45)" and "tomato" share
// it; so do "aubergine" and "eggplant").
func Key(s string) string { return strings.Join(Canon(s), " ") }

// Head is the head noun of a name: the last word of its Canon ("COLD
// cooked brown rice" -> "rice", "chicken thighs" -> "thigh"), empty when
// the name has no words.
func Head(s string) string {
	w := Canon(s)
	if len(w) == 0 {
		return ""
	}
	return w[len(w)-1]
}

// partWords are what a name may add after the food it is a part or a form
// of: "chicken thighs" is chicken, "garlic cloves" garlic, "broccoli
// florets" broccoli, "lime juice" comes from a lime. A stock, a powder, an
// oil, a sauce or a vinegar is another product and is not here.
var partWords = map[string]bool{
	"thigh": true, "breast": true, "drumstick": true, "wing": true, "leg": true,
	"fillet": true, "filet": true, "loin": true, "tenderloin": true,
	"cutlet": true, "chop": true, "shoulder": true, "shank": true,
	"rib": true, "belly": true, "mince": true, "tender": true,
	"clove": true, "leaf": true, "sprig": true, "stalk": true, "stem": true,
	"floret": true, "bulb": true, "wedge": true, "segment": true,
	"piece": true, "chunk": true, "cube": true, "slice": true, "half": true,
	"strip": true, "juice": true, "zest": true, "peel": true, "rind": true,
	"cheese": true,
}

// notCheese are the words before "cheese" that make another cheese rather
// than name a cheese by its kind ("parmesan cheese" is parmesan, "cream
// cheese" is not cream).
var notCheese = map[string]bool{"cream": true, "cottage": true, "goat": true, "string": true}

// alternatives split a name or a line on "and", "or", "+" and "&": a line
// "avocado oil or canola oil" offers two foods, "salt and pepper" two. An
// ellipsis is read as written: "chicken or vegetable broth" offers
// "chicken" as much as "butter or vegetable oil" offers butter, since which
// word is a modifier takes knowing the foods.
func alternatives(words []string) [][]string {
	var out [][]string
	start := 0
	for i, w := range words {
		if w == "and" || w == "or" || w == "+" || w == "&" {
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

// Covers reports whether the general name covers the specific one: the
// general's words (see Words) stand in the specific, and whatever follows
// them there is only a part or form of the food (see partWords). So
// "rice" covers "jasmine rice", "long-grain white rice" and "COLD cooked
// brown rice", "chicken" covers "boneless chicken thighs", "lime" covers
// "juice of 1 lime", "oil" covers "avocado oil or canola oil"; "rice" does
// not cover "rice vinegar", and a specific name never covers the general
// one ("jasmine rice" does not cover "rice"). A name covers itself; an
// empty name covers nothing.
func Covers(general, specific string) bool {
	return coversWords(Canon(general), Canon(specific)) || coversWords(Words(general), Words(specific))
}

// CoversLine reports whether the general name covers what a line of text
// names anywhere in it: Covers reads a stored name, whose words after a
// comma or in brackets are notes ("chicken thighs, boneless"), while a
// cook's line puts the food there too ("400g boned, skinless chicken
// thighs", "300 g chicken breast (or boneless chicken thighs)"). So each
// part between commas, semicolons and brackets is read as well as the
// whole.
func CoversLine(general, line string) bool {
	if Covers(general, line) {
		return true
	}
	g := Canon(general)
	// A dash set off before a word is an aside, as a comma is (FoodText).
	line = asideDash.ReplaceAllString(line, ",")
	for _, part := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(",;()[]", r) }) {
		if coversWords(g, Canon(part)) {
			return true
		}
	}
	return false
}

// Mentions reports whether text names the food name as such: name's words
// (see Words) stand in text with nothing after them, so "minced pork"
// is mentioned in "1 lb minced pork" but not in "1 lb minced pork belly",
// and "chicken" not in "2 chicken breasts" (which Covers accepts). It is
// how another name of a thing (a pantry alias) is read in a line of text.
func Mentions(name, text string) bool {
	g := Canon(name)
	if len(g) == 0 {
		return false
	}
	for _, s := range alternatives(Canon(text)) {
		if len(s) >= len(g) && hasAt(s, len(s)-len(g), g) {
			return true
		}
	}
	return false
}

func coversWords(g, s []string) bool {
	if len(g) == 0 {
		return false
	}
	for _, alt := range alternatives(s) {
		if coversAlt(g, alt) {
			return true
		}
	}
	return false
}

func coversAlt(g, s []string) bool {
	for i := 0; i+len(g) <= len(s); i++ {
		if !hasAt(s, i, g) || otherFood(s, i, len(g)) {
			continue
		}
		rest := s[i+len(g):]
		ok := true
		for j, w := range rest {
			if !partWords[w] || (w == "cheese" && j == 0 && notCheese[g[len(g)-1]]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// otherFoods are names whose last word is a food they are not: "coconut
// milk" is not milk, "green onions" are not the onions a pantry holds,
// "sun-dried tomatoes" are not tomatoes, "peanut butter" is not butter. A
// general name ("milk", "onion") does not cover them, so a pantry's onions
// never skip a recipe's green onions on a shopping list; the name itself
// ("coconut milk", "green onion") still does. Kept in Words form (singular,
// hyphens split, preparation words dropped). Kinds that are the food
// ("jasmine rice", "red onion", "heavy cream") are not here.
var otherFoods = [][]string{
	{"coconut", "milk"}, {"almond", "milk"}, {"oat", "milk"}, {"soy", "milk"},
	{"rice", "milk"}, {"cashew", "milk"}, {"condensed", "milk"}, {"evaporated", "milk"},
	{"coconut", "cream"}, {"sour", "cream"}, {"ice", "cream"},
	{"coconut", "water"}, {"rose", "water"}, {"soda", "water"},
	{"green", "onion"}, {"spring", "onion"},
	{"garlic", "salt"}, {"celery", "salt"}, {"onion", "salt"}, {"seasoned", "salt"},
	{"seasoning", "salt"},
	{"sun", "dried", "tomato"}, {"sundried", "tomato"},
	{"peanut", "butter"}, {"almond", "butter"}, {"cashew", "butter"}, {"apple", "butter"},
	{"cocoa", "butter"}, {"nut", "butter"},
	{"sweet", "potato"},
	{"green", "bean"}, {"string", "bean"}, {"vanilla", "bean"}, {"coffee", "bean"},
	{"cocoa", "bean"}, {"jelly", "bean"},
	{"bell", "pepper"}, {"chili", "pepper"}, {"chile", "pepper"}, {"jalapeno", "pepper"},
	{"sweet", "pepper"}, {"banana", "pepper"}, {"red", "pepper"}, {"green", "pepper"},
	{"yellow", "pepper"}, {"orange", "pepper"},
}

// otherFoodsCanon are otherFoods as written and as Canon reads them
// ("spring onion" is a green onion), which is how coversAlt meets them.
var otherFoodsCanon = func() [][]string {
	out := make([][]string, 0, len(otherFoods))
	for _, c := range otherFoods {
		w := phraseWords(strings.Join(c, " "))
		for _, k := range [][]string{w, canonical(w)} {
			if !slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, k) }) {
				out = append(out, k)
			}
		}
	}
	return out
}()

// otherFood reports whether the words g matched at s[i:i+n] end one of
// otherFoods that begins before them: "milk" in "light coconut milk".
func otherFood(s []string, i, n int) bool {
	end := i + n
	for _, c := range otherFoodsCanon {
		k := end - len(c)
		if k >= 0 && k < i && hasAt(s, k, c) {
			return true
		}
	}
	return false
}

// IsPrepWord reports whether a word (lower case, singular) is one of the
// preparation words reads set aside ("fresh", "chopped", "large").
func IsPrepWord(w string) bool { return prepWords[w] }

// WordKey is one word as names are compared: lower case, singular, in the
// American spelling ("Chillies" -> "chili").
func WordKey(w string) string { return spell(Singular(spell(strings.ToLower(w)))) }
