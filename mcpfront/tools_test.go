package mcpfront

import (
	"errors"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
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
			name: "a restock without an amount says what it cleared", tool: "add_to_pantry", service: pantryOf, method: "AddToPantry",
			args: map[string]any{"items": []any{map[string]any{"name": "pork mince"}}},
			reply: &pantryv1.AddToPantryResponse{Items: []*pantryv1.AddResult{{
				Name: "pork mince", Outcome: pantryv1.AddOutcome_ADD_OUTCOME_RESTOCKED, Note: "cleared the old pack's 500 g and use-by 2026-12-04",
				Item: &pantryv1.PantryItem{Name: "pork mince", Location: pantryv1.Location_LOCATION_FRIDGE},
			}}},
			wantReq: &pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{{Name: "pork mince"}}},
			want:    []string{`{"name":"pork mince","outcome":"restocked","location":"fridge","message":"cleared the old pack's 500 g and use-by 2026-12-04"}`},
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
