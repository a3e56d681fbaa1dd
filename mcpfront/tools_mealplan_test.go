package mcpfront

import (
	"errors"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
)

// Mealie 3's snack, drink and dessert go to the service by name and read
// back by name; the service's refusal on an older Mealie is relayed.
func TestMealPlanNewerEntryTypes(t *testing.T) {
	snack := &mealplanv1.MealPlanEntry{Id: "40", Date: "2030-04-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_SNACK, Title: "Apple slices"}
	runToolCases(t, []toolCase{
		{
			name: "add a snack", tool: "add_meal_plan_entry", service: mealplanOf, method: "AddMealPlanEntry",
			args:    map[string]any{"date": "2030-04-01", "title": "Apple slices", "entry_type": "snack"},
			reply:   &mealplanv1.AddMealPlanEntryResponse{Entry: snack},
			wantReq: &mealplanv1.AddMealPlanEntryRequest{Date: "2030-04-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_SNACK, Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Apple slices"}},
			want:    []string{`"type":"snack"`},
		},
		{
			name: "a day with a drink and a dessert", tool: "get_meal_plan", service: mealplanOf, method: "GetMealPlan",
			args: map[string]any{"start_date": "2030-04-01", "end_date": "2030-04-01"},
			reply: &mealplanv1.GetMealPlanResponse{Items: []*mealplanv1.MealPlanEntry{
				{Id: "41", Date: "2030-04-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DRINK, Title: "Lemonade"},
				{Id: "42", Date: "2030-04-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DESSERT, Title: "Tart"},
			}},
			wantReq: &mealplanv1.GetMealPlanRequest{StartDate: "2030-04-01", EndDate: "2030-04-01"},
			want:    []string{`"type":"drink","title":"Lemonade"`, `"type":"dessert","title":"Tart"`},
		},
		{
			name: "random desserts on an older Mealie", tool: "random_meal_plan", service: mealplanOf, method: "RandomMealPlan",
			args:    map[string]any{"start_date": "2030-04-01", "end_date": "2030-04-02", "entry_type": "dessert"},
			wantReq: &mealplanv1.RandomMealPlanRequest{StartDate: "2030-04-01", EndDate: "2030-04-02", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DESSERT},
			err:     connect.NewError(connect.CodeInvalidArgument, errors.New("entry_type dessert needs Mealie 3 or newer")),
			isError: true, want: []string{"needs Mealie 3"},
		},
	})
}

// Every name in the schema's enum maps to its own enum value, and back.
func TestEntryTypeNamesRoundTrip(t *testing.T) {
	if len(entryTypeNames) != len(entryTypes) || len(entryTypes) != len(mealplanv1.EntryType_name)-1 {
		t.Fatalf("%d names, %d mapped, %d enum values past unspecified", len(entryTypeNames), len(entryTypes), len(mealplanv1.EntryType_name)-1)
	}
	for _, n := range entryTypeNames {
		if got := entryTypeName(entryTypes[n]); got != n {
			t.Errorf("%s maps to %v, read back as %q", n, entryTypes[n], got)
		}
	}
}

func TestMealPlanTools(t *testing.T) {
	entry := &mealplanv1.MealPlanEntry{Id: "12", Date: "2026-12-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DINNER, RecipeSlug: "pad-thai", RecipeName: "Pad Thai"}
	runToolCases(t, []toolCase{
		{
			name: "get plan", tool: "get_meal_plan", service: mealplanOf, method: "GetMealPlan",
			args: map[string]any{"start_date": "2026-12-01", "end_date": "2026-12-07"}, reply: &mealplanv1.GetMealPlanResponse{Items: []*mealplanv1.MealPlanEntry{entry}},
			wantReq: &mealplanv1.GetMealPlanRequest{StartDate: "2026-12-01", EndDate: "2026-12-07"},
			want:    []string{`{"items":[{"entry_id":"12","date":"2026-12-01","type":"dinner","recipe_slug":"pad-thai","recipe":"Pad Thai"}]}`},
		},
		{
			name: "today echoes the date", tool: "get_todays_meals", service: mealplanOf, method: "GetTodaysMeals",
			reply: &mealplanv1.GetTodaysMealsResponse{Date: "2026-11-30", TimeZone: "Europe/Paris"}, wantReq: &mealplanv1.GetTodaysMealsRequest{},
			want: []string{`"date":"2026-11-30"`, `"items":[]`, "nothing planned today"},
		},
		{
			name: "add a recipe entry", tool: "add_meal_plan_entry", service: mealplanOf, method: "AddMealPlanEntry",
			args: map[string]any{"date": "2026-12-01", "recipe_slug": "pad-thai"}, reply: &mealplanv1.AddMealPlanEntryResponse{Entry: entry},
			wantReq: &mealplanv1.AddMealPlanEntryRequest{Date: "2026-12-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DINNER, Meal: &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: "pad-thai"}},
			want:    []string{`"entry_id":"12"`},
		},
		{
			name: "add needs a slug or a title", tool: "add_meal_plan_entry", service: mealplanOf, method: "AddMealPlanEntry",
			args: map[string]any{"date": "2026-12-01"}, isError: true, want: []string{"recipe_slug"},
		},
		{
			name: "unknown entry type refused", tool: "add_meal_plan_entry", service: mealplanOf, method: "AddMealPlanEntry",
			args: map[string]any{"date": "2026-12-01", "title": "x", "entry_type": "brunch"}, isError: true,
		},
		{
			name: "delete entry", tool: "delete_meal_plan_entry", service: mealplanOf, method: "DeleteMealPlanEntry",
			args: map[string]any{"entry_id": "12"}, reply: &mealplanv1.DeleteMealPlanEntryResponse{Entry: entry},
			wantReq: &mealplanv1.DeleteMealPlanEntryRequest{EntryId: "12"}, want: []string{`"deleted":{"entry_id":"12"`},
		},
		{
			name: "move an entry", tool: "update_meal_plan_entry", service: mealplanOf, method: "UpdateMealPlanEntry",
			args: map[string]any{"entry_id": "12", "date": "2026-12-05"},
			reply: &mealplanv1.UpdateMealPlanEntryResponse{Entry: &mealplanv1.MealPlanEntry{Id: "12", Date: "2026-12-05", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DINNER, RecipeSlug: "pad-thai", RecipeName: "Pad Thai"},
				Changed: []string{"date: '2026-12-01' → '2026-12-05'"}},
			wantReq: &mealplanv1.UpdateMealPlanEntryRequest{EntryId: "12", Date: proto.String("2026-12-05")},
			want:    []string{`{"entry_id":"12","date":"2026-12-05","type":"dinner","recipe_slug":"pad-thai","recipe":"Pad Thai","changed":["date: '2026-12-01' → '2026-12-05'"]}`},
		},
		{
			name: "change the meal to a title, clear the note", tool: "update_meal_plan_entry", service: mealplanOf, method: "UpdateMealPlanEntry",
			args:    map[string]any{"entry_id": "12", "title": "Takeaway", "note": "", "entry_type": "lunch"},
			reply:   &mealplanv1.UpdateMealPlanEntryResponse{Entry: &mealplanv1.MealPlanEntry{Id: "12", Date: "2026-12-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_LUNCH, Title: "Takeaway"}},
			wantReq: &mealplanv1.UpdateMealPlanEntryRequest{EntryId: "12", Title: proto.String("Takeaway"), Note: proto.String(""), EntryType: mealplanv1.EntryType_ENTRY_TYPE_LUNCH},
			want:    []string{`"title":"Takeaway"`, "nothing changed"},
		},
		{
			name: "random plan reports every day", tool: "random_meal_plan", service: mealplanOf, method: "RandomMealPlan",
			args: map[string]any{"start_date": "2026-12-01", "end_date": "2026-12-02", "entry_type": "lunch"},
			reply: &mealplanv1.RandomMealPlanResponse{Planned: 1, Failed: 1, Items: []*mealplanv1.RandomDay{
				{Date: "2026-12-01", Entry: entry}, {Date: "2026-12-02", Message: "no recipe matches the household's rules"},
			}},
			wantReq: &mealplanv1.RandomMealPlanRequest{StartDate: "2026-12-01", EndDate: "2026-12-02", EntryType: mealplanv1.EntryType_ENTRY_TYPE_LUNCH},
			want:    []string{`"planned":1,"failed":1`, `"not_planned":"no recipe matches`},
		},
		{
			name: "a too-long range is the service's InvalidArgument, relayed", tool: "random_meal_plan", service: mealplanOf, method: "RandomMealPlan",
			args:    map[string]any{"start_date": "2026-12-01", "end_date": "2026-12-31"},
			wantReq: &mealplanv1.RandomMealPlanRequest{StartDate: "2026-12-01", EndDate: "2026-12-31", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DINNER},
			err:     connect.NewError(connect.CodeInvalidArgument, errors.New("a random plan covers at most 14 days; ask for a shorter range")),
			isError: true, want: []string{"at most 14 days"},
		},
	})
}

func TestShoppingTools(t *testing.T) {
	runToolCases(t, []toolCase{
		{
			name: "overview", tool: "get_shopping_list", service: mealplanOf, method: "GetShoppingList",
			reply:   &mealplanv1.GetShoppingListResponse{Items: []*mealplanv1.ShoppingListSummary{{Id: "l1", Name: "Groceries", UncheckedCount: 3}, {Id: "l2", Name: "Costco"}}},
			wantReq: &mealplanv1.GetShoppingListRequest{},
			want:    []string{`{"list_id":"l1","name":"Groceries","to_buy":3}`, `{"list_id":"l2","name":"Costco","to_buy":0}`},
		},
		{
			name: "the household's only list shown whole", tool: "get_shopping_list", service: mealplanOf, method: "GetShoppingList",
			reply: &mealplanv1.GetShoppingListResponse{Items: []*mealplanv1.ShoppingListSummary{{Id: "l1", Name: "Groceries", UncheckedCount: 1}},
				List: &mealplanv1.ShoppingList{Id: "l1", Name: "Groceries", Groups: []*mealplanv1.ShoppingLabelGroup{{Items: []*mealplanv1.ShoppingItem{{Id: "i1", Display: "2 onions"}}}}}},
			wantReq: &mealplanv1.GetShoppingListRequest{},
			want:    []string{`{"list_id":"l1","name":"Groceries","sections":[{"section":"other","items":[{"item_id":"i1","item":"2 onions"}]}]}`},
		},
		{
			name: "one list by section", tool: "get_shopping_list", service: mealplanOf, method: "GetShoppingList", args: map[string]any{"list_id": "l1"},
			reply: &mealplanv1.GetShoppingListResponse{List: &mealplanv1.ShoppingList{Id: "l1", Name: "Groceries", CheckedCount: 2, Groups: []*mealplanv1.ShoppingLabelGroup{
				{Label: "Produce", Items: []*mealplanv1.ShoppingItem{{Id: "i1", Display: "2 onions", Food: "onion", RecipeSlugs: []string{"soup"}}}},
			}}},
			wantReq: &mealplanv1.GetShoppingListRequest{ListId: "l1"},
			want:    []string{`"sections":[{"section":"Produce","items":[{"item_id":"i1","item":"2 onions","for":["soup"]}]}]`, `"checked":2`},
		},
		{
			name: "add skips what is in stock by default", tool: "add_to_shopping_list", service: mealplanOf, method: "AddToShoppingList",
			args: map[string]any{"recipe_slugs": []string{"soup"}, "meal_plan_range": map[string]any{"start_date": "2026-12-01", "end_date": "2026-12-07"}},
			reply: &mealplanv1.AddToShoppingListResponse{
				ListId: "l1", Added: []*mealplanv1.ShoppingItem{{Id: "i2", Display: "1 leek"}},
				SkippedInStock: []*mealplanv1.SkippedItem{{Name: "2 eggs", PantryItem: "eggs", Location: "fridge"}},
			},
			// Unset reaches the service unset: it skips when it has a
			// pantry to ask, and says so when it has none.
			wantReq: &mealplanv1.AddToShoppingListRequest{RecipeSlugs: []string{"soup"}, MealPlanRange: &mealplanv1.DateRange{StartDate: "2026-12-01", EndDate: "2026-12-07"}},
			want:    []string{`"skipped_in_stock":[{"name":"2 eggs","have":"eggs","location":"fridge"}]`},
		},
		{
			name: "add says when no pantry was consulted", tool: "add_to_shopping_list", service: mealplanOf, method: "AddToShoppingList",
			args:    map[string]any{"items": []string{"milk"}},
			reply:   &mealplanv1.AddToShoppingListResponse{ListId: "l1", Added: []*mealplanv1.ShoppingItem{{Id: "i3", Display: "milk"}}, Note: "no pantry is configured (set FOOD_API_BASE and FOOD_API_TOKEN), so nothing was skipped as in stock"},
			wantReq: &mealplanv1.AddToShoppingListRequest{Items: []string{"milk"}},
			want:    []string{`"note":"no pantry is configured (set FOOD_API_BASE and FOOD_API_TOKEN), so nothing was skipped as in stock"`},
		},
		{
			name: "add needs something to add", tool: "add_to_shopping_list", service: mealplanOf, method: "AddToShoppingList",
			args: map[string]any{}, isError: true,
		},
		{
			name: "check and remove", tool: "update_shopping_items", service: mealplanOf, method: "UpdateShoppingItems",
			args:    map[string]any{"list_id": "l1", "check": []string{"i1"}, "remove": []string{"i9"}},
			reply:   &mealplanv1.UpdateShoppingItemsResponse{Checked: []string{"i1"}, Errors: []*mealplanv1.ItemError{{Item: "i9", Message: "item not on this list"}}},
			wantReq: &mealplanv1.UpdateShoppingItemsRequest{ListId: "l1", Check: []string{"i1"}, Remove: []string{"i9"}},
			want:    []string{`{"checked":["i1"],"errors":["i9: item not on this list"]}`},
		},
		{
			name: "check by name, remove checked, take a recipe off", tool: "update_shopping_items", service: mealplanOf, method: "UpdateShoppingItems",
			args: map[string]any{"list_id": "0751b2e0-d447-4287-8834-975356f4d75e", "check": []string{"onions"}, "remove_checked": true, "remove_recipes": []string{"soup"}},
			reply: &mealplanv1.UpdateShoppingItemsResponse{Checked: []string{"i1"}, RecipesRemoved: []string{"soup"},
				List: &mealplanv1.ShoppingList{Id: "0751b2e0-d447-4287-8834-975356f4d75e", Name: "Weekly"}},
			wantReq: &mealplanv1.UpdateShoppingItemsRequest{ListId: "0751b2e0-d447-4287-8834-975356f4d75e", Check: []string{"onions"}, RemoveChecked: true, RemoveRecipes: []string{"soup"}},
			want:    []string{`"recipes_removed":["soup"]`, `"list":{"list_id":"0751b2e0-d447-4287-8834-975356f4d75e","name":"Weekly","to_buy":0,"checked":0},"hint":"get_shopping_list shows the whole list"`},
			notWant: []string{`"sections"`},
		},
		{
			name: "have is passed on; low, offers and a reapplied merge are answered", tool: "add_to_shopping_list", service: mealplanOf, method: "AddToShoppingList",
			args: map[string]any{"list_id": "l1", "recipe_slugs": []string{"dal"}, "have": []string{"butter", "eggs"}},
			reply: &mealplanv1.AddToShoppingListResponse{ListId: "l1",
				SkippedInStock: []*mealplanv1.SkippedItem{{Name: "2 eggs", PantryItem: "eggs", Have: true}, {Name: "1 tbsp butter", PantryItem: "butter", How: "general", Have: true}},
				LowInPantry:    []*mealplanv1.SkippedItem{{Name: "250 g red lentils", PantryItem: "red lentils", Location: "cupboard"}},
				PantryOffers:   []*mealplanv1.PantryOffer{{Name: "eggs", PantryItem: "eggs", State: "out", Location: "fridge"}, {Name: "butter"}},
				Merged:         []*mealplanv1.MergedItem{{Name: "1 can coconut milk", Item: &mealplanv1.ShoppingItem{Display: "2 cans coconut milk", RecipeSlugs: []string{"dal", "curry"}}}},
				Reapplied:      []*mealplanv1.Reapplied{{Name: "1 can coconut milk", Item: &mealplanv1.ShoppingItem{Display: "3 cans coconut milk"}, Message: "another writer saved the row"}}},
			wantReq: &mealplanv1.AddToShoppingListRequest{ListName: "l1", RecipeSlugs: []string{"dal"}, Have: []string{"butter", "eggs"}},
			want: []string{`"merged":[{"name":"1 can coconut milk","now":"2 cans coconut milk","for":["dal","curry"]}]`,
				`"skipped_in_stock":[{"name":"2 eggs","have":"eggs","you_said":true},{"name":"1 tbsp butter","have":"butter","read_as":"general","you_said":true}]`,
				`"added_though_low":[{"name":"250 g red lentils","have":"red lentils","location":"cupboard"}]`,
				`"pantry_differs":[{"name":"eggs","pantry":"eggs is out"},{"name":"butter","pantry":"not in the pantry"}]`,
				`"reapplied":[{"name":"1 can coconut milk","now":"3 cans coconut milk","why":"another writer saved the row"}]`,
				`"note":"the pantry was not changed: offer set_item_state or add_to_pantry"`},
		},
		{
			name: "check all except two", tool: "update_shopping_items", service: mealplanOf, method: "UpdateShoppingItems",
			args: map[string]any{"list_id": "0751b2e0-d447-4287-8834-975356f4d75e", "check_all_except": []string{"feta", "spinach"}},
			reply: &mealplanv1.UpdateShoppingItemsResponse{Checked: []string{"i1", "i2", "i3"},
				List: &mealplanv1.ShoppingList{Id: "0751b2e0-d447-4287-8834-975356f4d75e", Name: "Weekly", CheckedCount: 3, Groups: []*mealplanv1.ShoppingLabelGroup{
					{Label: "Dairy", Items: []*mealplanv1.ShoppingItem{{Id: "i4", Display: "200 g feta"}}}, {Label: "Produce", Items: []*mealplanv1.ShoppingItem{{Id: "i5", Display: "1 bag spinach"}}}}}},
			wantReq: &mealplanv1.UpdateShoppingItemsRequest{ListId: "0751b2e0-d447-4287-8834-975356f4d75e", CheckAllExcept: &mealplanv1.ItemRefs{Items: []string{"feta", "spinach"}}},
			want:    []string{`"checked_now":3,"left_to_buy":["200 g feta","1 bag spinach"]`},
			notWant: []string{`"checked":["i1"`},
		},
		{
			name: "check all, none excepted", tool: "update_shopping_items", service: mealplanOf, method: "UpdateShoppingItems",
			args:    map[string]any{"list_id": "0751b2e0-d447-4287-8834-975356f4d75e", "check_all_except": []string{}},
			reply:   &mealplanv1.UpdateShoppingItemsResponse{Checked: []string{"i1"}},
			wantReq: &mealplanv1.UpdateShoppingItemsRequest{ListId: "0751b2e0-d447-4287-8834-975356f4d75e", CheckAllExcept: &mealplanv1.ItemRefs{}},
			want:    []string{`"checked_now":1`},
		},
		{
			name: "a list named but missing is created", tool: "add_to_shopping_list", service: mealplanOf, method: "AddToShoppingList",
			args: map[string]any{"list_id": "Week of Dec 7", "recipe_slugs": []string{"soup"}, "recipe_scale": 2, "skip_in_stock": false},
			reply: &mealplanv1.AddToShoppingListResponse{ListId: "l2", ListName: "Week of Dec 7", CreatedList: true, RecipesAdded: []string{"soup"},
				Added: []*mealplanv1.ShoppingItem{{Id: "i4", Display: "4 leeks", RecipeSlugs: []string{"soup"}}}},
			// A name goes to the service as list_name: it matches case-
			// insensitively or creates the list.
			wantReq: &mealplanv1.AddToShoppingListRequest{ListName: "Week of Dec 7", RecipeSlugs: []string{"soup"}, RecipeScale: proto.Float64(2), SkipInStock: proto.Bool(false)},
			want:    []string{`"list_name":"Week of Dec 7","created_list":true`},
		},
		{
			name: "a recipe already on the list adds nothing and says so", tool: "add_to_shopping_list", service: mealplanOf, method: "AddToShoppingList",
			args:    map[string]any{"list_id": "Weekly", "recipe_slugs": []string{"lasagna"}},
			reply:   &mealplanv1.AddToShoppingListResponse{ListId: "l1", ListName: "Weekly", AlreadyOnList: []string{"lasagna"}},
			wantReq: &mealplanv1.AddToShoppingListRequest{ListName: "Weekly", RecipeSlugs: []string{"lasagna"}},
			want:    []string{`"already_on_list":["lasagna"]`, `"note":"lasagna already on the list: nothing added for them (add_again adds more)"`},
		},
		{
			name: "create a list", tool: "manage_shopping_lists", service: mealplanOf, method: "CreateShoppingList",
			args:    map[string]any{"action": "create", "name": "Week of Dec 7"},
			reply:   &mealplanv1.CreateShoppingListResponse{List: &mealplanv1.ShoppingListSummary{Id: "l2", Name: "Week of Dec 7"}},
			wantReq: &mealplanv1.CreateShoppingListRequest{Name: "Week of Dec 7"},
			want:    []string{`{"list_id":"l2","name":"Week of Dec 7"}`},
		},
		{
			name: "delete a list", tool: "manage_shopping_lists", service: mealplanOf, method: "DeleteShoppingList",
			args:    map[string]any{"action": "delete", "list_id": "0751b2e0-d447-4287-8834-975356f4d75e", "confirm_name": "weekly"},
			reply:   &mealplanv1.DeleteShoppingListResponse{ListId: "0751b2e0-d447-4287-8834-975356f4d75e", Name: "Weekly", ItemCount: 3},
			wantReq: &mealplanv1.DeleteShoppingListRequest{ListId: "0751b2e0-d447-4287-8834-975356f4d75e", ConfirmName: "weekly"},
			want:    []string{`"deleted":true,"items_deleted":3`},
		},
		{
			name: "a rename answers the name and the counts, not the items", tool: "manage_shopping_lists", service: mealplanOf, method: "RenameShoppingList",
			args: map[string]any{"action": "rename", "list_id": "0751b2e0-d447-4287-8834-975356f4d75e", "name": "Big shop"},
			reply: &mealplanv1.RenameShoppingListResponse{List: &mealplanv1.ShoppingList{Id: "0751b2e0-d447-4287-8834-975356f4d75e", Name: "Big shop", CheckedCount: 1, Groups: []*mealplanv1.ShoppingLabelGroup{
				{Label: "Produce", Items: []*mealplanv1.ShoppingItem{{Id: "i1", Display: "2 onions"}, {Id: "i2", Display: "1 leek"}}},
			}}},
			wantReq: &mealplanv1.RenameShoppingListRequest{ListId: "0751b2e0-d447-4287-8834-975356f4d75e", Name: "Big shop"},
			want:    []string{`{"list_id":"0751b2e0-d447-4287-8834-975356f4d75e","name":"Big shop","to_buy":2,"checked":1,"hint":"renamed; get_shopping_list shows the items"}`},
			notWant: []string{"onions", "sections"},
		},
		{
			name: "rename needs a list", tool: "manage_shopping_lists", service: mealplanOf, method: "RenameShoppingList",
			args: map[string]any{"action": "rename", "name": "Big shop"}, isError: true,
		},
	})
}
