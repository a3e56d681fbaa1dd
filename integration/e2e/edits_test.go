package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// TestHouseholdEdits drives the edits a household says through a real MCP
// client and `sous mcp --stdio`, each in one call, and reads every write
// back through Mealie's own API: a dinner moved in place with no other
// entry changed, one ingredient swapped with every other line as Mealie
// stored it, dinners under 30 minutes never made, a cookbook of quick
// dinners that a recipe added later through sous joins, suggestions that
// say which named foods they use, a search with one unknown name, and the
// prompts for the everyday asks. It runs on the emulator's profiles on
// every `go test`, and against a real Mealie when MEALIE_INTEGRATION=1
// names one (docs/mealie-versions.md).
func TestHouseholdEdits(t *testing.T) {
	for _, v := range catalogVersions {
		t.Run("emulator-"+v, func(t *testing.T) {
			em := mealietest.NewServer(t, mealieemu.WithVersion(v), mealieemu.WithSeed("empty"))
			m := dialMealie(t, em.URL, em.Token)
			m.emulated = true
			householdEdits(t, m)
		})
	}
	t.Run("live", func(t *testing.T) {
		householdEdits(t, newLiveMealie(t))
	})
}

// householdEdits is one run of TestHouseholdEdits against the Mealie m.
func householdEdits(t *testing.T, m *liveMealie) {
	t.Logf("Mealie %s at %s", m.version, m.url)
	cs := stdioSession(t, nil, "MEALIE_URL="+m.url, "MEALIE_API_TOKEN="+m.token)
	// Letters only: a digit inside a word ("e3f674ec2 broth") is read as an
	// amount by Mealie's real nlp parser, and the run would test the parser.
	w := "e" + strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return 'g' + (r - '0')
		}
		return r
	}, strings.ReplaceAll(uuid.NewString()[:8], "-", ""))
	name := func(s string) string { return w + " " + s }
	var cleanups []func()
	defer func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}()
	mustCreate := func(t *testing.T, path string, body map[string]any) map[string]any {
		t.Helper()
		code, o := m.call(t, http.MethodPost, path, body)
		obj, _ := o.(map[string]any)
		if code != http.StatusCreated && code != http.StatusOK || obj == nil {
			t.Fatalf("POST %s %v: %d %v", path, body, code, o)
		}
		id := fmt.Sprint(obj["id"])
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, path+"/"+id, nil) })
		return obj
	}
	food := func(t *testing.T, n string) string {
		mustCreate(t, "/api/foods", map[string]any{"name": name(n)})
		return name(n)
	}
	tag := mustCreate(t, "/api/organizers/tags", map[string]any{"name": name("Dinner")})["name"].(string)
	recipe := func(t *testing.T, args map[string]any) string {
		t.Helper()
		out := callOK(t, cs, "create_recipe", args)
		slug := out["slug"].(string)
		cleanups = append(cleanups, func() {
			m.call(t, http.MethodPost, "/api/recipes/bulk-actions/delete", map[string]any{"recipes": []any{slug}})
		})
		for _, f := range collectStrings(out["created_foods"]) {
			f := f
			cleanups = append(cleanups, func() {
				for _, it := range m.search(t, "/api/foods", f) {
					if it["name"] == f {
						m.call(t, http.MethodDelete, "/api/foods/"+fmt.Sprint(it["id"]), nil)
					}
				}
			})
		}
		return slug
	}
	days := time.Now().AddDate(3, 1, 0) // far enough ahead to touch no real plan
	day := func(offset int) string { return days.AddDate(0, 0, offset).Format("2006-01-02") }

	t.Run("move_a_dinner", func(t *testing.T) {
		a := recipe(t, map[string]any{"name": name("Curry"), "tags": []string{tag}})
		b := recipe(t, map[string]any{"name": name("Tacos"), "tags": []string{tag}})
		var ids []string
		for i, s := range []string{a, b} {
			e := callOK(t, cs, "add_meal_plan_entry", map[string]any{"date": day(2 + i), "recipe_slug": s, "note": "for four"})
			id := fmt.Sprint(e["entry_id"])
			ids = append(ids, id)
			cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/mealplans/"+id, nil) })
		}
		other := m.obj(t, "/api/households/mealplans/"+ids[1])
		moved := callOK(t, cs, "update_meal_plan_entry", map[string]any{"entry_id": ids[0], "date": day(5)})
		if moved["entry_id"] != ids[0] || moved["date"] != day(5) || moved["recipe_slug"] != a {
			t.Errorf("the answer is not the moved entry: %v", moved)
		}
		got := m.obj(t, "/api/households/mealplans/"+ids[0])
		if got["date"] != day(5) || got["entryType"] != "dinner" || got["text"] != "for four" || got["recipeId"] != m.obj(t, "/api/recipes/"+a)["id"] {
			t.Errorf("Mealie holds the moved entry as %v", got)
		}
		if after := m.obj(t, "/api/households/mealplans/"+ids[1]); !sameJSON(other, after) {
			t.Errorf("the other entry changed:\n%v\n%v", other, after)
		}
		plan := items(t, callOK(t, cs, "get_meal_plan", map[string]any{"start_date": day(2), "end_date": day(5)}))
		var dates []string
		for _, e := range plan {
			dates = append(dates, fmt.Sprint(e["date"]))
		}
		if !slices.Equal(dates, []string{day(3), day(5)}) {
			t.Errorf("plan dates = %q, want the tacos on %s and the curry on %s", dates, day(3), day(5))
		}
		// "make it takeaway": a title replaces the recipe
		callOK(t, cs, "update_meal_plan_entry", map[string]any{"entry_id": ids[1], "title": "Takeaway"})
		if got := m.obj(t, "/api/households/mealplans/"+ids[1]); got["recipeId"] != nil || got["title"] != "Takeaway" || got["date"] != day(3) {
			t.Errorf("the entry made takeaway reads %v", got)
		}
	})

	t.Run("swap_one_ingredient", func(t *testing.T) {
		for _, f := range []string{"arborio rice", "chicken broth", "parmesan", "vegetable broth"} {
			food(t, f)
		}
		slug := recipe(t, map[string]any{"name": name("Lemon risotto"), "ingredients": []any{
			map[string]any{"quantity": 1.5, "food": name("arborio rice"), "title": "Risotto"},
			map[string]any{"quantity": 4, "food": name("chicken broth"), "note": "warm"},
			map[string]any{"quantity": 3, "food": name("parmesan"), "note": "grated"},
		}})
		before := ingredientLines(m.obj(t, "/api/recipes/"+slug))
		out := callOK(t, cs, "update_recipe", map[string]any{"slug": slug, "replace_ingredients": []any{
			map[string]any{"match": "chicken broth", "with": "4 " + name("vegetable broth") + ", warm"}}})
		if edits := collectStrings(out["line_edits"]); len(edits) != 1 || !strings.Contains(edits[0], "vegetable broth") {
			t.Errorf("line_edits = %v", out["line_edits"])
		}
		after := ingredientLines(m.obj(t, "/api/recipes/"+slug))
		if len(after) != 3 {
			t.Fatalf("%d lines after the swap", len(after))
		}
		for _, i := range []int{0, 2} {
			if d := lineDiff(before[i], after[i]); d != "" {
				t.Errorf("line %d changed: %s", i, d)
			}
		}
		if f, _ := after[1]["food"].(map[string]any); f == nil || f["name"] != name("vegetable broth") {
			t.Errorf("the swapped line reads %v", after[1])
		}
		if after[1]["referenceId"] != before[1]["referenceId"] {
			t.Errorf("the swapped line's reference moved")
		}
	})

	var quick []string
	t.Run("dinners_under_30_minutes_never_made", func(t *testing.T) {
		quick = append(quick, recipe(t, map[string]any{"name": name("Stir-fry"), "total_time": "25 minutes", "tags": []string{tag}}))
		quick = append(quick, recipe(t, map[string]any{"name": name("Omelette"), "prep_time": "5 minutes", "cook_time": "10 minutes", "tags": []string{tag}}))
		recipe(t, map[string]any{"name": name("Stew"), "total_time": "1 hour 30 minutes", "tags": []string{tag}})
		recipe(t, map[string]any{"name": name("Mystery"), "tags": []string{tag}})
		made := recipe(t, map[string]any{"name": name("Toast"), "total_time": "PT10M", "tags": []string{tag}})
		callOK(t, cs, "mark_recipe_made", map[string]any{"slug": made})
		out := callOK(t, cs, "search_recipes", map[string]any{"query": w, "tags": []string{tag}, "max_total_minutes": 30, "never_made": true})
		var got []string
		for _, it := range items(t, out) {
			got = append(got, fmt.Sprint(it["slug"]))
			if it["total_minutes"] == nil {
				t.Errorf("%v carries no total_minutes", it)
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(quick))
		if !slices.Equal(got, want) {
			t.Errorf("quick dinners never made = %q, want %q", got, want)
		}
		// the curry and tacos of the first step have no time either
		if hint := fmt.Sprint(out["hint"]); !strings.Contains(hint, "have no time") {
			t.Errorf("hint %q does not count the recipes without a time", hint)
		}
	})

	t.Run("a_cookbook_of_quick_dinners", func(t *testing.T) {
		out := callOK(t, cs, "create_cookbook", map[string]any{"name": name("Quick dinners"), "tags": []string{tag}, "max_total_minutes": 30})
		id, slug := fmt.Sprint(out["cookbook_id"]), fmt.Sprint(out["slug"])
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/cookbooks/"+id, nil) })
		tk, _ := out["time"].(map[string]any)
		timeTag := fmt.Sprint(tk["tag"])
		if tk == nil || !strings.Contains(fmt.Sprint(tk["note"]), "Mealie's app") || timeTag != "30 min or less (sous)" {
			t.Errorf("the answer does not say how the cookbook stays true: %v", out)
		}
		cleanups = append(cleanups, func() {
			for _, it := range m.search(t, "/api/organizers/tags", "min or less") {
				if it["name"] == timeTag {
					m.call(t, http.MethodDelete, "/api/organizers/tags/"+fmt.Sprint(it["id"]), nil)
				}
			}
		})
		inBook := func() []string {
			o := m.obj(t, "/api/recipes?perPage=-1&cookbook="+url.QueryEscape(slug))
			var out []string
			for _, it := range o["items"].([]any) {
				out = append(out, fmt.Sprint(it.(map[string]any)["slug"]))
			}
			slices.Sort(out)
			return out
		}
		// the quick dinners, the made toast (10 minutes) included
		want := slices.Clone(quick)
		for _, it := range m.search(t, "/api/recipes", w) {
			if it["name"] == name("Toast") {
				want = append(want, fmt.Sprint(it["slug"]))
			}
		}
		slices.Sort(want)
		if got := inBook(); !slices.Equal(got, want) {
			t.Errorf("the cookbook holds %q, want %q", got, want)
		}
		// a quick dinner added later through sous is in it; one made
		// slower through sous leaves it
		later := recipe(t, map[string]any{"name": name("Quesadillas"), "total_time": "15 min", "tags": []string{tag}})
		callOK(t, cs, "update_recipe", map[string]any{"slug": quick[0], "total_time": "45 minutes"})
		want = slices.DeleteFunc(append(want, later), func(s string) bool { return s == quick[0] })
		slices.Sort(want)
		if got := inBook(); !slices.Equal(got, want) {
			t.Errorf("after a new quick dinner and a slower one, the cookbook holds %q, want %q", got, want)
		}
		list := callOK(t, cs, "list_cookbooks", nil)
		if !strings.Contains(mustJSON(list), `"max_total_minutes":30`) {
			t.Errorf("list_cookbooks does not show the time bound: %v", list)
		}
	})

	t.Run("suggestions_say_what_they_use", func(t *testing.T) {
		for _, f := range []string{"chicken thighs", "lime", "coriander", "rice noodles"} {
			food(t, f)
		}
		bowl := recipe(t, map[string]any{"name": name("Lime chicken bowl"), "ingredients": []any{
			map[string]any{"quantity": 4, "food": name("chicken thighs")}, map[string]any{"quantity": 1, "food": name("lime")},
			map[string]any{"quantity": 1, "food": name("coriander")}}})
		salad := recipe(t, map[string]any{"name": name("Noodle salad"), "ingredients": []any{
			map[string]any{"quantity": 1, "food": name("lime")}, map[string]any{"quantity": 1, "food": name("rice noodles")}}})
		out := callOK(t, cs, "suggest_recipes", map[string]any{"foods": []string{name("chicken thighs"), name("lime")}, "max_missing_foods": 5, "limit": 50})
		uses := map[string][]string{}
		var order []string
		for _, it := range items(t, out) {
			uses[fmt.Sprint(it["slug"])] = collectStrings(it["uses"])
			order = append(order, fmt.Sprint(it["slug"]))
		}
		if !slices.Equal(uses[bowl], []string{name("chicken thighs"), name("lime")}) || !slices.Equal(uses[salad], []string{name("lime")}) {
			t.Errorf("uses = %v", uses)
		}
		if slices.Index(order, bowl) < 0 || slices.Index(order, salad) < slices.Index(order, bowl) {
			t.Errorf("order %q: the bowl using both foods must come before the salad using one", order)
		}
	})

	t.Run("a_two_name_search_with_one_unknown", func(t *testing.T) {
		unknown := w + "dragonfruit"
		out := callOK(t, cs, "search_recipes", map[string]any{"foods": []string{name("lime"), unknown}})
		if len(items(t, out)) < 2 {
			t.Errorf("searched with the lime: %v", out)
		}
		if uk, _ := out["unknown_foods"].(map[string]any); uk == nil || uk[unknown] == nil {
			t.Errorf("unknown_foods = %v", out["unknown_foods"])
		}
		text, isErr := callTool(t, cs, "search_recipes", map[string]any{"foods": []string{unknown}})
		if !isErr || !strings.Contains(text, unknown) {
			t.Errorf("every name unknown: isError=%v %s", isErr, text)
		}
	})

	t.Run("prompts", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range res.Prompts {
			names = append(names, p.Name)
		}
		if !slices.Equal(names, []string{"dinner_tonight", "log_cooked", "plan_week", "shop_for_plan", "tidy_recipe"}) {
			t.Errorf("prompts = %q", names)
		}
		got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "shop_for_plan", Arguments: map[string]string{"start_date": day(2), "end_date": day(8)}})
		if err != nil {
			t.Fatal(err)
		}
		if text := got.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(text, "add_to_shopping_list") || !strings.Contains(text, day(8)) {
			t.Errorf("shop_for_plan = %s", text)
		}
	})
}

// ingredientLines are a Mealie recipe's lines.
func ingredientLines(rec map[string]any) []map[string]any {
	var out []map[string]any
	for _, l := range rec["recipeIngredient"].([]any) {
		out = append(out, l.(map[string]any))
	}
	return out
}

// lineDiff compares two stored lines field by field (a food or unit by id
// and name) and says what differs, "" when nothing.
func lineDiff(a, b map[string]any) string {
	var d []string
	for _, k := range []string{"quantity", "unit", "food", "note", "referenceId", "title", "originalText", "display", "isFood", "disableAmount"} {
		av, bv := a[k], b[k]
		if o, ok := av.(map[string]any); ok {
			av = fmt.Sprint(o["id"], " ", o["name"])
		}
		if o, ok := bv.(map[string]any); ok {
			bv = fmt.Sprint(o["id"], " ", o["name"])
		}
		if !sameJSON(av, bv) {
			d = append(d, fmt.Sprintf("%s: %v → %v", k, av, bv))
		}
	}
	return strings.Join(d, "; ")
}

func sameJSON(a, b any) bool { return mustJSON(a) == mustJSON(b) }

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// collectStrings reads a JSON list of strings.
func collectStrings(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, s := range l {
		out = append(out, fmt.Sprint(s))
	}
	return out
}
