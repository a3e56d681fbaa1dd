package mealplan

import (
	"strconv"
	"testing"

	"github.com/souskitchen/sous/services/internal/names"
)

func TestStockMatch(t *testing.T) {
	st := &stock{}
	var entries []names.Entry
	for i, n := range []struct {
		name    string
		aliases []string
	}{{"Eggs", nil}, {"egg noodles", nil}, {"salt", nil}, {"tomatoes", nil}, {"Berries", nil}, {"butter", nil}, {"jasmine rice", nil}, {"scallions", []string{"green onions"}}} {
		entries = append(entries, names.Entry{ID: strconv.Itoa(i), Name: n.name, Others: n.aliases})
		st.items = append(st.items, stockItem{name: n.name})
		st.names = append(st.names, append([]string{n.name}, n.aliases...))
	}
	st.ix = names.NewIndex(entries)
	cases := []struct {
		food, text, want, how string
	}{
		{"egg", "", "Eggs", "plural"},
		{"EGGS", "", "Eggs", "exact"},
		{"Egg-Noodles", "", "egg noodles", "plural"},
		{"tomato", "", "tomatoes", "plural"},
		{"berry", "", "Berries", "plural"},
		{"green onion", "", "scallions", "plural"},
		{"spring onions", "", "scallions", "synonym"},
		{"whole milk", "", "", ""},
		{"", "a pinch of salt", "salt", "plural"},
		{"", "2 eggs, beaten", "Eggs", "plural"},
		{"large eggs", "", "Eggs", "plural"},
		{"fresh tomatoes", "", "tomatoes", "plural"},
		// The pantry's kind supplies a recipe's general name...
		{"rice", "", "jasmine rice", "kind"},
		// ...but a general pantry name never supplies a recipe's kind.
		{"unsalted butter", "", "", ""},
		{"sea salt", "", "", ""},
		{"", "unsalted butter", "", ""},
		{"rice vinegar", "", "", ""},
	}
	for _, tc := range cases {
		got, ok := st.match(tc.food, tc.text)
		if (tc.want != "") != ok || got.name != tc.want || got.how != tc.how {
			t.Errorf("match(%q, %q) = %q (%s), %v; want %q (%s)", tc.food, tc.text, got.name, got.how, ok, tc.want, tc.how)
		}
	}
	var none *stock
	if _, ok := none.match("egg", ""); ok {
		t.Error("a nil stock matched")
	}
}
