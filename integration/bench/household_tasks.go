package bench

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The household tasks. Each script is written from the catalog alone
// (mcpfront/testdata/toolsnaps and docs/tools.md: what tools/list tells a
// model), never from what the services do inside, so that a change which
// saves a model a lookup shows up here as fewer calls. A script reads the
// answers only the way a model would: the slugs, ids and names they show.
// Scripts may be adjusted when a tool they would use is added; the "before"
// figures of docs/benchmarks.md stay as measured.
//
// Every check reads Mealie (the emulator's API) and the food API back, and
// asks what the household asked for, not what sous did: a task whose outcome
// does not hold is reported so.

// pasteKey is the task whose record is also the pair's pasted recipe.
const pasteKey = "paste-recipe"

// pastedRecipe is a 13-line recipe as a user pastes it (Spicy Sesame
// Noodles, recipe-scrapers' krollskorner_1.json test data, MIT; it is not in
// the household library).
var pastedRecipe = struct {
	name, yield, total string
	lines, steps       []string
}{
	name: "Spicy Sesame Noodles", yield: "8 servings", total: "30 minutes",
	lines: []string{
		"1 pound spaghetti (or egg noodles, ramen noodles, etc. )",
		"1/2 cup sesame oil",
		"1/3 cup avocado oil or canola oil",
		"2 tsp. red pepper chili flakes",
		"1/2 cup soy sauce",
		"1/3 heaping cup honey",
		"2 Tbsp. chili garlic sauce (or your favorite chili crunch)",
		"2 tsp. rice vinegar",
		"1 Tbsp. cornstarch + 1 Tbsp. water (optional )",
		"3/4 cup unsalted roasted peanuts, chopped",
		"1/2 cup fresh cilantro, chopped",
		"1/2 cup green onions, chopped",
		"2 Tbsp. toasted sesame seeds",
	},
	steps: []string{
		"Cook spaghetti, or noodle of choice. Drain and set aside in a large bowl.",
		"Add sesame oil, avocado oil, and red pepper chili flakes to a saucepan over medium heat. Cook until the chili flakes begin to pop.",
		"Turn the heat down to low and add the soy sauce, honey, chili garlic sauce, and rice vinegar. Stir and bring the sauce to a simmer.",
		"Optional: to thicken the sauce, whisk in 1 Tbsp. cornstarch mixed with 1 Tbsp. water.",
		"Combine the cooked noodles with the sauce.",
		"Add in the peanuts, cilantro, green onions, and sesame seeds. Toss to combine and serve warm or chilled.",
	},
}

var householdTasks = []householdTask{
	{key: "plan-and-shop", ask: "Plan dinners for next week and put what we need on the shopping list.", pantry: true, run: runPlanAndShop, check: checkPlanAndShop},
	{key: pasteKey, ask: "Save this recipe: (13 pasted ingredient lines and 6 steps)", run: runPaste, check: checkPaste},
	{key: "tidy-recipe", ask: "The Easy Chicken Fajitas Bowl's ingredients are just text; make them proper ingredients.", run: runTidy, check: checkTidy},
	{key: "merge-foods", ask: "My foods have tomato, tomatoes and Tomatoes; merge them into tomato.", run: runMerge, check: checkMerge},
	{key: "tag-by-ingredient", ask: "Tag every recipe that uses chicken thighs with \"Chicken thighs\".", run: runTagByIngredient, check: checkTagByIngredient},
	{key: "quick-cookbook", ask: "Make a cookbook of our quick dinners, 30 minutes or less.", run: runQuickCookbook, check: checkQuickCookbook},
	{key: "log-cook", ask: "Tonight I made the weeknight stir-fry with chicken thighs, broccoli and jasmine rice.", pantry: true, run: runLogCook, check: checkLogCook},
	{key: "from-pantry", ask: "What can I make from what's in the pantry?", pantry: true, run: runFromPantry, check: checkFromPantry},
	{key: "used-last", ask: "I used the last of the rice.", pantry: true, run: runUsedLast, check: checkUsedLast},
	{key: "bought-two", ask: "I bought the eggs and the limes.", pantry: true, run: runBoughtTwo, check: checkBoughtTwo},
}

var householdPair = []householdTask{
	{key: "thighs-rice-lime", ask: "What can I make with chicken thighs, rice and a lime?", run: runThighsRiceLime, check: checkThighsRiceLime},
}

// --- answer reading, as a model reads an answer ---

// collect returns every string value under key anywhere in v.
func collect(v any, key string) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				if s, ok := e.(string); ok && k == key {
					out = append(out, s)
				} else {
					walk(e)
				}
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// items is the answer's "items" list of objects.
func items(m map[string]any) []map[string]any {
	var out []map[string]any
	list, _ := m["items"].([]any)
	for _, e := range list {
		if o, ok := e.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

func str(m map[string]any, k string) string {
	switch v := m[k].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// minutes reads a Mealie time such as "1 hour 5 minutes", "25 min" or
// "PT30M"; ok is false for text it cannot read.
func minutes(s string) (int, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return 0, false
	}
	re := regexp.MustCompile(`(\d+)\s*(h|hour|hours|hr|hrs|m|min|mins|minute|minutes)\b`)
	total, found := 0, false
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		n, _ := strconv.Atoi(m[1])
		found = true
		if strings.HasPrefix(m[2], "h") {
			total += 60 * n
		} else {
			total += n
		}
	}
	if !found {
		if n, err := strconv.Atoi(s); err == nil {
			return n, true
		}
	}
	return total, found
}

// --- Mealie read back ---

type mRecipe struct {
	ID         string `json:"id"`
	Slug       string `json:"slug"`
	Name       string `json:"name"`
	TotalTime  string `json:"totalTime"`
	Categories []struct {
		Name string `json:"name"`
	} `json:"recipeCategory"`
	Tags []struct {
		Name string `json:"name"`
	} `json:"tags"`
	Ingredients []mLine `json:"recipeIngredient"`
}

type mLine struct {
	Quantity     *float64 `json:"quantity"`
	Note         string   `json:"note"`
	OriginalText string   `json:"originalText"`
	Food         *struct {
		ID         string `json:"id"`
		Name       string `json:"name"`
		PluralName string `json:"pluralName"`
	} `json:"food"`
	Unit *struct {
		Name               string `json:"name"`
		PluralName         string `json:"pluralName"`
		Abbreviation       string `json:"abbreviation"`
		PluralAbbreviation string `json:"pluralAbbreviation"`
	} `json:"unit"`
}

// text is the line as a household reads it: food name or, for a text
// line, the note and original text.
func (l mLine) text() string {
	t := l.Note + " " + l.OriginalText
	if l.Food != nil {
		t += " " + l.Food.Name
	}
	return strings.ToLower(t)
}

func (x *hx) recipes() ([]mRecipe, error) {
	var page struct {
		Items []mRecipe `json:"items"`
	}
	if err := x.mealie("/api/recipes?perPage=-1", &page); err != nil {
		return nil, err
	}
	return page.Items, nil
}

// recipeDetails reads every recipe in full.
func (x *hx) recipeDetails() ([]mRecipe, error) {
	list, err := x.recipes()
	if err != nil {
		return nil, err
	}
	out := make([]mRecipe, 0, len(list))
	for _, r := range list {
		var d mRecipe
		if err := x.mealie("/api/recipes/"+r.Slug, &d); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// wordsLost lists the words of line that appear nowhere in what Mealie
// stored for it (quantity aside: numbers are compared as amounts, which
// this does not attempt). originalText does not count: Mealie's app shows
// quantity, unit, food and note.
func wordsLost(line string, l mLine) []string {
	var stored []string
	add := func(s string) { stored = append(stored, strings.Fields(normWords(s))...) }
	add(l.Note)
	if l.Food != nil {
		add(l.Food.Name + " " + l.Food.PluralName)
	}
	if l.Unit != nil {
		add(l.Unit.Name + " " + l.Unit.PluralName + " " + l.Unit.Abbreviation + " " + l.Unit.PluralAbbreviation)
	}
	var lost []string
	for _, w := range strings.Fields(normWords(line)) {
		if _, err := strconv.ParseFloat(w, 64); err == nil || strings.ContainsAny(w, "0123456789") {
			continue
		}
		if !slices.ContainsFunc(stored, func(s string) bool { return sameWord(s, w) }) {
			lost = append(lost, w)
		}
	}
	return lost
}

// normWords lowercases and keeps letters, digits and spaces.
func normWords(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '/' || r == '.':
			b.WriteRune(r)
		default:
			b.WriteRune(' ')
		}
	}
	return strings.ReplaceAll(b.String(), ".", " ")
}

// sameWord matches a word and its plural, and a unit's abbreviation to
// itself ("tbsp" and "tbsp.").
func sameWord(a, b string) bool {
	if a == b {
		return true
	}
	trim := func(s string) string { return strings.TrimSuffix(strings.TrimSuffix(s, "s"), "e") }
	return trim(a) == trim(b)
}

// --- food API read back ---

type pItem struct {
	ID         int    `json:"id"`
	Ingredient string `json:"ingredient"`
	Location   string `json:"location"`
	State      string `json:"state"`
}

func (x *hx) pantryItems() ([]pItem, error) {
	var items []pItem
	err := x.pantry("/pantry/", &items)
	return items, err
}

// pantryNames is every in-stock (in or low) pantry ingredient with its
// aliases, lowercased, read through the food API's own shell (no endpoint
// lists aliases).
func (x *hx) pantryNames() (map[string][]string, error) {
	out, err := x.food.Shell(x.ctx, `import json
from kitchen.models import PantryItem
names = {}
for p in PantryItem.objects.exclude(state="out").select_related("ingredient"):
    names[p.ingredient.name.lower()] = [a.name.lower() for a in p.ingredient.aliases.all()]
print(json.dumps(names))`)
	if err != nil {
		return nil, err
	}
	var names map[string][]string
	if err := json.Unmarshal([]byte(out), &names); err != nil {
		return nil, fmt.Errorf("pantry names: %w: %s", err, out)
	}
	return names, nil
}

// cookFoodName is a recipe food as a cook reads it: lowercased, without
// prices, asterisks, parentheses and words that say how it is prepared or
// sold, singular.
func cookFoodName(s string) string {
	s = strings.ToLower(s)
	s = regexp.MustCompile(`\([^)]*\)|\*`).ReplaceAllString(s, " ")
	var words []string
	for _, w := range strings.Fields(normWords(s)) {
		switch w {
		case "fresh", "freshly", "cold", "cooked", "boneless", "skinless", "large", "small", "medium", "unsalted", "salted",
			"grated", "chopped", "minced", "diced", "sliced", "shredded", "ground", "dry", "dried", "frozen", "canned", "of", "choice":
			continue
		}
		words = append(words, w)
	}
	for i, w := range words {
		words[i] = singular(w)
	}
	return strings.Join(words, " ")
}

func singular(w string) string {
	switch {
	case strings.HasSuffix(w, "toes"), strings.HasSuffix(w, "ches"):
		return strings.TrimSuffix(w, "es")
	case strings.HasSuffix(w, "ies"):
		return strings.TrimSuffix(w, "ies") + "y"
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return strings.TrimSuffix(w, "s")
	}
	return w
}

// covers says whether a pantry name covers a recipe food as a cook would:
// the same food, or the food's kind ("rice" covers "jasmine rice" and
// "long-grain white rice"; "ginger" covers "fresh ginger").
func covers(pantry, food string) bool {
	p, f := cookFoodName(pantry), cookFoodName(food)
	return p != "" && (p == f || f == p+" cheese" || strings.HasSuffix(f, " "+p) || strings.HasSuffix(p, " "+f))
}

// sameNames are the checker's own few same-thing names of the household
// seed's foods, read as the list's rows may name them (a recipe's
// cilantro merged into the row of another's fresh coriander).
var sameNames = map[string]string{"coriander": "cilantro", "scallion": "green onion", "spring onion": "green onion"}

// sameFood says whether two food names are one food as a shopper reads
// them: the cook's name of each, with the checker's same-thing names.
func sameFood(a, b string) bool {
	read := func(s string) string {
		s = cookFoodName(s)
		if n, ok := sameNames[s]; ok {
			return n
		}
		return s
	}
	return read(a) == read(b)
}

// textFood is the food an unparsed line names, read as a cook reads it:
// the first part of the line (up to a comma) that names anything, its first
// choice ("soy sauce or marinade" is soy sauce), without parentheses,
// amounts, units and words of preparation ("2-3 tablespoons chopped onion"
// is onion, "1 cooked chicken breast" is chicken breast).
func textFood(line string) string {
	line = regexp.MustCompile(`\([^)]*\)?`).ReplaceAllString(strings.ToLower(line), " ")
	for _, part := range strings.Split(line, ",") {
		part, _, _ = strings.Cut(part, " or ")
		var words []string
		for _, w := range strings.Fields(normWords(part)) {
			if strings.ContainsAny(w, "0123456789½¼¾⅓⅔/") || unitWords[w] {
				continue
			}
			words = append(words, w)
		}
		if f := cookFoodName(strings.Join(words, " ")); f != "" {
			return f
		}
	}
	return ""
}

// unitWords are the units a line's amount is written in.
var unitWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("cup cups c tablespoon tablespoons tbsp tbs teaspoon teaspoons tsp g gram grams kg ml l oz ounce ounces lb lbs pound pounds clove cloves pinch can cans slice slices bunch bunches quart quarts to about") {
		unitWords[w] = true
	}
}

// freeFoods are what no pantry lists and every kitchen has.
var freeFoods = []string{"water", "ice", "salt and pepper", "salt and pepper to taste", "salt and ground black pepper to taste"}

// inStock says whether the pantry covers food.
func inStock(names map[string][]string, food string) bool {
	if slices.Contains(freeFoods, cookFoodName(food)) || slices.Contains(freeFoods, strings.ToLower(food)) {
		return true
	}
	for n, aliases := range names {
		if covers(n, food) || slices.ContainsFunc(aliases, func(a string) bool { return covers(a, food) }) {
			return true
		}
	}
	return false
}

func weekArgs(monday time.Time) map[string]any {
	return map[string]any{"start_date": monday.Format(time.DateOnly), "end_date": monday.AddDate(0, 0, 6).Format(time.DateOnly)}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func list(s []string, max int) string {
	if len(s) > max {
		return strings.Join(s[:max], ", ") + fmt.Sprintf(" and %d more", len(s)-max)
	}
	return strings.Join(s, ", ")
}
