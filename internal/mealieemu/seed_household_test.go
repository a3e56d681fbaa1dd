package mealieemu

import (
	"strings"
	"testing"
	"time"
)

// TestHouseholdSeed reads the household library back over the API: every
// recipe, its foods spelled as the data spells them (duplicates kept), parsed
// lines linked to a food with their text kept, unparsed lines as notes only,
// and the shopping list.
func TestHouseholdSeed(t *testing.T) {
	s := newServer(t, WithSeed("household"))
	data, err := HouseholdRecipes()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 40 {
		t.Fatalf("household/recipes.json holds %d recipes, want 40", len(data))
	}
	_, page := call(t, s, "GET", "/api/recipes?perPage=-1", nil)
	items := page.(map[string]any)["items"].([]any)
	if len(items) != len(data) {
		t.Fatalf("GET /api/recipes: %d recipes, want %d", len(items), len(data))
	}
	_, fl := call(t, s, "GET", "/api/foods?perPage=-1", nil)
	foods := map[string]bool{}
	for _, f := range fl.(map[string]any)["items"].([]any) {
		foods[f.(map[string]any)["name"].(string)] = true
	}
	for _, want := range []string{"rice ($0.60)", "jasmine rice", "long-grain white rice", "COLD cooked brown rice",
		"boneless chicken thighs", "chicken thighs", "tomato", "tomatoes", "Tomatoes", "vegetable oil*", "fresh ginger"} {
		if !foods[want] {
			t.Errorf("food %q missing from the household library", want)
		}
	}
	tests := []struct {
		name   string
		slug   string
		parsed bool
	}{
		{"parsed recipe", "egg-fried-rice", true},
		{"unparsed import", "simple-chicken-and-rice", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := call(t, s, "GET", "/api/recipes/"+tc.slug, nil)
			if status != 200 {
				t.Fatalf("GET %s: %d", tc.slug, status)
			}
			r := body.(map[string]any)
			lines := r["recipeIngredient"].([]any)
			if len(lines) == 0 {
				t.Fatal("no ingredients")
			}
			linked := 0
			for _, l := range lines {
				in := l.(map[string]any)
				if in["food"] != nil {
					linked++
					if ot, _ := in["originalText"].(string); ot == "" {
						t.Errorf("parsed line %v lost its text", in)
					}
				} else if note, _ := in["note"].(string); strings.TrimSpace(note) == "" {
					t.Errorf("text line %v has no note", in)
				}
			}
			if tc.parsed && linked == 0 || !tc.parsed && linked != 0 {
				t.Errorf("%s: %d of %d lines linked to a food", tc.slug, linked, len(lines))
			}
		})
	}
	_, tl := call(t, s, "GET", "/api/organizers/tags?perPage=-1", nil)
	slugs := map[string]bool{}
	for _, tg := range tl.(map[string]any)["items"].([]any) {
		slug := tg.(map[string]any)["slug"].(string)
		if slugs[slug] {
			t.Errorf("two tags share the slug %q, which Mealie refuses", slug)
		}
		slugs[slug] = true
	}
	_, lists := call(t, s, "GET", "/api/households/shopping/lists", nil)
	if n := len(lists.(map[string]any)["items"].([]any)); n != 1 {
		t.Errorf("shopping lists: %d, want 1", n)
	}
}

// BenchmarkSeedHousehold measures seeding the household library.
func BenchmarkSeedHousehold(b *testing.B) {
	for b.Loop() {
		st := newStore(profiles["2.8"], time.Now)
		if err := st.seed("household"); err != nil {
			b.Fatal(err)
		}
	}
}
