package bench

import "testing"

// TestMinutes reads the times Mealie stores, as the quick-dinners script
// and its check do.
func TestMinutes(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"30 minutes", 30, true},
		{"1 hour 45 minutes", 105, true},
		{"2 hours", 120, true},
		{"25 min", 25, true},
		{"15", 15, true},
		{"", 0, false},
		{"overnight", 0, false},
	}
	for _, tc := range tests {
		got, ok := minutes(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("minutes(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestCovers is the cook's reading the pantry checks use: a general name
// covers its kinds, never the other way round, and prices and asterisks do
// not count.
func TestCovers(t *testing.T) {
	tests := []struct {
		pantry, food string
		want         bool
	}{
		{"rice", "jasmine rice", true},
		{"rice", "rice ($0.60)", true},
		{"rice", "COLD cooked brown rice", true},
		{"ginger", "fresh ginger", true},
		{"vegetable oil", "vegetable oil*", true},
		{"onions", "onion", true},
		{"tomatoes", "Tomato", true},
		{"chicken", "chicken breast", false},
		{"garlic", "garlic powder", false},
		{"all-purpose flour", "flour tortillas", false},
		{"rice", "rice vinegar", false},
	}
	for _, tc := range tests {
		if got := covers(tc.pantry, tc.food); got != tc.want {
			t.Errorf("covers(%q, %q) = %v, want %v", tc.pantry, tc.food, got, tc.want)
		}
	}
}

// TestTextFood reads the food an unparsed line names.
func TestTextFood(t *testing.T) {
	tests := []struct{ line, want string }{
		{"2-3 tablespoons chopped onion", "onion"},
		{"1 cooked chicken breast", "chicken breast"},
		{"1/4 teaspoon salt (plus more to taste)", "salt"},
		{"3-4 burrito-sized flour tortillas", "burrito sized flour tortilla"},
		{"2 teaspoons of garlic powder", "garlic powder"},
		{"1/4 cup of soy sauce or dale’s marinade seasoning", "soy sauce"},
		{"1 1/2 pounds boneless, skinless chicken breasts, cut into small cubes", "chicken breast"},
	}
	for _, tc := range tests {
		if got := textFood(tc.line); got != tc.want {
			t.Errorf("textFood(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestWordsLost compares a line with what Mealie shows for it.
func TestWordsLost(t *testing.T) {
	type food = struct {
		ID         string `json:"id"`
		Name       string `json:"name"`
		PluralName string `json:"pluralName"`
	}
	type unit = struct {
		Name               string `json:"name"`
		PluralName         string `json:"pluralName"`
		Abbreviation       string `json:"abbreviation"`
		PluralAbbreviation string `json:"pluralAbbreviation"`
	}
	tests := []struct {
		name, line string
		stored     mLine
		want       int
	}{
		{"all kept", "1/3 cup avocado oil or canola oil", mLine{Food: &food{Name: "avocado oil"}, Unit: &unit{Name: "cup", PluralName: "cups"}, Note: "or canola oil"}, 0},
		{"alternative dropped", "1/3 cup avocado oil or canola oil", mLine{Food: &food{Name: "avocado oil"}, Unit: &unit{Name: "cup"}}, 2}, // "or canola"
		{"abbreviated unit", "2 Tbsp. soy sauce", mLine{Food: &food{Name: "soy sauce"}, Unit: &unit{Name: "tablespoon", Abbreviation: "tbsp"}}, 0},
		{"text line", "Juice of 1 lime", mLine{Note: "Juice of 1 lime"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := wordsLost(tc.line, tc.stored); len(got) != tc.want {
				t.Errorf("wordsLost = %q, want %d words", got, tc.want)
			}
		})
	}
}

// TestAmountInName flags foods a misread line leaves.
func TestAmountInName(t *testing.T) {
	for name, want := range map[string]bool{"½ teaspoon salt": true, "cup milk": true, "tomato": false, "rice ($0.60)": true, "vegetable oil*": false} {
		if got := amountInName(name); got != want {
			t.Errorf("amountInName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestTakes reads the fields a refusal names.
func TestTakes(t *testing.T) {
	got := takes("unknown field 'confidence' in ingredients[0]; ingredients[0] takes food, note, quantity, title, unit")
	want := []string{"food", "note", "quantity", "title", "unit"}
	if len(got) != len(want) {
		t.Fatalf("takes = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("takes = %q, want %q", got, want)
		}
	}
}

func TestRecipeMinutes(t *testing.T) {
	for _, c := range []struct {
		total, prep, cook string
		want              int
		ok                bool
	}{
		{"25 minutes", "", "", 25, true},
		{"", "10 minutes", "15 minutes", 25, true},
		{"1 hour 5 minutes", "5 minutes", "", 65, true},
		{"", "", "", 0, false},
	} {
		if n, ok := recipeMinutes(c.total, c.prep, c.cook); n != c.want || ok != c.ok {
			t.Errorf("recipeMinutes(%q, %q, %q) = %d, %v", c.total, c.prep, c.cook, n, ok)
		}
	}
}
