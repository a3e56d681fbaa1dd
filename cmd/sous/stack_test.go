package main

import (
	"bytes"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/souskitchen/sous/mcpfront"
)

func TestServicesForToolsets(t *testing.T) {
	tests := []struct {
		toolsets []string
		want     []string
	}{
		{nil, []string{"pantry", "recipes", "mealplan", "library"}},
		{[]string{"shopping"}, []string{"mealplan"}},
		{[]string{"recipes", "pantry"}, []string{"pantry", "recipes"}},
		{[]string{" Library "}, []string{"library"}},
	}
	for _, tt := range tests {
		if got := servicesForToolsets(tt.toolsets); !slices.Equal(got, tt.want) {
			t.Errorf("servicesForToolsets(%v) = %v, want %v", tt.toolsets, got, tt.want)
		}
	}
}

func TestNewStack(t *testing.T) {
	mealie := config{MealieURL: "http://127.0.0.1:9", MealieToken: "t", MealieVerifySSL: true}
	food := config{FoodAPIBase: "http://127.0.0.1:9/api", FoodAPIToken: "t"}
	both := mealie
	both.FoodAPIBase, both.FoodAPIToken = food.FoodAPIBase, food.FoodAPIToken
	remote := config{Config: mcpfront.Config{Remotes: mcpfront.Remotes{RecipesURL: "http://127.0.0.1:9", Token: "s"}}}
	tests := []struct {
		name      string
		cfg       config
		want      []string
		strict    bool
		wantLocal []string
		wantOn    []string // clients present
		wantLog   []string
		wantErr   string
	}{
		{
			name: "Mealie only: the pantry is off, with the variables to set", cfg: mealie, want: servicesForToolsets(nil),
			wantLocal: []string{"recipes", "mealplan", "library"}, wantOn: []string{"recipes", "mealplan", "library"},
			wantLog: []string{"pantry toolset off: set FOOD_API_BASE and FOOD_API_TOKEN (or SOUS_PANTRY_URL) to turn it on"},
		},
		{
			name: "food API only: the Mealie toolsets are off", cfg: food, want: servicesForToolsets(nil),
			wantLocal: []string{"pantry"}, wantOn: []string{"pantry"},
			wantLog: []string{"recipes, mealplan, shopping, library toolsets off: set MEALIE_URL and MEALIE_API_TOKEN (or SOUS_RECIPES_URL, SOUS_MEALPLAN_URL, SOUS_LIBRARY_URL) to turn them on"},
		},
		{
			name: "both, pantry toolset only", cfg: both, want: []string{"pantry"}, wantLocal: []string{"pantry"}, wantOn: []string{"pantry"},
		},
		{
			name: "shopping alone brings recipes and the pantry along", cfg: both, want: []string{"mealplan"},
			wantLocal: []string{"pantry", "recipes", "mealplan"}, wantOn: []string{"pantry", "recipes", "mealplan"},
		},
		{
			name: "remote recipes", cfg: remote, want: []string{"recipes"}, wantOn: []string{"recipes"},
			wantLog: []string{"no pantry configured"},
		},
		{
			name: "serve refuses a service without its backend", cfg: food, want: []string{"recipes"}, strict: true,
			wantErr: "the recipes service cannot run: set MEALIE_URL and MEALIE_API_TOKEN",
		},
		{
			name: "a toolset chosen names only itself", cfg: config{Config: mcpfront.Config{Toolsets: []string{"shopping"}}}, want: servicesForToolsets([]string{"shopping"}),
			wantLog: []string{"shopping toolset off: set MEALIE_URL and MEALIE_API_TOKEN (or SOUS_RECIPES_URL, SOUS_MEALPLAN_URL) to turn it on"},
		},
		{name: "unknown service", cfg: both, want: []string{"desserts"}, strict: true, wantErr: `unknown service "desserts"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			s, err := newStack(tt.cfg, tt.want, tt.strict, slog.New(slog.NewTextHandler(&logs, nil)))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var local []string
			for _, svc := range s.local {
				for _, n := range serviceNames {
					if strings.Contains(strings.ToLower(svc.Name), "."+n+".") {
						local = append(local, n)
					}
				}
			}
			if !slices.Equal(local, tt.wantLocal) {
				t.Errorf("local services = %v, want %v", local, tt.wantLocal)
			}
			b := s.backends()
			on := map[string]bool{"recipes": b.Recipes != nil, "mealplan": b.MealPlan != nil, "library": b.Library != nil, "pantry": b.Pantry != nil}
			for n, present := range on {
				if present != slices.Contains(tt.wantOn, n) {
					t.Errorf("%s client present = %v", n, present)
				}
			}
			for _, w := range tt.wantLog {
				if !strings.Contains(logs.String(), w) {
					t.Errorf("log lacks %q:\n%s", w, logs.String())
				}
			}
			if strings.Count(logs.String(), "\n") > len(tt.wantLog) {
				t.Errorf("more log lines than expected:\n%s", logs.String())
			}
		})
	}
}
