package mcpfront

import (
	"testing"

	"google.golang.org/protobuf/proto"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// The edits a household says reach the services as typed requests, and
// their answers read as a model needs them: the line edits done, the
// minutes and the recipes left out for having none, unknown names with
// their closest, the foods each suggestion uses, how a cookbook by time
// stays true.
func TestEditTools(t *testing.T) {
	runToolCases(t, []toolCase{
		{
			name: "line edits", tool: "update_recipe", service: recipesOf, method: "UpdateRecipe",
			args: map[string]any{"slug": "risotto",
				"replace_ingredients": []any{map[string]any{"match": "chicken broth", "with": "4 cups vegetable broth"}},
				"remove_ingredients":  []string{"lemon"},
				"add_ingredients":     []any{"1 pinch saffron", map[string]any{"line": "1 cup peas", "after": "rice"}}},
			reply: &recipesv1.UpdateRecipeResponse{Slug: "risotto", Replaced: []string{"ingredients: 6 → 7"},
				LineEdits: []string{"replaced '4 cups chicken broth' with '4 cups vegetable broth'"}},
			wantReq: &recipesv1.UpdateRecipeRequest{Slug: "risotto",
				ReplaceIngredients: []*recipesv1.LineEdit{{Match: "chicken broth", Line: "4 cups vegetable broth"}},
				RemoveIngredients:  []string{"lemon"},
				AddIngredients:     []*recipesv1.LineEdit{{Line: "1 pinch saffron"}, {Line: "1 cup peas", After: "rice"}}},
			want: []string{`"line_edits":["replaced '4 cups chicken broth' with '4 cups vegetable broth'"]`},
		},
		{
			name: "a replace without its line is refused by the schema", tool: "update_recipe", service: recipesOf, method: "UpdateRecipe",
			args:    map[string]any{"slug": "risotto", "replace_ingredients": []any{map[string]any{"match": "broth"}}},
			isError: true, want: []string{"with"},
		},
		{
			name: "search by time and history", tool: "search_recipes", service: recipesOf, method: "SearchRecipes",
			args: map[string]any{"categories": []string{"Dinner"}, "max_total_minutes": 30, "never_made": true},
			reply: &recipesv1.SearchRecipesResponse{Items: []*recipesv1.RecipeSummary{{Slug: "stir-fry", Name: "Stir-fry", TotalMinutes: proto.Int32(25)}},
				Page: 1, Total: 1, TotalPages: 1, NoTime: 3},
			wantReq: &recipesv1.SearchRecipesRequest{Categories: []string{"Dinner"}, MaxTotalMinutes: proto.Int32(30), NeverMade: true, Page: proto.Int32(1), Limit: proto.Int32(20)},
			want:    []string{`"total_minutes":25`, "3 recipes have no time and were left out"},
		},
		{
			name: "a search with one unknown food", tool: "search_recipes", service: recipesOf, method: "SearchRecipes",
			args: map[string]any{"foods": []string{"shrimp", "eggplant"}},
			reply: &recipesv1.SearchRecipesResponse{Items: []*recipesv1.RecipeSummary{{Slug: "gumbo"}}, Page: 1, Total: 1, TotalPages: 1,
				Unknown: []*recipesv1.UnknownName{{Field: "foods", Name: "eggplant", Closest: []string{"aubergine"}}, {Field: "tags", Name: "veggie"}}},
			wantReq: &recipesv1.SearchRecipesRequest{Foods: []string{"shrimp", "eggplant"}, Page: proto.Int32(1), Limit: proto.Int32(20)},
			want:    []string{`"unknown_foods":{"eggplant":["aubergine"]}`, `"unknown_tags":{"veggie":[]}`, "left out"},
		},
		{
			name: "suggestions say what they use", tool: "suggest_recipes", service: recipesOf, method: "SuggestRecipes",
			args: map[string]any{"foods": []string{"chicken thighs", "rice", "spaghetti"}},
			reply: &recipesv1.SuggestRecipesResponse{Items: []*recipesv1.Suggestion{{Recipe: &recipesv1.RecipeSummary{Slug: "bowl"}, Uses: []string{"chicken thighs", "rice"}, MissingFoods: []string{"lime"}}},
				UnknownFoods: []string{"spaghetti"}, Unknown: []*recipesv1.UnknownName{{Field: "foods", Name: "spaghetti", Closest: []string{"linguine"}}}},
			wantReq: &recipesv1.SuggestRecipesRequest{Foods: []string{"chicken thighs", "rice", "spaghetti"}, Limit: 10, MaxMissingFoods: proto.Int32(2)},
			want:    []string{`"uses":["chicken thighs","rice"],"missing_foods":["lime"]`, `"unknown_foods":{"spaghetti":["linguine"]}`},
		},
		{
			name: "a cookbook by time says how it stays true", tool: "create_cookbook", service: libraryOf, method: "CreateCookbook",
			args: map[string]any{"name": "Quick dinners", "categories": []string{"Dinner"}, "max_total_minutes": 30},
			reply: &libraryv1.CreateCookbookResponse{Cookbook: &libraryv1.Cookbook{Id: "c2", Slug: "quick-dinners", Name: "Quick dinners", MaxTotalMinutes: proto.Int32(30)},
				Time: &libraryv1.TimeKeeping{Tag: "30 min or less (sous)", Recipes: 14, NoTime: 2, Note: "kept in step on each recipe sous writes"}},
			wantReq: &libraryv1.CreateCookbookRequest{Name: "Quick dinners", Categories: []string{"Dinner"}, MaxTotalMinutes: proto.Int32(30)},
			want:    []string{`"max_total_minutes":30`, `"time":{"tag":"30 min or less (sous)","recipes":14,"no_time":2,"note":"kept in step`},
		},
		{
			name: "a cookbook's time condition dropped", tool: "update_cookbook", service: libraryOf, method: "UpdateCookbook",
			args:    map[string]any{"cookbook_id": "c2", "max_total_minutes": 0},
			reply:   &libraryv1.UpdateCookbookResponse{Cookbook: &libraryv1.Cookbook{Id: "c2"}},
			wantReq: &libraryv1.UpdateCookbookRequest{CookbookId: "c2", MaxTotalMinutes: proto.Int32(0)},
			want:    []string{`"cookbook_id":"c2"`},
		},
	})
}
