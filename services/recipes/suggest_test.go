package recipes

import (
	"context"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

func TestSuggestComputesLocallyOn20(t *testing.T) {
	s, f := newService(t)
	res, err := s.SuggestRecipes(context.Background(), req(&recipesv1.SuggestRecipesRequest{Foods: []string{"flour", "Eggs", "unobtainium"}, Tools: []string{"skillet"}}))
	if err != nil {
		t.Fatal(err)
	}
	m := res.Msg
	if m.Note == "" || !slices.Equal(m.UnknownFoods, []string{"unobtainium"}) || len(m.Items) != 1 ||
		m.Items[0].Recipe.Slug != pancakes || !slices.Equal(m.Items[0].MissingFoods, []string{"whole milk"}) || len(m.Items[0].MissingTools) != 0 {
		t.Errorf("response = %v", m)
	}
	if _, err := s.SuggestRecipes(context.Background(), req(&recipesv1.SuggestRecipesRequest{FromPantry: true})); codeOf(err) != connect.CodeFailedPrecondition {
		t.Errorf("from_pantry without a pantry: %v", err)
	}
	// Run by sous itself, the refusal names the settings its user sets.
	inProcess, err := New(Config{MealieURL: f.srv.URL, MealieToken: "tok", Backoff: 1, PantrySetting: "FOOD_API_BASE and FOOD_API_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inProcess.SuggestRecipes(context.Background(), req(&recipesv1.SuggestRecipesRequest{FromPantry: true})); codeOf(err) != connect.CodeFailedPrecondition ||
		!strings.Contains(err.Error(), "set FOOD_API_BASE and FOOD_API_TOKEN") {
		t.Errorf("from_pantry without a pantry, in-process: %v", err)
	}
}

// fakePantry answers GetPantry with fixed items; other methods are not used.
type fakePantry struct {
	pantryv1connect.PantryServiceClient
	items []*pantryv1.PantryItem
}

func (p *fakePantry) GetPantry(context.Context, *connect.Request[pantryv1.GetPantryRequest]) (*connect.Response[pantryv1.GetPantryResponse], error) {
	return connect.NewResponse(&pantryv1.GetPantryResponse{Groups: []*pantryv1.LocationGroup{{Location: pantryv1.Location_LOCATION_CUPBOARD, Items: p.items}}}), nil
}

func TestSuggestFromPantry(t *testing.T) {
	f := newFake(t)
	s, err := New(Config{MealieURL: f.srv.URL, MealieToken: "tok", Backoff: 1, Pantry: &fakePantry{items: []*pantryv1.PantryItem{
		{Name: "plain flour", Aliases: []string{"Flour"}, State: pantryv1.ItemState_ITEM_STATE_IN},
		{Name: "eggs", State: pantryv1.ItemState_ITEM_STATE_LOW},
		{Name: "whole milk", State: pantryv1.ItemState_ITEM_STATE_OUT},
		{Name: "saffron", State: pantryv1.ItemState_ITEM_STATE_IN},
		// Kept in two places: two pantry items, one name to report.
		{Name: "Saffron", State: pantryv1.ItemState_ITEM_STATE_IN, Location: pantryv1.Location_LOCATION_FRIDGE},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.SuggestRecipes(context.Background(), req(&recipesv1.SuggestRecipesRequest{FromPantry: true, Tools: []string{"Skillet"}}))
	if err != nil {
		t.Fatal(err)
	}
	m := res.Msg
	// flour matches by alias, eggs by plural; milk is out, so missing.
	if !slices.Equal(m.UnmatchedPantryItems, []string{"saffron"}) || len(m.Items) != 1 || !slices.Equal(m.Items[0].MissingFoods, []string{"whole milk"}) {
		t.Errorf("response = %v", m)
	}
}
