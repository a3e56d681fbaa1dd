package mcpfront

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// validatorWords are what a JSON-schema validator's refusal is made of; a
// model reading them learns nothing it can act on.
var validatorWords = []string{"validating", "root", "/properties/", "regular expression", "does not match", "additional properties", "^[", "000000", "anyOf", "JSON pointer"}

// TestRefusalWording pins refusals as the sentences a model reads: the
// argument, what was given, what is expected, and never the vocabulary of
// a schema validator.
func TestRefusalWording(t *testing.T) {
	f := newFakes(t)
	cs := session(t, f.backends, fullOpts, nil)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"get_meal_plan", map[string]any{"start_date": "2025-03-01", "end_date": "10/03/2025"}, "end_date '10/03/2025' is not a date; use YYYY-MM-DD, e.g. 2026-03-10"},
		{"random_meal_plan", map[string]any{"start_date": "2025-03-01", "end_date": "2025-03-02", "days": 3}, "unknown argument 'days'; random_meal_plan takes start_date, end_date, entry_type"},
		{"delete_recipe", map[string]any{"slug": "toast"}, "confirm_slug is missing: repeat the slug to confirm the delete"},
		{"search_recipes", map[string]any{"limit": "2.5"}, "limit '2.5' is not a whole number; give a whole number from 1 to 100"},
		{"update_recipe", map[string]any{"slug": "toast", "rating": "abc"}, "rating 'abc' is not a number; give a number from 0 to 5"},
		{"search_recipes", map[string]any{"require_all": "yes please"}, "require_all 'yes please' is not true or false"},
		{"search_recipes", map[string]any{"page": 0}, "page 0 is too small; give a whole number from 1 to 10000"},
		{"update_recipe", map[string]any{"slug": "toast", "rating": 200}, "rating 200 is too large; give a number from 0 to 5"},
		{"update_recipe", map[string]any{"slug": "toast", "rating": -1e300}, "rating -1e+300 is too small; give a number from 0 to 5"},
		{"set_item_state", map[string]any{"ingredient": "eggs", "state": "gone"}, "state 'gone' is not one of in, low, out"},
		{"create_recipe", map[string]any{"name": "Toast", "prep": "5 min"}, "unknown argument 'prep' (did you mean prep_time?)"},
		{"create_recipe", map[string]any{"name": "Toast", "tags": 5}, `tags must be a list, e.g. ["text"], not the number 5`},
		{"create_recipe", map[string]any{"name": "Toast", "ingredients": []any{map[string]any{"food": "bread", "colour": "brown"}}}, "unknown field 'colour' in ingredients[0]; ingredients[0] takes"},
		{"create_recipe", map[string]any{"name": "Toast", "ingredients": []any{true}}, "ingredients[0] must be"},
		{"add_to_shopping_list", map[string]any{"meal_plan_range": map[string]any{"start_date": "2026-12-01"}}, "meal_plan_range.end_date is missing"},
		{"get_todays_meals", map[string]any{"date": "2026-12-01"}, "unknown argument 'date'; get_todays_meals takes no arguments"},
		// An absent argument with a fixed set of values names them all.
		{"library_stats", map[string]any{}, "resource is missing: what to count; foods and units are slow; one of tags, categories, tools, foods, units"},
		{"manage_taxonomy", map[string]any{"action": "list"}, "resource is missing: which taxonomy; one of foods, units, labels, tags, categories, tools"},
		{"set_item_state", map[string]any{"ingredient": "eggs"}, "state is missing"},
		{"search_recipes", map[string]any{"query": strings.Repeat("a", 300)}, "query is 300 characters long; at most 200 are accepted"},
		{"create_meta_recipe", map[string]any{"name": "Stir-fry", "slots": []any{map[string]any{"name": "protein", "options": []any{map[string]any{"ingredient": "tofu", "quantity": 200}}}}}, "unknown field 'quantity' in slots[0].options[0] (did you mean qty?)"},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %v:\n got %q (isError=%v)\nwant %q", c.tool, c.args, text, isErr, c.want)
		}
		for _, w := range validatorWords {
			if strings.Contains(text, w) {
				t.Errorf("%s: refusal carries validator vocabulary %q: %s", c.tool, w, text)
			}
		}
	}
	if n := f.recipes.calls() + f.mealplan.calls() + f.pantry.calls() + f.library.calls(); n != 0 {
		t.Errorf("%d refused calls reached the services", n)
	}
}

// TestForgivingArguments: what several MCP clients send for a number or a
// boolean (the value as a string), a list as its JSON text, a null for an
// omitted argument, an enum in other case, and a limit past its cap are
// taken as meant, and the service sees the typed value.
func TestForgivingArguments(t *testing.T) {
	runToolCases(t, []toolCase{
		{
			name: "numbers and booleans as strings", tool: "search_recipes", service: recipesOf, method: "SearchRecipes",
			args:    map[string]any{"page": "2", "limit": "5", "require_all": "true", "tags": nil},
			reply:   &recipesv1.SearchRecipesResponse{},
			wantReq: &recipesv1.SearchRecipesRequest{Page: ptr(int32(2)), Limit: ptr(int32(5)), RequireAll: true},
		},
		{
			name: "limit past the cap is capped with a note", tool: "search_recipes", service: recipesOf, method: "SearchRecipes",
			args:    map[string]any{"limit": 500},
			reply:   &recipesv1.SearchRecipesResponse{Items: []*recipesv1.RecipeSummary{{Slug: "toast"}}, Total: 1, Page: 1, TotalPages: 1},
			wantReq: &recipesv1.SearchRecipesRequest{Page: ptr(int32(1)), Limit: ptr(int32(100))},
			want:    []string{`"capped":"limit 500 capped at 100"`},
		},
		{
			name: "a number as a string with a fraction", tool: "update_recipe", service: recipesOf, method: "UpdateRecipe",
			args:    map[string]any{"slug": "toast", "rating": "4.5", "replace_tags": "false"},
			reply:   &recipesv1.UpdateRecipeResponse{Slug: "toast"},
			wantReq: &recipesv1.UpdateRecipeRequest{Slug: "toast", Rating: ptr(4.5)},
		},
		{
			name: "a list sent as its JSON text, an enum in capitals", tool: "bulk_tag_recipes", service: recipesOf, method: "BulkTagRecipes",
			args:    map[string]any{"slugs": `["toast", "soup"]`, "tags": []any{"Quick"}},
			reply:   &recipesv1.BulkTagRecipesResponse{Slugs: []string{"toast", "soup"}},
			wantReq: &recipesv1.BulkTagRecipesRequest{Slugs: []string{"toast", "soup"}, Tags: []string{"Quick"}},
		},
		{
			name: "entry type in capitals", tool: "add_meal_plan_entry", service: mealplanOf, method: "AddMealPlanEntry",
			args:    map[string]any{"date": "2026-12-01", "entry_type": "Lunch", "title": "Soup"},
			reply:   &mealplanv1.AddMealPlanEntryResponse{Entry: &mealplanv1.MealPlanEntry{Id: "7"}},
			wantReq: &mealplanv1.AddMealPlanEntryRequest{Date: "2026-12-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_LUNCH, Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Soup"}},
			want:    []string{`"entry_id":"7"`},
		},
		{
			name: "servings as a string", tool: "what_can_i_cook", service: pantryOf, method: "WhatCanICook",
			args:    map[string]any{"servings": "4"},
			reply:   &pantryv1.WhatCanICookResponse{},
			wantReq: &pantryv1.WhatCanICookRequest{Servings: ptr(int32(4))},
		},
		{
			name: "base ingredients as names and as objects with qty", tool: "create_meta_recipe", service: pantryOf, method: "CreateMetaRecipe",
			args: map[string]any{"name": "Stir-fry", "base_ingredients": []any{"soy sauce", map[string]any{"ingredient": "rice", "qty": "200", "unit": "g"}},
				"slots": []any{map[string]any{"name": "protein", "options": []any{map[string]any{"ingredient": "tofu", "qty": 300, "unit": "g"}}}}},
			reply: &pantryv1.CreateMetaRecipeResponse{MetaRecipe: &pantryv1.MetaRecipe{Id: 3, Name: "Stir-fry"}},
			wantReq: &pantryv1.CreateMetaRecipeRequest{Name: "Stir-fry",
				BaseIngredients: []*pantryv1.IngredientAmount{{Ingredient: "soy sauce"}, {Ingredient: "rice", Quantity: ptr(200.0), Unit: "g"}},
				Slots:           []*pantryv1.SlotInput{{Name: "protein", Options: []*pantryv1.IngredientAmount{{Ingredient: "tofu", Quantity: ptr(300.0), Unit: "g"}}}}},
		},
		{
			// The note is the answer's last key, after every other, as it
			// always was.
			name: "suggestions past the cap say so last", tool: "suggest_recipes", service: recipesOf, method: "SuggestRecipes",
			args:    map[string]any{"foods": []any{"egg"}, "limit": 500},
			reply:   &recipesv1.SuggestRecipesResponse{Note: "few recipes"},
			wantReq: &recipesv1.SuggestRecipesRequest{Foods: []string{"egg"}, Limit: 50, MaxMissingFoods: ptr(int32(2))},
			want:    []string{`"note":"few recipes","capped":"limit 500 capped at 50"}`},
		},
		{
			name: "cookbook page as a string", tool: "get_cookbook_recipes", service: libraryOf, method: "GetCookbookRecipes",
			args:    map[string]any{"cookbook": "weeknight", "page": "3", "limit": 1000},
			reply:   &libraryv1.GetCookbookRecipesResponse{},
			wantReq: &libraryv1.GetCookbookRecipesRequest{Cookbook: "weeknight", Page: 3, Limit: 100},
			want:    []string{`"capped":"limit 1000 capped at 100"`},
		},
	})
}

func TestNullArgumentsDoNotCrash(t *testing.T) {
	f := newFakes(t)
	cs := session(t, f.backends, Options{}, nil)
	// A JSON null for arguments once panicked go-sdk's default filling.
	if _, isErr := callParams(t, cs, &mcp.CallToolParams{Name: "get_pantry", Arguments: json.RawMessage("null")}); isErr {
		t.Error("get_pantry with null arguments failed")
	}
}

// TestStrictArguments checks that the published schema is enforced: an
// undeclared parameter, at the top or inside an object, and a date that is
// not YYYY-MM-DD are tool errors naming the parameter, and reach no
// service.
func TestStrictArguments(t *testing.T) {
	f := newFakes(t)
	cs := session(t, f.backends, fullOpts, nil)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"get_pantry", map[string]any{"made_up_param": 1}, "made_up_param"},
		{"get_meal_plan", map[string]any{"start_date": "12/01/2026", "end_date": "2026-12-02"}, "start_date"},
		{"add_to_shopping_list", map[string]any{"meal_plan_range": map[string]any{"start_date": "2026-12-01", "end_date": "2026-12-02", "days": 3}}, "days"},
		{"create_recipe", map[string]any{"name": "Toast", "ingredients": []any{map[string]any{"food": "bread", "colour": "brown"}}}, "ingredients"},
		{"update_recipe", map[string]any{"slug": "toast", "replace_tags": "yes please"}, "replace_tags"},
		{"update_recipe", map[string]any{"slug": "toast", "replace": []any{"tags"}}, "replace_tags"},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: isError=%v %q, want a refusal naming %q", c.tool, c.args, isErr, text, c.want)
		}
	}
	if n := f.recipes.calls() + f.mealplan.calls() + f.pantry.calls(); n != 0 {
		t.Errorf("%d malformed calls reached the services", n)
	}
}

// TestAdvertisedSchemaSaysWhatIsEnforced pins what tools/list shows of
// the checks: every object that refuses unknown arguments says
// additionalProperties false, a tool without parameters lists empty
// properties, a date is described as YYYY-MM-DD (format date, no regular
// expression), and no internal mark leaks.
func TestAdvertisedSchemaSaysWhatIsEnforced(t *testing.T) {
	var walk func(tool, path string, s map[string]any)
	walk = func(tool, path string, s map[string]any) {
		if s["type"] == "object" && s["additionalProperties"] != false {
			t.Errorf("%s %s: an object without additionalProperties false", tool, path)
		}
		if s["format"] == "date" && !strings.Contains(fmt.Sprint(s["description"]), "YYYY-MM-DD") && path != "meal_plan_range.start_date" && path != "meal_plan_range.end_date" {
			t.Errorf("%s %s: a date whose description does not say YYYY-MM-DD", tool, path)
		}
		for k := range s {
			if k == "pattern" || strings.HasPrefix(k, "x-") {
				t.Errorf("%s %s shows %s", tool, path, k)
			}
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for k, v := range props {
				walk(tool, strings.TrimPrefix(path+"."+k, "."), v.(map[string]any))
			}
		}
		if it, ok := s["items"].(map[string]any); ok {
			walk(tool, path+"[]", it)
		}
		if alts, ok := s["anyOf"].([]any); ok {
			for _, a := range alts {
				walk(tool, path, a.(map[string]any))
			}
		}
	}
	for _, tool := range listTools(t, allBackends(), fullOpts) {
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		if _, ok := s["properties"]; !ok {
			t.Errorf("%s lists no properties: %s", tool.Name, raw)
		}
		walk(tool.Name, "", s)
	}
}
