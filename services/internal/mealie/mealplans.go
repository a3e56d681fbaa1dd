package mealie

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// Meal plan paging. Mealie pages every list; sous reads a range whole.
const (
	// MealPlanPageSize is the page size used to read a date range: a month
	// of four meals a day fits in one page.
	MealPlanPageSize = 200
	// MaxMealPlanPages bounds how many pages one range read follows, so a
	// server that keeps answering "next" cannot loop sous forever.
	MaxMealPlanPages = 50
)

// MealPlanEntry is one entry of /api/households/mealplans
// (services/mealplan/testdata/mealplans__create_recipe.json). ID is an integer, unlike most Mealie ids
// (services/mealplan/testdata/mealplans__get_uuid_instead_of_int_422.json). Recipe is null for a
// title-only entry and also for a recipeId that matches no recipe, which
// Mealie accepts (services/mealplan/testdata/mealplans__create_unknown_recipe.json).
type MealPlanEntry struct {
	ID        int            `json:"id"`
	Date      string         `json:"date"`
	EntryType string         `json:"entryType"`
	Title     string         `json:"title"`
	Text      string         `json:"text"`
	RecipeID  *string        `json:"recipeId"`
	Recipe    *RecipeSummary `json:"recipe"`
	// GroupID and UserID are the group and the user the entry belongs
	// to; an update must send them back (UpdatePlanEntry in every
	// version's openapi.json).
	GroupID string `json:"groupId"`
	UserID  string `json:"userId"`
}

// MealPlanUpdate is the body of PUT /api/households/mealplans/{id}: the
// entry whole, its id, group and user included, or Mealie answers 422
// (services/mealplan/testdata/mealplans__put_partial_422.json). RecipeID
// is null for a title-only entry: it is sent either way, so a recipe is
// cleared by sending none.
type MealPlanUpdate struct {
	ID        int     `json:"id"`
	GroupID   string  `json:"groupId"`
	UserID    string  `json:"userId"`
	Date      string  `json:"date"`
	EntryType string  `json:"entryType"`
	Title     string  `json:"title"`
	Text      string  `json:"text"`
	RecipeID  *string `json:"recipeId"`
}

// MealPlanCreate is the body of POST /api/households/mealplans. Mealie needs
// a recipeId or a title; neither is a 422 on `recipe_id`
// (services/mealplan/testdata/mealplans__create_422_no_recipe_no_title.json).
type MealPlanCreate struct {
	Date      string `json:"date"`
	EntryType string `json:"entryType"`
	Title     string `json:"title,omitempty"`
	Text      string `json:"text,omitempty"`
	RecipeID  string `json:"recipeId,omitempty"`
}

// ListMealPlans reads every entry dated start..end (YYYY-MM-DD, inclusive),
// following pages. The filters are snake_case: camelCase startDate/endDate
// are silently ignored by Mealie (services/mealplan/testdata/mealplans__list_camel_dates.json).
func (c *Client) ListMealPlans(ctx context.Context, start, end string) ([]MealPlanEntry, error) {
	var out []MealPlanEntry
	for page := 1; page <= MaxMealPlanPages; page++ {
		q := url.Values{}
		q.Set("start_date", start)
		q.Set("end_date", end)
		q.Set("page", strconv.Itoa(page))
		q.Set("perPage", strconv.Itoa(MealPlanPageSize))
		var p Page[MealPlanEntry]
		if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/households/mealplans", Query: q, Resource: "meal plan"}, &p); err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if len(p.Items) == 0 || page >= p.TotalPages {
			return out, nil
		}
	}
	return nil, &Error{Kind: KindProtocol, Message: fmt.Sprintf("Mealie's meal plan for %s to %s runs past %d pages", start, end, MaxMealPlanPages)}
}

// GetMealPlan reads one entry; an unknown id is KindNotFound
// (services/mealplan/testdata/mealplans__get_unknown_int.json).
func (c *Client) GetMealPlan(ctx context.Context, id int) (*MealPlanEntry, error) {
	var e MealPlanEntry
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/households/mealplans/" + strconv.Itoa(id), Resource: fmt.Sprintf("meal plan entry %d", id)}, &e); err != nil {
		return nil, err
	}
	return &e, nil
}

// CreateMealPlan writes one entry and returns it as stored (201).
func (c *Client) CreateMealPlan(ctx context.Context, in MealPlanCreate) (*MealPlanEntry, error) {
	var e MealPlanEntry
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/households/mealplans", Body: in, Resource: "meal plan",
		Subject: "the meal plan entry"}, &e); err != nil {
		return nil, err
	}
	return &e, nil
}

// UpdateMealPlan writes one entry whole and returns it as Mealie answers
// (TestMealPlanUpdate in integration/contract).
func (c *Client) UpdateMealPlan(ctx context.Context, in MealPlanUpdate) (*MealPlanEntry, error) {
	var e MealPlanEntry
	if err := c.Do(ctx, Request{Method: http.MethodPut, Path: "/api/households/mealplans/" + strconv.Itoa(in.ID), Body: in,
		Resource: fmt.Sprintf("meal plan entry %d", in.ID), Subject: fmt.Sprintf("the meal plan entry %d", in.ID)}, &e); err != nil {
		return nil, err
	}
	return &e, nil
}

// DeleteMealPlan deletes one entry and returns it as it was
// (services/mealplan/testdata/mealplans__delete.json). A second delete is a 400 "No row was found",
// not a 404 (services/mealplan/testdata/mealplans__delete_again.json), so callers that need NotFound
// read the entry first.
func (c *Client) DeleteMealPlan(ctx context.Context, id int) (*MealPlanEntry, error) {
	var e MealPlanEntry
	if err := c.Do(ctx, Request{Method: http.MethodDelete, Path: "/api/households/mealplans/" + strconv.Itoa(id), Resource: fmt.Sprintf("meal plan entry %d", id)}, &e); err != nil {
		return nil, err
	}
	return &e, nil
}

// RandomMealPlan asks Mealie to plan a random recipe on one day
// (POST /api/households/mealplans/random {date, entryType}, answered 200
// with the new entry: services/mealplan/testdata/mealplans__random.json).
func (c *Client) RandomMealPlan(ctx context.Context, date, entryType string) (*MealPlanEntry, error) {
	var e MealPlanEntry
	body := map[string]string{"date": date, "entryType": entryType}
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/households/mealplans/random", Body: body, Resource: "random meal plan"}, &e); err != nil {
		return nil, err
	}
	return &e, nil
}
