package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// TestKitchenHistory drives, through a real MCP client and `sous mcp
// --stdio`, what a cook expects of a recipe's history and of what Mealie's
// app shows: a backdated "made it" never moves last_made back, a rating
// comes with the cook, a refused delete is an error naming the item, the
// stored lines are answered when the app hides their amounts, a
// destructive update needs a confirmation, every update says what it
// replaced, reports name their recipes, and the dates a model needs are
// fields. Each write is read back through Mealie's own API. It runs on
// every emulator profile and, with MEALIE_INTEGRATION=1, on a real Mealie.
func TestKitchenHistory(t *testing.T) {
	for _, v := range catalogVersions {
		t.Run("emulator-"+v, func(t *testing.T) {
			em := mealietest.NewServer(t, mealieemu.WithVersion(v), mealieemu.WithSeed("empty"))
			kitchenHistory(t, dialMealie(t, em.URL, em.Token))
		})
	}
	t.Run("live", func(t *testing.T) {
		kitchenHistory(t, newLiveMealie(t))
	})
}

// confirmRE finds the confirmation a refused update answers with.
var confirmRE = regexp.MustCompile(`confirm="([0-9a-f]+)"`)

func kitchenHistory(t *testing.T, m *liveMealie) {
	t.Logf("Mealie %s at %s", m.version, m.url)
	cs := stdioSession(t, nil, "MEALIE_URL="+m.url, "MEALIE_API_TOKEN="+m.token)
	word := strings.ReplaceAll(uuid.NewString()[:8], "-", "")
	ok := func(t *testing.T, tool string, args map[string]any) map[string]any {
		t.Helper()
		return callOK(t, cs, tool, args)
	}
	fails := func(t *testing.T, tool string, args map[string]any, want ...string) string {
		t.Helper()
		text, isErr := callTool(t, cs, tool, args)
		if !isErr {
			t.Errorf("%s(%v) succeeded: %s", tool, args, text)
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q lacks %q", tool, text, w)
			}
		}
		return text
	}
	var cleanups []func()
	defer func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}()
	newRecipe := func(t *testing.T, name string, args map[string]any) string {
		t.Helper()
		if args == nil {
			args = map[string]any{}
		}
		args["name"] = name + " " + word
		slug := fmt.Sprint(ok(t, "create_recipe", args)["slug"])
		cleanups = append(cleanups, func() {
			m.call(t, http.MethodPost, "/api/recipes/bulk-actions/delete", map[string]any{"recipes": []any{slug}})
		})
		return slug
	}
	ingredients := func(slug string) []any {
		l, _ := m.obj(t, "/api/recipes/"+slug)["recipeIngredient"].([]any)
		return l
	}

	t.Run("backdated mark_recipe_made with a rating", func(t *testing.T) {
		slug := newRecipe(t, "History Stew", nil)
		later := time.Now().AddDate(0, 0, -3).Format(time.DateOnly)
		earlier := time.Now().AddDate(0, 0, -10).Format(time.DateOnly)
		if r := ok(t, "mark_recipe_made", map[string]any{"slug": slug, "date": later}); r["last_made"] != later || r["made"] != nil {
			t.Errorf("first cook = %v, want last_made %s", r, later)
		}
		r := ok(t, "mark_recipe_made", map[string]any{"slug": slug, "date": earlier, "rating": 4, "note": "for guests"})
		if r["last_made"] != later || r["made"] != earlier || r["rating"] != 4.0 || !strings.Contains(fmt.Sprint(r["note"]), "timeline") {
			t.Errorf("backdated cook = %v, want last_made %s, made %s, rating 4 and a note", r, later, earlier)
		}
		rec := m.obj(t, "/api/recipes/"+slug)
		if lm, _ := rec["lastMade"].(string); !strings.HasPrefix(lm, later) {
			t.Errorf("Mealie's lastMade = %v after a backdated cook, want %s kept", rec["lastMade"], later)
		}
		if rec["rating"] != 4.0 {
			t.Errorf("Mealie's rating = %v, want 4", rec["rating"])
		}
		q := fmt.Sprintf(`recipeId = "%s"`, rec["id"])
		_, evs := m.call(t, http.MethodGet, "/api/recipes/timeline/events?perPage=-1&queryFilter="+strings.ReplaceAll(q, " ", "+"), nil)
		list, _ := evs.(map[string]any)["items"].([]any)
		days := map[string]bool{}
		for _, e := range list {
			ts, _ := e.(map[string]any)["timestamp"].(string)
			if len(ts) >= 10 {
				days[ts[:10]] = true
			}
		}
		if !days[later] || !days[earlier] {
			t.Errorf("timeline days = %v, want both cooks (%s, %s)", days, later, earlier)
		}
		fails(t, "mark_recipe_made", map[string]any{"slug": slug, "rating": 6}, "rating")
	})

	t.Run("refused delete of a food in use", func(t *testing.T) {
		food := "history saffron " + word
		created := ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "create", "name": food})
		id := fmt.Sprint(items(t, created)[0]["item_id"])
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/foods/"+id, nil) })
		newRecipe(t, "History Paella", map[string]any{"ingredients": []any{map[string]any{"quantity": 1, "food": food, "note": "a pinch"}}})
		fails(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "delete", "item_id": id},
			"1 recipe uses food '"+food+"'", "not deleted", "action=merge", "force=true")
		if st := m.status(t, "/api/foods/"+id); st != http.StatusOK {
			t.Errorf("the food answers %d after a refused delete", st)
		}
	})

	t.Run("hidden amounts", func(t *testing.T) {
		food := "history rice " + word
		created := ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "create", "name": food})
		id := fmt.Sprint(items(t, created)[0]["item_id"])
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/foods/"+id, nil) })
		slug := newRecipe(t, "History Pilaf", map[string]any{"ingredients": []any{map[string]any{"quantity": 2, "food": food}}})
		settings, _ := m.obj(t, "/api/recipes/"+slug)["settings"].(map[string]any)
		if _, has := settings["disableAmount"]; !has {
			// Mealie 3 has no such setting: its app shows every amount.
			r := ok(t, "get_recipe", map[string]any{"slug": slug})
			if r["amounts_hidden"] != nil || !strings.Contains(fmt.Sprint(r["ingredients"]), food) {
				t.Errorf("get_recipe on Mealie 3 = %v", r)
			}
			if up := ok(t, "update_recipe", map[string]any{"slug": slug, "show_amounts": true}); up["replaced"] != nil {
				t.Errorf("show_amounts on Mealie 3 = %v, want nothing replaced", up)
			}
			return
		}
		// The user turns amounts off in Mealie's app (the whole settings
		// object, as the app sends it).
		settings["disableAmount"] = true
		if st, b := m.call(t, http.MethodPatch, "/api/recipes/"+slug, map[string]any{"settings": settings}); st != http.StatusOK {
			t.Fatalf("turning amounts off: %d %v", st, b)
		}
		r := ok(t, "get_recipe", map[string]any{"slug": slug, "fields": []string{"ingredients"}})
		lines := fmt.Sprint(r["ingredients"])
		if !strings.Contains(lines, "2") || !strings.Contains(lines, food) || !strings.Contains(fmt.Sprint(r["amounts_hidden"]), "show_amounts") {
			t.Errorf("get_recipe with amounts hidden = %v, want the stored line and amounts_hidden", r)
		}
		up := ok(t, "update_recipe", map[string]any{"slug": slug, "show_amounts": true})
		if !strings.Contains(fmt.Sprint(up["replaced"]), "amounts shown in Mealie's app: no → yes") {
			t.Errorf("show_amounts answer = %v", up)
		}
		after, _ := m.obj(t, "/api/recipes/"+slug)["settings"].(map[string]any)
		if after["disableAmount"] != false || after["public"] != settings["public"] || after["showNutrition"] != settings["showNutrition"] {
			t.Errorf("settings after show_amounts = %v, before %v", after, settings)
		}
		if r := ok(t, "get_recipe", map[string]any{"slug": slug}); r["amounts_hidden"] != nil {
			t.Errorf("amounts_hidden after show_amounts = %v", r["amounts_hidden"])
		}
	})

	t.Run("destructive update needs a confirmation", func(t *testing.T) {
		slug := newRecipe(t, "History Bread", map[string]any{
			"ingredients":  []any{"500 g flour", "10 g salt", "350 ml water"},
			"instructions": []any{"Mix.", "Bake."},
		})
		// Times, yield and tags go straight through, and say what they
		// replaced.
		up := ok(t, "update_recipe", map[string]any{"slug": slug, "prep_time": "15 min", "tags": []any{"History " + word}})
		rep := fmt.Sprint(up["replaced"])
		if !strings.Contains(rep, `prep_time: (none) → '15 min'`) || !strings.Contains(rep, "tags: 0 → 1") {
			t.Errorf("update answer = %v, want what it replaced", up)
		}
		cleanups = append(cleanups, func() {
			_, tags := m.call(t, http.MethodGet, "/api/organizers/tags?search="+word, nil)
			for _, it := range tags.(map[string]any)["items"].([]any) {
				m.call(t, http.MethodDelete, "/api/organizers/tags/"+fmt.Sprint(it.(map[string]any)["id"]), nil)
			}
		})
		// The refusal quotes the lines as Mealie shows them: "g" is the
		// standard unit gram sous links or creates ("500 grams flour").
		text := fails(t, "update_recipe", map[string]any{"slug": slug, "ingredients": []any{}},
			"nothing was written", "empty its ingredients (3 → 0", "500 gram", "confirm=")
		if n := len(ingredients(slug)); n != 3 {
			t.Fatalf("a refused update left %d lines, want 3", n)
		}
		token := confirmRE.FindStringSubmatch(text)
		if token == nil {
			t.Fatalf("no confirmation in %q", text)
		}
		// Dropping most lines is refused the same way; the confirmation of
		// another update does not let it through.
		fails(t, "update_recipe", map[string]any{"slug": slug, "ingredients": []any{"500 g flour"}, "confirm": token[1]},
			"another update", "drop most of its ingredients (3 → 1", "confirm=")
		fails(t, "update_recipe", map[string]any{"slug": slug, "instructions": []any{}}, "empty its instructions (2 → 0", "Mix.")
		if n := len(ingredients(slug)); n != 3 {
			t.Fatalf("refused updates left %d lines, want 3", n)
		}
		up = ok(t, "update_recipe", map[string]any{"slug": slug, "ingredients": []any{}, "confirm": token[1]})
		if !strings.Contains(fmt.Sprint(up["replaced"]), "ingredients: 3 → 0") {
			t.Errorf("confirmed update = %v", up)
		}
		if n := len(ingredients(slug)); n != 0 {
			t.Errorf("a confirmed update left %d lines, want 0", n)
		}
		// Adding a line is no loss.
		up = ok(t, "update_recipe", map[string]any{"slug": slug, "ingredients": []any{"1 egg"}})
		if !strings.Contains(fmt.Sprint(up["replaced"]), "ingredients: 0 → 1") {
			t.Errorf("adding a line = %v", up)
		}
	})

	t.Run("dates as fields", func(t *testing.T) {
		slug := newRecipe(t, "History Dates", nil)
		today := time.Now().UTC().Format(time.DateOnly)
		yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
		isRecent := func(v any) bool { return v == today || v == yesterday }
		res := ok(t, "search_recipes", map[string]any{"query": word, "fields": []string{"date_added", "date_updated"}})
		found := false
		for _, it := range items(t, res) {
			if it["slug"] == slug {
				found = true
				if !isRecent(it["date_added"]) || !isRecent(it["date_updated"]) {
					t.Errorf("search item = %v, want today's date_added and date_updated", it)
				}
			}
		}
		if !found {
			t.Errorf("search for %s did not list %s: %v", word, slug, res)
		}
		r := ok(t, "get_recipe", map[string]any{"slug": slug, "fields": []string{"date_added", "date_updated"}})
		if !isRecent(r["date_added"]) || !isRecent(r["date_updated"]) || r["name"] != nil {
			t.Errorf("get_recipe fields = %v", r)
		}
	})

	t.Run("reports name what they list", func(t *testing.T) {
		slug := newRecipe(t, "History Pictureless", nil)
		r := ok(t, "check_recipe_links", map[string]any{"check_sources": false, "max_recipes": 2000})
		raw, _ := json.Marshal(r["no_image"])
		if !strings.Contains(string(raw), `{"name":"History Pictureless `+word+`","slug":"`+slug+`"}`) {
			if r["scanned"] == r["library_total"] {
				t.Errorf("no_image = %s, want the recipe by name and slug", raw)
			}
		}
		fails(t, "library_stats", map[string]any{}, "resource is missing", "tags, categories, tools, foods, units")
	})
}
