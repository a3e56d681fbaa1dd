package abuse_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// nulling rewrites every JSON answer of next: each key in keys is set to
// null wherever it appears, and, when items is set, each element of a list
// under those keys becomes null instead. It stands for a Mealie whose data
// has holes where it usually has objects or lists (a deleted food, a recipe
// saved by another client without instructions).
func nulling(next http.Handler, keys []string, items bool) http.Handler {
	set := map[string]bool{}
	for _, k := range keys {
		set[k] = true
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				if set[k] {
					if list, ok := child.([]any); ok && items {
						for i := range list {
							list[i] = nil
						}
						continue
					}
					if !items {
						v[k] = nil
						continue
					}
				}
				walk(child)
			}
		case []any:
			for _, child := range v {
				walk(child)
			}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		var v any
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && json.Unmarshal(body, &v) == nil {
			walk(v)
			body, _ = json.Marshal(v)
		}
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(bytes.Clone(body))
	})
}

// TestNullsWhereMealieHasObjects: recipes, meal-plan entries and shopping
// items with null where Mealie usually sends an object or a list answer
// data or a tool error on every read tool, never a recovered panic.
func TestNullsWhereMealieHasObjects(t *testing.T) {
	today := time.Now()
	week := map[string]any{"start_date": today.AddDate(0, 0, -7).Format(time.DateOnly), "end_date": today.AddDate(0, 0, 7).Format(time.DateOnly)}
	tests := []struct {
		name  string
		keys  []string
		items bool
	}{
		{name: "food", keys: []string{"food"}},
		{name: "unit", keys: []string{"unit"}},
		{name: "tags and other organizers", keys: []string{"tags", "recipeCategory", "tools"}},
		{name: "recipeInstructions", keys: []string{"recipeInstructions"}},
		{name: "nutrition", keys: []string{"nutrition"}},
		{name: "a meal-plan entry's recipe", keys: []string{"recipe"}},
		{name: "ingredients and notes", keys: []string{"recipeIngredient", "notes"}},
		{name: "null list items", keys: []string{"recipeIngredient", "recipeInstructions", "tags", "recipeCategory", "tools", "notes", "listItems", "recipeReferences"}, items: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			em := mealietest.NewServer(t)
			proxy := httptest.NewServer(nulling(em.Handler(), tt.keys, tt.items))
			t.Cleanup(proxy.Close)
			s := newFaultStack(t, backends{mealie: em, mealieURL: proxy.URL})
			slug := firstSlug(t, em)
			calls := []struct {
				tool string
				args map[string]any
			}{
				{"get_recipe", map[string]any{"slug": slug}},
				{"get_recipe", map[string]any{"slug": slug, "full": true}},
				{"search_recipes", map[string]any{"query": ""}},
				{"get_meal_plan", week},
				{"get_todays_meals", map[string]any{}},
				{"get_shopping_list", map[string]any{}},
				{"library_stats", map[string]any{"resource": "foods"}},
				{"library_stats", map[string]any{"resource": "tags"}},
				{"find_duplicate_recipes", map[string]any{}},
				{"list_cookbooks", map[string]any{}},
			}
			for _, c := range calls {
				text, isErr := call(t, s.cs, c.tool, c.args)
				if isErr {
					oneSentence(t, text)
				}
				if strings.Contains(text, "internal error in") {
					t.Errorf("%s %v: a panic was recovered: %s", c.tool, c.args, text)
				}
			}
		})
	}
}

// firstSlug is a recipe slug of the emulator's seed.
func firstSlug(t *testing.T, em *mealieemu.Server) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, em.URL+"/api/recipes?perPage=1", nil)
	req.Header.Set("Authorization", "Bearer "+em.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page struct {
		Items []struct {
			Slug string `json:"slug"`
		} `json:"items"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || len(page.Items) == 0 {
		t.Fatalf("no recipe in the demo library: %v", err)
	}
	return page.Items[0].Slug
}
