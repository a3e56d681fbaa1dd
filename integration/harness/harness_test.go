package harness_test

import (
	"testing"
	"time"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	"github.com/souskitchen/sous/mcpfront"
)

// TestServicesFollowConfig checks that Services starts the services a
// config asks for, and that a session over them answers a tool each of
// them serves.
func TestServicesFollowConfig(t *testing.T) {
	em := mealietest.NewServer(t)
	cases := []struct {
		name             string
		cfg              harness.Config
		mealPlan, pantry bool
		tool             string
		args             map[string]any
		wantErr          bool
	}{
		{"every Mealie service", harness.Config{Mealie: em}, true, false, "get_todays_meals", nil, false},
		{"without the meal plan", harness.Config{Mealie: em, WithoutMealPlan: true}, false, false, "search_recipes", map[string]any{"limit": 1}, false},
		{"with an unreachable food API", harness.Config{Mealie: em, FoodAPIBase: "http://127.0.0.1:1/api", FoodAPIToken: "x"}, true, true, "get_pantry", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := harness.Services(t, tc.cfg)
			if b.Recipes == nil || b.Library == nil {
				t.Fatal("the recipes and library services must always start")
			}
			if got := b.MealPlan != nil; got != tc.mealPlan {
				t.Errorf("meal plan service started: %v, want %v", got, tc.mealPlan)
			}
			if got := b.Pantry != nil; got != tc.pantry {
				t.Errorf("pantry service started: %v, want %v", got, tc.pantry)
			}
			cs := harness.Session(t, b, mcpfront.Options{}, "harness", nil)
			text, isErr := harness.Call(t, cs, 20*time.Second, tc.tool, tc.args)
			if isErr != tc.wantErr {
				t.Errorf("%s: isError %v, want %v: %s", tc.tool, isErr, tc.wantErr, text)
			}
		})
	}
}
