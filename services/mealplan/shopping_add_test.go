package mealplan

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
)

func inStock(names ...string) []*pantryv1.PantryItem {
	var out []*pantryv1.PantryItem
	for _, n := range names {
		out = append(out, &pantryv1.PantryItem{Name: n, State: pantryv1.ItemState_ITEM_STATE_IN, Location: pantryv1.Location_LOCATION_FRIDGE})
	}
	return out
}

// freeTextItems are the free-text lines the pantry tests add.
var freeTextItems = []string{"2 cups flour, sifted", "1 1/2 tbsp sugar", "3 large eggs", "salt to taste"}

// freeTextHarness is a service whose pantry has eggs and salt in stock and
// flour low, over the Weekly list, Mealie's parse of freeTextItems and its
// create-bulk answer.
func freeTextHarness(t *testing.T) *harness {
	h := newHarness(t)
	// flour is only low: still bought.
	h.pantry.items = append(inStock("eggs", "salt"), &pantryv1.PantryItem{Name: "flour", State: pantryv1.ItemState_ITEM_STATE_LOW})
	h.mealie.on("GET", "/api/households/shopping/lists/"+weeklyID, "shopping_lists__get_one").
		// nlp fails where its model is absent; brute answers.
		on("POST", "/api/parser/ingredients", "parser_ingredients__nlp", "parser_ingredients__brute").
		on("POST", "/api/households/shopping/items/create-bulk", "shopping_items__create_bulk")
	return h
}

// TestAddFreeTextSkipsInStock: asked to skip what is in stock, free-text
// items the pantry has are left off.
func TestAddFreeTextSkipsInStock(t *testing.T) {
	h := freeTextHarness(t)
	res, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
		ListId: weeklyID, Items: freeTextItems, SkipInStock: proto.Bool(true)}))
	if err != nil {
		t.Fatal(err)
	}
	m := res.Msg
	if len(m.GetInPantry()) != 0 {
		t.Fatalf("in_pantry %v with skip_in_stock true", m.GetInPantry())
	}
	var skipped []string
	for _, s := range m.GetSkippedInStock() {
		skipped = append(skipped, s.GetName()+"="+s.GetPantryItem()+"@"+s.GetLocation())
	}
	if !slices.Equal(skipped, []string{"3 large eggs=eggs@fridge", "salt to taste=salt@fridge"}) {
		t.Fatalf("skipped %q", skipped)
	}
	if !slices.Equal(m.GetUnparsed(), []string{"1 1/2 tbsp sugar"}) {
		t.Fatalf("unparsed %q", m.GetUnparsed())
	}
	creates := bodies(h.mealie, "POST", "/api/households/shopping/items/create-bulk")
	if len(creates) != 1 {
		t.Fatalf("%d create calls", len(creates))
	}
	rows := creates[0].([]any)
	if len(rows) != 2 {
		t.Fatalf("rows %v", rows)
	}
	flour := rows[0].(map[string]any)
	if flour["foodId"] != flourID || flour["unitId"] != cupID || flour["quantity"] != 2.0 || flour["note"] != "sifted" || flour["shoppingListId"] != weeklyID {
		t.Fatalf("flour row %v", flour)
	}
	if sugar := rows[1].(map[string]any); sugar["note"] != "1 1/2 tbsp sugar" || sugar["foodId"] != nil {
		t.Fatalf("sugar row %v", sugar)
	}
	if len(m.GetAdded()) != 2 || m.GetListId() != weeklyID {
		t.Fatalf("added %v", m.GetAdded())
	}
}

// TestAddNamedItemsInStockAreBought: an item the user names is their own
// word; with skip_in_stock unset it is bought though the pantry has it,
// and the answer says what the pantry holds (in_pantry), so the model can
// mention it. A name given in have is still skipped, a low one is said.
func TestAddNamedItemsInStockAreBought(t *testing.T) {
	h := freeTextHarness(t)
	res, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
		ListId: weeklyID, Items: freeTextItems, Have: []string{"salt"}}))
	if err != nil {
		t.Fatal(err)
	}
	m := res.Msg
	var said []string
	for _, group := range []struct {
		name  string
		items []*mealplanv1.SkippedItem
	}{{"in_pantry", m.GetInPantry()}, {"skipped", m.GetSkippedInStock()}, {"low", m.GetLowInPantry()}} {
		for _, s := range group.items {
			said = append(said, group.name+":"+s.GetName()+"="+s.GetPantryItem())
		}
	}
	if want := []string{"in_pantry:3 large eggs=eggs", "skipped:salt to taste=salt", "low:2 cups flour, sifted=flour"}; !slices.Equal(said, want) {
		t.Fatalf("said %q, want %q", said, want)
	}
	creates := bodies(h.mealie, "POST", "/api/households/shopping/items/create-bulk")
	if len(creates) != 1 {
		t.Fatalf("%d create calls", len(creates))
	}
	var notes []string
	for _, r := range creates[0].([]any) {
		row := r.(map[string]any)
		notes = append(notes, fmt.Sprint(row["foodId"] != nil, row["note"]))
	}
	// flour (low), sugar (unparsed text) and eggs (in stock, named) are
	// written; salt, said had, is not.
	if len(notes) != 3 {
		t.Fatalf("rows written %q, want flour, sugar and eggs", notes)
	}
}

func TestAddPantryUnreachable(t *testing.T) {
	req := func(skip *bool) *mealplanv1.AddToShoppingListRequest {
		return &mealplanv1.AddToShoppingListRequest{ListId: weeklyID, RecipeSlugs: []string{"fixture-pancakes-deluxe"}, SkipInStock: skip}
	}
	noPantry := func(c *Config) { c.Pantry = nil }
	inProcess := func(c *Config) { c.Pantry, c.PantrySetting = nil, "FOOD_API_BASE and FOOD_API_TOKEN" }
	readyMealie := func(h *harness) {
		h.mealie.on("GET", "/api/households/shopping/lists/"+weeklyID, "shopping_lists__get_one").
			on("GET", "/api/recipes/fixture-pancakes-deluxe", "recipes_get__new_slug_after_put_rename").
			on("POST", "/api/households/shopping/lists/"+weeklyID+"/recipe/"+pancakesID, "shopping_lists__add_recipe")
	}
	// Refused: nothing is added and the sentence says why and what to do.
	for _, tc := range []struct {
		name string
		cfg  func(*Config)
		skip *bool
		want []string
	}{
		{"down, skip_in_stock unset", nil, nil, []string{"cannot check the pantry", "nothing was added", "skip_in_stock=false"}},
		{"down, skip_in_stock=true", nil, proto.Bool(true), []string{"cannot check the pantry", "nothing was added"}},
		{"not configured, skip_in_stock=true", noPantry, proto.Bool(true), []string{"no pantry is configured (set SOUS_PANTRY_URL)", "nothing was added"}},
		{"in-process, skip_in_stock=true names the food API settings", inProcess, proto.Bool(true), []string{"set FOOD_API_BASE and FOOD_API_TOKEN"}},
	} {
		t.Run(tc.name+" fails and adds nothing", func(t *testing.T) {
			h := newHarness(t, func(c *Config) {
				if tc.cfg != nil {
					tc.cfg(c)
				}
			})
			h.pantry.down = true
			_, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(req(tc.skip)))
			wantCode(t, err, connect.CodeUnavailable, tc.want...)
			if n := len(h.mealie.requests()); n != 0 {
				t.Fatalf("%d Mealie requests", n)
			}
		})
	}
	// Answered: everything added, nothing skipped, and a Mealie-only
	// household is told the pantry was not consulted.
	for _, tc := range []struct {
		name string
		cfg  func(*Config)
		skip *bool
		note string
	}{
		{"down, skip_in_stock=false", nil, proto.Bool(false), ""},
		{"not configured, skip_in_stock=false", noPantry, proto.Bool(false), ""},
		{"not configured, skip_in_stock unset", noPantry, nil, "no pantry is configured (set SOUS_PANTRY_URL), so nothing was skipped as in stock"},
		{"in-process, skip_in_stock unset", inProcess, nil, "no pantry is configured (set FOOD_API_BASE and FOOD_API_TOKEN), so nothing was skipped as in stock"},
	} {
		t.Run(tc.name+" adds everything", func(t *testing.T) {
			h := newHarness(t, func(c *Config) {
				if tc.cfg != nil {
					tc.cfg(c)
				}
			})
			h.pantry.down = true
			readyMealie(h)
			res, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(req(tc.skip)))
			if err != nil {
				t.Fatal(err)
			}
			// The recipe goes through Mealie's own endpoint whole: no
			// recipeIngredients override, as nothing was skipped.
			adds := bodies(h.mealie, "POST", "/api/households/shopping/lists/"+weeklyID+"/recipe/"+pancakesID)
			if len(adds) != 1 || len(res.Msg.GetSkippedInStock()) != 0 || h.pantry.calls != 0 {
				t.Fatalf("adds %v skipped %v pantry calls %d", adds, res.Msg.GetSkippedInStock(), h.pantry.calls)
			}
			if body := adds[0].(map[string]any); body["recipeIncrementQuantity"] != 1.0 || body["recipeIngredients"] != nil {
				t.Fatalf("add body %v", body)
			}
			if res.Msg.GetNote() != tc.note {
				t.Errorf("note %q, want %q", res.Msg.GetNote(), tc.note)
			}
		})
	}
}

func TestAddPicksTheOnlyList(t *testing.T) {
	t.Run("two lists: list_id required, lists named", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/shopping/lists", "shopping_lists__list_after")
		_, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			Items: []string{"bread"}, SkipInStock: proto.Bool(false)}))
		wantCode(t, err, connect.CodeInvalidArgument, "list_id is required", "Weekly ("+weeklyID+")", "(unnamed)")
		if h.mealie.writes() != 0 {
			t.Fatal("written")
		}
	})
	t.Run("no list yet: the error says a name creates one", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/shopping/lists", "shopping_lists__list")
		_, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			Items: []string{"bread"}, SkipInStock: proto.Bool(false)}))
		wantCode(t, err, connect.CodeInvalidArgument, "no shopping list yet", "name the list")
		if h.mealie.writes() != 0 {
			t.Fatal("written")
		}
	})
	t.Run("recipe_scale out of range or without recipes", func(t *testing.T) {
		h := newHarness(t)
		for _, m := range []*mealplanv1.AddToShoppingListRequest{
			{ListName: "Weekly", RecipeSlugs: []string{"soup"}, RecipeScale: proto.Float64(0)},
			{ListName: "Weekly", RecipeSlugs: []string{"soup"}, RecipeScale: proto.Float64(50)},
			{ListName: "Weekly", Items: []string{"bread"}, RecipeScale: proto.Float64(2)},
		} {
			_, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(m))
			wantCode(t, err, connect.CodeInvalidArgument, "recipe_scale")
		}
		if len(h.mealie.requests()) != 0 {
			t.Fatal("called Mealie")
		}
	})
	t.Run("nothing to add", func(t *testing.T) {
		h := newHarness(t)
		_, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{}))
		wantCode(t, err, connect.CodeInvalidArgument, "nothing to add")
		if len(h.mealie.requests()) != 0 || h.pantry.calls != 0 {
			t.Fatal("called out")
		}
	})
	t.Run("range over a month", func(t *testing.T) {
		h := newHarness(t)
		_, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			MealPlanRange: &mealplanv1.DateRange{StartDate: "2026-12-01", EndDate: "2027-01-15"}}))
		wantCode(t, err, connect.CodeInvalidArgument, "meal_plan_range")
	})
}
