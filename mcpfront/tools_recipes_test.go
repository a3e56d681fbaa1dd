package mcpfront

import (
	"errors"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

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
			name: "search read through a close spelling says so", tool: "search_recipes", service: recipesOf, method: "SearchRecipes",
			args: map[string]any{"query": "currry"},
			reply: &recipesv1.SearchRecipesResponse{
				Items: []*recipesv1.RecipeSummary{{Slug: "chicken-curry"}}, Page: 1, Limit: 20, Total: 1, TotalPages: 1, DidYouMean: "curry",
			},
			wantReq: &recipesv1.SearchRecipesRequest{Query: "currry", Page: proto.Int32(1), Limit: proto.Int32(20)},
			want:    []string{`"did_you_mean":"curry"`, `"hint":"results are for did_you_mean, a close spelling of a word no recipe has"`},
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
			want:    []string{`{"input":"2 cups flour","quantity":2,"unit":"cup","food":"flour","new":["food"]}`},
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
