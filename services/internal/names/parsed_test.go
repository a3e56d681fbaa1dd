package names

import "testing"

func TestCleanParse(t *testing.T) {
	q := func(f float64) *float64 { return &f }
	for _, c := range []struct {
		line string
		in   Parsed
		want Parsed
	}{
		// the unit's abbreviation left in the note
		{"2 tsp. red pepper chili flakes", Parsed{q(2), "teaspoon", "red pepper flakes", "tsp. chili"}, Parsed{q(2), "teaspoon", "red pepper chili flakes", ""}},
		{"1 Tbsp. cornstarch", Parsed{q(1), "", "cornstarch", "Tbsp."}, Parsed{q(1), "Tbsp.", "cornstarch", ""}},
		// a dropped unit comes back
		{"1/2 cup green onions", Parsed{q(0.5), "", "green onions", ""}, Parsed{q(0.5), "cup", "green onions", ""}},
		// a misread unit
		{"6 TB butter", Parsed{q(6), "terabyte", "butter", ""}, Parsed{q(6), "TB", "butter", ""}},
		// what the parser read right stays
		{"1 large yellow onion, chopped", Parsed{q(1), "", "yellow onion", "large, chopped"}, Parsed{q(1), "", "yellow onion", "large, chopped"}},
		{"1 tbsp butter, plus 1 tbsp more", Parsed{q(1), "tablespoon", "butter", "plus 1 tbsp more"}, Parsed{q(1), "tablespoon", "butter", "plus 1 tbsp more"}},
		{"1/4 cup fresh cilantro, chopped", Parsed{q(0.25), "cup", "fresh cilantro", "chopped"}, Parsed{q(0.25), "cup", "fresh cilantro", "chopped"}},
		{"1 tsp cloves", Parsed{q(1), "teaspoon", "cloves", ""}, Parsed{q(1), "teaspoon", "cloves", ""}},
		{"juice of 1 lime", Parsed{q(1), "", "lime", "juice of"}, Parsed{q(1), "", "lime", "juice of"}},
		// a word of the food the parser dropped comes back
		{"2 tsp. red pepper chili flakes", Parsed{q(2), "teaspoon", "red pepper flakes", ""}, Parsed{q(2), "teaspoon", "red pepper chili flakes", ""}},
		{"1 white or yellow onion, diced", Parsed{q(1), "", "white onion", "diced"}, Parsed{q(1), "", "white onion", "diced"}},
		{"1 tbsp cornstarch + 1 tbsp water", Parsed{q(1), "tablespoon", "cornstarch water", ""}, Parsed{q(1), "tablespoon", "cornstarch", ""}},
		// a price or a meal-kit count marker is no note
		{"3 cups fresh baby spinach ($1.61)", Parsed{q(3), "cup", "fresh baby spinach", "$1.61"}, Parsed{q(3), "cup", "fresh baby spinach", ""}},
		{"1 unit(s) Echalion Shallot", Parsed{q(1), "", "Echalion Shallot", "s"}, Parsed{q(1), "", "Echalion Shallot", ""}},
		{"½ unit(s) Red Chilli", Parsed{q(0.5), "", "unit Red Chilli", ""}, Parsed{q(0.5), "", "Red Chilli", ""}},
		// a cook's word is not a unit
		{"3 large eggs", Parsed{q(3), "large", "eggs", ""}, Parsed{q(3), "", "large eggs", ""}},
		{"1 large yellow onion, chopped", Parsed{q(1), "large", "yellow onion", "chopped"}, Parsed{q(1), "", "large yellow onion", "chopped"}},
		// a note of punctuation alone
		{"2 eggs", Parsed{q(2), "", "eggs", ","}, Parsed{q(2), "", "eggs", ""}},
	} {
		got := CleanParse(c.line, c.in)
		if got.Unit != c.want.Unit || got.Food != c.want.Food || got.Note != c.want.Note || (got.Quantity == nil) != (c.want.Quantity == nil) || got.Quantity != nil && *got.Quantity != *c.want.Quantity {
			t.Errorf("CleanParse(%q, %+v) = %+v, want %+v", c.line, c.in, got, c.want)
		}
	}
}

func TestInLine(t *testing.T) {
	for _, c := range []struct {
		name, line string
		want       bool
	}{
		{"grapeseed oil", "Rapeseed oil", false},
		{"rice wine vinegar", "2 tablespoons red wine vinegar", false},
		{"chilli powder", "½ tsp chili powder", true},
		{"red pepper flakes", "2 tsp. red pepper chili flakes", true},
		{"egg", "3 large eggs", true},
		{"eggplant", "1 aubergine, diced", true},
		{"unit (s)", "Spring Onion", false},
		{"serving", "fresh sprigs of thyme", false},
	} {
		if got := InLine(c.name, c.line); got != c.want {
			t.Errorf("InLine(%q, %q) = %v, want %v", c.name, c.line, got, c.want)
		}
	}
	for _, c := range []struct{ line, want string }{
		{"Rapeseed oil", "Rapeseed oil"}, {"2 tablespoons red wine vinegar", "red wine vinegar"},
		{"2 unit(s) Spring Onion", "Spring Onion"}, {"2 cups of chopped pecans", "chopped pecans"},
		{"3 cloves garlic, smashed", "garlic"}, {"1 (14 oz) can coconut milk", "coconut milk"},
		{"16 ounces large shrimp -raw, peeled", "large shrimp"}, {"2 limes – juiced", "limes"},
		{"2 cups (475ml) vegetable stock", "vegetable stock"}, {"1 cup (240 ml) milk, warm", "milk"}, {"2 (large) eggs", ""},
		{"1/2 cup sun-dried tomatoes", "sun-dried tomatoes"},
	} {
		if got := FoodText(c.line); got != c.want {
			t.Errorf("FoodText(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestMatchedFood: a food Mealie's parser matched stands when the line
// names it, and gives way to the line's own words when it does not.
func TestMatchedFood(t *testing.T) {
	for _, c := range []struct {
		line, food, want string
		kept             bool
	}{
		{"2 tbsp Rapeseed oil", "grapeseed oil", "Rapeseed oil", false},
		{"2 cups (475ml) vegetable stock", "Vegetable Stock Cube", "vegetable stock", false},
		{"2 cups vegetable stock", "vegetable stock", "vegetable stock", true},
		{"3 large eggs", "egg", "egg", true},
		{"(optional)", "parsley", "parsley", true},
	} {
		got, kept := MatchedFood(c.line, c.food)
		if got != c.want || kept != c.kept {
			t.Errorf("MatchedFood(%q, %q) = %q, %v; want %q, %v", c.line, c.food, got, kept, c.want, c.kept)
		}
	}
}
