package names

import (
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/quick"
)

// food is a food as testdata lists it (Mealie's FoodOut fields that carry names).
type food struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	PluralName string   `json:"pluralName"`
	Aliases    []string `json:"aliases"`
}

type unit struct {
	ID                 string `json:"id"`
	Name               string `json:"name"`
	PluralName         string `json:"pluralName"`
	Abbreviation       string `json:"abbreviation"`
	PluralAbbreviation string `json:"pluralAbbreviation"`
}

func load[T any](t testing.TB, name string) []T {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

func foodEntries(fs []food) []Entry {
	out := make([]Entry, len(fs))
	for i, f := range fs {
		id := f.ID
		if id == "" {
			id = f.Name
		}
		out[i] = Entry{ID: id, Name: f.Name, Others: append([]string{f.PluralName}, f.Aliases...)}
	}
	return out
}

func unitEntries(us []unit) []Entry {
	out := make([]Entry, len(us))
	for i, u := range us {
		out[i] = Entry{ID: u.Name, Name: u.Name, Others: []string{u.PluralName, u.Abbreviation, u.PluralAbbreviation}}
	}
	return out
}

func messy(t testing.TB) *Index { return NewIndex(foodEntries(load[food](t, "messy-foods.json"))) }
func seeded(t testing.TB) *Index {
	return NewIndex(foodEntries(load[food](t, "seed-foods-3.11-en-US.json")))
}

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"rice ($0.60)", "rice"},
		{"pkt Ranch Seasoning", "ranch seasoning"},
		{"vegetable oil*", "vegetable oil"},
		{"COLD cooked brown rice", "cold cooked brown rice"},
		{"milk of choice", "milk"},
		{"chicken thighs, boneless", "chicken thighs"},
		{"Crème  Fraîche", "creme fraiche"},
		{"long-grain white rice", "long grain white rice"},
		{"2 x 400g can chickpeas", "400g can chickpeas"},
		{"7up", "7up"},
		{"live rice ba0dbf13", "live rice ba0dbf13"},
		{"can chickpeas", "chickpeas"},
		{"can", "can"},
		{"baker's yeast", "bakers yeast"},
		{"salt, to taste", "salt"},
		{"salt to taste", "salt"},
		{"½ cup honey", "cup honey"},
		{"(optional)", ""},
		{"cornstarch +", "cornstarch"},
		{"or canola oil", "canola oil"},
		{"", ""},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHead(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"COLD cooked brown rice", "rice"},
		{"rice ($0.60)", "rice"},
		{"boneless chicken thighs", "thigh"},
		{"tomatoes", "tomato"},
		{"fresh", "fresh"},
		{"", ""},
	} {
		if got := Head(c.in); got != c.want {
			t.Errorf("Head(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCovers(t *testing.T) {
	for _, c := range []struct {
		g, s string
		want bool
	}{
		{"rice", "jasmine rice", true},
		{"rice", "long-grain white rice", true},
		{"rice", "COLD cooked brown rice", true},
		{"rice", "rice ($0.60)", true},
		{"rice", "rice vinegar", false},
		{"jasmine rice", "rice", false},
		{"chicken", "chicken thighs", true},
		{"chicken", "boneless chicken thighs", true},
		{"chicken thighs", "chicken", false},
		{"chicken", "chicken broth", false},
		{"chicken", "chicken stock", false},
		{"butter", "unsalted butter", true},
		{"butter", "peanut butter", false},
		{"peanut butter", "creamy peanut butter", true},
		{"milk", "coconut milk", false},
		{"milk", "1 can light coconut milk", false},
		{"milk", "whole milk", true},
		{"coconut milk", "full-fat coconut milk", true},
		{"onions", "green onions", false},
		{"onion", "red onion", true},
		{"green onion", "2 green onions, sliced", true},
		{"chopped tomatoes", "sun-dried tomatoes", false},
		{"tomatoes", "cherry tomatoes", true},
		{"potato", "sweet potatoes", false},
		{"beans", "green beans", false},
		{"beans", "black beans", true},
		{"pepper", "red bell pepper", false},
		{"pepper", "black pepper", true},
		{"parmesan", "Parmesan cheese", true},
		{"cream", "cream cheese", false},
		{"cream", "heavy cream", true},
		{"lime", "juice of 1 lime", true},
		{"lime", "lime juice", true},
		{"lime", "limes", true},
		{"lime", "sublime", false},
		{"oil", "avocado oil or canola oil", true},
		{"canola oil", "1/3 cup avocado oil or canola oil", true},
		{"pepper", "salt and pepper to taste", true},
		{"salt", "salt and pepper to taste", true},
		{"chicken", "4 cups chicken or vegetable broth", true}, // read as written (see alternatives)
		{"butter", "butter or vegetable oil", true},
		{"vegetable broth", "4 cups chicken or vegetable broth", true},
		{"chicken breast", "2 cups diced or shredded chicken breast", true},
		{"sunflower oil", "canola or sunflower oil", true},
		{"canola oil", "canola or sunflower oil", false},
		{"garlic", "garlic powder", false},
		{"garlic", "3 cloves garlic, smashed", true},
		{"garlic", "garlic cloves", true},
		{"ginger", "fresh ginger", true},
		{"milk", "milk of choice", true},
		{"oyster sauce", "oyster sauce*", true},
		{"ranch seasoning", "pkt Ranch Seasoning", true},
		{"", "rice", false},
		{"rice", "", false},
	} {
		if got := Covers(c.g, c.s); got != c.want {
			t.Errorf("Covers(%q, %q) = %v, want %v", c.g, c.s, got, c.want)
		}
	}
}

// TestResolveMessy reads the names a household says against the messy
// library names (testdata/README.md says where they come from).
func TestResolveMessy(t *testing.T) {
	ix := messy(t)
	for _, c := range []struct {
		name string
		how  How
		want []string // match names, in order; nil means none
	}{
		{"tomato", Exact, []string{"tomato", "Tomato"}},
		{"Tomato", Exact, []string{"Tomato", "tomato"}},
		{"TOMATOES", Exact, []string{"tomatoes"}},
		{"rice", Plural, []string{"rice ($0.60)"}},
		{"jasmine rice", Exact, []string{"jasmine rice"}},
		{"brown rice", Plural, []string{"COLD cooked brown rice"}},
		{"chicken thigh", Plural, []string{"boneless chicken thighs", "chicken thighs"}[1:]},
		{"chicken", General, []string{"boneless chicken thighs", "chicken thighs"}},
		{"ginger", Plural, []string{"fresh ginger"}},
		{"milk", Plural, []string{"milk of choice"}},
		{"vegetable oil", Plural, []string{"vegetable oil*"}},
		{"oyster sauce", Plural, []string{"oyster sauce*"}},
		{"butter", General, []string{"unsalted butter"}},
		{"parmesan", General, []string{"Parmesan cheese"}},
		{"lemongrass", Alias, []string{"lemongras"}},
		{"lemongras", Exact, []string{"lemongras"}},
		{"sea bass", Alias, []string{"sea bas"}},
		{"scallions", Alias, []string{"green onions"}},
		{"scallion", Plural, []string{"green onions"}},
		{"jalapeno", Exact, []string{"jalapeño"}},
		{"creme fraiche", Exact, []string{"crème fraîche"}},
		{"cilantro", Plural, []string{"fresh cilantro"}},
		{"ranch seasoning", Plural, []string{"pkt Ranch Seasoning"}},
		{"chickpeas", Plural, []string{"chickpeas (canned)"}},
		{"egg", Plural, []string{"eggs"}},
		{"noodles", General, []string{"egg noodles"}},
		{"bay leaf", Plural, []string{"bay leaves"}},
		{"dragonfruit", None, nil},
		{"", None, nil},
	} {
		r := ix.Resolve(c.name)
		if r.How != c.how || !slices.Equal(r.MatchNames(), c.want) {
			t.Errorf("Resolve(%q) = %v %q, want %v %q", c.name, r.How, r.MatchNames(), c.how, c.want)
		}
		if r.Resolved() != (c.how > Exact) {
			t.Errorf("Resolve(%q).Resolved() = %v", c.name, r.Resolved())
		}
	}
}

func TestSuggestionsNeverMatch(t *testing.T) {
	ix := messy(t)
	for _, c := range []struct {
		name string
		want string // expected first suggestion
	}{
		{"tumeric", "turmeric"},
		{"spagetti", "spaghetti"},
		{"corriander", ""},
		{"brocoli florets", "broccoli florets"},
	} {
		r := ix.Resolve(c.name)
		if r.Found() {
			t.Errorf("Resolve(%q) matched %q; close spellings must only be suggestions", c.name, r.MatchNames())
			continue
		}
		if c.want == "" {
			continue
		}
		if len(r.Suggestions) == 0 || r.Suggestions[0] != c.want {
			t.Errorf("Resolve(%q).Suggestions = %q, want %q first", c.name, r.Suggestions, c.want)
		}
	}
	if got := ix.Closest("corriander", 3); len(got) != 3 {
		t.Errorf("Closest gave %q, want three names however far", got)
	}
}

func TestCovered(t *testing.T) {
	ix := messy(t)
	for _, c := range []struct {
		name string
		want []string
	}{
		{"rice", []string{"rice ($0.60)", "jasmine rice", "long-grain white rice", "COLD cooked brown rice"}},
		{"lime", []string{"lime", "limes", "lime juice"}},
		{"chicken", []string{"boneless chicken thighs", "chicken thighs"}},
		{"garlic", []string{"garlic"}},
	} {
		var got []string
		for _, e := range ix.Covered(c.name) {
			got = append(got, e.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Covered(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestSame: another name for a thing (a pantry alias) finds what it names
// exactly, as another name or in the plural, never the kinds a general name
// covers: "chicken" is not every chicken in the library.
func TestSame(t *testing.T) {
	ix := messy(t)
	for _, c := range []struct {
		name string
		want []string
	}{
		{"chicken", nil},
		{"rice", []string{"rice ($0.60)"}},
		{"chicken thigh", []string{"chicken thighs"}},
		{"lemongrass", []string{"lemongras"}},
		{"", nil},
	} {
		var got []string
		for _, e := range ix.Same(c.name) {
			got = append(got, e.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Same(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestMentions: a line of text names a thing by another name only when
// nothing more specific follows it.
func TestCoversLine(t *testing.T) {
	for _, c := range []struct {
		g, line string
		want    bool
	}{
		{"chicken thighs", "400g boned, skinless chicken thighs", true},
		{"chicken thighs", "4 boneless, skinless chicken thighs", true},
		{"chicken thighs", "300 g chicken breast (or boneless chicken thighs)", true},
		{"chicken thighs", "2 cups chicken stock", false},
		{"chicken thighs", "2 chicken breasts, skinless", false},
		{"lime", "juice of 1 lime", true},
		{"shrimp", "16 ounces large shrimp -raw, peeled, deveined (or sub a white fish)", true},
		{"prawns", "16 ounces large shrimp -raw, peeled", true},
		{"lime", "2 limes – juiced", true},
		{"tomatoes", "1/2 cup sun-dried tomatoes", false},
		{"milk", "1 can coconut milk, shaken", false},
		{"rice", "", false},
	} {
		if got := CoversLine(c.g, c.line); got != c.want {
			t.Errorf("CoversLine(%q, %q) = %v, want %v", c.g, c.line, got, c.want)
		}
	}
}

func TestMentions(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"chicken", "2 chicken breasts", false},
		{"chicken", "1 whole chicken", true},
		{"pork", "1 lb pork belly", false},
		{"minced pork", "500 g minced pork", true},
		{"lime", "salt and 1 lime", true},
		{"lime", "juice of 1 lime", true},
		{"", "rice", false},
	} {
		if got := Mentions(c.name, c.text); got != c.want {
			t.Errorf("Mentions(%q, %q) = %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

// TestBindKeepsReads: what a write no longer binds, a read still finds
// (search and suggestions read "brown rice" as the library's cooked one).
func TestBindKeepsReads(t *testing.T) {
	ix := messy(t)
	for _, c := range []struct{ name, want string }{
		{"brown rice", "COLD cooked brown rice"},
		{"cilantro", "fresh cilantro"},
	} {
		r := ix.Resolve(c.name)
		if r.How != Plural || !slices.Equal(r.MatchNames(), []string{c.want}) {
			t.Errorf("Resolve(%q) = %q %v, want [%q] plural", c.name, r.MatchNames(), r.How, c.want)
		}
		if got := ix.Same(c.name); len(got) != 1 || got[0].Name != c.want {
			t.Errorf("Same(%q) = %v, want %q", c.name, got, c.want)
		}
	}
}

func TestBind(t *testing.T) {
	ix := messy(t)
	for _, c := range []struct {
		name      string
		want      string
		how       How
		ambiguous []string
	}{
		{"tomato", "tomato", Exact, nil},
		{"Tomato", "Tomato", Exact, nil},
		{"TOMATO", "", None, []string{"tomato", "Tomato"}},
		{"tomatoes", "tomatoes", Exact, nil},
		{"lemongrass", "lemongras", Alias, nil},
		{"fresh cilantro", "fresh cilantro", Exact, nil},
		// a write binds a stored name that differs by noise alone
		{"rice", "rice ($0.60)", Plural, nil},
		{"vegetable oil", "vegetable oil*", Plural, nil},
		{"milk", "milk of choice", Plural, nil},
		{"ranch seasoning", "pkt Ranch Seasoning", Plural, nil},
		{"chicken thigh", "chicken thighs", Plural, nil},
		// the one stored food that is the name with only a cook's word
		// more is linked ("grated ginger" is the library's "fresh
		// ginger"); never one "cooked" makes another thing: the caller
		// creates the name instead
		{"brown rice", "", None, nil},
		{"cilantro", "fresh cilantro", Plural, nil},
		{"ginger", "fresh ginger", Plural, nil},
		{"grated ginger", "fresh ginger", Plural, nil},
		// other Englishes are the same thing
		{"prawns", "shrimp, peeled", Synonym, nil},
		{"Greek yoghurt", "Greek yogurt", Synonym, nil},
		// the given name may be the more specific one
		{"chopped fresh cilantro", "fresh cilantro", Plural, nil},
		// a general word is never narrowed on a write
		{"chicken", "", None, nil},
		{"noodles", "", None, nil},
		{"dragonfruit", "", None, nil},
		{"tumeric", "", None, nil},
	} {
		e, how, err := ix.Bind(c.name)
		if c.ambiguous != nil {
			var a *AmbiguousError
			if !IsAmbiguous(err) {
				t.Errorf("Bind(%q) err = %v, want ambiguous", c.name, err)
				continue
			}
			a = err.(*AmbiguousError)
			if !slices.Equal(a.Candidates, c.ambiguous) {
				t.Errorf("Bind(%q) candidates = %q, want %q", c.name, a.Candidates, c.ambiguous)
			}
			if !strings.Contains(err.Error(), `"Tomato"`) {
				t.Errorf("error %q does not list the candidates", err)
			}
			continue
		}
		if err != nil || e.Name != c.want || how != c.how {
			t.Errorf("Bind(%q) = %q %v %v, want %q %v", c.name, e.Name, how, err, c.want, c.how)
		}
	}
}

// TestSeededFoods reads Mealie's own en-US seed list (3.11), where foods
// whose singular is not a word are found by their plural (Mealie's issue
// #8411), and aliases count.
func TestSeededFoods(t *testing.T) {
	ix := seeded(t)
	for _, c := range []struct {
		name string
		how  How
		want string
	}{
		{"lemongrass", Alias, "lemongras"},
		{"sea bass", Alias, "sea bas"},
		{"onions", Alias, "onion"},
		{"capsicum", Alias, "chile pepper"},
		{"courgette", Alias, "summer squash"},
		{"garlic", Exact, "garlic"},
	} {
		r := ix.Resolve(c.name)
		if r.How != c.how || len(r.Matches) == 0 || r.Matches[0].Name != c.want {
			t.Errorf("Resolve(%q) = %v %q, want %v %q first", c.name, r.How, r.MatchNames(), c.how, c.want)
		}
	}
	if ix.Len() < 2000 {
		t.Errorf("seed list has %d foods", ix.Len())
	}
}

func TestUnits(t *testing.T) {
	ix := NewIndex(unitEntries(load[unit](t, "seed-units-3.11-en-US.json")))
	for _, c := range []struct {
		name string
		want string
		how  How
	}{
		{"tsp", "teaspoon", Alias},
		{"tsp.", "teaspoon", Plural},
		{"Tbsp", "tablespoon", Alias},
		{"teaspoons", "teaspoon", Alias},
		{"cups", "cup", Alias},
		{"cup", "cup", Exact},
		{"lbs", "pound", Alias},
	} {
		e, how, err := ix.Bind(c.name)
		if err != nil || e.Name != c.want || how != c.how {
			t.Errorf("Bind(%q) = %q %v %v, want %q %v", c.name, e.Name, how, err, c.want, c.how)
		}
	}
	if e, how, _ := ix.Bind("heaping cup"); how == Exact && e.Name == "heaping cup" {
		t.Errorf("heaping cup is not a unit")
	}
}

func TestTags(t *testing.T) {
	ix := NewIndex([]Entry{
		{ID: "1", Name: "Vegetarian", Others: []string{"vegetarian"}},
		{ID: "2", Name: "Dinner", Others: []string{"dinner"}},
		{ID: "3", Name: "Quick  Dinner", Others: []string{"quick-dinner"}},
	})
	if e, how, _ := ix.Bind("dinners"); e.ID != "2" || how != Plural {
		t.Errorf("dinners = %q %v", e.Name, how)
	}
	if e, how, _ := ix.Bind("quick-dinner"); e.ID != "3" || how != Alias {
		t.Errorf("quick-dinner = %q %v", e.Name, how)
	}
	if e, how, _ := ix.Bind("quick dinner"); e.ID != "3" || how != Exact {
		t.Errorf("quick dinner = %q %v", e.Name, how)
	}
	r := ix.Resolve("vegetarain")
	if r.Found() || len(r.Suggestions) == 0 || r.Suggestions[0] != "Vegetarian" {
		t.Errorf("vegetarain = %+v", r)
	}
}

// words is a generator of food-like names made of a few kitchen words, so
// that quick's random names hit each other often enough to test anything.
type words string

var vocab = []string{"rice", "jasmine", "brown", "chicken", "thighs", "thigh", "lime", "juice",
	"oil", "olive", "fresh", "cooked", "sauce", "soy", "tomato", "tomatoes", "cheese", "cream",
	"butter", "unsalted", "of", "and", "or", "breast", "garlic", "cloves", "powder", "Rice", "LIME"}

func (words) Generate(r *rand.Rand, _ int) reflect.Value {
	n := 1 + r.Intn(3)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = vocab[r.Intn(len(vocab))]
	}
	return reflect.ValueOf(words(strings.Join(parts, " ")))
}

// TestPropertyGeneralCovers: whatever a name resolves to at the General
// level, the name covers it; and a specific name never covers a more
// general one unless they are the same food.
func TestPropertyGeneralCovers(t *testing.T) {
	f := func(q words, names [6]words) bool {
		var es []Entry
		for i, n := range names {
			es = append(es, Entry{ID: string(rune('a' + i)), Name: string(n)})
		}
		r := NewIndex(es).Resolve(string(q))
		if r.How == General {
			for _, m := range r.Matches {
				if !Covers(string(q), m.Name) {
					t.Logf("%q resolved to %q it does not cover", q, m.Name)
					return false
				}
			}
		}
		for _, n := range names {
			if Covers(string(q), string(n)) && Covers(string(n), string(q)) && Key(string(q)) != Key(string(n)) {
				t.Logf("%q and %q cover each other", q, n)
				return false
			}
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 3000}); err != nil {
		t.Error(err)
	}
}

// TestPropertyExactWins: an entry's own name always resolves exactly, to it
// among the matches, whatever else the index holds.
func TestPropertyExactWins(t *testing.T) {
	f := func(names [8]words, pick uint8) bool {
		var es []Entry
		for i, n := range names {
			es = append(es, Entry{ID: string(rune('a' + i)), Name: string(n), Others: []string{string(names[(i+1)%len(names)])}})
		}
		ix := NewIndex(es)
		e := es[int(pick)%len(es)]
		r := ix.Resolve(e.Name)
		if r.How != Exact {
			t.Logf("%q read %v", e.Name, r.How)
			return false
		}
		for _, m := range r.Matches {
			if m.ID == e.ID {
				return true
			}
		}
		return false
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 3000}); err != nil {
		t.Error(err)
	}
	// and on the real seed list: every food's own name is exact, and binds
	// to it unless another food has the same name
	ix := seeded(t)
	count := map[string]int{}
	for _, e := range ix.entries {
		count[e.fold]++
	}
	for _, e := range ix.entries {
		got, how, err := ix.Bind(e.Name)
		if count[e.fold] == 1 && (err != nil || got.ID != e.ID || how != Exact) {
			t.Errorf("Bind(%q) = %q %v %v", e.Name, got.Name, how, err)
		}
	}
}

// TestPropertyCoversOnSeed runs the General property on the
// seed list with names drawn from it: the first word, the last word and the
// last two words of each food.
func TestPropertyCoversOnSeed(t *testing.T) {
	ix := seeded(t)
	seen := map[string]bool{}
	for i, e := range ix.entries {
		if testing.Short() && i%4 != 0 {
			continue
		}
		w := strings.Fields(Normalize(e.Name))
		if len(w) < 2 {
			continue
		}
		for _, q := range []string{w[0], w[len(w)-1], strings.Join(w[len(w)-2:], " ")} {
			if seen[q] {
				continue
			}
			seen[q] = true
			r := ix.Resolve(q)
			if r.How != General {
				continue
			}
			for _, m := range r.Matches {
				if !slices.ContainsFunc(append([]string{m.Name}, m.Others...), func(n string) bool { return Covers(q, n) }) {
					t.Errorf("%q resolved to %q, which it does not cover", q, m.Name)
				}
				if Covers(m.Name, q) && Key(m.Name) != Key(q) {
					t.Errorf("%q covers the general %q", m.Name, q)
				}
			}
		}
	}
}

// TestCoversLines reads general names against real pasted lines: a line a
// name covers names that food (its word stands in it), and the everyday
// names find lines.
func TestCoversLines(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "lines-library.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, c := range []struct {
		name    string
		atLeast int
		never   []string // lines containing one of these must not be covered
	}{
		{"garlic", 8, []string{"garlic powder", "garlic salt"}},
		{"butter", 5, nil},
		{"salt", 10, nil},
		{"onion", 5, []string{"onion powder"}},
		{"egg", 5, []string{"eggplant"}},
		{"lime", 1, nil},
		{"chicken", 1, []string{"chicken broth", "chicken stock"}},
		{"oil", 10, []string{"boil", "foil"}},
	} {
		n := 0
		for _, l := range lines {
			if !Covers(c.name, l) {
				continue
			}
			n++
			ll := strings.ToLower(l)
			if !strings.Contains(ll, c.name) {
				t.Errorf("%q covers %q, which does not name it", c.name, l)
			}
			for _, bad := range c.never {
				if strings.Contains(ll, bad) && strings.Count(ll, c.name) == 1 {
					t.Errorf("%q covers %q", c.name, l)
				}
			}
		}
		if n < c.atLeast {
			t.Errorf("%q covers %d lines, want at least %d", c.name, n, c.atLeast)
		}
	}
}

// TestLibraryFoods reads everyday names against the foods Mealie 2.8's nlp
// parser (with the real tagger) made of the 494 lines of a realistic
// library (testdata/README.md): the names a library parsed in Mealie's
// editor ends up with, debris and all ("rice ($0.60)", "chicken ~").
func TestLibraryFoods(t *testing.T) {
	ix := NewIndex(foodEntries(load[food](t, "library-foods-2.8.json")))
	for _, c := range []struct {
		name    string
		how     How
		include []string // among the matches
		exclude []string // never among them
	}{
		{"rice", Plural, []string{"rice ($0.60)"}, []string{"rice vinegar", "jasmine rice"}},
		{"chicken", Plural, []string{"chicken ~"}, []string{"chicken stock"}},
		{"chicken breast", Plural, []string{"chicken breasts"}, []string{"bone-in chicken breasts"}},
		{"butter", Exact, []string{"butter"}, []string{"unsalted butter"}},
		{"cilantro", Exact, []string{"cilantro"}, nil},
		{"ginger", Exact, []string{"ginger"}, []string{"ground ginger"}},
		{"parmesan", Exact, []string{"parmesan"}, nil},
		{"avocados", Exact, []string{"avocados"}, nil},
		{"lime", Exact, []string{"lime"}, nil},
		{"cornstarch", Plural, []string{"cornstarch +"}, nil},
		{"coriander", Synonym, []string{"cilantro", "fresh cilantro"}, []string{"ground coriander"}},
	} {
		r := ix.Resolve(c.name)
		got := r.MatchNames()
		if r.How != c.how {
			t.Errorf("Resolve(%q) = %v %q, want %v", c.name, r.How, got, c.how)
		}
		for _, n := range c.include {
			if !slices.Contains(got, n) {
				t.Errorf("Resolve(%q) = %q, want %q among them", c.name, got, n)
			}
		}
		for _, n := range c.exclude {
			if slices.Contains(got, n) {
				t.Errorf("Resolve(%q) = %q, must not hold %q", c.name, got, n)
			}
		}
	}
	// what a cook has covers what the recipe needs, by Covered
	for _, c := range []struct{ name, covers string }{
		{"butter", "unsalted butter"}, {"rice", "jasmine rice"}, {"rice", "long-grain white rice"}, {"lemon", "lemon juice"},
		{"cilantro", "fresh cilantro"}, {"cilantro", "fresh cilantro ($0.15)"}, {"cornstarch", "cornstarch +"},
		{"ginger", "fresh ginger"}, {"ginger", "fresh ginger ($0.10)"}, {"chicken", "boneless chicken thighs"},
		{"scallions", "green onions"}, {"scallions", "spring onions"}, {"eggplant", "aubergine"},
	} {
		var got []string
		for _, e := range ix.Covered(c.name) {
			got = append(got, e.Name)
		}
		if !slices.Contains(got, c.covers) {
			t.Errorf("Covered(%q) = %q, want %q among them", c.name, got, c.covers)
		}
	}
}
