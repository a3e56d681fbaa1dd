package limits

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	messageLine = regexp.MustCompile(`^message (\w+) \{`)
	fieldLine   = regexp.MustCompile(`^(?:repeated |optional )?[\w.]+ (\w+) = \d+;`)
)

// fieldComments reads a .proto file and returns the comment above each
// field, keyed "Message.field" and joined into one line.
func fieldComments(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	var stack, comment []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case messageLine.MatchString(line):
			stack = append(stack, messageLine.FindStringSubmatch(line)[1])
		case strings.HasPrefix(line, "oneof "):
			stack = append(stack, "")
		case line == "}":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case strings.HasPrefix(line, "//"):
			comment = append(comment, strings.TrimSpace(strings.TrimPrefix(line, "//")))
			continue
		case fieldLine.MatchString(line):
			msg := ""
			for _, m := range stack {
				if m != "" {
					msg = m
				}
			}
			out[msg+"."+fieldLine.FindStringSubmatch(line)[1]] = strings.Join(comment, " ")
		}
		comment = nil
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestProtoCommentsStateTheLimits: the proto comments are what a reader of
// the API sees, so each bound they state in words must be the number here,
// which the services check and mcpfront's schemas carry. Changing a
// constant without its comment (or the other way round) fails here.
func TestProtoCommentsStateTheLimits(t *testing.T) {
	for _, tt := range []struct {
		file, field, want string
	}{
		{"recipes", "SearchRecipesRequest.page", fmt.Sprintf("1 to %d", Page)},
		{"recipes", "SearchRecipesRequest.limit", fmt.Sprintf("1 to %d; unset means %d", SearchLimit, DefaultSearchLimit)},
		{"recipes", "SuggestRecipesRequest.max_missing_foods", fmt.Sprintf("0 to %d; unset means %d", MissingFoods, DefaultMissingFoods)},
		{"recipes", "SuggestRecipesRequest.limit", fmt.Sprintf("1 to %d; 0 means %d", SuggestLimit, DefaultSuggestLimit)},
		{"recipes", "CreateRecipeRequest.name", fmt.Sprintf("1 to %d characters", RecipeNameChars)},
		{"recipes", "UploadRecipeImageRequest.image", fmt.Sprintf("at most %d MiB", ImageBytes>>20)},
		{"recipes", "BulkTagRecipesRequest.slugs", fmt.Sprintf("1 to %d", BulkSlugs)},
		{"recipes", "ParseIngredientsRequest.lines", fmt.Sprintf("1 to %d, each at most %d characters", ParseLines, IngredientLineChars)},
		{"recipes", "CreateTaxonomyRequest.items", fmt.Sprintf("1 to %d", TaxonomyBatch)},
		{"recipes", "UpdateTaxonomyRequest.items", fmt.Sprintf("1 to %d", TaxonomyBatch)},
		{"recipes", "MergeTaxonomyRequest.from_ids", fmt.Sprintf("1 to %d", TaxonomyBatch)},
		{"recipes", "DeleteTaxonomyRequest.ids", fmt.Sprintf("1 to %d", TaxonomyBatch)},
		{"recipes", "SweepRecipesRequest.max_recipes", fmt.Sprintf("1 to %d; 0 means %d", ScanRecipes, ScanRecipes)},
		{"recipes", "ResolveRecipeSlugsRequest.slugs", fmt.Sprintf("1 to %d", ResolveSlugs)},
		{"library", "GetCookbookRecipesRequest.limit", fmt.Sprintf("1 to %d; 0 means %d", CookbookLimit, DefaultCookbookLimit)},
		{"library", "CreateCookbookRequest.name", fmt.Sprintf("1 to %d characters", CookbookNameChars)},
		{"library", "LibraryStatsRequest.top", fmt.Sprintf("1 to %d; 0 means %d", Top, DefaultTop)},
		{"library", "LibraryStatsRequest.max_recipes", fmt.Sprintf("1 to %d; 0 means %d", ScanRecipes, ScanRecipes)},
		{"library", "FindDuplicateRecipesRequest.max_recipes", fmt.Sprintf("1 to %d; 0 means %d", ScanRecipes, ScanRecipes)},
		{"library", "CheckRecipeLinksRequest.max_recipes", fmt.Sprintf("1 to %d; 0 means %d", ScanRecipes, DefaultLinkRecipes)},
		{"mealplan", "AddMealPlanEntryRequest.title", fmt.Sprintf("1 to %d characters", EntryTitleChars)},
		{"mealplan", "AddMealPlanEntryRequest.note", fmt.Sprintf("at most %d characters", EntryNoteChars)},
		{"mealplan", "RandomMealPlanRequest.end_date", fmt.Sprintf("at most %d days after start_date (%d days in all)", RandomDays-1, RandomDays)},
		{"mealplan", "AddToShoppingListRequest.items", fmt.Sprintf("at most %d, each at most %d characters", ShoppingItems, ShoppingItemChars)},
		{"mealplan", "AddToShoppingListRequest.recipe_slugs", fmt.Sprintf("at most %d", ShoppingRecipes)},
		{"mealplan", "AddToShoppingListRequest.meal_plan_range", fmt.Sprintf("at most %d days", ShoppingRangeDays)},
		{"mealplan", "UpdateShoppingItemsRequest.check", fmt.Sprintf("at most %d", ShoppingItemOps)},
		{"mealplan", "UpdateShoppingItemsRequest.uncheck", fmt.Sprintf("at most %d", ShoppingItemOps)},
		{"mealplan", "UpdateShoppingItemsRequest.remove", fmt.Sprintf("at most %d", ShoppingItemOps)},
		{"recipes", "SearchRecipesRequest.query", fmt.Sprintf("at most %d characters", SearchQueryChars)},
		{"recipes", "SearchRecipesRequest.tags", fmt.Sprintf("at most %d", TaxonomyNames)},
		{"recipes", "SearchRecipesRequest.categories", fmt.Sprintf("at most %d", TaxonomyNames)},
		{"recipes", "SearchRecipesRequest.tools", fmt.Sprintf("at most %d", TaxonomyNames)},
		{"recipes", "SearchRecipesRequest.foods", fmt.Sprintf("at most %d", TaxonomyNames)},
		{"recipes", "SuggestRecipesRequest.foods", fmt.Sprintf("at most %d", SuggestFoods)},
		{"recipes", "SuggestRecipesRequest.tools", fmt.Sprintf("at most %d", SuggestTools)},
		{"recipes", "UpdateRecipeRequest.rating", fmt.Sprintf("%d to %d", MinRecipeRating, MaxRecipeRating)},
		{"recipes", "UpdateRecipeRequest.confirm", fmt.Sprintf("At most %d characters", ConfirmChars)},
		{"recipes", "SetRecipeImageFromURLRequest.url", fmt.Sprintf("at most %d characters", URLChars)},
		{"recipes", "BulkTagRecipesRequest.tags", fmt.Sprintf("at most %d", TaxonomyNames)},
		{"recipes", "BulkTagRecipesRequest.categories", fmt.Sprintf("at most %d", TaxonomyNames)},
		{"recipes", "ImportRecipeFromURLRequest.url", fmt.Sprintf("at most %d characters", URLChars)},
		{"recipes", "MarkRecipeMadeRequest.note", fmt.Sprintf("at most %d characters", MadeNoteChars)},
		{"recipes", "MarkRecipeMadeRequest.rating", fmt.Sprintf("%d to %d", MinRecipeRating, MaxRecipeRating)},
		{"recipes", "ListTaxonomyRequest.search", fmt.Sprintf("at most %d characters", TaxonomyNameChars)},
		{"recipes", "MergeTaxonomyRequest.from_ids", fmt.Sprintf("each at most %d characters", TaxonomyRefChars)},
		{"recipes", "MergeTaxonomyRequest.into_id", fmt.Sprintf("at most %d characters", TaxonomyRefChars)},
		{"recipes", "DeleteTaxonomyRequest.ids", fmt.Sprintf("each at most %d characters", TaxonomyRefChars)},
		{"recipes", "TaxonomyWrite.id", fmt.Sprintf("at most %d characters", TaxonomyRefChars)},
		{"library", "CreateCookbookRequest.query_filter", fmt.Sprintf("At most %d characters", CookbookQueryFilterChars)},
		{"library", "UpdateCookbookRequest.query_filter", fmt.Sprintf("At most %d characters", CookbookQueryFilterChars)},
		{"library", "UpdateCookbookRequest.position", fmt.Sprintf("1 to %d", CookbookPosition)},
		{"mealplan", "DeleteMealPlanEntryRequest.entry_id", fmt.Sprintf("at most %d characters", EntryIDChars)},
		{"mealplan", "GetShoppingListRequest.list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)},
		{"mealplan", "AddToShoppingListRequest.list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)},
		{"mealplan", "AddToShoppingListRequest.recipe_scale", fmt.Sprintf("Between %v and %v", MinShoppingScale, MaxShoppingScale)},
		{"mealplan", "UpdateShoppingItemsRequest.list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)},
		{"mealplan", "RenameShoppingListRequest.list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)},
		{"mealplan", "DeleteShoppingListRequest.list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)},
		{"pantry", "AddToPantryRequest.items", fmt.Sprintf("1 to %d", PantryAdditions)},
		{"pantry", "WhatCanICookRequest.servings", fmt.Sprintf("1 to %d", Servings)},
		{"pantry", "LogCookRequest.servings", fmt.Sprintf("1 to %d", Servings)},
		{"pantry", "LogCookRequest.rating", fmt.Sprintf("%d to %d", MinRating, MaxRating)},
		{"pantry", "LogCookRequest.notes", fmt.Sprintf("at most %d characters", CookNotesChars)},
		{"pantry", "SlotInput.options", fmt.Sprintf("1 to %d", SlotOptions)},
		{"pantry", "CreateMetaRecipeRequest.name", fmt.Sprintf("1 to %d characters", PantryNameChars)},
		{"pantry", "CreateMetaRecipeRequest.slots", fmt.Sprintf("at most %d", Slots)},
		{"pantry", "CreateMetaRecipeRequest.base_ingredients", fmt.Sprintf("at most %d", BaseIngredients)},
	} {
		t.Run(tt.field, func(t *testing.T) {
			comments := fieldComments(t, filepath.Join("..", "sous", tt.file, "v1", tt.file+".proto"))
			got, ok := comments[tt.field]
			if !ok {
				t.Fatalf("%s.proto has no field %s", tt.file, tt.field)
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("%s.proto, %s: the comment %q does not say %q", tt.file, tt.field, got, tt.want)
			}
		})
	}
}
