// Package limits holds the bounds of the sous API's requests, written once.
//
// Each service checks its requests against these numbers before any backend
// request, so a direct Connect client is refused exactly as a model is; the
// MCP front builds its tool schemas from the same constants, so tools/list
// never promises more (or less) than a service accepts. They live beside the
// protobuf API they bound, in a package with no dependencies, so services
// and mcpfront can both import them while mcpfront still imports no service
// (docs/design.md, "One direction of dependency").
//
// Lengths count characters (runes), lists count items. The proto comments
// name the bounds in words for readers of the API; these are the numbers,
// and TestProtoCommentsStateTheLimits fails when the two disagree.
package limits

// Recipes service (sous.recipes.v1).
const (
	// RecipeSlugChars caps a slug: Mealie derives slugs from names, which
	// RecipeNameChars caps at the same length.
	RecipeSlugChars = 500
	// RecipeNameChars caps a recipe name (and a note's title); longer is a
	// paste, not a name.
	RecipeNameChars = 500
	// RecipeTextChars caps free text: a description, one step, one note.
	// Ten thousand characters is several printed pages.
	RecipeTextChars = 10000
	// RecipeShortTextChars caps the free-text times and yield ("15 min",
	// "4 servings"); a sentence is already far more than they hold.
	RecipeShortTextChars = 200
	// TaxonomyNameChars caps one tag, category, tool or food name; the
	// longest real ones ("gluten-free (with substitutions)") are a tenth
	// of it. The same cap bounds what unknown_foods can echo.
	TaxonomyNameChars = 200
	// RecipeIngredients caps the ingredient lines one write carries; a
	// recipe with more is a paste gone wrong, and each text line costs
	// parser time.
	RecipeIngredients = 200
	// RecipeInstructions caps the steps one write carries.
	RecipeInstructions = 200
	// IngredientLineChars caps one ingredient or parser line.
	IngredientLineChars = 500
	// RecipeNotes caps the notes one write carries.
	RecipeNotes = 50
	// BulkSlugs caps one bulk action, so a hallucinated list cannot fan
	// out into hundreds of writes.
	BulkSlugs = 100
	// ImageBytes caps an uploaded image; recipe photos are far smaller.
	ImageBytes = 10 << 20
	// DefaultSearchLimit is the page size when none is asked: enough to
	// choose from, few enough to stay a few hundred tokens.
	DefaultSearchLimit = 20
	// SearchLimit caps a page; larger pages cost tokens for rows a model
	// rarely reads.
	SearchLimit = 100
	// Page bounds page numbers so a hallucinated page=1e9 is refused
	// rather than sent.
	Page = 10000
	// DefaultSuggestLimit and SuggestLimit bound the suggestions returned.
	DefaultSuggestLimit = 10
	SuggestLimit        = 50
	// DefaultMissingFoods and MissingFoods bound how many foods a
	// suggestion may lack: past ten it is a shopping list, not a
	// suggestion.
	DefaultMissingFoods = 2
	MissingFoods        = 10
	// SuggestFoods caps the foods one suggestion request names: a full
	// fridge and larder is a few dozen, and each name is resolved against
	// Mealie's foods.
	SuggestFoods = 100
	// SuggestTools caps the tools one suggestion request names: a kitchen
	// holds far fewer tools than foods.
	SuggestTools = 50
	// SearchQueryChars caps a recipe search's free text: Mealie matches it
	// as words against names, descriptions and ingredients, so anything
	// longer than a name (TaxonomyNameChars) is a paste that matches
	// nothing.
	SearchQueryChars = 200
	// TaxonomyNames caps each list of tag, category, tool or food names a
	// search filters by or a bulk action adds: each name is resolved
	// against Mealie, and a recipe carries a handful, not dozens.
	TaxonomyNames = 50
	// TaxonomyRefChars caps a reference to one taxonomy item in a write
	// (an id to update, merge or delete, or the item to merge into): a
	// Mealie id is a 36-character UUID, and a name given instead is a
	// short word, not TaxonomyNameChars of text.
	TaxonomyRefChars = 100
	// URLChars caps a URL sous asks Mealie to fetch (a recipe page to
	// import, an image to set): 2000 characters is the length browsers
	// and proxies have long been safe with, and Mealie fetches it from
	// its own host.
	URLChars = 2000
	// MadeNoteChars caps the timeline note of a cook: a line about how it
	// went, not a recipe (whose steps RecipeTextChars bounds).
	MadeNoteChars = 1000
	// MinRecipeRating and MaxRecipeRating bound a recipe's rating: Mealie
	// rates 0 to 5 stars (Recipe.rating in recipes.proto).
	MinRecipeRating, MaxRecipeRating = 0, 5
	// ConfirmChars caps the confirmation an update repeats back: the
	// service issues 12 hexadecimal characters (services/recipes
	// confirmation), so anything far longer is not one.
	ConfirmChars = 64
	// ParseLines caps one ParseIngredients call.
	ParseLines = 100
	// ResolveSlugs caps one ResolveRecipeSlugs call.
	ResolveSlugs = 100
	// TaxonomyBatch caps one batched taxonomy call.
	TaxonomyBatch = 100
)

// Mealplan service (sous.mealplan.v1), meal plans and shopping lists.
const (
	// RandomDays caps RandomMealPlan: one Mealie write per day, so a
	// hallucinated range cannot fire hundreds of writes.
	RandomDays = 14
	// ReadDays caps GetMealPlan: a year of plans is already thousands of
	// tokens; a longer range is a mistake, not a question.
	ReadDays = 366
	// EntryTitleChars caps a meal plan entry's title.
	EntryTitleChars = 200
	// EntryNoteChars caps a meal plan entry's note.
	EntryNoteChars = 1000
	// ShoppingItems caps the free-text lines one AddToShoppingList call
	// carries, and the names of its have.
	ShoppingItems = 100
	// ShoppingItemChars caps one free-text shopping line, or one name of
	// have.
	ShoppingItemChars = 500
	// ShoppingRecipes caps distinct recipes per AddToShoppingList call,
	// named or planned: each is one GET of the recipe.
	ShoppingRecipes = 50
	// ShoppingRangeDays caps meal_plan_range: a month of plans.
	ShoppingRangeDays = 31
	// ShoppingItemOps caps each of check, uncheck and remove (one Mealie
	// write per id), and the items check_all_except leaves.
	ShoppingItemOps = 100
	// ShoppingListNameChars caps a shopping list's name.
	ShoppingListNameChars = 100
	// ShoppingListIDChars caps a shopping list id: Mealie's are
	// 36-character UUIDs, sent in the request path, so anything past
	// ShoppingListNameChars is not one.
	ShoppingListIDChars = 100
	// MinShoppingScale and MaxShoppingScale bound recipe_scale: a tenth
	// of a recipe to twenty times it.
	MinShoppingScale, MaxShoppingScale = 0.1, 20
	// EntryIDChars caps a meal plan entry id: Mealie's are integers, and
	// the largest 64-bit one is 19 digits (20 with a sign).
	EntryIDChars = 20
)

// Library service (sous.library.v1), cookbooks and whole-library reports.
const (
	// ScanRecipes caps every report's max_recipes: the recipes service's
	// detail cache holds 2000 recipes, and a larger sweep would evict
	// what it just read.
	ScanRecipes = 2000
	// DefaultLinkRecipes is CheckRecipeLinks' default max_recipes: each
	// source is a request to a third-party host.
	DefaultLinkRecipes = 200
	// DefaultTop is how many items LibraryStats returns unless asked, a
	// screenful.
	DefaultTop = 50
	// Top caps top: past 500 rows the report stops being a summary.
	Top = 500
	// CookbookNameChars bounds a cookbook's name: Mealie stores any
	// length, but a name is a heading, and 200 characters is already a
	// sentence.
	CookbookNameChars = 200
	// CookbookDescriptionChars caps a cookbook's description: a paragraph
	// or two is what one holds; the cap keeps a runaway caller's megabyte
	// from being stored on Mealie.
	CookbookDescriptionChars = 10000
	// CookbookIDChars caps a cookbook id or slug: ids are 36-character
	// UUIDs, slugs come from names (CookbookNameChars).
	CookbookIDChars = 200
	// CookbookQueryFilterChars caps a cookbook's queryFilterString: a
	// filter of several tags, categories and a date clause is a few
	// hundred characters, and Mealie parses it again on every read of the
	// cookbook's recipes.
	CookbookQueryFilterChars = 2000
	// CookbookPosition caps a cookbook's position: a household has a
	// handful of cookbooks, so a position past a thousand is a mistake.
	CookbookPosition = 1000
	// DefaultCookbookLimit is the page size of GetCookbookRecipes, the
	// search's default.
	DefaultCookbookLimit = DefaultSearchLimit
	// CookbookLimit caps a page, as the search does.
	CookbookLimit = SearchLimit
)

// Pantry service (sous.pantry.v1), the food API.
const (
	// PantryNameChars caps every name a pantry request carries
	// (ingredients, slots, meta-recipes, recipes), after whitespace is
	// collapsed. It is the food API's NAME_MAX_LENGTH: its name columns
	// hold 120 characters, plenty for "tinned chopped tomatoes with
	// garlic".
	PantryNameChars = 120
	// PantryAdditions caps AddToPantry's items: a big shop is a few dozen.
	PantryAdditions = 100
	// Servings caps servings in WhatCanICook and LogCook: a household
	// cooks for a few; 50 already covers a party.
	Servings = 50
	// MinRating and MaxRating bound a cook log's rating, 1-5 stars.
	MinRating, MaxRating = 1, 5
	// CookNotesChars caps a cook log's notes.
	CookNotesChars = 2000
	// MethodChars caps a meta-recipe's method: several printed pages of
	// steps, and no megabyte posted to the food API.
	MethodChars = 10000
	// Slots caps a meta-recipe's slots.
	Slots = 20
	// SlotOptions caps one slot's options.
	SlotOptions = 50
	// BaseIngredients caps a meta-recipe's base ingredients.
	BaseIngredients = 50
)
