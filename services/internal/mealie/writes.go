package mealie

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// recipeResource names a recipe in a 404 message: "recipe 'x' not found".
func recipeResource(slug string) string { return fmt.Sprintf("recipe '%s'", slug) }

func recipePath(slug string) string { return "/api/recipes/" + url.PathEscape(slug) }

// decodeSlug reads the bare JSON string Mealie answers a create with
// (testdata/recipes_create__ok.json: 201 "fixture-pancakes").
func decodeSlug(body []byte, what string) (string, error) {
	var slug string
	if err := json.Unmarshal(body, &slug); err != nil || strings.TrimSpace(slug) == "" {
		return "", &Error{Kind: KindProtocol, Message: fmt.Sprintf("Mealie answered %s without a recipe slug", what)}
	}
	return slug, nil
}

// CreateRecipe sends POST /api/recipes {name} and returns the new slug.
// Mealie ignores every other field of the create body,
// so the rest is a follow-up PATCH.
func (c *Client) CreateRecipe(ctx context.Context, name string) (string, error) {
	body, err := c.Raw(ctx, Request{Method: http.MethodPost, Path: "/api/recipes", Body: map[string]string{"name": name}, Resource: "recipe list",
		Subject: fmt.Sprintf("the recipe '%s'", name)})
	if err != nil {
		return "", err
	}
	return decodeSlug(body, "the recipe create")
}

// DuplicateRecipe sends POST /api/recipes/{slug}/duplicate {name}: Mealie
// copies the recipe and answers with the copy (openapi.json of 2.0 and 3.x).
func (c *Client) DuplicateRecipe(ctx context.Context, slug, name string) (*Recipe, error) {
	var r Recipe
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: recipePath(slug) + "/duplicate", Body: map[string]string{"name": name}, Resource: recipeResource(slug)}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// PatchRecipe sends PATCH /api/recipes/{slug} with patch and returns the
// recipe as Mealie answers it. PATCH replaces list fields wholesale
// (TestPatchReplacesTags in integration/contract); callers merge first.
func (c *Client) PatchRecipe(ctx context.Context, slug string, patch *RecipePatch) (*Recipe, error) {
	var r Recipe
	if err := c.Do(ctx, Request{Method: http.MethodPatch, Path: recipePath(slug), Body: patch, Resource: recipeResource(slug)}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// RenameRecipe sends PUT /api/recipes/{slug} with the whole recipe cur, as
// GetRecipe read it, changed by patch and named name (see renameBody). PUT
// is the only write that moves the stored slug on Mealie 2.0
// (TestRenameWithSlugOrPut in integration/contract; PATCH {name}
// desynchronises it, TestPatchNameKeepsStoredSlug there), and it replaces
// the recipe whole, so every field Mealie sent goes back.
func (c *Client) RenameRecipe(ctx context.Context, slug string, cur *Recipe, patch *RecipePatch, name string) (*Recipe, error) {
	if cur.body == nil {
		return nil, &Error{Kind: KindProtocol, Message: fmt.Sprintf("recipe '%s': renaming needs the recipe as GetRecipe read it", slug)}
	}
	body, err := renameBody(cur.body, patch, name)
	if err != nil {
		return nil, &Error{Kind: KindProtocol, Message: fmt.Sprintf("recipe '%s': %v", slug, err)}
	}
	var r Recipe
	if err := c.Do(ctx, Request{Method: http.MethodPut, Path: recipePath(slug), Body: body, Resource: recipeResource(slug)}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// DeleteRecipe sends DELETE /api/recipes/{slug}.
func (c *Client) DeleteRecipe(ctx context.Context, slug string) error {
	_, err := c.Raw(ctx, Request{Method: http.MethodDelete, Path: recipePath(slug), Resource: recipeResource(slug)})
	return err
}

// BulkDeleteRecipes sends POST /api/recipes/bulk-actions/delete. Mealie
// answers 200 null even for unknown slugs (TestBulkTagCategorizeDelete in integration/contract).
func (c *Client) BulkDeleteRecipes(ctx context.Context, slugs []string) error {
	_, err := c.Raw(ctx, Request{Method: http.MethodPost, Path: "/api/recipes/bulk-actions/delete", Body: map[string]any{"recipes": slugs}, Resource: "bulk delete"})
	return err
}

// BulkTagRecipes sends POST /api/recipes/bulk-actions/tag; it adds, never
// removes. Tags must be full objects.
func (c *Client) BulkTagRecipes(ctx context.Context, slugs []string, tags []Organizer) error {
	_, err := c.Raw(ctx, Request{Method: http.MethodPost, Path: "/api/recipes/bulk-actions/tag", Body: map[string]any{"recipes": slugs, "tags": tags}, Resource: "bulk tag"})
	return err
}

// BulkCategorizeRecipes sends POST /api/recipes/bulk-actions/categorize.
func (c *Client) BulkCategorizeRecipes(ctx context.Context, slugs []string, cats []Organizer) error {
	_, err := c.Raw(ctx, Request{Method: http.MethodPost, Path: "/api/recipes/bulk-actions/categorize", Body: map[string]any{"recipes": slugs, "categories": cats}, Resource: "bulk categorize"})
	return err
}

// SetRecipeImageURL sends POST /api/recipes/{slug}/image {url}. Mealie
// answers 200 null even when it could not fetch the image
// (TestRecipeImageFromUnreachableURL in integration/contract).
func (c *Client) SetRecipeImageURL(ctx context.Context, slug, imageURL string) error {
	_, err := c.Raw(ctx, Request{Method: http.MethodPost, Path: recipePath(slug) + "/image", Body: map[string]string{"url": imageURL}, Resource: recipeResource(slug)})
	return err
}

// UploadRecipeImage sends PUT /api/recipes/{slug}/image as multipart with
// the file in "image" and the extension, without a dot, in "extension":
// Mealie names the stored file from it and answers 422 without it.
func (c *Client) UploadRecipeImage(ctx context.Context, slug string, image []byte, ext string) error {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("image", "image."+ext)
	if err != nil {
		return err
	}
	if _, err := fw.Write(image); err != nil {
		return err
	}
	if err := mw.WriteField("extension", ext); err != nil {
		return err
	}
	if err := mw.Close(); err != nil {
		return err
	}
	_, err = c.Upload(ctx, Request{Method: http.MethodPut, Path: recipePath(slug) + "/image", Resource: recipeResource(slug)}, mw.FormDataContentType(), buf.Bytes())
	return err
}

// ImportRecipeURL sends POST /api/recipes/create/url and returns the new
// slug. includeCategories is a 3.x field that 2.0 ignores.
func (c *Client) ImportRecipeURL(ctx context.Context, pageURL string, includeTags, includeCategories bool) (string, error) {
	body, err := c.Raw(ctx, Request{Method: http.MethodPost, Path: "/api/recipes/create/url",
		Body: map[string]any{"url": pageURL, "includeTags": includeTags, "includeCategories": includeCategories}, Resource: "recipe import"})
	if err != nil {
		// Seen on 2.0, 2.8 and 3.11: a host that does not resolve, an
		// address that does not answer and a local address Mealie's guard
		// refuses are all a bare 500. 3.20 answers every failed import 400
		// with the exception's class name as the message ("gaierror",
		// "InvalidDomainError", "HTTPException" for a page without a
		// recipe; integration/contract/testdata/recordings/3.20/TestErrorBodyShapes.json).
		msg := fmt.Sprintf(
			"Mealie could not import %s: it could not fetch the page (the address does not resolve or answer, or is a local one Mealie refuses) or found no recipe in it; check that the URL opens in a browser, or create the recipe from its text instead", pageURL)
		return "", explainImportFailure(explain5xx(err, msg), msg)
	}
	return decodeSlug(body, "the URL import")
}

// exceptionName matches a Python exception's class name, which is all 3.20
// says of a failed URL import.
var exceptionName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(Error|Exception)$|^gaierror$|^herror$|^timeout$`)

// explainImportFailure rewords 3.20's 400 for a failed URL import, whose
// detail is only an exception's class name, with what it means; any other
// error is returned as it is.
func explainImportFailure(err error, msg string) error {
	var e *Error
	if !errors.As(err, &e) || e.Status != http.StatusBadRequest || !exceptionName.MatchString(e.Detail) {
		return err
	}
	out := *e
	out.Message = fmt.Sprintf("%s (Mealie answered 400 %s)", msg, e.Detail)
	return &out
}

// TimelineEvent is POST /api/recipes/timeline/events
// (TestTimelineAndLastMade in integration/contract).
type TimelineEvent struct {
	ID           string `json:"id,omitempty"`
	RecipeID     string `json:"recipeId"`
	Subject      string `json:"subject"`
	EventType    string `json:"eventType"`
	EventMessage string `json:"eventMessage,omitempty"`
	// Timestamp must be sent: without it Mealie stores its process start
	// time (TestTimelineAndLastMade in integration/contract, timestamp vs createdAt).
	Timestamp string `json:"timestamp"`
}

// CreateTimelineEvent writes one timeline event.
func (c *Client) CreateTimelineEvent(ctx context.Context, ev TimelineEvent) (*TimelineEvent, error) {
	var out TimelineEvent
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/recipes/timeline/events", Body: ev, Resource: "timeline event"}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetLastMade sends PATCH /api/recipes/{slug}/last-made {timestamp}
// (TestTimelineAndLastMade in integration/contract) and returns the recipe
// Mealie answers with: its lastMade is what Mealie stored, which on 2.8 and
// 3.11 stays the later day when timestamp is earlier
// (TestBackdatedLastMade there).
func (c *Client) SetLastMade(ctx context.Context, slug, timestamp string) (*Recipe, error) {
	var r Recipe
	if err := c.Do(ctx, Request{Method: http.MethodPatch, Path: recipePath(slug) + "/last-made", Body: map[string]string{"timestamp": timestamp}, Resource: recipeResource(slug)}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// ParsedIngredient is one item of POST /api/parser/ingredients
// (services/mealplan/testdata/parser_ingredients__brute.json).
type ParsedIngredient struct {
	Input      string `json:"input"`
	Confidence struct {
		Average *float64 `json:"average"`
	} `json:"confidence"`
	Ingredient RecipeIngredient `json:"ingredient"`
}

// ParseIngredients runs Mealie's parser ("nlp", "brute" or "openai") over
// lines. It changes nothing, so it is a POST that reads.
func (c *Client) ParseIngredients(ctx context.Context, parser string, lines []string) ([]ParsedIngredient, error) {
	var out []ParsedIngredient
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/parser/ingredients", Body: map[string]any{"parser": parser, "ingredients": lines}, Resource: "ingredient parser", Reads: true}, &out); err != nil {
		return nil, explain5xx(err, parserFailure(parser))
	}
	return out, nil
}

// parserFailure says what a bare 500 from one of Mealie's parsers means.
// Seen: nlp on 2.0 shells out to CRF++ with a model its Docker build
// downloads, and answers 500 where the model is missing; openai answers 500
// on 2.0, 2.8, 3.11 and 3.20 when Mealie has no OpenAI settings (3.20:
// no AI provider set for the group).
func parserFailure(parser string) string {
	switch parser {
	case "nlp":
		return "Mealie's nlp ingredient parser failed on the server (on Mealie 2.0 its CRF++ model is often missing)"
	case "openai":
		return "Mealie's openai ingredient parser failed: it needs OpenAI to be configured on the Mealie server"
	default:
		return fmt.Sprintf("Mealie's %s ingredient parser failed on the server", parser)
	}
}

// SuggestionQuery is the query of GET /api/recipes/suggestions (3.x only;
// 2.0 answers 404,
// services/recipes/testdata/recipes_suggestions__not_in_2_0.json).
type SuggestionQuery struct {
	FoodIDs, ToolIDs []string
	Limit            int
	MaxMissingFoods  int
	MaxMissingTools  int
}

// Suggestion is one item of the suggestions answer (3.x openapi.json,
// RecipeSuggestionResponseItem).
type Suggestion struct {
	Recipe       RecipeSummary `json:"recipe"`
	MissingFoods []Food        `json:"missingFoods"`
	MissingTools []Organizer   `json:"missingTools"`
}

// SuggestRecipes reads GET /api/recipes/suggestions.
func (c *Client) SuggestRecipes(ctx context.Context, q SuggestionQuery) ([]Suggestion, error) {
	v := url.Values{}
	for _, f := range q.FoodIDs {
		v.Add("foods", f)
	}
	for _, t := range q.ToolIDs {
		v.Add("tools", t)
	}
	v.Set("limit", fmt.Sprint(q.Limit))
	v.Set("maxMissingFoods", fmt.Sprint(q.MaxMissingFoods))
	v.Set("maxMissingTools", fmt.Sprint(q.MaxMissingTools))
	var out struct {
		Items []Suggestion `json:"items"`
	}
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/recipes/suggestions", Query: v, Resource: "Mealie's suggestions endpoint"}, &out); err != nil {
		return nil, err
	}
	return out.Items, nil
}
