package mcpfront

import (
	"errors"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/google/go-cmp/cmp"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// toolCase is one call of one tool against the fakes: what the service is
// asked, and what the model reads back.
type toolCase struct {
	name    string
	tool    string
	args    map[string]any
	service func(*fakes) *recorder
	method  string
	reply   proto.Message
	err     error // the service's answer instead of reply
	stream  []proto.Message
	wantReq proto.Message // nil: the service must not be called
	want    []string      // substrings of the answer
	notWant []string
	isError bool
}

func recipesOf(f *fakes) *recorder  { return f.recipes }
func mealplanOf(f *fakes) *recorder { return f.mealplan }
func libraryOf(f *fakes) *recorder  { return f.library }
func pantryOf(f *fakes) *recorder   { return f.pantry }

func runToolCases(t *testing.T, cases []toolCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakes(t)
			rec := tc.service(f)
			if tc.reply != nil {
				rec.replies[tc.method] = tc.reply
			}
			if tc.err != nil {
				rec.errs[tc.method] = tc.err
			}
			if tc.stream != nil {
				rec.streams[tc.method] = tc.stream
			}
			cs := session(t, f.backends, Options{ImageDir: t.TempDir()}, nil)
			text, isErr := call(t, cs, tc.tool, tc.args)
			if isErr != tc.isError {
				t.Fatalf("isError = %v, want %v; answer %s", isErr, tc.isError, text)
			}
			got := rec.last(tc.method)
			if tc.wantReq == nil {
				if n := rec.calls(); n != 0 {
					t.Errorf("the service was called %d times; want none", n)
				}
			} else if diff := cmp.Diff(tc.wantReq, got, protocmp.Transform()); diff != "" {
				t.Errorf("%s request (-want +got):\n%s", tc.method, diff)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("answer lacks %q: %s", w, text)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(text, w) {
					t.Errorf("answer has %q: %s", w, text)
				}
			}
		})
	}
}

func TestRecipeTools(t *testing.T) {
	runToolCases(t, []toolCase{
		{
			name: "search with filters", tool: "search_recipes", service: recipesOf, method: "SearchRecipes",
			args: map[string]any{"query": "soup", "tags": []string{"Vegan"}, "require_all": true, "fields": []string{"last_made"}, "limit": 2},
			reply: &recipesv1.SearchRecipesResponse{
				Items: []*recipesv1.RecipeSummary{{Slug: "leek-soup", LastMade: "2026-01-02"}, {Slug: "pea-soup"}}, Page: 1, Limit: 2, Total: 7, TotalPages: 4,
			},
			wantReq: &recipesv1.SearchRecipesRequest{Query: "soup", Tags: []string{"Vegan"}, RequireAll: true, Fields: []string{"last_made"}, Page: proto.Int32(1), Limit: proto.Int32(2)},
			want:    []string{`{"items":[{"slug":"leek-soup","last_made":"2026-01-02"},{"slug":"pea-soup"}],"hint":"showing 2 of 7 — pass page=2"}`},
		},
		{
			name: "search finds nothing: ordinary content", tool: "search_recipes", service: recipesOf, method: "SearchRecipes",
			args: map[string]any{"query": "zzz"}, reply: &recipesv1.SearchRecipesResponse{Page: 1},
			wantReq: &recipesv1.SearchRecipesRequest{Query: "zzz", Page: proto.Int32(1), Limit: proto.Int32(20)},
			want:    []string{`"items":[]`, "no recipes matched"},
		},
		{
			name: "search limit below 1 is refused before any call", tool: "search_recipes", service: recipesOf, method: "SearchRecipes",
			args: map[string]any{"limit": 0}, isError: true, want: []string{"limit 0 is too small"},
		},
		{
			name: "get_recipe shapes the view", tool: "get_recipe", service: recipesOf, method: "GetRecipe",
			args: map[string]any{"slug": "pad-thai"},
			reply: &recipesv1.GetRecipeResponse{Recipe: &recipesv1.Recipe{
				Slug: "pad-thai", Name: "Pad Thai", Id: "uuid-1",
				Ingredients: []*recipesv1.Ingredient{{Display: "200 g rice noodles", Title: "Noodles", FoodId: "f1"}},
				Notes:       []*recipesv1.Note{{Title: "Tip", Text: "soak first"}}, LastMade: "2026-03-01",
			}},
			wantReq: &recipesv1.GetRecipeRequest{Slug: "pad-thai"},
			want:    []string{`"ingredients":["[Noodles] 200 g rice noodles"]`, `"notes":["Tip: soak first"]`, `"last_made":"2026-03-01"`},
			notWant: []string{"uuid-1", "f1"},
		},
		{
			name: "suggest from pantry", tool: "suggest_recipes", service: recipesOf, method: "SuggestRecipes",
			args: map[string]any{"from_pantry": true, "max_missing_foods": 0},
			reply: &recipesv1.SuggestRecipesResponse{
				Items:                []*recipesv1.Suggestion{{Recipe: &recipesv1.RecipeSummary{Slug: "omelette", Name: "Omelette"}, MissingTools: []string{"pan"}}},
				UnmatchedPantryItems: []string{"gochujang"},
			},
			wantReq: &recipesv1.SuggestRecipesRequest{FromPantry: true, MaxMissingFoods: proto.Int32(0), Limit: 10},
			want:    []string{`"slug":"omelette"`, `"missing_tools":["pan"]`, `"unmatched_pantry_items":["gochujang"]`},
		},
		{
			name: "create with mixed ingredients", tool: "create_recipe", service: recipesOf, method: "CreateRecipe",
			args: map[string]any{
				"name":        "Toast",
				"ingredients": []any{"2 slices bread", map[string]any{"quantity": 1, "unit": "tbsp", "food": "butter"}},
				"tags":        []string{"Quick"},
			},
			reply: &recipesv1.CreateRecipeResponse{Slug: "toast", Name: "Toast", Created: &recipesv1.TaxonomyCreated{Tags: []string{"Quick"}}},
			wantReq: &recipesv1.CreateRecipeRequest{Name: "Toast", Tags: []string{"Quick"}, Ingredients: []*recipesv1.IngredientInput{
				{Kind: &recipesv1.IngredientInput_Text{Text: "2 slices bread"}},
				{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(1), Unit: "tbsp", Food: "butter"}}},
			}},
			want: []string{`{"slug":"toast","name":"Toast","created":{"tags":["Quick"]}}`},
		},
		{
			name: "update merges by default and reports a rename", tool: "update_recipe", service: recipesOf, method: "UpdateRecipe",
			args:    map[string]any{"slug": "toast", "name": "Better Toast", "tags": []string{"Breakfast"}, "instructions": []string{"Toast it."}},
			reply:   &recipesv1.UpdateRecipeResponse{Slug: "better-toast", RenamedFrom: "toast"},
			wantReq: &recipesv1.UpdateRecipeRequest{Slug: "toast", Name: proto.String("Better Toast"), Tags: []string{"Breakfast"}, Instructions: []string{"Toast it."}, SetInstructions: true},
			want:    []string{`"slug":"better-toast"`, `"renamed_from":"toast"`},
		},
		{
			name: "set image from URL", tool: "set_recipe_image", service: recipesOf, method: "SetRecipeImageFromURL",
			args: map[string]any{"slug": "toast", "url": "https://img.example/t.jpg"}, reply: &recipesv1.SetRecipeImageFromURLResponse{Slug: "toast"},
			wantReq: &recipesv1.SetRecipeImageFromURLRequest{Slug: "toast", Url: "https://img.example/t.jpg"}, want: []string{`"slug":"toast"`},
		},
		{
			name: "upload refuses a path outside the directory", tool: "upload_recipe_image", service: recipesOf, method: "UploadRecipeImage",
			args: map[string]any{"slug": "toast", "path": "../etc/passwd.png"}, isError: true,
		},
		{
			name: "bulk tag", tool: "bulk_tag_recipes", service: recipesOf, method: "BulkTagRecipes",
			args:    map[string]any{"slugs": []string{"a", "b"}, "categories": []string{"Dinner"}},
			reply:   &recipesv1.BulkTagRecipesResponse{Slugs: []string{"a"}, NotFound: []string{"b"}},
			wantReq: &recipesv1.BulkTagRecipesRequest{Slugs: []string{"a", "b"}, Categories: []string{"Dinner"}},
			want:    []string{`{"tagged":["a"],"not_found":["b"]}`},
		},
		{
			name: "delete needs a matching confirm_slug, checked before any call", tool: "delete_recipe", service: recipesOf, method: "DeleteRecipe",
			args: map[string]any{"slug": "toast", "confirm_slug": "toasts"}, isError: true, want: []string{"nothing was deleted"},
		},
		{
			name: "delete reports the bulk fallback", tool: "delete_recipe", service: recipesOf, method: "DeleteRecipe",
			args: map[string]any{"slug": "toast", "confirm_slug": "toast"}, reply: &recipesv1.DeleteRecipeResponse{Slug: "toast", UsedBulkFallback: true},
			wantReq: &recipesv1.DeleteRecipeRequest{Slug: "toast", ConfirmSlug: "toast"}, want: []string{`"deleted":"toast"`, "bulk delete"},
		},
		{
			name: "import flags a failed scrape", tool: "import_recipe_from_url", service: recipesOf, method: "ImportRecipeFromURL",
			args:    map[string]any{"url": "https://food.example/r", "include_tags": false},
			reply:   &recipesv1.ImportRecipeFromURLResponse{Slug: "no-recipe", ScrapeFailed: true},
			wantReq: &recipesv1.ImportRecipeFromURLRequest{Url: "https://food.example/r", IncludeTags: proto.Bool(false), IncludeCategories: proto.Bool(true)},
			want:    []string{`"scrape_failed":true`, "placeholder"},
		},
		{
			name: "mark made", tool: "mark_recipe_made", service: recipesOf, method: "MarkRecipeMade",
			args: map[string]any{"slug": "toast", "date": "2026-11-29"}, reply: &recipesv1.MarkRecipeMadeResponse{Slug: "toast", Date: "2026-11-29", EventId: "e1"},
			wantReq: &recipesv1.MarkRecipeMadeRequest{Slug: "toast", Date: "2026-11-29"}, want: []string{`{"slug":"toast","last_made":"2026-11-29"}`},
		},
		{
			name: "mark made refuses a non-ISO date before any call", tool: "mark_recipe_made", service: recipesOf, method: "MarkRecipeMade",
			args: map[string]any{"slug": "toast", "date": "29/11/2026"}, isError: true,
		},
		{
			name: "a Connect error becomes one plain sentence", tool: "get_recipe", service: recipesOf, method: "GetRecipe",
			args: map[string]any{"slug": "nope"}, wantReq: &recipesv1.GetRecipeRequest{Slug: "nope"}, isError: true,
			err:  connect.NewError(connect.CodeUnavailable, errors.New("Mealie unreachable at http://mealie:9000: connection refused")),
			want: []string{"Mealie unreachable at http://mealie:9000: connection refused"}, notWant: []string{"unavailable:"},
		},
	})
}

func TestTaxonomyTools(t *testing.T) {
	runToolCases(t, []toolCase{
		{
			name: "parse with a parser choice", tool: "parse_ingredients", service: recipesOf, method: "ParseIngredients",
			args: map[string]any{"lines": []string{"2 cups flour"}, "parser": "brute"},
			reply: &recipesv1.ParseIngredientsResponse{Items: []*recipesv1.ParsedIngredient{{
				Input: "2 cups flour", Ingredient: &recipesv1.Ingredient{Quantity: proto.Float64(2), Unit: "cup", Food: "flour", UnitId: "u1"},
			}}},
			wantReq: &recipesv1.ParseIngredientsRequest{Lines: []string{"2 cups flour"}, Parser: recipesv1.Parser_PARSER_BRUTE},
			want:    []string{`{"input":"2 cups flour","quantity":2,"unit":"cup","food":"flour","unknown":["food"]}`},
		},
		{
			name: "list taxonomy with paging", tool: "manage_taxonomy", service: recipesOf, method: "ListTaxonomy",
			args:    map[string]any{"resource": "foods", "search": "on"},
			reply:   &recipesv1.ListTaxonomyResponse{Items: []*recipesv1.TaxonomyItem{{Id: "f1", Name: "onion"}}, Page: 1, Total: 51, TotalPages: 2},
			wantReq: &recipesv1.ListTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS, Search: "on", Page: 1},
			want:    []string{`"items":[{"item_id":"f1","name":"onion"}]`, "pass page=2"},
		},
		{
			name: "merge foods", tool: "manage_taxonomy", service: recipesOf, method: "MergeTaxonomy",
			args:    map[string]any{"resource": "foods", "action": "merge", "item_id": "f2", "merge_into": "f1"},
			reply:   &recipesv1.MergeTaxonomyResponse{Merged: []string{"f2"}, Into: &recipesv1.TaxonomyItem{Id: "f1", Name: "onion"}},
			wantReq: &recipesv1.MergeTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS, FromIds: []string{"f2"}, IntoId: "f1"},
			want:    []string{`"merged":["f2"]`},
		},
		{
			name: "batch rename with one failure", tool: "manage_taxonomy", service: recipesOf, method: "UpdateTaxonomy",
			args: map[string]any{"resource": "tags", "action": "update", "items": []any{map[string]any{"id": "t1", "name": "Vegan"}, map[string]any{"id": "t2", "name": "Quick"}}},
			reply: &recipesv1.UpdateTaxonomyResponse{
				Items: []*recipesv1.TaxonomyItem{{Id: "t1", Name: "Vegan", Slug: "vegan"}}, Errors: []*recipesv1.ItemError{{Index: 1, Item: "t2", Message: "tag not found"}},
			},
			wantReq: &recipesv1.UpdateTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TAGS, Items: []*recipesv1.TaxonomyWrite{{Id: "t1", Name: proto.String("Vegan")}, {Id: "t2", Name: proto.String("Quick")}}},
			want:    []string{`"errors":["t2: tag not found"]`},
		},
		{
			name: "delete with force", tool: "manage_taxonomy", service: recipesOf, method: "DeleteTaxonomy",
			args: map[string]any{"resource": "units", "action": "delete", "item_id": "u1", "force": true}, reply: &recipesv1.DeleteTaxonomyResponse{Deleted: []string{"u1"}},
			wantReq: &recipesv1.DeleteTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_UNITS, Ids: []string{"u1"}, Force: true},
			want:    []string{`{"deleted":["u1"]}`},
		},
		{
			name: "create one by name", tool: "manage_taxonomy", service: recipesOf, method: "CreateTaxonomy",
			args: map[string]any{"resource": "tools", "action": "create", "name": "Wok"}, reply: &recipesv1.CreateTaxonomyResponse{Items: []*recipesv1.TaxonomyItem{{Id: "w", Name: "Wok", Slug: "wok"}}},
			wantReq: &recipesv1.CreateTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TOOLS, Items: []*recipesv1.TaxonomyWrite{{Name: proto.String("Wok")}}},
			want:    []string{`"slug":"wok"`},
		},
		{
			name: "unknown resource refused by the schema", tool: "manage_taxonomy", service: recipesOf, method: "ListTaxonomy",
			args: map[string]any{"resource": "spices"}, isError: true,
		},
	})
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
			reply:   &mealplanv1.GetShoppingListResponse{Items: []*mealplanv1.ShoppingListSummary{{Id: "l1", Name: "Groceries", UncheckedCount: 3}}},
			wantReq: &mealplanv1.GetShoppingListRequest{},
			want:    []string{`{"list_id":"l1","name":"Groceries","to_buy":3}`},
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

func TestLibraryTools(t *testing.T) {
	cb := &libraryv1.Cookbook{Id: "c1", Slug: "weeknight", Name: "Weeknight", QueryFilter: `tags.name IN ["Quick"]`, Position: 1}
	runToolCases(t, []toolCase{
		{
			name: "list cookbooks", tool: "list_cookbooks", service: libraryOf, method: "ListCookbooks",
			reply: &libraryv1.ListCookbooksResponse{Items: []*libraryv1.Cookbook{cb}}, wantReq: &libraryv1.ListCookbooksRequest{},
			want: []string{`{"items":[{"cookbook_id":"c1","slug":"weeknight","name":"Weeknight","query_filter":"tags.name IN [\"Quick\"]"}]}`},
		},
		{
			name: "cookbook recipes paged", tool: "get_cookbook_recipes", service: libraryOf, method: "GetCookbookRecipes",
			args:    map[string]any{"cookbook": "weeknight", "page": 2},
			reply:   &libraryv1.GetCookbookRecipesResponse{Items: []*recipesv1.RecipeSummary{{Slug: "toast", Name: "Toast"}}, Page: 2, Limit: 20, Total: 21, TotalPages: 2},
			wantReq: &libraryv1.GetCookbookRecipesRequest{Cookbook: "weeknight", Page: 2, Limit: 20},
			want:    []string{`"slug":"toast"`, "page 2 of 2, the last"},
		},
		{
			name: "create cookbook", tool: "create_cookbook", service: libraryOf, method: "CreateCookbook",
			args: map[string]any{"name": "Weeknight", "tags": []string{"quick"}}, reply: &libraryv1.CreateCookbookResponse{Cookbook: cb},
			wantReq: &libraryv1.CreateCookbookRequest{Name: "Weeknight", Tags: []string{"quick"}}, want: []string{`"cookbook_id":"c1"`},
		},
		{
			name: "update cookbook clears the filter", tool: "update_cookbook", service: libraryOf, method: "UpdateCookbook",
			args: map[string]any{"cookbook_id": "c1", "query_filter": ""}, reply: &libraryv1.UpdateCookbookResponse{Cookbook: cb},
			wantReq: &libraryv1.UpdateCookbookRequest{CookbookId: "c1", QueryFilter: proto.String("")}, want: []string{`"cookbook_id":"c1"`},
		},
		{
			name: "delete cookbook", tool: "delete_cookbook", service: libraryOf, method: "DeleteCookbook",
			args: map[string]any{"cookbook_id": "c1"}, reply: &libraryv1.DeleteCookbookResponse{Cookbook: cb},
			wantReq: &libraryv1.DeleteCookbookRequest{CookbookId: "c1"}, want: []string{`"deleted":{"cookbook_id":"c1"`},
		},
		{
			name: "stats say what they truncated", tool: "library_stats", service: libraryOf, method: "LibraryStats",
			args: map[string]any{"resource": "foods", "max_recipes": 2},
			stream: []proto.Message{
				&libraryv1.LibraryStatsResponse{Event: &libraryv1.LibraryStatsResponse_Progress{Progress: &libraryv1.ReportProgress{Total: 2}}},
				&libraryv1.LibraryStatsResponse{Event: &libraryv1.LibraryStatsResponse_Result{Result: &libraryv1.LibraryStatsResult{
					Items: []*libraryv1.UsageCount{{Name: "onion", Id: "f1", RecipeCount: 2}}, Unused: []string{"kale"}, Scanned: 2, LibraryTotal: 5,
					Truncated: "scanned 2 of 5 — raise max_recipes",
				}}},
			},
			wantReq: &libraryv1.LibraryStatsRequest{Resource: libraryv1.StatsResource_STATS_RESOURCE_FOODS, IncludeUnused: proto.Bool(true), Top: 50, MaxRecipes: 2},
			want:    []string{`"items":[{"name":"onion","recipes":2}]`, `"unused":["kale"]`, `"truncated":"scanned 2 of 5 — raise max_recipes"`},
		},
		{
			name: "duplicates", tool: "find_duplicate_recipes", service: libraryOf, method: "FindDuplicateRecipes",
			stream: []proto.Message{&libraryv1.FindDuplicateRecipesResponse{Event: &libraryv1.FindDuplicateRecipesResponse_Result{Result: &libraryv1.FindDuplicateRecipesResult{
				Items: []*libraryv1.DuplicateGroup{{Key: "pad thai", Recipes: []*libraryv1.RecipeRef{{Slug: "pad-thai"}, {Slug: "pad-thai-1"}}}}, Scanned: 3, LibraryTotal: 3,
			}}}},
			wantReq: &libraryv1.FindDuplicateRecipesRequest{MaxRecipes: 2000},
			want:    []string{`{"name":"pad thai","slugs":["pad-thai","pad-thai-1"]}`},
		},
		{
			name: "links", tool: "check_recipe_links", service: libraryOf, method: "CheckRecipeLinks",
			args: map[string]any{"check_images": false},
			stream: []proto.Message{&libraryv1.CheckRecipeLinksResponse{Event: &libraryv1.CheckRecipeLinksResponse_Result{Result: &libraryv1.CheckRecipeLinksResult{
				Items:  []*libraryv1.LinkResult{{Slug: "toast", Url: "https://gone.example/t", Status: libraryv1.LinkStatus_LINK_STATUS_BROKEN, HttpStatus: 404}},
				Counts: &libraryv1.LinkCounts{Ok: 4, Broken: 1}, Scanned: 5, LibraryTotal: 5,
			}}}},
			wantReq: &libraryv1.CheckRecipeLinksRequest{CheckSources: proto.Bool(true), CheckImages: proto.Bool(false), MaxRecipes: 200},
			want:    []string{`"status":"broken","http_status":404`, `"counts":{"broken":1,"ok":4}`},
		},
		{
			name: "a stream without a result is an error", tool: "find_duplicate_recipes", service: libraryOf, method: "FindDuplicateRecipes",
			stream:  []proto.Message{&libraryv1.FindDuplicateRecipesResponse{Event: &libraryv1.FindDuplicateRecipesResponse_Progress{Progress: &libraryv1.ReportProgress{Total: 1}}}},
			wantReq: &libraryv1.FindDuplicateRecipesRequest{MaxRecipes: 2000}, isError: true, want: []string{"without a result"},
		},
	})
}

func TestPantryTools(t *testing.T) {
	runToolCases(t, []toolCase{
		{
			name: "pantry by location", tool: "get_pantry", service: pantryOf, method: "GetPantry",
			args: map[string]any{"location": "fridge"},
			reply: &pantryv1.GetPantryResponse{
				Groups: []*pantryv1.LocationGroup{{Location: pantryv1.Location_LOCATION_FRIDGE, Items: []*pantryv1.PantryItem{{Id: 3, Name: "eggs", State: pantryv1.ItemState_ITEM_STATE_LOW, Expiry: "2026-12-03"}}}},
				Counts: &pantryv1.StateCounts{Low: 1, Out: 2},
			},
			wantReq: &pantryv1.GetPantryRequest{Location: pantryv1.Location_LOCATION_FRIDGE},
			want:    []string{`{"locations":{"fridge":[{"name":"eggs","state":"low","expiry":"2026-12-03"}]},"counts":{"in":0,"low":1,"out":2}}`},
		},
		{
			name: "set state", tool: "set_item_state", service: pantryOf, method: "SetItemState",
			args: map[string]any{"ingredient": "noodles", "state": "out"},
			reply: &pantryv1.SetItemStateResponse{
				Item: &pantryv1.PantryItem{Name: "egg noodles", State: pantryv1.ItemState_ITEM_STATE_OUT, Location: pantryv1.Location_LOCATION_CUPBOARD, Quantity: proto.Float64(500), Unit: "g"}, Changed: true,
				Message: "egg noodles (cupboard) is now out", Resolved: map[string]string{"noodles": "egg noodles"},
			},
			wantReq: &pantryv1.SetItemStateRequest{Ingredient: "noodles", State: pantryv1.ItemState_ITEM_STATE_OUT},
			// An item that is out answers no quantity left from before.
			want:    []string{`"message":"egg noodles (cupboard) is now out","changed":true`, `"location":"cupboard"`, `"resolved":{"noodles":"egg noodles"}`},
			notWant: []string{`"quantity"`, `"unit"`},
		},
		{
			name: "an ambiguous name relays the close matches", tool: "set_item_state", service: pantryOf, method: "SetItemState",
			args: map[string]any{"ingredient": "noodle", "state": "low"}, wantReq: &pantryv1.SetItemStateRequest{Ingredient: "noodle", State: pantryv1.ItemState_ITEM_STATE_LOW},
			err:     connect.NewError(connect.CodeInvalidArgument, errors.New("'noodle' matches several ingredients; did you mean egg noodles, rice noodles?")),
			isError: true, want: []string{"did you mean egg noodles, rice noodles?"},
		},
		{
			name: "add restocks", tool: "add_to_pantry", service: pantryOf, method: "AddToPantry",
			args: map[string]any{"items": []any{map[string]any{"name": "eggs", "location": "fridge", "quantity": 12}}},
			reply: &pantryv1.AddToPantryResponse{Items: []*pantryv1.AddResult{{
				Name: "eggs", Outcome: pantryv1.AddOutcome_ADD_OUTCOME_RESTOCKED, Item: &pantryv1.PantryItem{Location: pantryv1.Location_LOCATION_FRIDGE},
			}}},
			wantReq: &pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{{Name: "eggs", Location: pantryv1.Location_LOCATION_FRIDGE, Quantity: proto.Float64(12)}}},
			want:    []string{`{"items":[{"name":"eggs","outcome":"restocked","location":"fridge"}]}`},
		},
		{
			name: "a restock takes quantity and expiry and answers them", tool: "add_to_pantry", service: pantryOf, method: "AddToPantry",
			args: map[string]any{"items": []any{map[string]any{"name": "neutral oil", "quantity": 2, "unit": "l", "expiry": "2027-03-01"}}},
			reply: &pantryv1.AddToPantryResponse{Items: []*pantryv1.AddResult{{
				Name: "neutral oil", Outcome: pantryv1.AddOutcome_ADD_OUTCOME_RESTOCKED,
				Item: &pantryv1.PantryItem{Name: "vegetable oil", Location: pantryv1.Location_LOCATION_CUPBOARD, Quantity: proto.Float64(2), Unit: "l", Expiry: "2027-03-01"},
			}}, Resolved: map[string]string{"neutral oil": "vegetable oil"}},
			wantReq: &pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{{Name: "neutral oil", Quantity: proto.Float64(2), Unit: "l", Expiry: "2027-03-01"}}},
			want: []string{
				`{"name":"neutral oil","outcome":"restocked","location":"cupboard","quantity":2,"unit":"l","expiry":"2027-03-01"}`,
				`"resolved":{"neutral oil":"vegetable oil"}`,
			},
		},
		{
			name: "an expiry that is not a date is refused before any call", tool: "add_to_pantry", service: pantryOf, method: "AddToPantry",
			args:    map[string]any{"items": []any{map[string]any{"name": "milk", "expiry": "next week"}}},
			isError: true, want: []string{"expiry"},
		},
		{
			name: "what can I cook", tool: "what_can_i_cook", service: pantryOf, method: "WhatCanICook",
			reply: &pantryv1.WhatCanICookResponse{
				Items:          []*pantryv1.MetaRecipeMatch{{Id: 1, Name: "Stir-fry", Status: pantryv1.MatchStatus_MATCH_STATUS_READY, Slots: []*pantryv1.SlotAvailability{{Slot: "protein", Available: []string{"pork mince"}}}}},
				ExpiryWarnings: []*pantryv1.ExpiryWarning{{Ingredient: "pork mince", Expiry: "2026-12-01", DaysLeft: 1}},
			},
			wantReq: &pantryv1.WhatCanICookRequest{},
			want:    []string{`"status":"ready"`, `"have":["pork mince"]`, `"days_left":1`},
		},
		{
			name: "meta-recipes as a substitution table", tool: "get_meta_recipes", service: pantryOf, method: "GetMetaRecipes",
			reply: &pantryv1.GetMetaRecipesResponse{Items: []*pantryv1.MetaRecipe{{Id: 1, Name: "Stir-fry", Slots: []*pantryv1.Slot{{Name: "protein", Options: []*pantryv1.IngredientAmount{
				{Ingredient: "pork mince", Quantity: proto.Float64(200), Unit: "g"}, {Ingredient: "tofu"}, {Ingredient: "stock", Quantity: proto.Float64(0.75), Unit: "cup"},
				{Ingredient: "egg", Quantity: proto.Float64(2)},
			}}}}}},
			wantReq: &pantryv1.GetMetaRecipesRequest{},
			// Amounts as a cook writes them: ¾, and 2 eggs.
			want: []string{`"slots":{"protein":["200 g pork mince","tofu","¾ cup stock","2 eggs"]}`},
		},
		{
			name: "log cook suggests, never changes state", tool: "log_cook", service: pantryOf, method: "LogCook",
			args:    map[string]any{"meta_recipe": "Stir-fry", "rating": 4, "slot_choices": []any{map[string]any{"slot": "protein", "ingredient": "tofu"}}},
			reply:   &pantryv1.LogCookResponse{CookLogId: 9, Cooked: "Stir-fry", Date: "2026-11-30", UsedIngredients: []string{"tofu", "soy sauce"}},
			wantReq: &pantryv1.LogCookRequest{Cooked: &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "Stir-fry"}, Rating: proto.Int32(4), SlotChoices: []*pantryv1.SlotChoice{{Slot: "protein", Ingredient: "tofu"}}},
			want:    []string{`"cook_log_id":9`, "set_item_state"},
		},
		{
			name: "log cook says what was off-template", tool: "log_cook", service: pantryOf, method: "LogCook",
			args: map[string]any{"meta_recipe": "Stir-fry", "slot_choices": []any{map[string]any{"slot": "veg", "ingredient": "broccoli"}}},
			reply: &pantryv1.LogCookResponse{
				CookLogId: 10, Cooked: "Stir-fry", UsedIngredients: []string{"broccoli"},
				OffTemplate: map[string]string{"veg": "broccoli"}, CreatedIngredients: []string{"broccoli"},
				CreatedCloseMatches: []*pantryv1.NameMatches{{Name: "broccoli", CloseMatches: []string{"broccolini"}}},
			},
			wantReq: &pantryv1.LogCookRequest{Cooked: &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "Stir-fry"}, SlotChoices: []*pantryv1.SlotChoice{{Slot: "veg", Ingredient: "broccoli"}}},
			want: []string{
				`"off_template":{"veg":"broccoli"}`, `"created_ingredients":["broccoli"]`, `"close_to_created":{"broccoli":["broccolini"]}`,
				"logged as cooked, template unchanged", "set_item_state",
			},
		},
		{
			name: "log cook rating bounds", tool: "log_cook", service: pantryOf, method: "LogCook",
			args: map[string]any{"meta_recipe": "Stir-fry", "rating": 9}, isError: true,
		},
		{
			name: "create meta-recipe", tool: "create_meta_recipe", service: pantryOf, method: "CreateMetaRecipe",
			args: map[string]any{"name": "Fried rice", "slots": []any{map[string]any{"name": "veg", "options": []any{map[string]any{"ingredient": "peas"}}}}},
			reply: &pantryv1.CreateMetaRecipeResponse{
				MetaRecipe: &pantryv1.MetaRecipe{Id: 4, Name: "Fried rice", Slots: []*pantryv1.Slot{{Name: "veg", Options: []*pantryv1.IngredientAmount{{Ingredient: "peas"}}}}}, CreatedIngredients: []string{"peas"},
			},
			wantReq: &pantryv1.CreateMetaRecipeRequest{Name: "Fried rice", Slots: []*pantryv1.SlotInput{{Name: "veg", Options: []*pantryv1.IngredientAmount{{Ingredient: "peas"}}}}},
			want:    []string{`"created_ingredients":["peas"]`},
			notWant: []string{`"resolved"`},
		},
		{
			name: "create meta-recipe says how a name was read", tool: "create_meta_recipe", service: pantryOf, method: "CreateMetaRecipe",
			args: map[string]any{"name": "Roast", "base_ingredients": []any{"chicken"}},
			reply: &pantryv1.CreateMetaRecipeResponse{
				MetaRecipe: &pantryv1.MetaRecipe{Id: 5, Name: "Roast", BaseIngredients: []*pantryv1.IngredientAmount{{Ingredient: "chicken thighs"}}},
				Resolved:   map[string]string{"chicken": "chicken thighs"},
			},
			wantReq: &pantryv1.CreateMetaRecipeRequest{Name: "Roast", BaseIngredients: []*pantryv1.IngredientAmount{{Ingredient: "chicken"}}},
			want:    []string{`"resolved":{"chicken":"chicken thighs"}`},
		},
	})
}
