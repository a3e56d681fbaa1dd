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
