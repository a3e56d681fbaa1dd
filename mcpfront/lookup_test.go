package mcpfront

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// searchReply is a search answer listing recipes as slug, name pairs.
func searchReply(pairs ...string) *recipesv1.SearchRecipesResponse {
	res := &recipesv1.SearchRecipesResponse{}
	for i := 0; i+1 < len(pairs); i += 2 {
		res.Items = append(res.Items, &recipesv1.RecipeSummary{Slug: pairs[i], Name: pairs[i+1]})
	}
	return res
}

var notFound = connect.NewError(connect.CodeNotFound, errors.New("not found"))

// TestNameLookup: every tool that takes a recipe, a cookbook, a shopping
// list or a taxonomy item takes its exact name too, and a miss answers the
// closest real matches in the same sentence everywhere.
func TestNameLookup(t *testing.T) {
	for _, c := range []struct {
		name    string
		tool    string
		args    map[string]any
		replies map[string]proto.Message // by service method, on the service the call ends at
		errs    map[string]error
		service func(*fakes) *recorder
		method  string
		wantReq proto.Message // nil: method must not be called
		want    string        // substring of the answer
	}{
		{
			name: "a recipe by its exact name", tool: "get_recipe", args: map[string]any{"slug": "pad thai"},
			replies: map[string]proto.Message{"SearchRecipes": searchReply("pad-thai-2", "Pad Thai Deluxe", "pad-thai", "Pad Thai"), "GetRecipe": &recipesv1.GetRecipeResponse{Recipe: &recipesv1.Recipe{Slug: "pad-thai"}}},
			service: recipesOf, method: "GetRecipe", wantReq: &recipesv1.GetRecipeRequest{Slug: "pad-thai"}, want: `"slug":"pad-thai"`,
		},
		{
			name: "a lower-case name that is not the slug is tried as a name", tool: "get_recipe", args: map[string]any{"slug": "shakshuka"},
			replies: map[string]proto.Message{"SearchRecipes": searchReply("shakshuka-1", "Shakshuka")}, errs: map[string]error{"GetRecipe": notFound},
			service: recipesOf, method: "GetRecipe", wantReq: &recipesv1.GetRecipeRequest{Slug: "shakshuka-1"}, want: "no recipe 'shakshuka'",
		},
		{
			name: "a recipe miss suggests the nearest", tool: "get_recipe", args: map[string]any{"slug": "Chicken Curry"},
			replies: map[string]proto.Message{"SearchRecipes": searchReply("chicken-curry-2", "Chicken Curry Deluxe", "lamb-stew", "Lamb Stew")},
			service: recipesOf, method: "UpdateRecipe", want: "no recipe 'Chicken Curry'; did you mean chicken-curry-2 (Chicken Curry Deluxe)?",
		},
		{
			name: "a name two recipes share is refused with both", tool: "update_recipe", args: map[string]any{"slug": "Toast", "rating": 4},
			replies: map[string]proto.Message{"SearchRecipes": searchReply("toast", "Toast", "toast-1", "toast")},
			service: recipesOf, method: "UpdateRecipe", want: "2 recipes are named 'Toast': toast, toast-1; pass one of these instead",
		},
		{
			name: "a slug that is not there, on a write", tool: "mark_recipe_made", args: map[string]any{"slug": "pad-thia"},
			replies: map[string]proto.Message{"SearchRecipes": searchReply("pad-thai", "Pad Thai")}, errs: map[string]error{"MarkRecipeMade": notFound},
			service: recipesOf, method: "MarkRecipeMade", wantReq: &recipesv1.MarkRecipeMadeRequest{Slug: "pad-thia"}, want: "no recipe 'pad-thia'; did you mean pad-thai (Pad Thai)?",
		},
		{
			name: "update by name writes the slug", tool: "update_recipe", args: map[string]any{"slug": "Pad Thai", "rating": 5},
			replies: map[string]proto.Message{"SearchRecipes": searchReply("pad-thai", "Pad Thai"), "UpdateRecipe": &recipesv1.UpdateRecipeResponse{Slug: "pad-thai"}},
			service: recipesOf, method: "UpdateRecipe", wantReq: &recipesv1.UpdateRecipeRequest{Slug: "pad-thai", Rating: ptr(5.0)}, want: `"slug":"pad-thai"`,
		},
		{
			name: "a cookbook by name", tool: "delete_cookbook", args: map[string]any{"cookbook_id": "Weeknight"},
			replies: map[string]proto.Message{"ListCookbooks": &libraryv1.ListCookbooksResponse{Items: []*libraryv1.Cookbook{{Id: "c1", Slug: "weeknight", Name: "Weeknight"}}}, "DeleteCookbook": &libraryv1.DeleteCookbookResponse{Cookbook: &libraryv1.Cookbook{Id: "c1"}}},
			service: libraryOf, method: "DeleteCookbook", wantReq: &libraryv1.DeleteCookbookRequest{CookbookId: "c1"}, want: `"cookbook_id":"c1"`,
		},
		{
			name: "a cookbook miss suggests the nearest", tool: "get_cookbook_recipes", args: map[string]any{"cookbook": "weeknite"},
			replies: map[string]proto.Message{"ListCookbooks": &libraryv1.ListCookbooksResponse{Items: []*libraryv1.Cookbook{{Id: "c1", Slug: "weeknight", Name: "Weeknight"}, {Id: "c2", Slug: "baking", Name: "Baking"}}}},
			errs:    map[string]error{"GetCookbookRecipes": notFound},
			service: libraryOf, method: "GetCookbookRecipes", wantReq: &libraryv1.GetCookbookRecipesRequest{Cookbook: "weeknite", Page: 1, Limit: 20}, want: "no cookbook 'weeknite'; did you mean weeknight (Weeknight)?",
		},
		{
			name: "a shopping list by name", tool: "update_shopping_items", args: map[string]any{"list_id": "Groceries", "check": []any{"i1"}},
			replies: map[string]proto.Message{"GetShoppingList": &mealplanv1.GetShoppingListResponse{Items: []*mealplanv1.ShoppingListSummary{{Id: "l1", Name: "Groceries"}}}},
			service: mealplanOf, method: "UpdateShoppingItems", wantReq: &mealplanv1.UpdateShoppingItemsRequest{ListId: "l1", Check: []string{"i1"}},
		},
		{
			name: "a shopping list miss", tool: "get_shopping_list", args: map[string]any{"list_id": "Grocery List"},
			replies: map[string]proto.Message{"GetShoppingList": &mealplanv1.GetShoppingListResponse{Items: []*mealplanv1.ShoppingListSummary{{Id: "l1", Name: "Groceries"}, {Id: "l2", Name: "Hardware"}}}},
			service: mealplanOf, method: "GetShoppingList", wantReq: &mealplanv1.GetShoppingListRequest{}, want: "no shopping list 'Grocery List'; did you mean l1 (Groceries)?",
		},
		{
			name: "log_cook with a Mealie recipe points at mark_recipe_made", tool: "log_cook", args: map[string]any{"recipe": "shakshuka"},
			replies: map[string]proto.Message{"GetRecipe": &recipesv1.GetRecipeResponse{Recipe: &recipesv1.Recipe{Slug: "shakshuka", Name: "Shakshuka"}}},
			errs:    map[string]error{"LogCook": connect.NewError(connect.CodeNotFound, errors.New("No recipe is called 'shakshuka'."))},
			service: recipesOf, method: "GetRecipe", wantReq: &recipesv1.GetRecipeRequest{Slug: "shakshuka", Fields: []string{"name"}},
			want: "'shakshuka' is a Mealie recipe, not a pantry one: call mark_recipe_made with slug 'shakshuka'",
		},
		{
			name: "log_cook with a name neither knows keeps the pantry's sentence", tool: "log_cook", args: map[string]any{"recipe": "unicorn stew"},
			errs:    map[string]error{"LogCook": connect.NewError(connect.CodeNotFound, errors.New("No recipe is called 'unicorn stew'.")), "GetRecipe": notFound},
			service: recipesOf, method: "MarkRecipeMade", want: "No recipe is called 'unicorn stew'.",
		},
		{
			name: "a taxonomy item by name", tool: "manage_taxonomy", args: map[string]any{"resource": "tags", "action": "delete", "item_id": "Vegan"},
			replies: map[string]proto.Message{"ListTaxonomy": &recipesv1.ListTaxonomyResponse{Items: []*recipesv1.TaxonomyItem{{Id: "t1", Name: "Vegan"}, {Id: "t2", Name: "Vegan Baking"}}}},
			service: recipesOf, method: "DeleteTaxonomy", wantReq: &recipesv1.DeleteTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TAGS, Ids: []string{"t1"}},
		},
		{
			// The service reads a name no item has exactly (plurals,
			// aliases) and answers its own miss with the closest names.
			name: "a taxonomy name read by the service", tool: "manage_taxonomy", args: map[string]any{"resource": "categories", "action": "merge", "item_id": "Desserts", "merge_into": "t9"},
			replies: map[string]proto.Message{"ListTaxonomy": &recipesv1.ListTaxonomyResponse{Items: []*recipesv1.TaxonomyItem{{Id: "k1", Name: "Dessert"}}}},
			service: recipesOf, method: "MergeTaxonomy", wantReq: &recipesv1.MergeTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_CATEGORIES, FromIds: []string{"Desserts"}, IntoId: "t9"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakes(t)
			for _, r := range []*recorder{f.recipes, f.mealplan, f.library, f.pantry} {
				for m, v := range c.replies {
					r.replies[m] = v
				}
				for m, e := range c.errs {
					r.errs[m] = e
				}
			}
			cs := session(t, f.backends, fullOpts, nil)
			text, _ := call(t, cs, c.tool, c.args)
			if c.want != "" && !strings.Contains(text, c.want) {
				t.Errorf("answer %q\nlacks %q", text, c.want)
			}
			got := c.service(f).last(c.method)
			if c.wantReq == nil && got != nil {
				t.Errorf("%s was called: %v", c.method, got)
			}
			if c.wantReq != nil {
				if diff := cmp.Diff(c.wantReq, got, protocmp.Transform()); diff != "" {
					t.Errorf("%s request (-want +got):\n%s", c.method, diff)
				}
			}
		})
	}
}

// TestRecipeNamePastTheSearchPage: a recipe named by its exact name that
// Mealie's search lists past the page read (a name of common words among
// many recipes sharing them) is found by the slug its name makes.
func TestRecipeNamePastTheSearchPage(t *testing.T) {
	f := newFakes(t)
	f.recipes.replies["SearchRecipes"] = &recipesv1.SearchRecipesResponse{Items: []*recipesv1.RecipeSummary{{Slug: "chicken-a", Name: "Chicken A"}}}
	f.recipes.replies["GetRecipe"] = &recipesv1.GetRecipeResponse{Recipe: &recipesv1.Recipe{Slug: "paprika-chicken-comfort-bowl", Name: "Paprika Chicken Comfort Bowl"}}
	f.recipes.replies["UpdateRecipe"] = &recipesv1.UpdateRecipeResponse{Slug: "paprika-chicken-comfort-bowl"}
	cs := session(t, f.backends, fullOpts, nil)
	text, isErr := call(t, cs, "update_recipe", map[string]any{"slug": "Paprika Chicken Comfort Bowl", "rating": 4})
	if isErr {
		t.Fatalf("refused: %s", text)
	}
	if got := f.recipes.last("UpdateRecipe").(*recipesv1.UpdateRecipeRequest).GetSlug(); got != "paprika-chicken-comfort-bowl" {
		t.Errorf("updated %q", got)
	}
}

// TestTaxonomyNames: a taxonomy item's exact name picks it
// case-insensitively, and of names that differ only in case (a real
// library's "tomatoes" and "Tomatoes") the one written as given.
func TestTaxonomyNames(t *testing.T) {
	cs := []candidate{{"1", "tomato"}, {"2", "Tomatoes"}, {"3", "tomatoes"}, {"4", "Basil"}, {"5", "BASIL"}}
	for _, c := range []struct {
		given string
		want  []string
	}{
		{"tomato", []string{"1"}},
		{" Tomato ", []string{"1"}},
		{"Tomatoes", []string{"2"}},
		{"tomatoes", []string{"3"}},
		{"TOMATOES", []string{"2", "3"}},
		{"basil", []string{"4", "5"}},
		{"BASIL", []string{"5"}},
		{"sage", nil},
	} {
		var got []string
		for _, m := range sameCase(c.given, byName(c.given, cs)) {
			got = append(got, m.ref)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("byName(%q) = %q, want %q", c.given, got, c.want)
		}
	}
}
