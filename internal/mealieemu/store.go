package mealieemu

import (
	"crypto/sha1"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/souskitchen/sous/internal/mealieslug"
)

// store is the emulator's whole state: one group, one household, one user, and
// the rows of each resource in creation order. Every handler takes mu for the
// whole request, which keeps each request atomic as a database transaction
// would and is fast enough for the few thousand rows the bench seed makes.
type store struct {
	// renderingSub counts nested renders of a referencedRecipe (held
	// under mu).
	renderingSub int
	mu           sync.Mutex
	profile      profile
	now          func() time.Time

	user      user
	apiTokens []*apiToken
	// sessions are tokens issued by POST /api/auth/token.
	sessions map[string]bool

	labels        []*label
	foods         []*food
	units         []*unit
	tags          []*organizer
	categories    []*organizer
	tools         []*organizer
	recipes       []*recipe
	mealplans     []*mealplan
	cookbooks     []*cookbook
	shoppingLists []*shoppingList
	timeline      []*timelineEvent

	nextTokenID int
	// images holds uploaded recipe images by recipe id.
	images map[string][]byte
	// drawLater holds the demo seed's drawn images by recipe id, drawn on
	// their first request (handleMedia) so that start-up waits for none.
	drawLater map[string]func() []byte
	// userRatings holds the token user's rating by recipe id (ratings.go).
	userRatings map[string]float64
	// fetchable holds the image URLs POST /api/recipes/{slug}/image can
	// fetch (WithFetchableImage); any other URL fetches nothing.
	fetchable map[string][]byte
	// failParsers holds the parsers that answer a bare 500 (FailParser).
	failParsers map[string]bool
	// startedAt is the server start, which Mealie stores as the timestamp of a
	// timeline event created without one (TestTimelineAndLastMade in integration/contract).
	startedAt time.Time
	// lastMealplanID is the last meal-plan id handed out, which a
	// PostgreSQL profile never hands out again (newMealplanID).
	lastMealplanID int
}

// user is the account every token authenticates as.
type user struct {
	ID, Username, FullName, Email string
	GroupID, GroupName, GroupSlug string
	HouseholdID, HouseholdName    string
	HouseholdSlug                 string
}

// apiToken is a long-lived token minted through POST /api/users/api-tokens.
type apiToken struct {
	ID      int
	Name    string
	Token   string
	Deleted bool
}

// label is a group label.
type label struct {
	ID, Name, Color string
}

// food is an ingredient food.
type food struct {
	ID          string
	Name        string
	PluralName  *string
	Description string
	OnHand      bool
	LabelID     *string
	Aliases     []string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// unit is an ingredient unit.
type unit struct {
	ID                 string
	Name               string
	PluralName         *string
	Description        string
	OnHand             bool
	Fraction           bool
	Abbreviation       string
	PluralAbbreviation string
	// pluralAbbrNull renders pluralAbbreviation null, as a unit Mealie's
	// seeder made without one (TestUnitsSeeder.json).
	pluralAbbrNull bool
	// StandardQuantity and StandardUnit are 3.20's unit standards, set
	// when the unit is created (standardize).
	StandardQuantity *float64
	StandardUnit     *string
	UseAbbreviation  bool
	Aliases          []string
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// organizer is a tag, category or tool; only tools use OnHand.
type organizer struct {
	ID, Name, Slug string
	OnHand         bool
	// UpdatedAt is the row's update_at, which real Mealie (2.0, 2.8, 3.11)
	// lets tag, category and tool lists be ordered by; it moves on create
	// and rename. Seeded rows keep the zero time.
	UpdatedAt time.Time
}

// recipe is one recipe row.
type recipe struct {
	ID string
	// Slug is the stored slug, the one GET by slug matches and the list shows.
	Slug string
	Name string
	// broken is set when a PATCH stored an ingredient without a referenceId:
	// the row no longer serialises, so GET, PATCH, PUT and DELETE answer 500
	// ValidationError while the list still shows it.
	broken bool

	Image                                             *string
	Servings, YieldQuantity                           float64
	Yield, TotalTime, PrepTime, CookTime, PerformTime *string
	Description                                       string
	CategoryIDs, TagIDs, ToolIDs                      []string
	Rating                                            *float64
	OrgURL                                            *string
	DateAdded                                         time.Time
	DateUpdated, CreatedAt, UpdatedAt                 time.Time
	LastMade                                          *time.Time
	Ingredients                                       []ingredient
	Instructions                                      []step
	Nutrition                                         map[string]*string
	Settings                                          recipeSettings
	Assets                                            []any
	Notes                                             []note
	Extras                                            map[string]any
}

// ingredient is one recipeIngredient entry. Food and unit are held by id and
// resolved on every read, so a rename or delete of the food shows through, as it
// does in Mealie (TestDeleteFoodInUseNullsIngredient in integration/contract).
type ingredient struct {
	Quantity      *float64
	UnitID        *string
	FoodID        *string
	Note          string
	IsFood        bool
	DisableAmount bool
	Title         *string
	OriginalText  *string
	ReferenceID   *string
	// RecipeID is the recipe the line uses as an ingredient
	// (referencedRecipe, Mealie 3.5 and later; kept on the 3.11 profile).
	RecipeID *string
}

// step is one recipeInstructions entry.
type step struct {
	ID                   string
	Title, Summary       *string
	Text                 string
	IngredientReferences []string
}

// note is one recipe note.
type note struct {
	Title, Text string
}

// recipeSettings is the recipe's settings object (services/internal/mealie/testdata/recipes_get__fresh.json).
type recipeSettings struct {
	Public, ShowNutrition, ShowAssets, LandscapeView, DisableComments, DisableAmount, Locked bool
}

// mealplan is one meal-plan entry; ids are integers (services/mealplan/testdata/mealplans__get_one.json).
type mealplan struct {
	ID        int
	Date      string
	EntryType string
	Title     string
	Text      string
	RecipeID  *string
}

// cookbook is a household cookbook (services/library/testdata/cookbooks__create_ok.json).
type cookbook struct {
	ID                string
	Name              string
	Description       string
	Slug              string
	Position          int
	Public            bool
	QueryFilterString string
}

// shoppingList is a household shopping list (services/mealplan/testdata/shopping_lists__get_after_add_recipe.json).
type shoppingList struct {
	ID        string
	Name      *string
	CreatedAt time.Time
	// CreatedLost is set by a PUT without createdAt: Mealie writes the
	// list whole and answers createdAt null from then on
	// (testdata/recordings/<version>/TestShoppingListRenameKeepsItems.json
	// in the contract package).
	CreatedLost bool
	UpdatedAt   time.Time
	Items       []*shoppingItem
	// RecipeRefs counts how many times each recipe was added.
	RecipeRefs []*listRecipeRef
}

// listRecipeRef is one entry of a list's recipeReferences.
type listRecipeRef struct {
	ID             string
	RecipeID       string
	RecipeQuantity float64
}

// shoppingItem is one item of a shopping list.
type shoppingItem struct {
	ID       string
	Quantity float64
	UnitID   *string
	FoodID   *string
	LabelID  *string
	Note     string
	// IsFood is the 2.x flag that shows the food in display: set for an
	// item added from a recipe line with a food, false unless sent otherwise.
	IsFood     bool
	Checked    bool
	Position   int
	Extras     map[string]any
	RecipeRefs []*itemRecipeRef
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// itemRecipeRef records which recipe contributed to an item.
type itemRecipeRef struct {
	ID             string
	RecipeID       string
	RecipeQuantity float64
	RecipeScale    float64
	// RecipeNote is the ingredient's note (services/mealplan/testdata/shopping_lists__add_recipe.json).
	RecipeNote *string
}

// timelineEvent is a recipe timeline event (TestTimelineAndLastMade in integration/contract).
type timelineEvent struct {
	ID           string
	RecipeID     string
	Subject      string
	EventType    string
	EventMessage *string
	Image        *string
	Timestamp    time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// idNamespace seeds the name-derived ids of seeded rows.
var idNamespace = uuid.MustParse("5f2b6a64-3c1e-4e61-9d57-6b0c3a1e2f40")

// seedID returns a deterministic id for a seeded row. It is a name-based UUID
// (version 5, SHA-1) with its version nibble set to 4, because Mealie rejects
// any path id that is not a version-4 UUID.
func seedID(kind, name string) string {
	u := uuid.NewHash(sha1.New(), idNamespace, []byte(kind+"\x00"+name), 5)
	u[6] = (u[6] & 0x0f) | 0x40
	return u.String()
}

// newID returns a random version-4 id for a row created over the API.
func newID() string { return uuid.NewString() }

// findRecipe resolves a recipe by stored slug or by id, as
// GET /api/recipes/{slug} does.
func (s *store) findRecipe(key string) *recipe {
	for _, r := range s.recipes {
		if r.Slug == key || r.ID == key {
			return r
		}
	}
	return nil
}

func (s *store) recipeByID(id string) *recipe {
	for _, r := range s.recipes {
		if r.ID == id {
			return r
		}
	}
	return nil
}

func (s *store) foodByID(id string) *food {
	for _, f := range s.foods {
		if f.ID == id {
			return f
		}
	}
	return nil
}

func (s *store) foodByName(name string) *food {
	for _, f := range s.foods {
		if strings.EqualFold(f.Name, name) {
			return f
		}
	}
	return nil
}

func (s *store) unitByID(id string) *unit {
	for _, u := range s.units {
		if u.ID == id {
			return u
		}
	}
	return nil
}

func (s *store) labelByID(id string) *label {
	for _, l := range s.labels {
		if l.ID == id {
			return l
		}
	}
	return nil
}

func findOrganizer(list []*organizer, key string) *organizer {
	for _, o := range list {
		if o.ID == key || o.Slug == key {
			return o
		}
	}
	return nil
}

func (s *store) cookbookByKey(key string) *cookbook {
	for _, c := range s.cookbooks {
		if c.ID == key || c.Slug == key {
			return c
		}
	}
	return nil
}

func (s *store) mealplanByID(id int) *mealplan {
	for _, m := range s.mealplans {
		if m.ID == id {
			return m
		}
	}
	return nil
}

func (s *store) shoppingListByID(id string) *shoppingList {
	for _, l := range s.shoppingLists {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// uniqueRecipeSlug returns slug, or slug-1, slug-2... if a recipe already has it,
// as Mealie does for a repeated name (TestSlugCollisionSuffix in integration/contract).
func (s *store) uniqueRecipeSlug(slug string, except *recipe) string {
	taken := func(c string) bool {
		for _, r := range s.recipes {
			if r != except && r.Slug == c {
				return true
			}
		}
		return false
	}
	if !taken(slug) {
		return slug
	}
	for i := 1; ; i++ {
		c := slug + "-" + itoa(i)
		if !taken(c) {
			return c
		}
	}
}

// slugOf is Mealie's slugify (see internal/mealieslug).
func slugOf(name string) string { return mealieslug.Make(name) }
