package recipes_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/names"
)

// words are the lower-case words of letters in s.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// shows reports whether Mealie's app shows the word w of a line: as it is,
// or, for a unit's abbreviation, as that standard unit ("tsp" shown as
// "teaspoon", the library's unit carrying no abbreviation).
func shows(shown, w string) bool {
	if strings.Contains(shown, w) {
		return true
	}
	if u, ok := names.StandardUnit(w); ok {
		for _, n := range u.Names() {
			if slices.Contains(words(shown), strings.ToLower(n)) {
				return true
			}
		}
	}
	return false
}

// TestNamesOnWriteAsMealieShowsThem writes pasted lines through sous with
// unknown foods created (the default), against each emulated version and a
// live Mealie: a food named by its plural binds to the stored one, a new
// food is created and reported, and every word of every line is in what
// Mealie's app shows for it, in the line's order where sous could not
// link the unit.
func TestNamesOnWriteAsMealieShowsThem(t *testing.T) {
	eachMealieCreating(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		base := unique("plum")
		id := m.taxonomyWith("foods", map[string]any{"name": base, "pluralName": base + "s"})
		fresh := unique("quinoa")
		lines := []string{
			"2 " + base + "s",
			"1 tsp " + fresh + ", rinsed",
			"3 " + fresh,
		}
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("names"), Ingredients: textLinesOf(lines...)}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		for _, f := range res.Msg.CreatedFoods {
			m.deleteFoodNamed(f)
		}
		if !slices.ContainsFunc(res.Msg.CreatedFoods, func(f string) bool { return strings.Contains(f, fresh) }) {
			t.Errorf("created_foods = %q, want %q", res.Msg.CreatedFoods, fresh)
		}
		if slices.ContainsFunc(res.Msg.CreatedFoods, func(f string) bool { return strings.HasPrefix(f, base) }) {
			t.Errorf("a near-duplicate of %q was created: %q", base, res.Msg.CreatedFoods)
		}
		rec := m.recipe(slug)
		ings, _ := rec["recipeIngredient"].([]any)
		if len(ings) != len(lines) {
			t.Fatalf("stored %d lines, want %d", len(ings), len(lines))
		}
		if f, _ := ings[0].(map[string]any)["food"].(map[string]any); f == nil || f["id"] != id {
			t.Errorf("%q was not linked to the stored food %s: %v", lines[0], id, ings[0])
		}
		for i, l := range lines {
			shown := strings.ToLower(appLine(rec, i))
			for _, w := range words(l) {
				if !shows(shown, w) {
					t.Errorf("line %q lost %q: the app shows %q", l, w, shown)
				}
			}
		}
		// "1 tsp <food>": whether or not this Mealie has the unit, the
		// app shows the unit before the food.
		shown := strings.ToLower(appLine(rec, 1))
		if u, f := strings.Index(shown, "t"), strings.Index(shown, fresh); u < 0 || f < 0 || u > f {
			t.Errorf("line %q shows as %q, not in the cook's order", lines[1], shown)
		}
	})
}

func textLinesOf(lines ...string) []*recipesv1.IngredientInput {
	out := make([]*recipesv1.IngredientInput, len(lines))
	for i, l := range lines {
		out[i] = &recipesv1.IngredientInput{Kind: &recipesv1.IngredientInput_Text{Text: l}}
	}
	return out
}

// taxonomyWith creates a taxonomy item with body, deleted after the test.
func (m *mealieTarget) taxonomyWith(kind string, body map[string]any) string {
	m.t.Helper()
	st, o := m.api(http.MethodPost, "/api/"+kind, body)
	id, _ := o["id"].(string)
	if st != http.StatusCreated && st != http.StatusOK || id == "" {
		m.t.Fatalf("creating %s %v: %d %v", kind, body, st, o)
	}
	m.t.Cleanup(func() { m.api(http.MethodDelete, "/api/"+kind+"/"+id, nil) })
	return id
}

// deleteFoodNamed deletes, after the test, the foods sous created under name.
func (m *mealieTarget) deleteFoodNamed(name string) {
	m.t.Cleanup(func() {
		_, o := m.api(http.MethodGet, "/api/foods?perPage=50&search="+url.QueryEscape(name), nil)
		items, _ := o["items"].([]any)
		for _, it := range items {
			if f, _ := it.(map[string]any); f != nil && strings.EqualFold(f["name"].(string), name) {
				m.api(http.MethodDelete, "/api/foods/"+f["id"].(string), nil)
			}
		}
	})
}

// TestSuggestAsACookSaysIt is the household's "what can I make with
// chicken, rice and a lime" against a library whose foods are
// "<x> rice" and "boneless <x> chicken thighs" and whose lime is a line of
// text: every name counts, on each emulated version and a live Mealie
// (Mealie's own suggestions on 3.x, sous's ranking on 2.0).
func TestSuggestAsACookSaysIt(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		rice := unique("jasmine") + " rice"
		chicken := "boneless " + unique("farm") + " chicken thighs"
		m.taxonomyWith("foods", map[string]any{"name": rice})
		m.taxonomyWith("foods", map[string]any{"name": chicken})
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("lime-chicken"), Ingredients: []*recipesv1.IngredientInput{
			structuredLine(2, "", rice, ""), structuredLine(1, "", chicken, ""),
			{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Note: "juice of 1 lime"}}},
		}}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		sg, err := m.client.SuggestRecipes(c, connect.NewRequest(&recipesv1.SuggestRecipesRequest{
			Foods: []string{"chicken", "rice", "lime"}, MaxMissingFoods: proto.Int32(0), Limit: 50}))
		if err != nil {
			t.Fatal(err)
		}
		var slugs []string
		for _, it := range sg.Msg.Items {
			slugs = append(slugs, it.GetRecipe().GetSlug())
		}
		if !slices.Contains(slugs, slug) {
			t.Errorf("suggestions %q lack %s", slugs, slug)
		}
		if slices.Contains(sg.Msg.UnknownFoods, "rice") || slices.Contains(sg.Msg.UnknownFoods, "chicken") {
			t.Errorf("unknown_foods = %q", sg.Msg.UnknownFoods)
		}
		got := map[string][]string{}
		for k, v := range sg.Msg.Resolved {
			got[k] = v.GetNames()
		}
		if !slices.Contains(got["rice"], rice) || !slices.Contains(got["chicken"], chicken) {
			t.Errorf("resolved = %v", got)
		}

		// search_recipes: Mealie's foods filter finds the linked recipe,
		// and a recipe whose line names the thighs only as text comes back
		// in text_matches
		var textSlug string
		m.forget(&textSlug)
		tr, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("thighs-as-text"), Ingredients: []*recipesv1.IngredientInput{
			{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Note: "4 boneless, skinless " + chicken}}},
		}}))
		if err != nil {
			t.Fatal(err)
		}
		textSlug = tr.Msg.Slug
		sr, err := m.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Foods: []string{chicken}, Limit: proto.Int32(100)}))
		if err != nil {
			t.Fatal(err)
		}
		var linked, text []string
		for _, it := range sr.Msg.Items {
			linked = append(linked, it.GetSlug())
		}
		for _, it := range sr.Msg.TextMatches {
			text = append(text, it.GetSlug())
		}
		if !slices.Contains(linked, slug) || slices.Contains(linked, textSlug) || !slices.Equal(text, []string{textSlug}) {
			t.Errorf("search foods %q: items %q, text_matches %q; want %s linked and %s as text", chicken, linked, text, slug, textSlug)
		}
	})
}

// TestSuggestLeavesOutRecipesUsingNoNamedFood: asked what uses a food,
// with room for many missing, a recipe whose one food on hand is a staple
// (salt, counted as on hand) is not offered, as Mealie's own finder leaves
// out a recipe with none of the foods it is given; the recipe with the
// food is. On each emulated version and a live Mealie.
func TestSuggestLeavesOutRecipesUsingNoNamedFood(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		spinach := unique("baby") + " spinach"
		flour := unique("rye") + " flour"
		salt := unique("flaky") + " salt"
		for _, f := range []string{spinach, flour, salt} {
			m.taxonomyWith("foods", map[string]any{"name": f})
		}
		var with, without string
		m.forget(&with)
		m.forget(&without)
		for _, r := range []struct {
			slug *string
			name string
			food string
		}{{&with, unique("spinach-bowl"), spinach}, {&without, unique("rye-bread"), flour}} {
			res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: r.name, Ingredients: []*recipesv1.IngredientInput{
				structuredLine(2, "", r.food, ""), structuredLine(1, "", salt, ""),
			}}))
			if err != nil {
				t.Fatal(err)
			}
			*r.slug = res.Msg.Slug
		}
		sg, err := m.client.SuggestRecipes(c, connect.NewRequest(&recipesv1.SuggestRecipesRequest{
			Foods: []string{spinach}, MaxMissingFoods: proto.Int32(5), Limit: 50}))
		if err != nil {
			t.Fatal(err)
		}
		var slugs []string
		for _, it := range sg.Msg.Items {
			slugs = append(slugs, it.GetRecipe().GetSlug())
		}
		if !slices.Contains(slugs, with) || slices.Contains(slugs, without) {
			t.Errorf("suggestions for %q: %q; want %s and not %s (its one food on hand is salt)", spinach, slugs, with, without)
		}
		if !slices.Contains(sg.Msg.AssumedOnHand, "salt") {
			t.Errorf("assumed_on_hand = %q, want salt among them", sg.Msg.AssumedOnHand)
		}
	})
}

// TestCountingUnitsAndJoinedFoods writes "1 block <food>" and "1 tbsp <food>
// + 1 tbsp water" through sous, against each emulated version and a live
// Mealie: the counting word Mealie does not seed becomes a unit (reported
// in created_units, or bound if the library has it), so the line links its
// food and the app shows it in the cook's order; the joined food is the
// first, never a food named after both, and the water stays in the line.
func TestCountingUnitsAndJoinedFoods(t *testing.T) {
	eachMealieCreating(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		tofu, starch := unique("tofu"), unique("starch")
		lines := []string{"1 block " + tofu, "1 tbsp " + starch + " + 1 tbsp water"}
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("units"), Ingredients: textLinesOf(lines...)}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		for _, f := range res.Msg.CreatedFoods {
			m.deleteFoodNamed(f)
		}
		if slices.Contains(res.Msg.CreatedUnits, "block") {
			m.deleteUnitNamed("block")
		}
		for _, f := range res.Msg.CreatedFoods {
			if strings.Contains(f, "+") || strings.Contains(f, "water") {
				t.Errorf("created food %q joins two foods (created_foods %q)", f, res.Msg.CreatedFoods)
			}
		}
		rec := m.recipe(slug)
		ings, _ := rec["recipeIngredient"].([]any)
		if len(ings) != len(lines) {
			t.Fatalf("stored %d lines, want %d", len(ings), len(lines))
		}
		first, _ := ings[0].(map[string]any)
		u, _ := first["unit"].(map[string]any)
		f, _ := first["food"].(map[string]any)
		if u == nil || u["name"] != "block" || f == nil || !strings.Contains(f["name"].(string), tofu) {
			t.Errorf("%q stored unit %v food %v; want the unit block and the food linked (created_units %q)", lines[0], u, f, res.Msg.CreatedUnits)
		}
		for i, l := range lines {
			shown := strings.ToLower(appLine(rec, i))
			for _, w := range words(l) {
				if !shows(shown, w) {
					t.Errorf("line %q lost %q: the app shows %q", l, w, shown)
				}
			}
		}
		if shown := strings.ToLower(appLine(rec, 0)); !strings.HasPrefix(shown, "1 block "+tofu) {
			t.Errorf("line %q shows as %q, not in the cook's order", lines[0], shown)
		}
	})
}

// deleteUnitNamed deletes, after the test, the unit sous created as name.
func (m *mealieTarget) deleteUnitNamed(name string) {
	m.t.Cleanup(func() {
		_, o := m.api(http.MethodGet, "/api/units?perPage=200", nil)
		items, _ := o["items"].([]any)
		for _, it := range items {
			if u, _ := it.(map[string]any); u != nil && strings.EqualFold(u["name"].(string), name) {
				m.api(http.MethodDelete, "/api/units/"+u["id"].(string), nil)
			}
		}
	})
}
