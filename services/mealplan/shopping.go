package mealplan

import (
	"strings"
	"unicode/utf8"

	"github.com/souskitchen/sous/proto/limits"
)

// Shopping limits (mealplan.proto, AddToShoppingListRequest and
// UpdateShoppingItemsRequest): each bounds the Mealie calls one request can
// cause.
const (
	// MaxFreeTextItems caps free-text lines per call.
	MaxFreeTextItems = limits.ShoppingItems
	// MaxItemChars caps one free-text line.
	MaxItemChars = limits.ShoppingItemChars
	// MaxRecipesPerAdd caps distinct recipes per call, named or planned:
	// each is one GET of the recipe.
	MaxRecipesPerAdd = limits.ShoppingRecipes
	// MaxShoppingRangeDays caps meal_plan_range: a month of plans.
	MaxShoppingRangeDays = limits.ShoppingRangeDays
	// MaxItemOps caps each of check, uncheck and remove: one Mealie write
	// per id.
	MaxItemOps = limits.ShoppingItemOps
	// MaxListNameChars caps a shopping list's name.
	MaxListNameChars = limits.ShoppingListNameChars
	// MinRecipeScale and MaxRecipeScale bound recipe_scale: a tenth of a
	// recipe to twenty times it.
	MinRecipeScale = limits.MinShoppingScale
	MaxRecipeScale = limits.MaxShoppingScale
	// MaxListIDChars caps a list_id: Mealie's are 36-character UUIDs.
	MaxListIDChars = limits.ShoppingListIDChars
)

// checkListID trims a list_id and refuses it when longer than
// MaxListIDChars, naming the length but never quoting the value: the id
// goes into a Mealie request path. Empty is returned as is, for the caller
// to decide what it means.
func checkListID(id string) (string, error) {
	id = strings.TrimSpace(id)
	if n := utf8.RuneCountInString(id); n > MaxListIDChars {
		return "", invalid("list_id: at most %d characters, got %d", MaxListIDChars, n)
	}
	return id, nil
}
