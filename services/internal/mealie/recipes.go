package mealie

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// Page is Mealie's pagination envelope
// (services/recipes/testdata/recipes_list__default.json). Next and Previous are
// relative URLs or null.
type Page[T any] struct {
	Page       int     `json:"page"`
	PerPage    int     `json:"per_page"`
	Total      int     `json:"total"`
	TotalPages int     `json:"total_pages"`
	Items      []T     `json:"items"`
	Next       *string `json:"next"`
	Previous   *string `json:"previous"`
}

// Organizer is a tag, category or tool as a recipe carries it. Mealie needs
// id, name and slug on write: a name alone is a 422
// (testdata/recipes_patch__tag_name_only_422.json).
type Organizer struct {
	ID      string `json:"id,omitempty"`
	Name    string `json:"name"`
	Slug    string `json:"slug"`
	GroupID string `json:"groupId,omitempty"`
}

// RecipeSummary is one item of GET /api/recipes.
type RecipeSummary struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Slug        string  `json:"slug"`
	Image       *string `json:"image"`
	Description *string `json:"description"`
	RecipeYield *string `json:"recipeYield"`
	TotalTime   *string `json:"totalTime"`
	PrepTime    *string `json:"prepTime"`
	CookTime    *string `json:"cookTime"`
	// PerformTime is what Mealie's UI labels "Cook Time" and what its
	// scraper fills from a page's cookTime; cookTime itself is mostly empty.
	PerformTime *string     `json:"performTime"`
	Categories  []Organizer `json:"recipeCategory"`
	Tags        []Organizer `json:"tags"`
	Tools       []Organizer `json:"tools"`
	Rating      *float64    `json:"rating"`
	OrgURL      *string     `json:"orgURL"`
	DateAdded   *string     `json:"dateAdded"`
	LastMade    *string     `json:"lastMade"`
	// DateUpdated is the day Mealie's recipe writes last set, the "last
	// updated" of its app.
	DateUpdated *string `json:"dateUpdated"`
	// UpdatedAt changes on every write to the recipe, from sous or from
	// Mealie's app; it validates cached details (RecipeDetailAt).
	UpdatedAt *string `json:"updatedAt"`
}

// Food is an ingredient food as a recipe line carries it (trimmed to what
// sous reads).
type Food struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Unit is an ingredient unit as a recipe line carries it.
type Unit struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Abbreviation string `json:"abbreviation,omitempty"`
}

// RecipeIngredient is one line of recipeIngredient.
type RecipeIngredient struct {
	Quantity      *float64 `json:"quantity"`
	Unit          *Unit    `json:"unit"`
	Food          *Food    `json:"food"`
	Note          *string  `json:"note"`
	IsFood        *bool    `json:"isFood"`
	DisableAmount *bool    `json:"disableAmount"`
	Display       string   `json:"display"`
	Title         *string  `json:"title"`
	OriginalText  *string  `json:"originalText"`
	ReferenceID   *string  `json:"referenceId"`
	// ReferencedRecipe is the recipe a line uses as an ingredient (Mealie
	// 3.5 and later, which sends the whole sub-recipe): only its summary
	// is read, so an answer names it rather than carrying its body.
	ReferencedRecipe *RecipeSummary `json:"referencedRecipe"`
}

// RecipeStep is one instruction step.
type RecipeStep struct {
	ID    *string `json:"id"`
	Title *string `json:"title"`
	Text  string  `json:"text"`
}

// RecipeNote is a titled note.
type RecipeNote struct {
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Recipe is GET /api/recipes/{slug} (testdata/recipes_get__fresh.json), trimmed to
// what sous reads. A recipe GetRecipe read also keeps the body Mealie sent,
// every field sous does not read included, for the whole-recipe PUT of a
// rename (RenameRecipe).
type Recipe struct {
	RecipeSummary
	Ingredients  []RecipeIngredient `json:"recipeIngredient"`
	Instructions []RecipeStep       `json:"recipeInstructions"`
	Notes        []RecipeNote       `json:"notes"`
	// Settings is the recipe's settings object as Mealie sent it. A write
	// that changes one setting sends it whole: PATCH {settings:
	// {disableAmount: false}} on Mealie 2.0 and 2.8 reset public,
	// showNutrition, showAssets and landscapeView to true (seen on both).
	Settings map[string]any `json:"settings"`
	// body is the JSON Mealie answered GetRecipe with; nil for a recipe
	// decoded from any other answer.
	body json.RawMessage
}

// AmountsHidden reports the 2.x recipe setting disableAmount: while it is
// on, Mealie's app shows each ingredient line as its note alone
// (frontend/composables/recipes/use-recipe-ingredients.ts,
// useParsedIngredientText, in 2.0 and 2.8) and Mealie recomputes every
// line's display without unit and food. Mealie 3 has no such setting.
func (r *Recipe) AmountsHidden() bool {
	v, _ := r.Settings["disableAmount"].(bool)
	return v
}

// RecipeQuery is the query of GET /api/recipes.
type RecipeQuery struct {
	Page       int
	PerPage    int
	Search     string
	Tags       []string // slugs or ids
	Categories []string
	Tools      []string
	Foods      []string // ids
	RequireAll bool
	Cookbook   string
	OrderBy    string
	// OrderDirection is "asc" or "desc"; Mealie's default is desc, so an
	// order by name without it lists Z to A.
	OrderDirection string
	// QueryFilter is Mealie's queryFilter DSL.
	QueryFilter string
}

// Values encodes the query as Mealie reads it.
func (q RecipeQuery) Values() url.Values {
	v := url.Values{}
	if q.Page > 0 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	if q.PerPage != 0 {
		v.Set("perPage", strconv.Itoa(q.PerPage))
	}
	if q.Search != "" {
		v.Set("search", q.Search)
	}
	for _, t := range q.Tags {
		v.Add("tags", t)
	}
	for _, c := range q.Categories {
		v.Add("categories", c)
	}
	for _, t := range q.Tools {
		v.Add("tools", t)
	}
	for _, f := range q.Foods {
		v.Add("foods", f)
	}
	if q.RequireAll {
		// Mealie has one flag per filter kind.
		v.Set("requireAllTags", "true")
		v.Set("requireAllCategories", "true")
		v.Set("requireAllTools", "true")
		v.Set("requireAllFoods", "true")
	}
	if q.Cookbook != "" {
		v.Set("cookbook", q.Cookbook)
	}
	if q.OrderBy != "" {
		v.Set("orderBy", q.OrderBy)
	}
	if q.OrderDirection != "" {
		v.Set("orderDirection", q.OrderDirection)
	}
	if q.QueryFilter != "" {
		v.Set("queryFilter", q.QueryFilter)
	}
	return v
}

// ListRecipes reads one page of GET /api/recipes.
func (c *Client) ListRecipes(ctx context.Context, q RecipeQuery) (*Page[RecipeSummary], error) {
	var page Page[RecipeSummary]
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/recipes", Query: q.Values(), Resource: "recipe list"}, &page); err != nil {
		return nil, err
	}
	return &page, nil
}

// GetRecipe reads GET /api/recipes/{slug} (a slug or an id) and returns the
// typed recipe and its raw JSON body.
func (c *Client) GetRecipe(ctx context.Context, slug string) (*Recipe, json.RawMessage, error) {
	body, err := c.Raw(ctx, Request{Method: http.MethodGet, Path: "/api/recipes/" + url.PathEscape(slug), Resource: fmt.Sprintf("recipe '%s'", slug)})
	if err != nil {
		return nil, nil, err
	}
	var r Recipe
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, nil, &Error{Kind: KindProtocol, Message: fmt.Sprintf("Mealie answered recipe '%s' with a payload sous cannot read: %v", slug, err)}
	}
	r.body = body
	return &r, body, nil
}

// About is GET /api/app/about (testdata/app_about__ok.json).
type About struct {
	Version string `json:"version"`
	// EnableOpenai says whether Mealie has OpenAI configured, which its
	// openai ingredient parser needs (2.0 to 3.11). 3.20 sets OpenAI per
	// group as an AI provider and drops the key, so it is nil there
	// (integration/contract/testdata/recordings/3.20/TestAboutAndAuth.json);
	// OpenAIEnabled reads either.
	EnableOpenai *bool `json:"enableOpenai"`
}

// User is GET /api/users/self, trimmed (testdata/users_self__ok.json).
type User struct {
	// ID addresses the user's own routes, such as its recipe ratings.
	ID        string `json:"id"`
	Username  string `json:"username"`
	FullName  string `json:"fullName"`
	Household string `json:"household"`
	Group     string `json:"group"`
}

// OpenAIEnabled says whether Mealie's openai ingredient parser has what it
// needs, or nil when Mealie does not say. 2.0 to 3.11 say it in about's
// enableOpenai; 3.20 sets OpenAI per group as an AI provider and says it in
// GET /api/groups/self, aiProviderSettings.aiEnabled
// (integration/contract/testdata/recordings/3.20/TestAboutAndAuth.json).
func (c *Client) OpenAIEnabled(ctx context.Context) *bool {
	about, err := c.About(ctx)
	if err != nil {
		return nil
	}
	if about.EnableOpenai != nil {
		return about.EnableOpenai
	}
	var g struct {
		AIProviderSettings *struct {
			AIEnabled *bool `json:"aiEnabled"`
		} `json:"aiProviderSettings"`
	}
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/groups/self", Resource: "Mealie's group"}, &g); err != nil || g.AIProviderSettings == nil {
		return nil
	}
	return g.AIProviderSettings.AIEnabled
}

// About reads Mealie's version; the endpoint needs no token.
func (c *Client) About(ctx context.Context) (*About, error) {
	var a About
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/app/about", Resource: "Mealie's /api/app/about"}, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// Self reads the token's user.
func (c *Client) Self(ctx context.Context) (*User, error) {
	var u User
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/users/self", Resource: "Mealie's /api/users/self"}, &u); err != nil {
		return nil, err
	}
	return &u, nil
}
