package names

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestSupplies is the pantry skip's rule on the names a demo pantry holds
// and the foods of real imported recipes (testdata/messy-foods.json,
// testdata/library-foods-2.8.json).
func TestSupplies(t *testing.T) {
	for _, c := range []struct {
		have, want string
		how        How // None: not supplied
	}{
		// the same thing, as a cook writes it
		{"eggs", "eggs", Exact},
		{"eggs", "2 large eggs, beaten", Plural},
		{"eggs", "egg yolks", Plural},
		{"onions", "onion", Plural},
		{"garlic", "garlic cloves", Plural},
		{"garlic", "minced garlic", Plural},
		{"tomatoes", "fresh tomatoes", Plural},
		{"tomatoes", "chopped tomatoes", Plural},
		{"parmesan", "Parmesan cheese", Plural},
		{"cilantro", "fresh cilantro ($0.15)", Plural},
		{"butter", "butter or margarine", Plural},
		{"vegetable oil", "vegetable oil*", Plural},
		// other Englishes
		{"prawns", "shrimp", Synonym},
		{"aubergine", "eggplant", Synonym},
		{"spring onions", "scallions", Synonym},
		{"pork mince", "ground pork", Synonym},
		{"coriander", "cilantro", Synonym},
		{"ginger", "30 grams ginger root", Synonym},
		{"ginger", "root ginger, peeled", Synonym},
		{"ginger root", "fresh ginger", Synonym},
		{"ginger", "ground ginger", None},
		{"ginger root", "ground ginger", None},
		// a more specific kind supplies the general food
		{"jasmine rice", "rice", Kind},
		{"light brown sugar", "sugar", Kind},
		{"all-purpose flour", "flour", Kind},
		{"red onion", "onions", Kind},
		{"frozen peas", "peas", Kind},
		{"apricots", "dried apricots", None},
		{"quail eggs", "pickled eggs", None},
		{"king prawns", "shrimp", Kind},
		// never the other way: a general item does not supply a kind
		{"sugar", "light brown sugar", None},
		{"brown sugar", "light brown sugar", None},
		{"flour", "all-purpose flour", None},
		{"all-purpose flour", "flour tortillas", None},
		{"onions", "red onion", None},
		{"rice", "jasmine rice", None},
		{"butter", "unsalted butter", None},
		{"chicken", "chicken thighs", None},
		{"pepper", "bell pepper", None},
		{"coriander", "ground coriander", None},
		// a product is not its fresh food, nor another food by its last word
		{"chopped tomatoes", "tomatoes", None},
		{"chopped tomatoes", "fresh tomatoes", None},
		{"chopped tomatoes", "1 (14 oz) can chopped tomatoes", Plural},
		{"coconut milk", "milk", None},
		{"milk", "coconut milk", None},
		{"onions", "green onions", None},
		{"spring onions", "onions", None},
		{"peanut butter", "butter", None},
		{"sweet potatoes", "potatoes", None},
		{"lemons", "lemon juice", None},
		{"chicken thighs", "chicken", None},
		{"cooked rice", "rice", None},
		{"cheese", "cream cheese", None},
		{"tinned tomatoes", "fresh tomatoes", None},
		{"tinned tomatoes", "tomatoes", None},
		{"dried apricots", "apricots", None},
		{"smoked salmon", "salmon fillets", None},
		{"dried apricots", "6 dried apricots, chopped", Plural},
		{"frozen peas", "peas", Kind},
		{"apricots", "dried apricots", None},
		{"quail eggs", "pickled eggs", None},
	} {
		how, ok := Supplies(c.have, c.want)
		if ok != (c.how != None) || how != c.how {
			t.Errorf("Supplies(%q, %q) = %v %v, want %v", c.have, c.want, how, ok, c.how)
		}
	}
}

// TestSuppliesNeverWidens: a general pantry item never supplies a more
// specific food. For every recorded food of a real library, every shorter
// general name its words end with (and every one they begin with) is
// refused, while the food itself and its plural are supplied.
func TestSuppliesNeverWidens(t *testing.T) {
	var foods []string
	for _, f := range load[food](t, "library-foods-2.8.json") {
		foods = append(foods, f.Name)
	}
	for _, f := range load[food](t, "messy-foods.json") {
		foods = append(foods, f.Name)
	}
	checked := 0
	for _, f := range foods {
		if how, ok := Supplies(f, f); !ok || how != Exact {
			t.Errorf("Supplies(%q, itself) = %v %v", f, how, ok)
		}
		core := withoutParts(dropAllPrep(canonical(phraseWords(f))))
		if len(alternatives(core)) != 1 {
			continue
		}
		for n := 1; n < len(core); n++ {
			for _, g := range [][]string{core[len(core)-n:], core[:n]} {
				general := strings.Join(g, " ")
				if slices.Equal(withoutParts(g), core) || prepWords[g[0]] {
					continue
				}
				checked++
				if how, ok := Supplies(general, f); ok {
					t.Errorf("the general %q supplies the more specific %q (%v)", general, f, how)
				}
			}
		}
	}
	if checked < 150 {
		t.Errorf("checked %d general names, want the recorded foods to give at least 150", checked)
	}
}

// TestSuppliesAgainstReads: wherever a read covers a more specific food
// (Covers on Mealie's 2,689 seeded foods), the skip does not, and wherever
// the skip supplies a food by a kind, the food covers that kind in a read.
func TestSuppliesAgainstReads(t *testing.T) {
	seed := load[food](t, "seed-foods-3.11-en-US.json")
	r := rand.New(rand.NewSource(31))
	pairs, kinds := 0, 0
	for range 40000 {
		a, b := seed[r.Intn(len(seed))].Name, seed[r.Intn(len(seed))].Name
		if Key(a) == Key(b) {
			continue
		}
		how, ok := Supplies(a, b)
		if Covers(a, b) && !slices.Equal(withoutParts(Canon(b)), Canon(a)) {
			pairs++
			if ok {
				t.Errorf("the general %q supplies %q (%v)", a, b, how)
			}
		}
		if ok && how == Kind {
			kinds++
			if !Covers(b, a) {
				t.Errorf("%q supplies %q as a kind, which %q does not cover", a, b, b)
			}
		}
	}
	// a pantry's kinds of the same food, picked from the seed
	for _, c := range [][2]string{{"basmati rice", "rice"}, {"sea salt", "salt"}, {"red lentil", "lentil"}} {
		if how, ok := Supplies(c[0], c[1]); !ok || how != Kind {
			t.Errorf("Supplies(%q, %q) = %v %v, want kind", c[0], c[1], how, ok)
		}
	}
	if pairs == 0 {
		t.Error("no covering pair was drawn from the seed")
	}
	_ = kinds
}

func TestSuppliesLines(t *testing.T) {
	for _, c := range []struct {
		have, line string
		want       bool
	}{
		{"salt", "a pinch of salt", true},
		{"sugar", "2 cups light brown sugar, packed", false},
		{"light brown sugar", "2 cups light brown sugar, packed", true},
		{"turmeric", "1 tsp. turmeric", true},
		{"eggs", "3 large eggs", true},
		{"salt", "salt and pepper to taste", false},
		{"butter", "2 tablespoons butter or margarine", true},
		{"clove oil", "clove oil", true},
		{"oil", "clove oil", false},
	} {
		if _, got := Supplies(c.have, c.line); got != c.want {
			t.Errorf("Supplies(%q, %q) = %v, want %v", c.have, c.line, got, c.want)
		}
	}
}
