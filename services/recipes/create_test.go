package recipes

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// TestCreateRecipePayload writes with SOUS_CREATE_FOODS=false: unknown
// foods stay words in the note, as before foods were created.
func TestCreateRecipePayload(t *testing.T) {
	s, f := newService(t)
	s.keepUnknownFoods = true
	res, err := s.CreateRecipe(context.Background(), req(&recipesv1.CreateRecipeRequest{
		Name: "Sunday Pancakes",
		Ingredients: []*recipesv1.IngredientInput{
			{Kind: &recipesv1.IngredientInput_Text{Text: "2 cups flour, sifted"}},
			{Kind: &recipesv1.IngredientInput_Text{Text: "1 1/2 tbsp sugar"}},
			{Kind: &recipesv1.IngredientInput_Text{Text: "salt to taste"}},
			{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(2), Food: "EGGS"}}},
			{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(500), Unit: "g", Food: "dragonfruit"}}},
		},
		Instructions: []string{"Mix.", " ", "Cook."},
		Tags:         []string{"breakfast", "Vegan"},
		Categories:   []string{"Dinner"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	m := res.Msg
	if m.Slug != "sunday-pancakes" || !slices.Equal(m.Created.GetTags(), []string{"Vegan"}) || len(m.Created.GetCategories()) != 0 {
		t.Errorf("response = %v", m)
	}
	if !slices.Equal(m.Unresolved, []string{"sugar", "salt to taste", "dragonfruit"}) {
		t.Errorf("unresolved = %q", m.Unresolved)
	}
	// "g" is a standard unit the library lacks: created as Mealie's
	// seeder makes it, even where unknown foods are kept in notes
	if !slices.Equal(m.CreatedUnits, []string{"gram"}) {
		t.Errorf("created_units = %q", m.CreatedUnits)
	}
	want := []string{"POST /api/parser/ingredients", "POST /api/units", "POST /api/organizers/tags", "POST /api/recipes", "PATCH /api/recipes/sunday-pancakes"}
	if got := f.writes(); !slices.Equal(got, want) {
		t.Errorf("writes = %q, want %q", got, want)
	}
	body := f.lastBody(http.MethodPatch, "/api/recipes/sunday-pancakes")
	ings := body["recipeIngredient"].([]any)
	type line struct {
		qty  any
		unit any
		food any
		note string
	}
	wantLines := []line{
		{2.0, "cup", "flour", "sifted"},
		{1.5, "tablespoon", nil, "sugar"},
		{nil, nil, nil, "salt to taste"},    // wholly unresolved: the source line, no quantity
		{2.0, nil, "egg", ""},               // plural resolved case-insensitively
		{500.0, "gram", nil, "dragonfruit"}, // the unit created, the food kept in the note
	}
	for i, in := range ings {
		l := in.(map[string]any)
		if l["referenceId"] == nil || l["referenceId"] == "" {
			t.Errorf("line %d has no referenceId", i)
		}
		got := line{l["quantity"], nameOf(l["unit"]), nameOf(l["food"]), l["note"].(string)}
		if got != wantLines[i] {
			t.Errorf("line %d = %+v, want %+v", i, got, wantLines[i])
		}
		for _, k := range []string{"unit", "food"} {
			if o, ok := l[k].(map[string]any); ok && (o["id"] == nil || len(o) != 2) {
				t.Errorf("line %d %s = %v, want {id,name}", i, k, o)
			}
		}
	}
	stepsOut := body["recipeInstructions"].([]any)
	if len(stepsOut) != 2 {
		t.Fatalf("steps = %v", stepsOut)
	}
	for _, st := range stepsOut {
		if refs, ok := st.(map[string]any)["ingredientReferences"].([]any); !ok || refs == nil {
			t.Errorf("step without ingredientReferences: %v", st)
		}
	}
	tags := body["tags"].([]any)
	if len(tags) != 2 || tags[0].(map[string]any)["name"] != "Breakfast" || tags[1].(map[string]any)["id"] == nil {
		t.Errorf("tags = %v", tags)
	}
	noWriteTwice(t, f)
}

func nameOf(v any) any {
	if m, ok := v.(map[string]any); ok {
		return m["name"]
	}
	return nil
}

func TestCreateFailedPatchNamesStub(t *testing.T) {
	s, f := newService(t)
	f.patchStatus = 500
	_, err := s.CreateRecipe(context.Background(), req(&recipesv1.CreateRecipeRequest{Name: "Stubby", Description: "x"}))
	if err == nil || !strings.Contains(err.Error(), "stub 'stubby'") {
		t.Fatalf("err = %v", err)
	}
	if got := f.writes(); !slices.Equal(got, []string{"POST /api/recipes", "PATCH /api/recipes/stubby"}) {
		t.Errorf("writes = %q", got)
	}
}
