package mealietest

import "fmt"

// profile is what differs between the Mealie versions the emulator can pretend
// to be. Everything not named here behaves as the 2.0 captures show. Each flag
// cites its evidence; where a version's behaviour is not known first-hand the
// flag says what it was inferred from.
type profile struct {
	// name is the profile's key: "2.0", "2.8" or "3.11".
	name string
	// version is what GET /api/app/about reports. The 2.0 captures were made
	// from a source checkout, which reports "v2.0.0" (app_about__ok.json and the
	// fixtures README); release images stamp the tag at build time
	// (.github/workflows/partial-builder.yml in Mealie's repository), so the
	// release profiles report their tag.
	version string
	// structuredYield adds recipeServings and recipeYieldQuantity to recipes.
	// Added by Mealie migration
	// mealie/alembic/versions/2024-10-23-15.50.59_b1020f328e98_add_recipe_yield_quantity.py,
	// after the 2.0 snapshot; present in the 3.x openapi.json (Recipe-Output).
	structuredYield bool
	// householdOnHand replaces the onHand flag of foods and tools with
	// householdsWithIngredientFood / householdsWithTool. Mealie migration
	// mealie/alembic/versions/2024-11-20-17.30.41_b9e516e2d3b3_add_household_to_recipe_last_made_.py
	// moved on-hand and last-made to households; the 3.x openapi.json shows the
	// new keys (IngredientFood-Output, RecipeTool).
	householdOnHand bool
	// ingredientFlags keeps isFood/disableAmount on ingredients. 2.0 has them
	// (recipes_get__fresh.json); the 3.x openapi.json RecipeIngredient-Output has
	// neither (and adds referencedRecipe).
	ingredientFlags bool
	// suggestions is GET /api/recipes/suggestions. Absent in 2.0, where the path
	// is taken as a slug (recipes_suggestions__not_in_2_0.json); added by
	// Mealie PR #4542 (Recipe Finder, 2024-11) before 2.8.0; listed in the 3.x
	// openapi.json.
	suggestions bool
	// cookbookRecipes makes GET /api/households/cookbooks/{id} embed the
	// matching recipes. 2.0 does (cookbooks__get_by_id.json); Mealie PR #5899
	// (2025-08, 3.x) removed it (cases C29; the 3.x openapi.json has no
	// RecipeCookBook schema).
	cookbookRecipes bool
	// extraEntryTypes accepts snack, drink and dessert as meal-plan entry types.
	// 2.0 rejects "snack" (mealplans__create_422_bad_entry_type.json); Mealie PR
	// #6149 (2025-09, 3.x) added them (cases C20).
	extraEntryTypes bool
	// organizerGroupID adds groupId to tags and categories inside recipes, as the
	// 3.x openapi.json RecipeTag and RecipeCategory schemas do.
	organizerGroupID bool
	// userAnnouncements adds showAnnouncements/lastReadAnnouncement to the user,
	// as the 3.x openapi.json UserOut does.
	userAnnouncements bool
	// newTagInPatch creates a tag sent as {name, slug} without an id in a recipe
	// PATCH instead of failing with 500 TypeError. 2.0 fails
	// (recipes_patch__tag_name_slug_new.json); Mealie PR #6803 (2025-12) fixed it
	// (cases C03).
	newTagInPatch bool
	// renameMovesSlug makes a PATCH carrying a name store slugify(name), so
	// the old slug is a 404 at once and later writes by the new slug work.
	// 2.0 keeps the stored slug behind (recipes_patch__rename.json,
	// recipes_get__new_slug_after_patch_rename.json). 2.8 has the same code
	// path: mealie/services/recipe/recipe_service.py patch_one dumps the body
	// with exclude_unset and patches the row found by its stored slug, through
	// every 2.x release. The 3 profile follows the seed's measurement against
	// Mealie 3.22 (mcp-mealie-current-state, "Renaming changes the slug": the
	// slug the caller passed is a 404 after the rename).
	renameMovesSlug bool
	// inUseDeleteConflict answers DELETE of a food or unit still used by a
	// recipe or a shopping-list item with 409 ForeignKeyViolation instead of
	// deleting it and nulling the uses. 2.0 deletes silently
	// (foods_delete__in_use_by_recipe.json, recipes_get__after_food_delete.json);
	// 2.8 shares 2.0's generic delete mixin (mealie/routes/_base/mixins.py
	// delete_one, unchanged through 2.x). Mealie 3.22 answers 409
	// ForeignKeyViolation (cases C09: mgummich/mcp-mealie 371aaab, mealie#7710).
	inUseDeleteConflict bool
	// caseInsensitiveFilter compares strings in queryFilter and cookbook
	// filters without regard to case. Mealie PR #5162 (2025-03, "case
	// insensitive query filters", listed in the v2.8.0 release notes) made
	// them so; 2.0 compares as SQLite's "=" does, case-sensitively (cases C28).
	caseInsensitiveFilter bool
}

// profiles are the versions the emulator knows.
var profiles = map[string]profile{
	"2.0": {
		name: "2.0", version: "v2.0.0",
		ingredientFlags: true, cookbookRecipes: true,
	},
	// 2.8 (released 2025-03-18) sits between the 2.0 captures and 3.x: it has
	// the two migrations dated before its release (structured yields,
	// household on-hand), keeps 2.0's error shapes, entry types, embedded
	// cookbook recipes, PATCH slug handling, silent delete of a used food and
	// the self-merge that deletes, and gains GET /api/recipes/suggestions
	// (Mealie PR #4542 "Recipe Finder", 2024-11, in 2.x before 2.8.0).
	//
	// Merging a food into itself deletes it on every profile: 2.0 shows it
	// (foods_merge__into_itself.json), and RepositoryFood.merge in
	// mealie/repos/repository_foods.py still moves the ingredients, deletes
	// the from-row and re-reads the to-row with no check that they differ in
	// the latest 3.x source.
	"2.8": {
		name: "2.8", version: "v2.8.0",
		structuredYield: true, householdOnHand: true, ingredientFlags: true,
		suggestions: true, cookbookRecipes: true, caseInsensitiveFilter: true,
	},
	"3.11": {
		name: "3.11", version: "v3.11.0",
		structuredYield: true, householdOnHand: true, suggestions: true,
		extraEntryTypes: true, organizerGroupID: true, userAnnouncements: true,
		newTagInPatch: true, renameMovesSlug: true, inUseDeleteConflict: true,
		caseInsensitiveFilter: true,
	},
}

// lookupProfile returns the named profile.
func lookupProfile(name string) (profile, error) {
	p, ok := profiles[name]
	if !ok {
		return profile{}, fmt.Errorf("mealietest: unknown Mealie version %q (want 2.0, 2.8 or 3)", name)
	}
	return p, nil
}
