package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// engineCalls are the household benchmark's search and filter calls
// (integration/bench household_scripts.go: the dinners, the tidy task's
// search, the tag-by-ingredient filter, the quick dinners' pages, the
// suggestions and the foods a model looks up), and the searches Mealie's
// engines read apart (integration/contract TestSearchByEngine).
var engineCalls = []struct {
	tool string
	args map[string]any
}{
	{"search_recipes", map[string]any{"categories": []string{"Dinner"}, "limit": 20}},
	{"search_recipes", map[string]any{"query": "chicken fajitas bowl"}},
	{"search_recipes", map[string]any{"foods": []string{"chicken thighs"}, "limit": 100}},
	{"search_recipes", map[string]any{"categories": []string{"Dinner"}, "fields": []string{"total_time"}, "limit": 100, "page": 1}},
	{"suggest_recipes", map[string]any{"foods": []string{"chicken thighs", "rice", "lime"}}},
	{"suggest_recipes", map[string]any{"foods": []string{"chicken thighs", "rice", "lime"}, "max_missing_foods": 10}},
	{"manage_taxonomy", map[string]any{"resource": "foods", "search": "chicken thighs"}},
	{"manage_taxonomy", map[string]any{"resource": "foods", "search": "rice"}},
	{"manage_taxonomy", map[string]any{"resource": "foods", "search": "lime"}},
	{"search_recipes", map[string]any{"query": "chicken"}},
	{"search_recipes", map[string]any{"query": "chicken", "limit": 5, "page": 2}},
	{"search_recipes", map[string]any{"query": "tomato pasta"}},
	{"search_recipes", map[string]any{"query": "currry"}},
	{"search_recipes", map[string]any{"query": "curry"}},
	{"search_recipes", map[string]any{"query": "rice bowl"}},
	{"search_recipes", map[string]any{"query": "\"fried rice\""}},
	{"search_recipes", map[string]any{"query": "salmon", "categories": []string{"Dinner"}}},
	{"search_recipes", map[string]any{"tags": []string{"American"}, "limit": 5, "page": 2}},
}

// TestEnginesAnswerAlike: sous answers the same on a Mealie on SQLite and
// a Mealie on PostgreSQL holding one library, whose own searches differ
// (trigram similarity on PostgreSQL). On the emulator it compares each
// version's two profiles on the household library; live, it compares the
// two Mealies named by MEALIE_SQLITE_URL and MEALIE_SQLITE_API_TOKEN, and
// MEALIE_POSTGRES_URL and MEALIE_POSTGRES_API_TOKEN, which must hold the
// same library. Each cookbook's recipes and each shopping list are compared
// too.
func TestEnginesAnswerAlike(t *testing.T) {
	for _, v := range []string{"2.8", "3.20"} {
		t.Run("emulator-"+v, func(t *testing.T) {
			a := mealietest.NewServer(t, mealieemu.WithVersion(v), mealieemu.WithSeed("household"))
			b := mealietest.NewServer(t, mealieemu.WithVersion(v+"-pg"), mealieemu.WithSeed("household"))
			compareEngines(t, a.URL, a.Token, b.URL, b.Token)
		})
	}
	t.Run("live", func(t *testing.T) {
		su, st := os.Getenv("MEALIE_SQLITE_URL"), os.Getenv("MEALIE_SQLITE_API_TOKEN")
		pu, pt := os.Getenv("MEALIE_POSTGRES_URL"), os.Getenv("MEALIE_POSTGRES_API_TOKEN")
		if su == "" || st == "" || pu == "" || pt == "" {
			t.Skip("live engines: set MEALIE_SQLITE_URL, MEALIE_SQLITE_API_TOKEN, MEALIE_POSTGRES_URL and MEALIE_POSTGRES_API_TOKEN to two Mealies holding one library (docs/mealie-versions.md)")
		}
		compareEngines(t, su, st, pu, pt)
	})
}

// compareEngines makes every engineCall, and get_cookbook_recipes of every
// cookbook, through one `sous mcp --stdio` per Mealie, and fails on any
// answer that differs.
func compareEngines(t *testing.T, sqliteURL, sqliteToken, pgURL, pgToken string) {
	sq := stdioSession(t, nil, "MEALIE_URL="+sqliteURL, "MEALIE_API_TOKEN="+sqliteToken)
	pg := stdioSession(t, nil, "MEALIE_URL="+pgURL, "MEALIE_API_TOKEN="+pgToken)
	calls := engineCalls
	books := callOK(t, sq, "list_cookbooks", map[string]any{})
	for _, b := range items(t, books) {
		if slug, _ := b["slug"].(string); slug != "" {
			calls = append(calls, struct {
				tool string
				args map[string]any
			}{"get_cookbook_recipes", map[string]any{"cookbook": slug, "limit": 5}})
		}
	}
	// and every shopping list, whose rows of one position PostgreSQL
	// returns in no fixed order
	lists := callOK(t, sq, "get_shopping_list", map[string]any{})
	shown := []map[string]any{lists} // the household's only list, shown whole
	if _, one := lists["sections"]; !one {
		shown = items(t, lists)
	}
	for _, l := range shown {
		if name, _ := l["name"].(string); name != "" {
			calls = append(calls, struct {
				tool string
				args map[string]any
			}{"get_shopping_list", map[string]any{"list_id": name}})
		}
	}
	same := 0
	for _, c := range calls {
		a, aErr := callTool(t, sq, c.tool, c.args)
		b, bErr := callTool(t, pg, c.tool, c.args)
		// Two Mealies that imported one library gave its foods ids of
		// their own.
		a, b = anyUUID.ReplaceAllString(a, "<id>"), anyUUID.ReplaceAllString(b, "<id>")
		args, _ := json.Marshal(c.args)
		if a != b || aErr != bErr {
			t.Errorf("%s %s differs:\n  SQLite:     %s\n  PostgreSQL: %s", c.tool, args, a, b)
			continue
		}
		same++
		t.Logf("%s %s: alike (%d items)", c.tool, args, countItems(a))
	}
	t.Logf("%d of %d calls answered alike", same, len(calls))
}

var anyUUID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// countItems counts an answer's items (recipes, suggestions or foods; a
// shopping list answers groups, counted 0).
func countItems(text string) int {
	var v map[string]any
	if json.Unmarshal([]byte(text), &v) != nil {
		return 0
	}
	l, _ := v["items"].([]any)
	return len(l)
}
