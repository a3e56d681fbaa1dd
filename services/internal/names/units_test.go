package names

import "testing"

// TestStandardUnitsAreMealiesSeed holds the table to Mealie's own en-US
// unit seed (3.11): every seeded unit with its name, plural and
// abbreviation, in the seeder's order.
func TestStandardUnitsAreMealiesSeed(t *testing.T) {
	seed := load[unit](t, "seed-units-3.11-en-US.json")
	if len(seed) != len(StandardUnits) {
		t.Fatalf("seed has %d units, the table %d", len(seed), len(StandardUnits))
	}
	for i, u := range seed {
		s := StandardUnits[i]
		if s.Name != u.Name || s.PluralName != u.PluralName || s.Abbreviation != u.Abbreviation {
			t.Errorf("unit %d = %q %q %q, Mealie seeds %q %q %q", i, s.Name, s.PluralName, s.Abbreviation, u.Name, u.PluralName, u.Abbreviation)
		}
	}
}

func TestStandardUnit(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"tsp", "teaspoon"}, {"tsp.", "teaspoon"}, {"Tsp", "teaspoon"}, {"t", "teaspoon"}, {"t.", "teaspoon"},
		{"teaspoons", "teaspoon"}, {"tsps", "teaspoon"},
		{"T", "tablespoon"}, {"T.", "tablespoon"}, {"Tbsp.", "tablespoon"}, {"TBSP", "tablespoon"}, {"tbs", "tablespoon"},
		{"TB", "tablespoon"}, {"tablespoons", "tablespoon"},
		{"c.", "cup"}, {"C", "cup"}, {"cups", "cup"}, {"heaping cups", "cup"},
		{"oz.", "ounce"}, {"ozs", "ounce"}, {"fl. oz.", "fluid ounce"}, {"fl oz", "fluid ounce"},
		{"lb.", "pound"}, {"lbs.", "pound"}, {"lbs", "pound"},
		{"ml", "milliliter"}, {"mL", "milliliter"}, {"millilitres", "milliliter"},
		{"L", "liter"}, {"litre", "liter"}, {"g", "gram"}, {"grams", "gram"}, {"kg", "kilogram"}, {"kilos", "kilogram"},
		{"pinches", "pinch"}, {"cloves", "clove"}, {"bunches", "bunch"}, {"sprigs", "sprig"},
		{"large", ""}, {"block", ""}, {"egg", ""}, {"", ""},
	} {
		u, ok := StandardUnit(c.in)
		if ok != (c.want != "") || u.Name != c.want {
			t.Errorf("StandardUnit(%q) = %q %v, want %q", c.in, u.Name, ok, c.want)
		}
	}
}

func TestReadAmount(t *testing.T) {
	for _, c := range []struct {
		line string
		qty  float64
		unit string
		text string
		rest string
	}{
		{"2 cups light brown sugar, packed", 2, "cup", "cups", "light brown sugar, packed"},
		{"1 tsp turmeric", 1, "teaspoon", "tsp", "turmeric"},
		{"2 tsp. red pepper chili flakes", 2, "teaspoon", "tsp.", "red pepper chili flakes"},
		{"1 Tbsp. cornstarch", 1, "tablespoon", "Tbsp.", "cornstarch"},
		{"1 T butter", 1, "tablespoon", "T", "butter"},
		{"1 t salt", 1, "teaspoon", "t", "salt"},
		{"8 oz. spaghetti", 8, "ounce", "oz.", "spaghetti"},
		{"1 lb. ground beef", 1, "pound", "lb.", "ground beef"},
		{"1 c. milk", 1, "cup", "c.", "milk"},
		{"1/2 cup green onions", 0.5, "cup", "cup", "green onions"},
		{"1 1/2 cups of flour", 1.5, "cup", "cups", "flour"},
		{"½ cup sugar", 0.5, "cup", "cup", "sugar"},
		{"1½ pounds steak", 1.5, "pound", "pounds", "steak"},
		{"2-3 large heads of broccoli", 2, "head", "large heads", "broccoli"},
		{"1 fl. oz. rum", 1, "fluid ounce", "fl. oz.", "rum"},
		{"3 large eggs", 3, "", "", "large eggs"},
		{"a pinch of salt", 1, "pinch", "pinch", "salt"},
		{"a large onion", 0, "", "", "a large onion"},
		{"juice of 1 lime", 0, "", "", "juice of 1 lime"},
		{"T-bone steak", 0, "", "", "T-bone steak"},
		{"3 tablespoons red lentils", 3, "tablespoon", "tablespoons", "red lentils"},
		{"2 tomatoes", 2, "", "", "tomatoes"},
		{"2 unit(s) Spring Onion", 2, "", "", "Spring Onion"},
	} {
		a := ReadAmount(c.line)
		if a.Quantity != c.qty || a.Unit.Name != c.unit || a.UnitText != c.text || a.Rest != c.rest {
			t.Errorf("ReadAmount(%q) = %v %q %q %q, want %v %q %q %q", c.line, a.Quantity, a.Unit.Name, a.UnitText, a.Rest, c.qty, c.unit, c.text, c.rest)
		}
	}
}
