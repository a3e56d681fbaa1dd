package recipes

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// captureBody decodes the response body of a Mealie 2.0 capture in testdata
// into out.
func captureBody(t testing.TB, name string, out any) json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Response struct {
			JSON json.RawMessage `json:"json"`
		} `json:"response"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(c.Response.JSON, out); err != nil {
			t.Fatal(err)
		}
	}
	return c.Response.JSON
}

func TestSummaryFromList(t *testing.T) {
	var page mealie.Page[mealie.RecipeSummary]
	captureBody(t, "recipes_list__default", &page)
	if len(page.Items) != 4 {
		t.Fatalf("%d items", len(page.Items))
	}
	got := map[string]*recipesv1.RecipeSummary{}
	for i := range page.Items {
		s := summary(&page.Items[i])
		got[s.Slug] = s
	}
	d := got["fixture-pancakes-deluxe"]
	if d == nil || d.Name != "Fixture Pancakes Deluxe" || d.Description != "PUT description" ||
		!slices.Equal(d.Tags, []string{"Breakfast", "Quick & Easy"}) || d.DateAdded != "2026-11-30" || d.LastMade != "" || d.Id == "" {
		t.Errorf("deluxe = %v", d)
	}
	if o := got["fixture-omelette"]; o == nil || o.Description != "" || len(o.Tags) != 0 || o.HasImage {
		t.Errorf("omelette = %v", o)
	}
}

func TestDetailFromCapture(t *testing.T) {
	var r mealie.Recipe
	captureBody(t, "recipes_get__after_patches", &r)
	d := detail(&r)
	if d.Slug != "fixture-pancakes" || d.RecipeYield != "4 servings" || d.TotalTime != "20 minutes" ||
		!slices.Equal(d.Tags, []string{"Breakfast", "Quick & Easy"}) || !slices.Equal(d.Categories, []string{"Dinner"}) ||
		!slices.Equal(d.Tools, []string{"Skillet"}) || d.HasImage || d.Rating != nil {
		t.Errorf("detail = %v", d)
	}
	var display []string
	for _, in := range d.Ingredients {
		display = append(display, in.Display)
	}
	// The capture's settings.disableAmount is on, so Mealie's app shows
	// each line as its note alone: the answer is still the stored line,
	// whole, and the recipe says that the app hides its amounts. Before,
	// the lines were answered as the notes ("", "") and the eggs and milk
	// read as empty lines. The capture's egg has no plural name, so it is
	// "2 egg", as Mealie renders it with the amounts shown.
	want := []string{"2 cup flour, sifted", "2 egg", "1½ cup whole milk", "a pinch of salt"}
	if !slices.Equal(display, want) {
		t.Errorf("display = %q, want %q", display, want)
	}
	if !d.AmountsHidden {
		t.Error("amounts_hidden is not set on a recipe whose app hides its amounts")
	}
	if f := d.Ingredients[0]; f.Food != "flour" || f.FoodId == "" || f.Unit != "cup" || f.Note != "sifted" || f.GetQuantity() != 2 || f.OriginalText != "2 cups flour, sifted" {
		t.Errorf("first line = %v", f)
	}
	r.Settings["disableAmount"] = false
	if shown := detail(&r); shown.AmountsHidden || shown.Ingredients[0].Food != "flour" || shown.Ingredients[0].FoodId == "" || shown.Ingredients[0].Unit != "cup" || shown.Ingredients[0].GetQuantity() != 2 {
		t.Errorf("with amounts shown: hidden %v, first line %v", shown.AmountsHidden, shown.Ingredients[0])
	}
	if s := d.Ingredients[3]; s.Quantity != nil || s.Food != "" {
		t.Errorf("note-only line = %v", s)
	}
	if !slices.Equal(d.Instructions, []string{"Whisk dry ingredients.", "Cook on a hot skillet."}) || len(d.Notes) != 0 {
		t.Errorf("instructions %q notes %v", d.Instructions, d.Notes)
	}
}

func TestFreshRecipeIsAFailedScrape(t *testing.T) {
	var fresh, full mealie.Recipe
	captureBody(t, "recipes_get__fresh", &fresh)
	captureBody(t, "recipes_get__after_patches", &full)
	if !scrapeFailed(&fresh) {
		t.Error("Mealie's placeholder recipe was not flagged")
	}
	if scrapeFailed(&full) {
		t.Error("a real recipe was flagged")
	}
}

func TestParsedFromCapture(t *testing.T) {
	var items []mealie.ParsedIngredient
	captureBody(t, "parser_ingredients__brute", &items)
	p := parsedParts(items[0].Input, &items[0])
	if p.source != "2 cups flour, sifted" || p.food != "flour" || p.foodID == "" || p.unit != "cups" && p.unit != "cup" {
		t.Errorf("parsed = %+v", p)
	}
	if s := parsedParts(items[1].Input, &items[1]); s.food != "sugar" || s.foodID != "" {
		t.Errorf("unmatched food kept an id: %+v", s)
	}
}

func TestTaxonomyItemFromCaptures(t *testing.T) {
	var foods mealie.Page[mealie.TaxonomyItem]
	captureBody(t, "foods__list_paged", &foods)
	egg := taxonomyItem(&foods.Items[1])
	if egg.Name != "egg" || egg.PluralName != "eggs" || egg.Description != "chicken egg" || egg.Label != "Produce" || egg.Slug != "" {
		t.Errorf("egg = %v", egg)
	}
	var labels mealie.Page[mealie.TaxonomyItem]
	captureBody(t, "groups_labels__list", &labels)
	if l := taxonomyItem(&labels.Items[0]); l.Name != "Dairy" || l.Color != "#959595" {
		t.Errorf("label = %v", l)
	}
	var tools mealie.Page[mealie.TaxonomyItem]
	captureBody(t, "organizers_tools__list", &tools)
	if w := taxonomyItem(&tools.Items[0]); w.Name != "Whisk" || w.Slug != "whisk" || !w.OnHand {
		t.Errorf("tool = %v", w)
	}
}

func TestRankOne(t *testing.T) {
	var r mealie.Recipe
	captureBody(t, "recipes_get__after_patches", &r)
	ids := map[string]string{}
	for _, in := range r.Ingredients {
		if in.Food != nil {
			ids[in.Food.ID] = in.Food.Name
		}
	}
	flour := r.Ingredients[0].Food.ID
	tests := []struct {
		name       string
		foods      map[string]string
		maxMissing int
		wantNil    bool
		missing    []string
	}{
		{"everything on hand", ids, 0, false, nil},
		{"flour only, two missing allowed", map[string]string{flour: "flour"}, 2, false, []string{"egg", "whole milk"}},
		{"flour only, one missing allowed", map[string]string{flour: "flour"}, 1, true, nil},
	}
	for _, tc := range tests {
		sg, _ := rankOne(&r, tc.foods, map[string]string{}, nil, nil, tc.maxMissing, map[string][]string{})
		if (sg == nil) != tc.wantNil {
			t.Errorf("%s: got %v", tc.name, sg)
			continue
		}
		if sg != nil && (!slices.Equal(sg.MissingFoods, tc.missing) || !slices.Equal(sg.MissingTools, []string{"Skillet"})) {
			t.Errorf("%s: missing %q tools %q", tc.name, sg.MissingFoods, sg.MissingTools)
		}
	}
}

func TestIngredientDisplay(t *testing.T) {
	q := 2.0
	s := func(v string) *string { return &v }
	tests := []struct {
		name string
		in   mealie.RecipeIngredient
		want string
	}{
		{"Mealie's display kept when it names the food", mealie.RecipeIngredient{Quantity: &q, Unit: &mealie.Unit{Name: "tablespoon"}, Food: &mealie.Food{Name: "olive oil"}, Display: "2 tbsp olive oil"}, "2 tbsp olive oil"},
		{"plural display kept", mealie.RecipeIngredient{Quantity: &q, Food: &mealie.Food{Name: "egg"}, Display: "2 eggs"}, "2 eggs"},
		{"2.0 display without the food rebuilt", mealie.RecipeIngredient{Quantity: &q, Unit: &mealie.Unit{Name: "cup"}, Food: &mealie.Food{Name: "flour"}, Note: s("sifted"), Display: "2 sifted"}, "2 cup flour, sifted"},
		{"unit-only line without the unit rebuilt", mealie.RecipeIngredient{Quantity: &q, Unit: &mealie.Unit{Name: "pinch"}, Display: "2"}, "2 pinch"},
		{"note-only line", mealie.RecipeIngredient{Note: s("salt to taste")}, "salt to taste"},
		{"original text when nothing else", mealie.RecipeIngredient{OriginalText: s("a handful of herbs")}, "a handful of herbs"},
	}
	for _, tc := range tests {
		if got := ingredient(&tc.in).Display; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestDisplayFractions: Mealie's own display writes a fraction as
// superscript over subscript ("1 ¹/₂"); get_recipe shows it as a cook
// writes it, as the shopping list does.
func TestDisplayFractions(t *testing.T) {
	for _, c := range []struct{ mealie, food, want string }{
		{"1 ¹/₂ cups whole milk", "whole milk", "1½ cups whole milk"},
		{"³/₄ teaspoon salt", "salt", "¾ teaspoon salt"},
		{"2 onions", "onion", "2 onions"},
	} {
		in := &mealie.RecipeIngredient{Display: c.mealie, Food: &mealie.Food{ID: "f", Name: c.food}}
		if got := ingredient(in).GetDisplay(); got != c.want {
			t.Errorf("display of %q = %q, want %q", c.mealie, got, c.want)
		}
	}
}

// TestSubRecipeLine: a line using another recipe (Mealie 3.5 and later,
// referencedRecipe) shows by the sub-recipe's name and slug; Mealie's own
// display leaves it out and the whole sub-recipe body is not carried.
func TestSubRecipeLine(t *testing.T) {
	one, two := 1.0, 2.0
	s := func(v string) *string { return &v }
	tests := []struct {
		name      string
		in        mealie.RecipeIngredient
		want      string
		wantSlug  string
		amountsOf bool
	}{
		{"one sub-recipe", mealie.RecipeIngredient{Quantity: &one, Display: "1", ReferencedRecipe: &mealie.RecipeSummary{Name: "Pie Crust", Slug: "pie-crust"}}, "1 Pie Crust (recipe pie-crust)", "pie-crust", false},
		{"two batches with a note", mealie.RecipeIngredient{Quantity: &two, Note: s("chilled"), Display: "2 chilled", ReferencedRecipe: &mealie.RecipeSummary{Name: "Pie Crust", Slug: "pie-crust"}}, "2 Pie Crust, chilled (recipe pie-crust)", "pie-crust", false},
		{"no sub-recipe", mealie.RecipeIngredient{Quantity: &two, Food: &mealie.Food{Name: "egg"}, Display: "2 eggs"}, "2 eggs", "", false},
	}
	for _, tc := range tests {
		got := recipeLine(&tc.in, tc.amountsOf)
		if got.GetDisplay() != tc.want || got.GetRecipeSlug() != tc.wantSlug {
			t.Errorf("%s: %q (%q), want %q (%q)", tc.name, got.GetDisplay(), got.GetRecipeSlug(), tc.want, tc.wantSlug)
		}
	}
}
