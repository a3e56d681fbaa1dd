package names

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSingularKitchenWords holds the kitchen words go-pluralize's own rules
// read wrong ("chillies" as the plural of "chilly").
func TestSingularKitchenWords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"chillies", "chilli"}, {"chilies", "chili"}, {"chiles", "chile"},
		{"molasses", "molasses"}, {"brussels", "brussels"}, {"octopi", "octopus"},
		{"hummus", "hummus"}, {"couscous", "couscous"},
		{"tomatoes", "tomato"}, {"leaves", "leaf"}, {"loaves", "loaf"},
		{"anchovies", "anchovy"}, {"radishes", "radish"}, {"prawns", "prawn"},
	} {
		if got := Singular(c.in); got != c.want {
			t.Errorf("Singular(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCanon reads names in other Englishes as one.
func TestCanon(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"aubergines", "eggplant"},
		{"brinjal", "eggplant"},
		{"king prawns", "king shrimp"},
		{"courgette", "zucchini"},
		{"fresh coriander", "cilantro"},
		{"coriander leaves", "cilantro"},
		{"ground coriander", "ground coriander"},
		{"coriander powder", "ground coriander"},
		{"coriander seeds", "coriander seed"},
		{"whole coriander", "whole coriander"},
		{"spring onions", "green onion"},
		{"scallions", "green onion"},
		{"red chillies", "red chili"},
		{"Greek yoghurt", "greek yogurt"},
		{"icing sugar", "powdered sugar"},
		{"confectioners' sugar", "powdered sugar"},
		{"plain flour", "all purpose flour"},
		{"self-raising flour", "self rising flour"},
		{"double cream", "heavy cream"},
		{"minced beef", "ground beef"},
		{"beef mince", "ground beef"},
		{"minced garlic", "garlic"},
		{"bicarbonate of soda", "baking soda"},
		{"hundreds and thousands", "sprinkle"},
		{"red capsicum", "red bell pepper"},
		{"rocket leaves", "arugula leaf"},
		{"chana dal", "split chickpea"},
		{"garbanzo beans", "chickpea"},
		{"flavoured", "flavored"},
		// kinds stay kinds: a synonym never widens
		{"pepper", "pepper"},
		{"black pepper", "black pepper"},
		{"mint", "mint"},
		{"pickles", "pickle"},
		{"sweet potato", "sweet potato"},
	} {
		if got := strings.Join(Canon(c.in), " "); got != c.want {
			t.Errorf("Canon(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSynonymsAreNotKinds holds every line of synonyms.txt to the
// same-thing rule: no name of a line covers another of the same line as a
// general name covers a kind, read without the table ("pepper = bell
// pepper" would fail), and no two lines share a name.
func TestSynonymsAreNotKinds(t *testing.T) {
	// A name whose added word says what part of the plant the food is, the
	// whole of it as sold: ginger is bought as the root ("root ginger" in
	// British shops), so it is no kind of ginger.
	partNamed := map[string]bool{"ginger = root ginger": true}
	seen := map[string]string{}
	for _, line := range synonymLines(synonymsTxt) {
		l, parts := line.text, line.names
		if len(parts) < 2 {
			t.Errorf("line %q names one thing once", l)
		}
		for i, a := range parts {
			k := strings.Join(phraseWords(a), " ")
			if other, ok := seen[k]; ok && other != l {
				t.Errorf("%q is on two lines: %q and %q", a, other, l)
			}
			seen[k] = l
			for j, b := range parts {
				wa, wb := phraseWords(a), phraseWords(b)
				// "coriander leaves" is coriander; "strong bread flour" a
				// kind of bread flour
				if i != j && len(wb) > len(wa) && !hasAt(wb, 0, wa) && coversWords(wa, wb) && !partNamed[a+" = "+b] {
					t.Errorf("line %q: %q covers %q as a kind", l, a, b)
				}
			}
		}
	}
}

// TestSynonymSources holds the tables to what each source says: a pair a
// source gives is read as one thing, or is left out for the reason
// data/README.md gives.
func TestSynonymSources(t *testing.T) {
	var ip struct {
		Phrases []struct {
			From []string `json:"from"`
			To   []string `json:"to"`
		} `json:"FDC_PHRASE_SUBSTITUTIONS"`
		Tokens   map[string]string   `json:"FDC_TOKEN_SUBSTITUTIONS"`
		ToPhrase map[string][]string `json:"FDC_TOKEN_TO_PHRASE_SUBSTITUTIONS"`
		Pasta    []string            `json:"PASTA_TYPES"`
	}
	b, err := os.ReadFile(filepath.Join("testdata", "ingredient-parser-2.9.1-substitutions.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ip); err != nil {
		t.Fatal(err)
	}
	// The package's stems, written back as the words a cook writes.
	words := map[string]string{
		"coriand seed": "coriander seed", "doubl cream": "double cream", "heavi cream": "heavy cream",
		"garlic granul": "garlic granules", "garlic powder": "garlic powder", "onion granul": "onion granules",
		"onion powder": "onion powder", "glac cherri": "glacé cherries", "maraschino cherri": "maraschino cherries",
		"ice sugar": "icing sugar", "powder sugar": "powdered sugar", "mang tout": "mange tout", "snow pea": "snow pea",
		"plain flour": "plain flour", "all purpos flour": "all-purpose flour", "singl cream": "single cream",
		"light cream": "light cream", "haa avocado": "haas avocado", "hass avocado": "hass avocado",
		"broad bean": "broad bean", "fava bean": "fava bean", "self rais": "self-raising flour", "self rise": "self-rising flour",
		"appl sauc": "apple sauce", "applesauc": "applesauce",
		"aubergin": "aubergine", "eggplant": "eggplant", "beetroot": "beetroot", "beet": "beet",
		"capsicum": "capsicum", "bell": "bell pepper", "chile": "chile", "chilli": "chilli", "chili": "chili",
		"coriand": "coriander", "cilantro": "cilantro", "cornflour": "cornflour", "cornstarch": "cornstarch",
		"courgett": "courgette", "zucchini": "zucchini", "filo": "filo", "phyllo": "phyllo",
		"gherkin": "gherkin", "pickl": "pickle", "mangetout": "mangetout", "snowpea": "snow pea",
		"mint": "mint", "spearmint": "spearmint", "prawn": "prawn", "shrimp": "shrimp", "puré": "purée", "pure": "puree",
		"rocket": "rocket", "arugula": "arugula", "swede": "swede", "rutabaga": "rutabaga",
		"yoghurt": "yoghurt", "yogurt": "yogurt", "demerara": "demerara sugar", "turbinado": "turbinado sugar",
		"gruyèr": "gruyère", "gruyer": "gruyere",
		"lemongrass": "lemongrass", "lemon grass": "lemon grass", "beansprout": "beansprout", "bean sprout": "bean sprout",
		"breadcrumb": "breadcrumb", "bread crumb": "bread crumb",
	}
	// What is left out, with data/README.md's reason.
	left := map[string]string{
		"mint":                 "a kind of mint",
		"gherkin":              "a kind of pickle",
		"demerara sugar":       "two raw sugars",
		"glacé cherries":       "candied and in syrup",
		"garlic granules":      "a coarser product",
		"onion granules":       "a coarser product",
		"purée":                "a spelling (accents are set aside)",
		"gruyère":              "a spelling (accents are set aside)",
		"coriander seed":       "the package keeps it itself",
		"water":                "a kind of water",
		"low-sodium":           "hyphens are set aside",
		"long-grain":           "hyphens are set aside",
		"medium-grain":         "hyphens are set aside",
		"short-grain":          "hyphens are set aside",
		"bone-in":              "hyphens are set aside",
		"pasta shapes":         "kinds of pasta",
		"jell-o":               "jelly is jam",
		"fries":                "chips are fries",
		"sweets":               "sweet begins sweet potato",
		"mince":                "mince pies",
		"biccie, bicky, bikky": "a biscuit is a cookie only in Britain",
	}
	same := func(src, a, b string) {
		t.Helper()
		if _, ok := left[a]; ok {
			return
		}
		if Key(a) != Key(b) {
			t.Errorf("%s: %q and %q are read as %q and %q, want one thing", src, a, b, Key(a), Key(b))
		}
	}
	word := func(stems []string) string {
		w, ok := words[strings.Join(stems, " ")]
		if !ok {
			t.Fatalf("no words for the stems %q", stems)
		}
		return w
	}
	for _, p := range ip.Phrases {
		same("ingredient-parser phrase", word(p.From), word(p.To))
	}
	for from, to := range ip.Tokens {
		same("ingredient-parser token", word([]string{from}), word([]string{to}))
	}
	for from, to := range ip.ToPhrase {
		if _, ok := words[from]; !ok {
			if left[from] == "" {
				t.Errorf("ingredient-parser: %q is neither read nor left out", from)
			}
			continue
		}
		same("ingredient-parser token to phrase", word([]string{from}), word(to))
	}
	if len(ip.Pasta) == 0 {
		t.Error("the pasta shapes are missing from the source")
	}

	var abe struct {
		American map[string]string `json:"american_only"`
		British  map[string]string `json:"british_only"`
	}
	b, err = os.ReadFile(filepath.Join("testdata", "american-british-english-translator-0.2.1-food.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &abe); err != nil {
		t.Fatal(err)
	}
	// The other name each gloss gives, as sous reads the pair.
	glossed := map[string]string{
		"eggplant": "aubergine", "zucchini": "courgette", "powdered sugar": "icing sugar",
		"heavy cream": "double cream", "ground beef": "minced beef", "scallion": "spring onion",
		"arugula": "rocket", "cilantro": "coriander leaf", "rutabaga": "swede", "bell pepper": "capsicum",
		"frosting": "icing", "cotton candy": "candy floss", "hard candy": "boiled sweets",
		"layer cake": "sandwich cake", "skim milk": "skimmed milk",
		"courgette": "zucchini", "crisps": "", "icing sugar": "powdered sugar",
		"black pudding": "blood sausage", "boiled sweet": "hard candy", "candy floss": "cotton candy",
		"fish fingers": "fish sticks", "hundreds-and-thousands": "sprinkles", "ice lolly": "popsicle",
		"sandwich cake": "layer cake", "toffee apple": "caramel apple", "fairy cake": "cupcake",
	}
	for _, m := range []map[string]string{abe.American, abe.British} {
		for k, gloss := range m {
			other, ok := glossed[k]
			if !ok {
				if left[k] == "" {
					t.Errorf("american-british-english-translator: %q (%s) is neither read nor left out", k, gloss)
				}
				continue
			}
			if other == "" {
				// "crisps" alone is also an apple crisp: only "potato
				// crisps" is potato chips.
				same("american-british-english-translator", "potato crisps", "potato chips")
				continue
			}
			if !strings.Contains(strings.ToLower(gloss), strings.Split(other, " ")[0]) {
				t.Errorf("the gloss of %q does not name %q: %s", k, other, gloss)
			}
			same("american-british-english-translator", k, other)
		}
	}
}

// TestResolveOtherEnglishes reads other Englishes against Mealie's own
// en-US seed (3.11) and a British library.
func TestResolveOtherEnglishes(t *testing.T) {
	seed := seeded(t)
	gb := NewIndex([]Entry{{ID: "1", Name: "aubergine"}, {ID: "2", Name: "king prawns"}, {ID: "3", Name: "coriander"},
		{ID: "4", Name: "ground coriander"}, {ID: "5", Name: "red pepper"}, {ID: "6", Name: "courgettes"}, {ID: "7", Name: "spring onions"}})
	for _, c := range []struct {
		ix   *Index
		name string
		how  How
		want []string
	}{
		{seed, "aubergine", Synonym, []string{"eggplant"}},
		{seed, "double cream", Synonym, []string{"heavy cream"}},
		{seed, "spring onions", Synonym, []string{"scallion"}},
		// Mealie's seed has both, and its own names come first
		{seed, "prawns", Alias, []string{"prawn"}},
		{seed, "courgettes", Plural, []string{"summer squash"}},
		{gb, "eggplant", Synonym, []string{"aubergine"}},
		{gb, "zucchini", Synonym, []string{"courgettes"}},
		{gb, "cilantro", Synonym, []string{"coriander"}},
		{gb, "scallions", Synonym, []string{"spring onions"}},
		// a kind is read as covered, never as the same thing
		{gb, "shrimp", General, []string{"king prawns"}},
		{gb, "coriander powder", Synonym, []string{"ground coriander"}},
	} {
		r := c.ix.Resolve(c.name)
		if r.How != c.how || !slices.Equal(r.MatchNames(), c.want) {
			t.Errorf("Resolve(%q) = %q %v, want %q %v", c.name, r.MatchNames(), r.How, c.want, c.how)
		}
	}
	// a general name covers a kind in either English, never another food
	for _, c := range []struct {
		general, specific string
		want              bool
	}{
		{"mince", "pork mince", true}, {"shrimp", "king prawns", true}, {"onion", "spring onions", false},
		{"onion", "scallions", false}, {"pepper", "red capsicum", false}, {"milk", "coconut milk", false},
	} {
		if got := Covers(c.general, c.specific); got != c.want {
			t.Errorf("Covers(%q, %q) = %v, want %v", c.general, c.specific, got, c.want)
		}
	}
	// "pepper" is not "bell pepper", however it is spelt
	if got := NewIndex([]Entry{{ID: "1", Name: "capsicum"}}).Covered("pepper"); len(got) != 0 {
		t.Errorf("pepper covers %v", got)
	}
	if got := gb.Covered("cilantro"); len(got) != 1 || got[0].Name != "coriander" {
		t.Errorf("cilantro covers %v, want only coriander (not the ground seed)", got)
	}
}

func TestClean(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"rice ($0.60)", "rice"},
		{"tomato ($0.45)", "tomato"},
		{"fresh cilantro ($0.15)", "fresh cilantro"},
		{"curry powder*", "curry powder"},
		{"vegetable oil*", "vegetable oil"},
		{"COLD cooked brown rice", "cold cooked brown rice"},
		{"pkt Ranch Seasoning", "Ranch Seasoning"},
		{"BBQ sauce", "BBQ sauce"},
		{"tofu (extra firm)", "tofu (extra firm)"},
		{"tomato", "tomato"},
		{"$5", "$5"},
		{"rice $0.60", "rice"},
	} {
		if got := Clean(c.in); got != c.want {
			t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := IsDebris(c.in); got != (c.want != c.in) {
			t.Errorf("IsDebris(%q) = %v", c.in, got)
		}
	}
}

// TestDebrisRanksLast: a clean name is bound before its twin carrying a
// price, and both are read for a search.
func TestDebrisRanksLast(t *testing.T) {
	ix := NewIndex([]Entry{{ID: "1", Name: "tomato ($0.45)"}, {ID: "2", Name: "tomato"}, {ID: "3", Name: "fresh cilantro ($0.15)"}})
	if e, how, err := ix.Bind("tomatoes"); err != nil || e.Name != "tomato" || how != Plural {
		t.Errorf("Bind(tomatoes) = %q %v %v, want tomato plural", e.Name, how, err)
	}
	if got := ix.Covered("tomatoes"); len(got) != 2 {
		t.Errorf("Covered(tomatoes) = %v, want both", got)
	}
	if e, _, err := ix.Bind("cilantro"); err != nil || e.Name != "fresh cilantro ($0.15)" {
		t.Errorf("Bind(cilantro) = %q %v: the one cilantro the library has is linked", e.Name, err)
	}
}

// TestBindOneThingStoredTwice: names that tie for a write but share a Key
// are one thing stored twice (Mealie 2.0's brute parser left "scallions,
// chopped" beside "Spring Onion" in a real imported library): the write
// takes the cleanest, while two different things still refuse it.
func TestBindOneThingStoredTwice(t *testing.T) {
	ix := NewIndex([]Entry{{ID: "1", Name: "scallions, chopped"}, {ID: "2", Name: "Spring Onion"}, {ID: "3", Name: "tomato"}, {ID: "4", Name: "Tomato"}})
	for _, c := range []struct {
		name, want string
		how        How
	}{
		{"green onions", "Spring Onion", Synonym},
		{"tomatoes", "tomato", Plural},
	} {
		if e, how, err := ix.Bind(c.name); err != nil || e.Name != c.want || how != c.how {
			t.Errorf("Bind(%q) = %q %v %v, want %q %v", c.name, e.Name, how, err, c.want, c.how)
		}
	}
	if _, _, err := ix.Bind("TOMATO"); !IsAmbiguous(err) {
		t.Errorf("Bind(TOMATO) = %v: two stored names equal to it but for case are for the cook to choose", err)
	}
}

// TestSameNames: a thing's other names, both ways, plural or not, and
// nothing for a name the table does not hold or holds only inside a longer
// one.
func TestSameNames(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
	}{
		{"eggplant", []string{"aubergine", "brinjal"}},
		{"aubergines", []string{"eggplant", "brinjal"}},
		{"prawns", []string{"shrimp"}},
		{"Shrimp", []string{"prawn"}},
		{"king prawns", []string{"king shrimp"}},
		{"pepper", nil},
		{"chicken", nil},
		{"", nil},
	} {
		if got := SameNames(c.name); !slices.Equal(got, c.want) {
			t.Errorf("SameNames(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
