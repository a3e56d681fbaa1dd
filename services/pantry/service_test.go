package pantry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
)

// countingAPI answers every call with an empty pantry list and counts the
// calls, so a test can tell that a request was refused before any I/O.
func countingAPI(t *testing.T) (string, *int) {
	t.Helper()
	var calls int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		_, _ = w.Write([]byte(`[]`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/api", &calls
}

func client(t *testing.T, cfg Config) pantryv1connect.PantryServiceClient {
	t.Helper()
	svc, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path, h := svc.Handler()
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return pantryv1connect.NewPantryServiceClient(srv.Client(), srv.URL)
}

func TestInvalidRequestsNeverReachTheAPI(t *testing.T) {
	base, calls := countingAPI(t)
	c := client(t, Config{FoodAPIBase: base, FoodAPIToken: "t"})
	ctx := context.Background()
	meta := func(name string) *pantryv1.LogCookRequest_MetaRecipe {
		return &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: name}
	}
	// One character over the food API's name columns, spaces collapsed
	// first as the service sends them.
	tooLong := strings.Repeat("a", MaxNameChars-10) + "     " + strings.Repeat("b", 10)
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"no ingredient", func() error {
			_, err := c.SetItemState(ctx, connect.NewRequest(&pantryv1.SetItemStateRequest{State: pantryv1.ItemState_ITEM_STATE_OUT}))
			return err
		}, "ingredient is required"},
		{"no state", func() error {
			_, err := c.SetItemState(ctx, connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "eggs"}))
			return err
		}, "state is required"},
		{"too many additions", func() error {
			items := make([]*pantryv1.PantryAddition, MaxAdditions+1)
			for i := range items {
				items[i] = &pantryv1.PantryAddition{Name: "eggs"}
			}
			_, err := c.AddToPantry(ctx, connect.NewRequest(&pantryv1.AddToPantryRequest{Items: items}))
			return err
		}, "1 to 100"},
		{"servings", func() error {
			_, err := c.WhatCanICook(ctx, connect.NewRequest(&pantryv1.WhatCanICookRequest{Servings: proto.Int32(MaxServings + 1)}))
			return err
		}, "servings"},
		{"nothing cooked", func() error {
			_, err := c.LogCook(ctx, connect.NewRequest(&pantryv1.LogCookRequest{}))
			return err
		}, "one of meta_recipe or recipe"},
		{"rating", func() error {
			_, err := c.LogCook(ctx, connect.NewRequest(&pantryv1.LogCookRequest{Cooked: meta("Frittata"), Rating: proto.Int32(0)}))
			return err
		}, "rating"},
		{"date", func() error {
			_, err := c.LogCook(ctx, connect.NewRequest(&pantryv1.LogCookRequest{Cooked: meta("Frittata"), Date: "20/06/2026"}))
			return err
		}, "YYYY-MM-DD"},
		{"slot chosen twice", func() error {
			_, err := c.LogCook(ctx, connect.NewRequest(&pantryv1.LogCookRequest{Cooked: meta("Frittata"), SlotChoices: []*pantryv1.SlotChoice{
				{Slot: "cheese", Ingredient: "cheddar"}, {Slot: "Cheese", Ingredient: "parmesan"},
			}}))
			return err
		}, "chosen twice"},
		{"slot choices on a fixed recipe", func() error {
			_, err := c.LogCook(ctx, connect.NewRequest(&pantryv1.LogCookRequest{
				Cooked:      &pantryv1.LogCookRequest_Recipe{Recipe: "Cheddar omelette"},
				SlotChoices: []*pantryv1.SlotChoice{{Slot: "cheese", Ingredient: "cheddar"}},
			}))
			return err
		}, "only to a meta-recipe"},
		{"no name", func() error {
			_, err := c.CreateMetaRecipe(ctx, connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{}))
			return err
		}, "name must be"},
		{"long ingredient to set", func() error {
			_, err := c.SetItemState(ctx, connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: tooLong, State: pantryv1.ItemState_ITEM_STATE_OUT}))
			return err
		}, "ingredient must be at most 120 characters, got 121"},
		{"long addition", func() error {
			_, err := c.AddToPantry(ctx, connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{{Name: "eggs"}, {Name: tooLong}}}))
			return err
		}, "items[1].name must be at most 120"},
		{"long meta-recipe to log", func() error {
			_, err := c.LogCook(ctx, connect.NewRequest(&pantryv1.LogCookRequest{Cooked: meta(tooLong)}))
			return err
		}, "meta_recipe must be at most 120"},
		{"long recipe to log", func() error {
			_, err := c.LogCook(ctx, connect.NewRequest(&pantryv1.LogCookRequest{Cooked: &pantryv1.LogCookRequest_Recipe{Recipe: tooLong}}))
			return err
		}, "recipe must be at most 120"},
		{"long slot choice", func() error {
			_, err := c.LogCook(ctx, connect.NewRequest(&pantryv1.LogCookRequest{Cooked: meta("Frittata"), SlotChoices: []*pantryv1.SlotChoice{
				{Slot: "cheese", Ingredient: tooLong},
			}}))
			return err
		}, "slot_choices[0].ingredient must be at most 120"},
		{"long meta-recipe name", func() error {
			_, err := c.CreateMetaRecipe(ctx, connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{Name: tooLong}))
			return err
		}, "name must be 1 to 120 characters"},
		{"long slot name", func() error {
			_, err := c.CreateMetaRecipe(ctx, connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{Name: "x", Slots: []*pantryv1.SlotInput{
				{Name: tooLong, Options: []*pantryv1.IngredientAmount{{Ingredient: "tofu"}}},
			}}))
			return err
		}, "slots[0].name must be at most 120"},
		{"long base ingredient", func() error {
			_, err := c.CreateMetaRecipe(ctx, connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{Name: "x", BaseIngredients: []*pantryv1.IngredientAmount{{Ingredient: tooLong}}}))
			return err
		}, "base_ingredients[0].ingredient must be at most 120"},
		{"empty addition name", func() error {
			_, err := c.AddToPantry(ctx, connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{{Name: "eggs"}, {Name: "  "}}}))
			return err
		}, "items[1].name is required"},
		{"long method", func() error {
			_, err := c.CreateMetaRecipe(ctx, connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{Name: "x", Method: strings.Repeat("m", MaxMethodChars+1)}))
			return err
		}, "method: at most 10000 characters"},
		{"slot without options", func() error {
			_, err := c.CreateMetaRecipe(ctx, connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{Name: "x", Slots: []*pantryv1.SlotInput{{Name: "protein"}}}))
			return err
		}, "needs 1 to 50 options"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want InvalidArgument mentioning %q", err, tt.want)
			}
		})
	}
	if *calls != 0 {
		t.Errorf("the food API was called %d times", *calls)
	}
}

func TestReadOnlyModeRefusesWritesOnly(t *testing.T) {
	base, calls := countingAPI(t)
	c := client(t, Config{FoodAPIBase: base, FoodAPIToken: "t", ReadOnly: true})
	ctx := context.Background()
	_, err := c.AddToPantry(ctx, connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{{Name: "eggs"}}}))
	if connect.CodeOf(err) != connect.CodePermissionDenied {
		t.Errorf("AddToPantry = %v, want PermissionDenied", err)
	}
	if *calls != 0 {
		t.Errorf("a refused write called the food API %d times", *calls)
	}
	if _, err := c.GetPantry(ctx, connect.NewRequest(&pantryv1.GetPantryRequest{})); err != nil {
		t.Errorf("GetPantry = %v", err)
	}
}

// A name of exactly MaxNameChars characters, counted as the food API counts
// them (code points, after collapsing spaces), passes the check.
func TestNameAtTheLimitReachesTheAPI(t *testing.T) {
	for _, name := range []string{
		strings.Repeat("a", MaxNameChars),
		strings.Repeat("é", MaxNameChars),
		"  " + strings.Repeat("a", MaxNameChars-2) + "   b ",
	} {
		if err := checkName("name", normName(name)); err != nil {
			t.Errorf("checkName(%d bytes) = %v, want nil", len(name), err)
		}
	}
	if err := checkName("name", strings.Repeat("é", MaxNameChars+1)); err == nil {
		t.Error("a name of 121 characters passed")
	}
}
