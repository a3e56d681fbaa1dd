package mealplan

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// IDs from the captures.
const (
	weeklyID = "0751b2e0-d447-4287-8834-975356f4d75e"
	milkRow  = "37eca4a4-0bd9-49ec-8000-8bb940cda6fb"
	breadRow = "dfd51ee5-9c03-4742-a154-2a010486462f"
	butterRw = "1f18ac06-a876-454c-aae8-b0a996941fde"
	flourID  = "c20613de-050e-4228-9bb6-ec224754ffc0"
	cupID    = "69981471-1dfb-405b-9de5-c9d72f0ca869"
)

func inStock(names ...string) []*pantryv1.PantryItem {
	var out []*pantryv1.PantryItem
	for _, n := range names {
		out = append(out, &pantryv1.PantryItem{Name: n, State: pantryv1.ItemState_ITEM_STATE_IN, Location: pantryv1.Location_LOCATION_FRIDGE})
	}
	return out
}

// bodies returns the decoded JSON bodies of the requests to method+path.
func bodies(r *replay, method, path string) []any {
	var out []any
	for _, s := range r.requests() {
		if s.Method == method && s.Path == path {
			var v any
			_ = json.Unmarshal([]byte(s.Body), &v)
			out = append(out, v)
		}
	}
	return out
}

func TestGetShoppingListOverviewCounts(t *testing.T) {
	h := newHarness(t)
	h.mealie.on("GET", "/api/households/shopping/lists", "shopping_lists__list_after").
		on("GET", "/api/households/shopping/items", "shopping_items__list")
	res, err := h.svc.GetShoppingList(context.Background(), connect.NewRequest(&mealplanv1.GetShoppingListRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	items := res.Msg.GetItems()
	if len(items) != 2 || res.Msg.GetList() != nil {
		t.Fatalf("%v", res.Msg)
	}
	var weekly *mealplanv1.ShoppingListSummary
	for _, it := range items {
		if it.GetId() == weeklyID {
			weekly = it
		}
	}
	// testdata/shopping_items__list.json: four rows, none checked yet.
	if weekly == nil || weekly.GetName() != "Weekly" || weekly.GetUncheckedCount() != 4 || weekly.GetCheckedCount() != 0 {
		t.Fatalf("weekly %v", weekly)
	}
}

func TestGetShoppingListOneList(t *testing.T) {
	h := newHarness(t)
	h.mealie.on("GET", "/api/households/shopping/lists/"+weeklyID, "shopping_lists__get_after_add_recipe")
	res, err := h.svc.GetShoppingList(context.Background(), connect.NewRequest(&mealplanv1.GetShoppingListRequest{ListId: weeklyID}))
	if err != nil {
		t.Fatal(err)
	}
	l := res.Msg.GetList()
	if l.GetName() != "Weekly" || len(l.GetGroups()) != 1 || l.GetGroups()[0].GetLabel() != "" {
		t.Fatalf("%v", l)
	}
	var milk *mealplanv1.ShoppingItem
	for _, it := range l.GetGroups()[0].GetItems() {
		if it.GetId() == milkRow {
			milk = it
		}
	}
	// Mealie's own display for this row is "7 ¹/₂": the food is dropped.
	// A cook writes the half as ½.
	if milk.GetDisplay() != "7½ cup whole milk" || milk.GetFood() != "whole milk" || milk.GetQuantity() != 7.5 ||
		!slices.Equal(milk.GetRecipeSlugs(), []string{"fixture-pancakes-deluxe"}) {
		t.Fatalf("milk %v", milk)
	}
}

func TestShapeListGroupsByLabel(t *testing.T) {
	note := func(s string) *string { return &s }
	l := &mealie.ShoppingList{ID: "l", ListItems: []mealie.ShoppingItem{
		{ID: "a", Note: note("bin bags")},
		{ID: "b", Quantity: 2, Food: &mealie.ShoppingFood{Name: "egg"}, Label: &mealie.ShoppingLabel{Name: "Produce"}},
		// Mealie's app groups by the row's own label, not its food's.
		{ID: "f", Quantity: 1, Food: &mealie.ShoppingFood{Name: "kale", Label: &mealie.ShoppingLabel{Name: "Produce"}}},
		{ID: "c", Quantity: 1, Food: &mealie.ShoppingFood{Name: "milk"}, Label: &mealie.ShoppingLabel{Name: "Dairy"}},
		{ID: "d", Note: note("done"), Checked: true},
		{ID: "e", Quantity: 3, Note: note("butter")},
	}}
	l.LabelSettings = []mealie.ShoppingLabelSetting{
		{Position: 1, Label: &mealie.ShoppingLabel{Name: "Dairy"}},
		{Position: 0, Label: &mealie.ShoppingLabel{Name: "Produce"}},
	}
	out := shapeList(l)
	var got []string
	for _, g := range out.GetGroups() {
		s := g.GetLabel() + ":"
		for _, it := range g.GetItems() {
			s += " " + it.GetDisplay()
		}
		got = append(got, s)
	}
	// Counted foods agree with their number: 1 milk, 2 eggs. Sections
	// follow the list's label positions, unlabelled rows first, as in
	// Mealie's app.
	want := []string{": bin bags 1 kale 3 butter", "Produce: 2 eggs", "Dairy: 1 milk"}
	if !slices.Equal(got, want) || out.GetCheckedCount() != 1 {
		t.Fatalf("got %q checked %d", got, out.GetCheckedCount())
	}
}

func TestAddFreeTextSkipsInStock(t *testing.T) {
	h := newHarness(t)
	// flour is only low: still bought.
	h.pantry.items = append(inStock("eggs", "salt"), &pantryv1.PantryItem{Name: "flour", State: pantryv1.ItemState_ITEM_STATE_LOW})
	h.mealie.on("GET", "/api/households/shopping/lists/"+weeklyID, "shopping_lists__get_one").
		// nlp fails where its model is absent; brute answers.
		on("POST", "/api/parser/ingredients", "parser_ingredients__nlp", "parser_ingredients__brute").
		on("POST", "/api/households/shopping/items/create-bulk", "shopping_items__create_bulk")
	res, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
		ListId: weeklyID, Items: []string{"2 cups flour, sifted", "1 1/2 tbsp sugar", "3 large eggs", "salt to taste"}}))
	if err != nil {
		t.Fatal(err)
	}
	m := res.Msg
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

func TestUpdateShoppingItems(t *testing.T) {
	t.Run("per item, failures alone", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/shopping/lists/"+weeklyID, "shopping_lists__get_after_add_recipe").
			on("PUT", "/api/households/shopping/items/"+milkRow, "shopping_items__put_check").
			on("DELETE", "/api/households/shopping/items/"+butterRw, "shopping_items__delete")
		res, err := h.svc.UpdateShoppingItems(context.Background(), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: weeklyID, Check: []string{milkRow, "not-an-item"}, Uncheck: []string{breadRow}, Remove: []string{butterRw}}))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Msg
		if !slices.Equal(m.GetChecked(), []string{milkRow}) || !slices.Equal(m.GetUnchecked(), []string{breadRow}) ||
			!slices.Equal(m.GetRemoved(), []string{butterRw}) || len(m.GetErrors()) != 1 || m.GetErrors()[0].GetItem() != "not-an-item" {
			t.Fatalf("%v", m)
		}
		puts := bodies(h.mealie, "PUT", "/api/households/shopping/items/"+milkRow)
		row := puts[0].(map[string]any)
		// The whole row goes back: Mealie 422s a partial PUT
		// (testdata/shopping_items__put_partial.json).
		if row["checked"] != true || row["shoppingListId"] != weeklyID || row["quantity"] != 7.5 {
			t.Fatalf("PUT %v", row)
		}
		// bread was already unchecked: no write for it.
		if h.mealie.writes() != 2 {
			t.Fatalf("%d writes", h.mealie.writes())
		}
	})
	t.Run("an id in two operations is refused before any request", func(t *testing.T) {
		h := newHarness(t)
		_, err := h.svc.UpdateShoppingItems(context.Background(), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: weeklyID, Check: []string{milkRow}, Remove: []string{milkRow}}))
		wantCode(t, err, connect.CodeInvalidArgument, "both check and remove")
		if len(h.mealie.requests()) != 0 {
			t.Fatal("called Mealie")
		}
	})
}

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
		{"whole milk", "", "", ""},
		{"", "a pinch of salt", "salt", "general"},
		// The pantry's general name covers a recipe's kind of it...
		{"unsalted butter", "", "butter", "general"},
		{"sea salt", "", "salt", "general"},
		{"", "2 eggs, beaten", "Eggs", "plural"},
		// ...but a word inside another is not the food, and a recipe's
		// general name does not claim the pantry's kind.
		{"", "unsalted butter", "butter", "general"},
		{"rice", "", "", ""},
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

// TestListManagementValidation: bad arguments are refused with a sentence
// before Mealie is asked.
func TestListManagementValidation(t *testing.T) {
	long := strings.Repeat("x", MaxListNameChars+1)
	h := newHarness(t)
	ctx := context.Background()
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"create without a name", func() error {
			_, err := h.svc.CreateShoppingList(ctx, connect.NewRequest(&mealplanv1.CreateShoppingListRequest{Name: "  "}))
			return err
		}, "name is required"},
		{"create with a long name", func() error {
			_, err := h.svc.CreateShoppingList(ctx, connect.NewRequest(&mealplanv1.CreateShoppingListRequest{Name: long}))
			return err
		}, "longer than 100"},
		{"rename without a list", func() error {
			_, err := h.svc.RenameShoppingList(ctx, connect.NewRequest(&mealplanv1.RenameShoppingListRequest{Name: "Big shop"}))
			return err
		}, "list_id is required"},
		{"rename without a name", func() error {
			_, err := h.svc.RenameShoppingList(ctx, connect.NewRequest(&mealplanv1.RenameShoppingListRequest{ListId: weeklyID}))
			return err
		}, "name is required"},
		{"delete without the name repeated", func() error {
			_, err := h.svc.DeleteShoppingList(ctx, connect.NewRequest(&mealplanv1.DeleteShoppingListRequest{ListId: weeklyID}))
			return err
		}, "confirm_name is required"},
		{"update with nothing to do", func() error {
			_, err := h.svc.UpdateShoppingItems(ctx, connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: weeklyID}))
			return err
		}, "remove_recipes"},
		{"the same item checked and removed by name", func() error {
			_, err := h.svc.UpdateShoppingItems(ctx, connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: weeklyID, Check: []string{"Milk"}, Remove: []string{"milk"}}))
			return err
		}, "both check and remove"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, tc.call(), connect.CodeInvalidArgument, tc.want)
		})
	}
	if n := len(h.mealie.requests()); n != 0 {
		t.Fatalf("%d Mealie requests", n)
	}
}

// TestBoundsBeforeMealie: list_id, entry_id and recipe_scale past their
// bound in proto/limits are refused with a sentence naming the argument,
// what was given and what is expected, before any request to Mealie or the
// pantry; a value at the bound gets through to Mealie (whose 404 is not the
// point here).
func TestBoundsBeforeMealie(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	id := func(n int) string { return strings.Repeat("i", n) }
	entry := func(n int) string { return strings.Repeat("0", n-1) + "7" }
	overID := fmt.Sprintf("list_id: at most %d characters, got %d", limits.ShoppingListIDChars, limits.ShoppingListIDChars+1)
	for _, tc := range []struct {
		name string
		// call sends the request with the bounded value at its bound
		// (over false) or past it (over true).
		call func(over bool) error
		want string
	}{
		{"get list_id", func(over bool) error {
			_, err := h.svc.GetShoppingList(ctx, connect.NewRequest(&mealplanv1.GetShoppingListRequest{ListId: id(limits.ShoppingListIDChars + b2i(over))}))
			return err
		}, overID},
		{"add list_id", func(over bool) error {
			_, err := h.svc.AddToShoppingList(ctx, connect.NewRequest(&mealplanv1.AddToShoppingListRequest{ListId: id(limits.ShoppingListIDChars + b2i(over)), Items: []string{"bread"}, SkipInStock: proto.Bool(false)}))
			return err
		}, overID},
		{"update list_id", func(over bool) error {
			_, err := h.svc.UpdateShoppingItems(ctx, connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: id(limits.ShoppingListIDChars + b2i(over)), Check: []string{milkRow}}))
			return err
		}, overID},
		{"rename list_id", func(over bool) error {
			_, err := h.svc.RenameShoppingList(ctx, connect.NewRequest(&mealplanv1.RenameShoppingListRequest{ListId: id(limits.ShoppingListIDChars + b2i(over)), Name: "Big shop"}))
			return err
		}, overID},
		{"delete list_id", func(over bool) error {
			_, err := h.svc.DeleteShoppingList(ctx, connect.NewRequest(&mealplanv1.DeleteShoppingListRequest{ListId: id(limits.ShoppingListIDChars + b2i(over)), ConfirmName: "Weekly"}))
			return err
		}, overID},
		{"entry_id", func(over bool) error {
			_, err := h.svc.DeleteMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.DeleteMealPlanEntryRequest{EntryId: entry(limits.EntryIDChars + b2i(over))}))
			return err
		}, fmt.Sprintf("entry_id must be a meal plan entry's integer id, such as \"12\": at most %d characters, got %d", limits.EntryIDChars, limits.EntryIDChars+1)},
		{"recipe_scale", func(over bool) error {
			sc := float64(limits.MaxShoppingScale)
			if over {
				sc += 0.5
			}
			_, err := h.svc.AddToShoppingList(ctx, connect.NewRequest(&mealplanv1.AddToShoppingListRequest{ListId: weeklyID, RecipeSlugs: []string{"pad-thai"}, RecipeScale: &sc, SkipInStock: proto.Bool(false)}))
			return err
		}, fmt.Sprintf("recipe_scale: %v is out of range; give a number from %v to %v", limits.MaxShoppingScale+0.5, limits.MinShoppingScale, limits.MaxShoppingScale)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(h.mealie.requests())
			wantCode(t, tc.call(true), connect.CodeInvalidArgument, tc.want)
			if n := len(h.mealie.requests()); n != before || h.pantry.calls != 0 {
				t.Fatalf("over the bound: %d Mealie requests, %d pantry calls", n-before, h.pantry.calls)
			}
			if err := tc.call(false); err != nil && (strings.Contains(err.Error(), "at most") || strings.Contains(err.Error(), "out of range")) {
				t.Errorf("at the bound: refused with %v", err)
			}
			if len(h.mealie.requests()) == before {
				t.Error("at the bound: nothing reached Mealie")
			}
		})
	}
}

// b2i is 1 for true: one past a bound.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestFindItemsByName: a name given to check, uncheck or remove means every
// row whose food or text it covers, singular or plural, free-text rows
// included; a miss lists the closest rows, not the first ones.
func TestFindItemsByName(t *testing.T) {
	note := func(s string) *string { return &s }
	list := &mealie.ShoppingList{ID: weeklyID, ListItems: []mealie.ShoppingItem{
		{ID: "a", Quantity: 3, Food: &mealie.ShoppingFood{Name: "eggs"}, Display: "3 eggs"},
		{ID: "b", Quantity: 8, Food: &mealie.ShoppingFood{Name: "SimplyNature Organic Cage Free Eggs"}, Display: "8 SimplyNature Organic Cage Free Eggs"},
		{ID: "c", Note: note("Juice of half a lime"), Display: "Juice of half a lime"},
		{ID: "d", Quantity: 1, Food: &mealie.ShoppingFood{Name: "eggplant"}, Display: "1 eggplant"},
		{ID: "e", Quantity: 2, Food: &mealie.ShoppingFood{Name: "onion"}, Display: "2 onion", Checked: true},
		{ID: "f", Note: note("paper towels"), Display: "paper towels"},
		{ID: "g", Note: note("dish soap"), Display: "dish soap"},
	}}
	cases := []struct {
		ref, op string
		want    []string
		err     string
	}{
		{"eggs", "check", []string{"a", "b"}, ""},
		{"Egg", "remove", []string{"a", "b"}, ""},
		{"limes", "check", []string{"c"}, ""},
		{"lime", "check", []string{"c"}, ""},
		// Uncheck reads the checked rows; check of a checked row is done.
		{"onions", "uncheck", []string{"e"}, ""},
		{"onions", "check", []string{"e"}, ""},
		{"a", "check", []string{"a"}, ""},
		// Nothing covered: the closest rows, the eggplant first.
		{"eggplants please", "check", nil, "closest of its 7 rows: 1 eggplant"},
		{"dish soup", "check", nil, "closest of its 7 rows: dish soap"},
	}
	for _, tc := range cases {
		got, err := findItems(list, tc.ref, tc.op)
		var ids []string
		for _, it := range got {
			ids = append(ids, it.ID)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("findItems(%q, %s) = %v, %v; want error with %q", tc.ref, tc.op, ids, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(ids, tc.want) {
			t.Errorf("findItems(%q, %s) = %v, %v; want %v", tc.ref, tc.op, ids, err, tc.want)
		}
	}
	if _, err := findItems(&mealie.ShoppingList{}, "eggs", "check"); err == nil || !strings.Contains(err.Error(), "the list is empty") {
		t.Errorf("empty list: %v", err)
	}
}
