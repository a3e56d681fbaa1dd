package amount

import "testing"

func TestQuantity(t *testing.T) {
	for _, c := range []struct {
		q    float64
		want string
	}{
		{0.75, "¾"}, {0.5, "½"}, {1.5, "1½"}, {2, "2"}, {0.333, "⅓"}, {0.33, "⅓"}, {0.6667, "⅔"},
		{0.125, "⅛"}, {2.25, "2¼"}, {0.3, "0.3"}, {1.2, "1.2"}, {10.5, "10½"}, {500, "500"}, {0.999, "1"}, {0.05, "0.05"},
	} {
		if got := Quantity(c.q); got != c.want {
			t.Errorf("Quantity(%v) = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestFractions(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1 ¹/₂ cups flour", "1½ cups flour"},
		{"³/₄ teaspoon salt", "¾ teaspoon salt"},
		{"2 cups flour", "2 cups flour"},
		{"³/₁₆ cup sugar", "3/16 cup sugar"},
		{"x² area", "x² area"},
	} {
		if got := Fractions(c.in); got != c.want {
			t.Errorf("Fractions(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	for _, c := range []struct {
		q                            float64
		unit, food, foodPlural, note string
		want                         string
	}{
		{4, "", "avocado", "avocados", "", "4 avocados"},
		// No plural in Mealie: the name as Mealie shows it, never one
		// made up (a real library's food "sprigs cilantro").
		{4, "", "avocado", "", "", "4 avocado"},
		{12, "", "sprigs cilantro", "", "finely minced", "12 sprigs cilantro, finely minced"},
		{1, "", "onion", "", "(finely diced)", "1 onion (finely diced)"},
		{1, "", "onion", "", "", "1 onion"},
		{2, "", "egg", "eggs", "free range", "2 eggs, free range"},
		{0.75, "cup", "milk", "", "", "¾ cup milk"},
		{2, "cups", "flour", "", "sifted", "2 cups flour, sifted"},
		{3, "", "tomato", "tomatoes", "", "3 tomatoes"},
		{2, "", "", "", "paper towels", "2 paper towels"},
		{0, "", "salt", "", "", "salt"},
	} {
		if got := Line(c.q, c.unit, c.food, c.foodPlural, c.note); got != c.want {
			t.Errorf("Line(%v, %q, %q, %q, %q) = %q, want %q", c.q, c.unit, c.food, c.foodPlural, c.note, got, c.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"avocado", "avocados"}, {"red onion", "red onions"}, {"berry", "berries"}, {"peach", "peaches"},
		{"eggs", "eggs"}, {"bay leaf", "bay leaves"}, {"7UP", "7UP"}, {"key", "keys"}, {"potato", "potatoes"},
	} {
		if got := Plural(c.in); got != c.want {
			t.Errorf("Plural(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
