package mcpfront

import (
	"context"
	"errors"
	"strings"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/limits"
)

func hasMealPlan(b Backends, _ Options) bool { return b.MealPlan != nil }

// entryTypes maps the tools' entry_type to the service's enum. Snack, drink
// and dessert need Mealie 3; on an older Mealie the service refuses them with
// a sentence saying so, which is cheaper for the catalog than saying it in
// the schema of two tools.
var entryTypes = map[string]mealplanv1.EntryType{
	"breakfast": mealplanv1.EntryType_ENTRY_TYPE_BREAKFAST, "lunch": mealplanv1.EntryType_ENTRY_TYPE_LUNCH,
	"dinner": mealplanv1.EntryType_ENTRY_TYPE_DINNER, "side": mealplanv1.EntryType_ENTRY_TYPE_SIDE,
	"snack": mealplanv1.EntryType_ENTRY_TYPE_SNACK, "drink": mealplanv1.EntryType_ENTRY_TYPE_DRINK,
	"dessert": mealplanv1.EntryType_ENTRY_TYPE_DESSERT,
}

// entryTypeNames is the schema's enum, in the service's order of a day.
var entryTypeNames = []string{"breakfast", "lunch", "dinner", "side", "snack", "drink", "dessert"}

func entryTypeName(t mealplanv1.EntryType) string {
	return strings.ToLower(strings.TrimPrefix(t.String(), "ENTRY_TYPE_"))
}

func entryTypeProp(s *mcpSchema) {
	s.Enum = toolschema.ToAny(entryTypeNames)
	s.Default = []byte(`"dinner"`)
}

type dateRangeIn struct {
	StartDate string `json:"start_date" jsonschema:"First day."`
	EndDate   string `json:"end_date" jsonschema:"Last day, inclusive."`
}

type noInput struct{}

func mealPlanTools() []Tool {
	return []Tool{
		getMealPlanTool(),
		getTodaysMealsTool(),
		addMealPlanEntryTool(),
		updateMealPlanEntryTool(),
		deleteMealPlanEntryTool(),
		randomMealPlanTool(),
	}
}

// planEntry is a meal plan entry as a model reads it.
type planEntry struct {
	ID         string `json:"entry_id"`
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

// getMealPlanTool declares get_meal_plan.
func getMealPlanTool() Tool {
	return newTool(ToolsetMealPlan, &mcp.Tool{
		Name:        "get_meal_plan",
		Description: "Call when asked what is planned for some days. Entries carry ids and recipe slugs.",
		Annotations: readAnn(),
	}, hasMealPlan, props{"start_date": toolschema.Date, "end_date": toolschema.Date}, getMealPlan)
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

// getTodaysMealsTool declares get_todays_meals.
func getTodaysMealsTool() Tool {
	return newTool(ToolsetMealPlan, &mcp.Tool{
		Name:        "get_todays_meals",
		Description: "Call when asked what is for dinner (or any meal) today.",
		Annotations: readAnn(),
	}, hasMealPlan, nil, getTodaysMeals)
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

type addMealPlanEntryIn struct {
	Date       string `json:"date" jsonschema:"Day."`
	EntryType  string `json:"entry_type,omitempty" jsonschema:"Meal."`
	RecipeSlug string `json:"recipe_slug,omitempty" jsonschema:"Recipe slug or exact name; or title."`
	Title      string `json:"title,omitempty" jsonschema:"Meal without a recipe (\"Eat out\")."`
	Note       string `json:"note,omitempty" jsonschema:"Note."`
}

// addMealPlanEntryTool declares add_meal_plan_entry.
func addMealPlanEntryTool() Tool {
	return newTool(ToolsetMealPlan, &mcp.Tool{
		Name:        "add_meal_plan_entry",
		Description: "Call to put a dish on the plan. Adds a recipe or a titled meal to a day.",
		Annotations: writeAnn(false, false, false),
	}, hasMealPlan, props{"date": toolschema.Date, "entry_type": entryTypeProp, "recipe_slug": toolschema.MaxLen(limits.RecipeSlugChars), "title": toolschema.MaxLen(limits.EntryTitleChars), "note": toolschema.MaxLen(limits.EntryNoteChars)}, addMealPlanEntry)
}

func addMealPlanEntry(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in addMealPlanEntryIn) (any, error) {
	req := &mealplanv1.AddMealPlanEntryRequest{Date: in.Date, EntryType: entryTypes[in.EntryType], Note: in.Note}
	switch {
	case in.RecipeSlug != "" && in.Title != "":
		return nil, errors.New("give recipe_slug or title, not both")
	case in.RecipeSlug != "":
		slug := in.RecipeSlug
		if b.Recipes != nil {
			var err error
			if slug, err = resolveRecipe(ctx, b, slug); err != nil {
				return nil, err
			}
		}
		req.Meal = &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: slug}
	case in.Title != "":
		req.Meal = &mealplanv1.AddMealPlanEntryRequest_Title{Title: in.Title}
	default:
		return nil, errors.New("give recipe_slug (a recipe) or title (a meal without one)")
	}
	res, err := b.MealPlan.AddMealPlanEntry(ctx, connect.NewRequest(req))
	if err != nil {
		if in.RecipeSlug != "" && b.Recipes != nil {
			return nil, onRecipeMiss(ctx, b, in.RecipeSlug, err)
		}
		return nil, err
	}
	return shapeEntry(res.Msg.GetEntry()), nil
}

type updateMealPlanEntryIn struct {
	EntryID    string  `json:"entry_id" jsonschema:"Entry id."`
	Date       *string `json:"date,omitempty" jsonschema:"New day."`
	EntryType  string  `json:"entry_type,omitempty" jsonschema:"New meal."`
	RecipeSlug *string `json:"recipe_slug,omitempty" jsonschema:"New recipe (replaces the title)."`
	Title      *string `json:"title,omitempty" jsonschema:"New title (replaces the recipe)."`
	Note       *string `json:"note,omitempty" jsonschema:"New note; empty clears."`
}

// updateMealPlanEntryTool declares update_meal_plan_entry: a move is one
// call, where a delete and an add were two and lost the entry when the
// second failed.
func updateMealPlanEntryTool() Tool {
	return newTool(ToolsetMealPlan, &mcp.Tool{
		Name:        "update_meal_plan_entry",
		Description: "Call to move a planned meal or change its meal, recipe, title or note. Unset fields stay.",
		Annotations: writeAnn(true, true, false),
	}, hasMealPlan, props{
		// The lengths are guards: the service words a refusal, and
		// every session would pay for the numbers.
		"entry_id": toolschema.GuardLen(limits.EntryIDChars), "date": toolschema.Date,
		"entry_type":  func(s *mcpSchema) { s.Enum = toolschema.ToAny(entryTypeNames) },
		"recipe_slug": toolschema.GuardLen(limits.RecipeSlugChars), "title": toolschema.GuardLen(limits.EntryTitleChars), "note": toolschema.GuardLen(limits.EntryNoteChars),
	}, updateMealPlanEntry)
}

func updateMealPlanEntry(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in updateMealPlanEntryIn) (any, error) {
	req := &mealplanv1.UpdateMealPlanEntryRequest{EntryId: in.EntryID, Date: in.Date, EntryType: entryTypes[in.EntryType], Title: in.Title, Note: in.Note}
	if in.RecipeSlug != nil {
		slug := *in.RecipeSlug
		if b.Recipes != nil && strings.TrimSpace(slug) != "" {
			var err error
			if slug, err = resolveRecipe(ctx, b, slug); err != nil {
				return nil, err
			}
		}
		req.RecipeSlug = &slug
	}
	res, err := b.MealPlan.UpdateMealPlanEntry(ctx, connect.NewRequest(req))
	if err != nil {
		if in.RecipeSlug != nil && b.Recipes != nil {
			return nil, onRecipeMiss(ctx, b, *in.RecipeSlug, err)
		}
		return nil, err
	}
	out := struct {
		planEntry
		Changed []string `json:"changed,omitempty"`
		Note    string   `json:"note,omitempty"`
	}{planEntry: shapeEntry(res.Msg.GetEntry()), Changed: res.Msg.GetChanged()}
	if len(out.Changed) == 0 {
		out.Note = "nothing changed: every value given was already the entry's"
	}
	return out, nil
}

type deleteMealPlanEntryIn struct {
	EntryID string `json:"entry_id" jsonschema:"Entry id."`
}

// deleteMealPlanEntryTool declares delete_meal_plan_entry.
func deleteMealPlanEntryTool() Tool {
	return newTool(ToolsetMealPlan, &mcp.Tool{
		Name:        "delete_meal_plan_entry",
		Description: "Call to cancel or replace a planned meal. The recipe stays.",
		Annotations: writeAnn(true, true, false),
	}, hasMealPlan, props{"entry_id": toolschema.MaxLen(limits.EntryIDChars)}, deleteMealPlanEntry)
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

type randomMealPlanIn struct {
	StartDate string `json:"start_date" jsonschema:"First day."`
	EndDate   string `json:"end_date" jsonschema:"Last day, at most 13 after start."`
	EntryType string `json:"entry_type,omitempty" jsonschema:"Meal."`
}

// randomMealPlanTool declares random_meal_plan.
func randomMealPlanTool() Tool {
	return newTool(ToolsetMealPlan, &mcp.Tool{
		Name:        "random_meal_plan",
		Description: "Call when asked to fill days at random, one random recipe a day.",
		Annotations: writeAnn(false, false, false),
	}, hasMealPlan, props{"start_date": toolschema.Date, "end_date": toolschema.Date, "entry_type": entryTypeProp}, randomMealPlan)
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
