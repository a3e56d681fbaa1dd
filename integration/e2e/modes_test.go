package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/foodapiproc"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// readOnlyTools is what MEALIE_READ_ONLY=true leaves: the twelve read
// tools of recipes, meal plans and the library, plus the read tools of shopping and (with a food API) the pantry.
var readOnlyTools = []string{
	"check_recipe_links", "find_duplicate_recipes", "get_cookbook_recipes", "get_meal_plan", "get_recipe", "get_shopping_list",
	"get_todays_meals", "library_stats", "list_cookbooks", "manage_taxonomy", "parse_ingredients", "search_recipes", "suggest_recipes",
}

var pantryReadTools = []string{"get_meta_recipes", "get_pantry", "what_can_i_cook"}

func haveFoodAPI() bool {
	_, err := os.Stat(filepath.Join("..", "..", "foodapi", ".venv", "bin", "python"))
	return err == nil
}

func TestReadOnlyMode(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	env := []string{"MEALIE_READ_ONLY=true"}
	want := slices.Clone(readOnlyTools)
	if haveFoodAPI() {
		env = append(env, foodEnv(harness.StartFoodAPI(t, foodapiproc.Start, foodapiproc.Options{}))...)
		want = append(want, pantryReadTools...)
	}
	slices.Sort(want)
	cs := stdioSession(t, em, env...)
	got := toolNames(t, cs)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("read-only tools:\n got %v\nwant %v", got, want)
	}
	callOK(t, cs, "search_recipes", map[string]any{"query": "soup"})
	callOK(t, cs, "manage_taxonomy", map[string]any{"resource": "foods"})
	before := len(em.Requests())
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"create_recipe", map[string]any{"name": "Nope"}},
		{"delete_recipe", map[string]any{"slug": "pancakes", "confirm_slug": "pancakes"}},
		{"add_meal_plan_entry", map[string]any{"date": "2030-01-01", "title": "x"}},
		{"manage_taxonomy", map[string]any{"resource": "tags", "action": "create", "name": "Nope"}},
		{"set_item_state", map[string]any{"ingredient": "eggs", "state": "out"}},
	} {
		text, isErr := callTool(t, cs, c.tool, c.args)
		if !isErr || text != "server is in read-only mode" {
			t.Errorf("%s in read-only mode: isError=%v %q", c.tool, isErr, text)
		}
	}
	for _, r := range em.Requests()[before:] {
		if r.Method != http.MethodGet {
			t.Errorf("read-only mode sent %s %s to Mealie", r.Method, r.Path)
		}
	}
}

// TestToolsetAlone runs each toolset by itself: only its tools are listed,
// and one of them answers.
func TestToolsetAlone(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	var foodEnvs []string
	if haveFoodAPI() {
		foodEnvs = foodEnv(harness.StartFoodAPI(t, foodapiproc.Start, foodapiproc.Options{}))
	}
	tests := []struct {
		toolset string
		want    []string
		call    string
		args    map[string]any
	}{
		{"recipes", []string{"bulk_tag_recipes", "create_recipe", "delete_recipe", "get_recipe", "import_recipe_from_url", "manage_taxonomy", "mark_recipe_made", "parse_ingredients", "search_recipes", "set_recipe_image", "suggest_recipes", "update_recipe"}, "get_recipe", map[string]any{"slug": "pancakes"}},
		{"mealplan", []string{"add_meal_plan_entry", "delete_meal_plan_entry", "get_meal_plan", "get_todays_meals", "random_meal_plan", "update_meal_plan_entry"}, "get_todays_meals", nil},
		{"library", []string{"check_recipe_links", "create_cookbook", "delete_cookbook", "find_duplicate_recipes", "get_cookbook_recipes", "library_stats", "list_cookbooks", "update_cookbook"}, "list_cookbooks", nil},
		{"shopping", []string{"add_to_shopping_list", "get_shopping_list", "manage_shopping_lists", "update_shopping_items"}, "get_shopping_list", nil},
		{"pantry", []string{"add_to_pantry", "create_meta_recipe", "get_meta_recipes", "get_pantry", "log_cook", "set_item_state", "what_can_i_cook"}, "get_pantry", nil},
	}
	for _, tt := range tests {
		t.Run(tt.toolset, func(t *testing.T) {
			if tt.toolset == "pantry" && foodEnvs == nil {
				t.Skip("skipping: the food API virtualenv is missing (make -C foodapi venv)")
			}
			cs := httpSession(t, em, "/mcp", append([]string{"SOUS_TOOLSETS=" + tt.toolset}, foodEnvs...)...)
			got := toolNames(t, cs)
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("tools:\n got %v\nwant %v", got, tt.want)
			}
			callOK(t, cs, tt.call, tt.args)
		})
	}
}

// TestStartupProbe: a bad backend stops sous before any transport, with
// exit status 2 and one stderr sentence; nothing reaches stdout.
func TestStartupProbe(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	tests := []struct {
		name  string
		extra []string
		want  string
	}{
		{"wrong Mealie token", []string{"MEALIE_API_TOKEN=wrong"}, "recipes service:"},
		{"unreachable food API", []string{"FOOD_API_BASE=http://127.0.0.1:1/api", "FOOD_API_TOKEN=x"}, "pantry service:"},
		{"nothing configured for the toolset", []string{"SOUS_TOOLSETS=pantry"}, "no backend is configured"},
		{"malformed boolean", []string{"MEALIE_READ_ONLY=perhaps"}, "MEALIE_READ_ONLY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runSous(t, em, []string{"mcp", "--stdio"}, tt.extra...)
			if code != 2 {
				t.Errorf("exit status %d, want 2; stderr %q", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout carries %q before any transport", stdout)
			}
			var sentences []string
			for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if strings.HasPrefix(line, "sous:") {
					sentences = append(sentences, line)
				}
			}
			if len(sentences) != 1 || !strings.Contains(sentences[0], tt.want) {
				t.Errorf("stderr = %q, want one sous: line with %q", stderr, tt.want)
			}
		})
	}
}
