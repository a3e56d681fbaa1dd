package mcpfront

import (
	"context"
	"errors"
	"strings"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
)

func hasMealPlan(b Backends, _ Options) bool { return b.MealPlan != nil }

var entryTypes = map[string]mealplanv1.EntryType{
	"breakfast": mealplanv1.EntryType_ENTRY_TYPE_BREAKFAST, "lunch": mealplanv1.EntryType_ENTRY_TYPE_LUNCH,
	"dinner": mealplanv1.EntryType_ENTRY_TYPE_DINNER, "side": mealplanv1.EntryType_ENTRY_TYPE_SIDE,
}

var entryTypeNames = []string{"breakfast", "lunch", "dinner", "side"}

func entryTypeName(t mealplanv1.EntryType) string {
	return strings.ToLower(strings.TrimPrefix(t.String(), "ENTRY_TYPE_"))
}

func entryTypeProp(s *mcpSchema) {
	s.Enum = toAny(entryTypeNames)
	s.Default = []byte(`"dinner"`)
}

type dateRangeIn struct {
	StartDate string `json:"start_date" jsonschema:"First day, YYYY-MM-DD, inclusive."`
	EndDate   string `json:"end_date" jsonschema:"Last day, YYYY-MM-DD, inclusive."`
}

type addMealPlanEntryIn struct {
	Date       string `json:"date" jsonschema:"The day, YYYY-MM-DD."`
	EntryType  string `json:"entry_type,omitempty" jsonschema:"Which meal of the day."`
	RecipeSlug string `json:"recipe_slug,omitempty" jsonschema:"The recipe to plan, by slug from search_recipes. Give this or title."`
	Title      string `json:"title,omitempty" jsonschema:"A meal without a recipe, such as \"Leftovers\" or \"Eat out\". Give this or recipe_slug."`
	Note       string `json:"note,omitempty" jsonschema:"A note on the entry."`
}

type deleteMealPlanEntryIn struct {
	EntryID string `json:"entry_id" jsonschema:"The entry's id, from get_meal_plan or get_todays_meals."`
}

type randomMealPlanIn struct {
	StartDate string `json:"start_date" jsonschema:"First day to fill, YYYY-MM-DD."`
	EndDate   string `json:"end_date" jsonschema:"Last day to fill, YYYY-MM-DD; at most 13 days after start_date (14 days in all)."`
	EntryType string `json:"entry_type,omitempty" jsonschema:"Which meal of each day."`
}

type noInput struct{}

func mealPlanTools() []Tool {
	return []Tool{
		newTool(ToolsetMealPlan, &mcp.Tool{
			Name: "get_meal_plan",
			Description: "Read the meal plan between two dates, inclusive. Call it when the user asks what is planned for a day, the week or a range. " +
				"Entries carry ids for delete_meal_plan_entry and slugs for get_recipe.",
			Annotations: readAnn("Get the meal plan"),
		}, hasMealPlan, props{"start_date": isoDate, "end_date": isoDate}, getMealPlan),
		newTool(ToolsetMealPlan, &mcp.Tool{
			Name:        "get_todays_meals",
			Description: "Read today's planned meals. Call it when the user asks what is for dinner (or any meal) today. Today is the server's local date, echoed in the answer.",
			Annotations: readAnn("Get today's meals"),
		}, hasMealPlan, nil, getTodaysMeals),
		newTool(ToolsetMealPlan, &mcp.Tool{
			Name: "add_meal_plan_entry",
			Description: "Plan a meal on a day: a recipe by slug, or a free-text title. Call it when the user asks to put a dish on the plan. " +
				"Returns the entry with its id.",
			Annotations: writeAnn("Add a meal plan entry", false, false, false),
		}, hasMealPlan, props{"date": isoDate, "entry_type": entryTypeProp, "recipe_slug": maxLen(500), "title": maxLen(200), "note": maxLen(1000)}, addMealPlanEntry),
		newTool(ToolsetMealPlan, &mcp.Tool{
			Name:        "delete_meal_plan_entry",
			Description: "Remove one entry from the meal plan by its id (from get_meal_plan). Call it when the user cancels or replaces a planned meal. The recipe itself is untouched.",
			Annotations: writeAnn("Delete a meal plan entry", true, true, false),
		}, hasMealPlan, props{"entry_id": maxLen(20)}, deleteMealPlanEntry),
		newTool(ToolsetMealPlan, &mcp.Tool{
			Name: "random_meal_plan",
			Description: "Fill each day of a range with a random recipe from the library. Call it when the user asks to fill or randomise their week. " +
				"At most 14 days; a day Mealie cannot fill is reported and does not stop the others.",
			Annotations: writeAnn("Plan meals at random", false, false, false),
		}, hasMealPlan, props{"start_date": isoDate, "end_date": isoDate, "entry_type": entryTypeProp}, randomMealPlan),
	}
}

// planEntry is a meal plan entry as a model reads it.
type planEntry struct {
	ID         string `json:"id"`
	Date       string `json:"date,omitempty"`
	Type       string `json:"type,omitempty"`
	RecipeSlug string `json:"recipe_slug,omitempty"`
	Recipe     string `json:"recipe,omitempty"`
	Title      string `json:"title,omitempty"`
	Note       string `json:"note,omitempty"`
}

func shapeEntry(e *mealplanv1.MealPlanEntry) planEntry {
	return planEntry{ID: e.GetId(), Date: e.GetDate(), Type: entryTypeName(e.GetEntryType()), RecipeSlug: e.GetRecipeSlug(), Recipe: e.GetRecipeName(), Title: e.GetTitle(), Note: e.GetNote()}
}

func shapeEntries(es []*mealplanv1.MealPlanEntry) []planEntry {
	out := make([]planEntry, 0, len(es))
	for _, e := range es {
		out = append(out, shapeEntry(e))
	}
	return out
}

func getMealPlan(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in dateRangeIn) (any, error) {
	res, err := b.MealPlan.GetMealPlan(ctx, connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: in.StartDate, EndDate: in.EndDate}))
	if err != nil {
		return nil, err
	}
	out := struct {
		Items []planEntry `json:"items"`
		Hint  string      `json:"hint,omitempty"`
	}{Items: shapeEntries(res.Msg.GetItems())}
	if len(out.Items) == 0 {
		out.Hint = "nothing planned from " + in.StartDate + " to " + in.EndDate
	}
	return out, nil
}

func getTodaysMeals(ctx context.Context, _ *mcp.CallToolRequest, b Backends, _ noInput) (any, error) {
	res, err := b.MealPlan.GetTodaysMeals(ctx, connect.NewRequest(&mealplanv1.GetTodaysMealsRequest{}))
	if err != nil {
		return nil, err
	}
	out := struct {
		Date     string      `json:"date"`
		TimeZone string      `json:"time_zone,omitempty"`
		Items    []planEntry `json:"items"`
		Hint     string      `json:"hint,omitempty"`
	}{Date: res.Msg.GetDate(), TimeZone: res.Msg.GetTimeZone(), Items: shapeEntries(res.Msg.GetItems())}
	if len(out.Items) == 0 {
		out.Hint = "nothing planned today"
	}
	return out, nil
}

func addMealPlanEntry(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in addMealPlanEntryIn) (any, error) {
	req := &mealplanv1.AddMealPlanEntryRequest{Date: in.Date, EntryType: entryTypes[in.EntryType], Note: in.Note}
	switch {
	case in.RecipeSlug != "" && in.Title != "":
		return nil, errors.New("give recipe_slug or title, not both")
	case in.RecipeSlug != "":
		req.Meal = &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: in.RecipeSlug}
	case in.Title != "":
		req.Meal = &mealplanv1.AddMealPlanEntryRequest_Title{Title: in.Title}
	default:
		return nil, errors.New("give recipe_slug (a recipe) or title (a meal without one)")
	}
	res, err := b.MealPlan.AddMealPlanEntry(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	return shapeEntry(res.Msg.GetEntry()), nil
}

func deleteMealPlanEntry(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in deleteMealPlanEntryIn) (any, error) {
	res, err := b.MealPlan.DeleteMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.DeleteMealPlanEntryRequest{EntryId: in.EntryID}))
	if err != nil {
		return nil, err
	}
	return struct {
		Deleted planEntry `json:"deleted"`
	}{shapeEntry(res.Msg.GetEntry())}, nil
}

func randomMealPlan(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in randomMealPlanIn) (any, error) {
	res, err := b.MealPlan.RandomMealPlan(ctx, connect.NewRequest(&mealplanv1.RandomMealPlanRequest{
		StartDate: in.StartDate, EndDate: in.EndDate, EntryType: entryTypes[in.EntryType],
	}))
	if err != nil {
		return nil, err
	}
	type day struct {
		Date    string     `json:"date"`
		Entry   *planEntry `json:"entry,omitempty"`
		Message string     `json:"not_planned,omitempty"`
	}
	out := struct {
		Planned int32 `json:"planned"`
		Failed  int32 `json:"failed,omitempty"`
		Items   []day `json:"items"`
	}{Planned: res.Msg.GetPlanned(), Failed: res.Msg.GetFailed(), Items: []day{}}
	for _, d := range res.Msg.GetItems() {
		it := day{Date: d.GetDate(), Message: d.GetMessage()}
		if d.GetEntry() != nil {
			e := shapeEntry(d.GetEntry())
			e.Date = "" // the day says it
			it.Entry = &e
		}
		out.Items = append(out.Items, it)
	}
	return out, nil
}
