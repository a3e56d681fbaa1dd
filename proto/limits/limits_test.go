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
	// One line a message: each field named and what its comment must say.
	for _, tt := range []struct {
		file, message string
		fields        []said
	}{
		{"recipes", "SearchRecipesRequest", []said{{"page", fmt.Sprintf("1 to %d", Page)}, {"limit", fmt.Sprintf("1 to %d; unset means %d", SearchLimit, DefaultSearchLimit)}, {"query", fmt.Sprintf("at most %d characters", SearchQueryChars)}, {"tags", fmt.Sprintf("at most %d", TaxonomyNames)}, {"categories", fmt.Sprintf("at most %d", TaxonomyNames)}, {"tools", fmt.Sprintf("at most %d", TaxonomyNames)}, {"foods", fmt.Sprintf("at most %d", TaxonomyNames)}}},
		{"recipes", "SuggestRecipesRequest", []said{{"max_missing_foods", fmt.Sprintf("0 to %d; unset means %d", MissingFoods, DefaultMissingFoods)}, {"limit", fmt.Sprintf("1 to %d; 0 means %d", SuggestLimit, DefaultSuggestLimit)}, {"foods", fmt.Sprintf("at most %d", SuggestFoods)}, {"tools", fmt.Sprintf("at most %d", SuggestTools)}}},
		{"recipes", "CreateRecipeRequest", []said{{"name", fmt.Sprintf("1 to %d characters", RecipeNameChars)}}},
		{"recipes", "UploadRecipeImageRequest", []said{{"image", fmt.Sprintf("at most %d MiB", ImageBytes>>20)}}},
		{"recipes", "BulkTagRecipesRequest", []said{{"slugs", fmt.Sprintf("1 to %d", BulkSlugs)}, {"tags", fmt.Sprintf("at most %d", TaxonomyNames)}, {"categories", fmt.Sprintf("at most %d", TaxonomyNames)}}},
		{"recipes", "ParseIngredientsRequest", []said{{"lines", fmt.Sprintf("1 to %d, each at most %d characters", ParseLines, IngredientLineChars)}}},
		{"recipes", "CreateTaxonomyRequest", []said{{"items", fmt.Sprintf("1 to %d", TaxonomyBatch)}}},
		{"recipes", "UpdateTaxonomyRequest", []said{{"items", fmt.Sprintf("1 to %d", TaxonomyBatch)}}},
		{"recipes", "MergeTaxonomyRequest", []said{{"from_ids", fmt.Sprintf("1 to %d", TaxonomyBatch)}, {"from_ids", fmt.Sprintf("each at most %d characters", TaxonomyRefChars)}, {"into_id", fmt.Sprintf("at most %d characters", TaxonomyRefChars)}}},
		{"recipes", "DeleteTaxonomyRequest", []said{{"ids", fmt.Sprintf("1 to %d", TaxonomyBatch)}, {"ids", fmt.Sprintf("each at most %d characters", TaxonomyRefChars)}}},
		{"recipes", "SweepRecipesRequest", []said{{"max_recipes", fmt.Sprintf("1 to %d; 0 means %d", ScanRecipes, ScanRecipes)}}},
		{"recipes", "ResolveRecipeSlugsRequest", []said{{"slugs", fmt.Sprintf("1 to %d", ResolveSlugs)}}},
		{"library", "GetCookbookRecipesRequest", []said{{"limit", fmt.Sprintf("1 to %d; 0 means %d", CookbookLimit, DefaultCookbookLimit)}}},
		{"library", "CreateCookbookRequest", []said{{"name", fmt.Sprintf("1 to %d characters", CookbookNameChars)}, {"query_filter", fmt.Sprintf("At most %d characters", CookbookQueryFilterChars)}}},
		{"library", "LibraryStatsRequest", []said{{"top", fmt.Sprintf("1 to %d; 0 means %d", Top, DefaultTop)}, {"max_recipes", fmt.Sprintf("1 to %d; 0 means %d", ScanRecipes, ScanRecipes)}}},
		{"library", "FindDuplicateRecipesRequest", []said{{"max_recipes", fmt.Sprintf("1 to %d; 0 means %d", ScanRecipes, ScanRecipes)}}},
		{"library", "CheckRecipeLinksRequest", []said{{"max_recipes", fmt.Sprintf("1 to %d; 0 means %d", ScanRecipes, DefaultLinkRecipes)}}},
		{"mealplan", "AddMealPlanEntryRequest", []said{{"title", fmt.Sprintf("1 to %d characters", EntryTitleChars)}, {"note", fmt.Sprintf("at most %d characters", EntryNoteChars)}}},
		{"mealplan", "RandomMealPlanRequest", []said{{"end_date", fmt.Sprintf("at most %d days after start_date (%d days in all)", RandomDays-1, RandomDays)}}},
		{"mealplan", "AddToShoppingListRequest", []said{{"items", fmt.Sprintf("at most %d, each at most %d characters", ShoppingItems, ShoppingItemChars)}, {"recipe_slugs", fmt.Sprintf("at most %d", ShoppingRecipes)}, {"meal_plan_range", fmt.Sprintf("at most %d days", ShoppingRangeDays)}, {"list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)}, {"recipe_scale", fmt.Sprintf("Between %v and %v", MinShoppingScale, MaxShoppingScale)}, {"have", fmt.Sprintf("At most %d, each at most %d characters", ShoppingItems, ShoppingItemChars)}}},
		{"mealplan", "ItemRefs", []said{{"items", fmt.Sprintf("At most %d", ShoppingItemOps)}}},
		{"mealplan", "UpdateShoppingItemsRequest", []said{{"check", fmt.Sprintf("at most %d", ShoppingItemOps)}, {"uncheck", fmt.Sprintf("at most %d", ShoppingItemOps)}, {"remove", fmt.Sprintf("at most %d", ShoppingItemOps)}, {"list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)}}},
		{"recipes", "UpdateRecipeRequest", []said{{"rating", fmt.Sprintf("%d to %d", MinRecipeRating, MaxRecipeRating)}, {"confirm", fmt.Sprintf("At most %d characters", ConfirmChars)}}},
		{"recipes", "SetRecipeImageFromURLRequest", []said{{"url", fmt.Sprintf("at most %d characters", URLChars)}}},
		{"recipes", "ImportRecipeFromURLRequest", []said{{"url", fmt.Sprintf("at most %d characters", URLChars)}}},
		{"recipes", "MarkRecipeMadeRequest", []said{{"note", fmt.Sprintf("at most %d characters", MadeNoteChars)}, {"rating", fmt.Sprintf("%d to %d", MinRecipeRating, MaxRecipeRating)}}},
		{"recipes", "ListTaxonomyRequest", []said{{"search", fmt.Sprintf("at most %d characters", TaxonomyNameChars)}}},
		{"recipes", "TaxonomyWrite", []said{{"id", fmt.Sprintf("at most %d characters", TaxonomyRefChars)}}},
		{"library", "UpdateCookbookRequest", []said{{"query_filter", fmt.Sprintf("At most %d characters", CookbookQueryFilterChars)}, {"position", fmt.Sprintf("1 to %d", CookbookPosition)}}},
		{"mealplan", "DeleteMealPlanEntryRequest", []said{{"entry_id", fmt.Sprintf("at most %d characters", EntryIDChars)}}},
		{"mealplan", "GetShoppingListRequest", []said{{"list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)}}},
		{"mealplan", "RenameShoppingListRequest", []said{{"list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)}}},
		{"mealplan", "DeleteShoppingListRequest", []said{{"list_id", fmt.Sprintf("at most %d characters", ShoppingListIDChars)}}},
		{"pantry", "AddToPantryRequest", []said{{"items", fmt.Sprintf("1 to %d", PantryAdditions)}}},
		{"pantry", "WhatCanICookRequest", []said{{"servings", fmt.Sprintf("1 to %d", Servings)}}},
		{"pantry", "LogCookRequest", []said{{"servings", fmt.Sprintf("1 to %d", Servings)}, {"rating", fmt.Sprintf("%d to %d", MinRating, MaxRating)}, {"notes", fmt.Sprintf("at most %d characters", CookNotesChars)}}},
		{"pantry", "SlotInput", []said{{"options", fmt.Sprintf("1 to %d", SlotOptions)}}},
		{"pantry", "CreateMetaRecipeRequest", []said{{"name", fmt.Sprintf("1 to %d characters", PantryNameChars)}, {"slots", fmt.Sprintf("at most %d", Slots)}, {"base_ingredients", fmt.Sprintf("at most %d", BaseIngredients)}}},
	} {
		comments := fieldComments(t, filepath.Join("..", "sous", tt.file, "v1", tt.file+".proto"))
		for _, f := range tt.fields {
			name := tt.message + "." + f.field
			t.Run(name, func(t *testing.T) {
				got, ok := comments[name]
				if !ok {
					t.Fatalf("%s.proto has no field %s", tt.file, name)
				}
				if !strings.Contains(got, f.want) {
					t.Errorf("%s.proto, %s: the comment %q does not say %q", tt.file, name, got, f.want)
				}
			})
		}
	}
}

// said is a field of a message and what its comment must say.
type said struct{ field, want string }
