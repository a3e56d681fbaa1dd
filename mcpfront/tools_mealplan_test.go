package mcpfront

import (
	"errors"
	"testing"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
)

// Mealie 3's snack, drink and dessert go to the service by name and read
// back by name; the service's refusal on an older Mealie is relayed.
func TestMealPlanNewerEntryTypes(t *testing.T) {
	snack := &mealplanv1.MealPlanEntry{Id: "40", Date: "2030-04-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_SNACK, Title: "Apple slices"}
	runToolCases(t, []toolCase{
		{
			name: "add a snack", tool: "add_meal_plan_entry", service: mealplanOf, method: "AddMealPlanEntry",
			args:    map[string]any{"date": "2030-04-01", "title": "Apple slices", "entry_type": "snack"},
			reply:   &mealplanv1.AddMealPlanEntryResponse{Entry: snack},
			wantReq: &mealplanv1.AddMealPlanEntryRequest{Date: "2030-04-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_SNACK, Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Apple slices"}},
			want:    []string{`"type":"snack"`},
		},
		{
			name: "a day with a drink and a dessert", tool: "get_meal_plan", service: mealplanOf, method: "GetMealPlan",
			args: map[string]any{"start_date": "2030-04-01", "end_date": "2030-04-01"},
			reply: &mealplanv1.GetMealPlanResponse{Items: []*mealplanv1.MealPlanEntry{
				{Id: "41", Date: "2030-04-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DRINK, Title: "Lemonade"},
				{Id: "42", Date: "2030-04-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DESSERT, Title: "Tart"},
			}},
			wantReq: &mealplanv1.GetMealPlanRequest{StartDate: "2030-04-01", EndDate: "2030-04-01"},
			want:    []string{`"type":"drink","title":"Lemonade"`, `"type":"dessert","title":"Tart"`},
		},
		{
			name: "random desserts on an older Mealie", tool: "random_meal_plan", service: mealplanOf, method: "RandomMealPlan",
			args:    map[string]any{"start_date": "2030-04-01", "end_date": "2030-04-02", "entry_type": "dessert"},
			wantReq: &mealplanv1.RandomMealPlanRequest{StartDate: "2030-04-01", EndDate: "2030-04-02", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DESSERT},
			err:     connect.NewError(connect.CodeInvalidArgument, errors.New("entry_type dessert needs Mealie 3 or newer")),
			isError: true, want: []string{"needs Mealie 3"},
		},
	})
}

// Every name in the schema's enum maps to its own enum value, and back.
func TestEntryTypeNamesRoundTrip(t *testing.T) {
	if len(entryTypeNames) != len(entryTypes) || len(entryTypes) != len(mealplanv1.EntryType_name)-1 {
		t.Fatalf("%d names, %d mapped, %d enum values past unspecified", len(entryTypeNames), len(entryTypes), len(mealplanv1.EntryType_name)-1)
	}
	for _, n := range entryTypeNames {
		if got := entryTypeName(entryTypes[n]); got != n {
			t.Errorf("%s maps to %v, read back as %q", n, entryTypes[n], got)
		}
	}
}
