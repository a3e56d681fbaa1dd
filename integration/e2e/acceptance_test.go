package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// liveMealie is a real Mealie the live acceptance run drives, named by
// MEALIE_INTEGRATION=1, MEALIE_URL and MEALIE_API_TOKEN (as the contract
// suite in integration/contract is).
type liveMealie struct {
	url     string
	token   string
	version string
	client  *http.Client
	// emulated is set for the emulator, whose household starts empty.
	emulated bool
}

// newLiveMealie reads the environment, or skips with what is missing.
func newLiveMealie(t *testing.T) *liveMealie {
	t.Helper()
	if os.Getenv("MEALIE_INTEGRATION") != "1" {
		t.Skip("live acceptance: MEALIE_INTEGRATION is not 1: run MEALIE_INTEGRATION=1 MEALIE_URL=<url> MEALIE_API_TOKEN=<token> go test -run TestAcceptance/live ./integration/e2e (docs/mealie-versions.md)")
	}
	u, tok := strings.TrimRight(os.Getenv("MEALIE_URL"), "/"), os.Getenv("MEALIE_API_TOKEN")
	if u == "" || tok == "" {
		t.Skip("live acceptance: MEALIE_URL and MEALIE_API_TOKEN must both be set")
	}
	return dialMealie(t, u, tok)
}

// dialMealie is the Mealie at base, asked for its version.
func dialMealie(t *testing.T, base, token string) *liveMealie {
	t.Helper()
	// A fresh connection each time: Mealie drops the connection after an
	// unhandled 500, and a reused one would read a reset.
	m := &liveMealie{url: base, token: token, client: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}}
	_, about := m.call(t, http.MethodGet, "/api/app/about", nil)
	m.version, _ = about.(map[string]any)["version"].(string)
	return m
}

// call sends one request to Mealie's own API and decodes the answer.
func (m *liveMealie) call(t *testing.T, method, path string, body any) (int, any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, m.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+m.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := m.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var v any
	if json.Unmarshal(raw, &v) != nil {
		v = string(raw)
	}
	return resp.StatusCode, v
}

// obj reads an object from Mealie, failing the test on anything but 200.
func (m *liveMealie) obj(t *testing.T, path string) map[string]any {
	t.Helper()
	code, v := m.call(t, http.MethodGet, path, nil)
	o, ok := v.(map[string]any)
	if code != 200 || !ok {
		t.Fatalf("GET %s: %d %v", path, code, v)
	}
	return o
}

// status is the status of a GET.
func (m *liveMealie) status(t *testing.T, path string) int {
	t.Helper()
	code, _ := m.call(t, http.MethodGet, path, nil)
	return code
}

// search lists the items of a Mealie collection matching a search word.
func (m *liveMealie) search(t *testing.T, base, word string) []map[string]any {
	t.Helper()
	o := m.obj(t, base+"?perPage=-1&search="+url.QueryEscape(word))
	var out []map[string]any
	for _, it := range o["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

// names lists the "name" of each object in a list.
func names(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, fmt.Sprint(m["name"]))
		}
	}
	return out
}

// pick returns the first of keys an answer carries, as a string.
func pick(v map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := v[k]; ok && s != nil {
			return fmt.Sprint(s)
		}
	}
	return ""
}

// TestAcceptance drives every Mealie-backed tool through a real MCP client
// and `sous mcp --stdio`, and checks each write by reading Mealie's own API,
// including what Mealie's app would show. It runs against the emulator's
// profiles on every `go test`, and against a real Mealie when
// MEALIE_INTEGRATION=1 names one (docs/mealie-versions.md): the same
// assertions on both are what keep the emulator honest as sous uses it. It
// creates its own uniquely named data and removes it.
func TestAcceptance(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, importPageHTML)
	}))
	defer page.Close()
	importURL := page.URL + "/flapjacks"
	// and on Mealie on PostgreSQL, whose own search differs
	for _, v := range append(slices.Clone(catalogVersions), "2.8-pg", "3.20-pg") {
		t.Run("emulator-"+v, func(t *testing.T) {
			em := mealietest.NewServer(t, mealieemu.WithVersion(v), mealieemu.WithSeed("empty"), mealieemu.WithWebPage(importURL, importPageHTML))
			m := dialMealie(t, em.URL, em.Token)
			m.emulated = true
			acceptance(t, m, importURL)
		})
	}
	t.Run("live", func(t *testing.T) {
		acceptance(t, newLiveMealie(t), importURL)
	})
}

// acceptance is one run of TestAcceptance against the Mealie m.
func acceptance(t *testing.T, m *liveMealie, importURL string) {
	t.Logf("Mealie %s at %s", m.version, m.url)
	imageDir := t.TempDir()
	pngName := writePNG(t, imageDir)
	cs := stdioSession(t, nil, "MEALIE_URL="+m.url, "MEALIE_API_TOKEN="+m.token, "SOUS_IMAGE_DIR="+imageDir)
	// A letter first: the names step asks for "<food>s", and a name whose
	// last word is all digits ("live rice 70226280") has no English plural
	// to read back ("70226280s" is not its plural; about one run in forty
	// drew such a word).
	word := "w" + strings.ReplaceAll(uuid.NewString()[:8], "-", "")
	title := func(s string) string { return "Live " + s + " " + word }
	slugOf := func(s string) string { return "live-" + strings.ToLower(strings.ReplaceAll(s, " ", "-")) + "-" + word }
	called := map[string]bool{}
	ok := func(t *testing.T, tool string, args map[string]any) map[string]any {
		t.Helper()
		called[tool] = true
		return callOK(t, cs, tool, args)
	}
	fails := func(t *testing.T, tool string, args map[string]any, want string) string {
		t.Helper()
		called[tool] = true
		text, isErr := callTool(t, cs, tool, args)
		if !isErr || !strings.Contains(text, want) {
			t.Errorf("%s: isError=%v %q, want an error containing %q", tool, isErr, text, want)
		}
		return text
	}
	// Whatever the run made, it removes, through Mealie's own API.
	var cleanups []func()
	defer func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}()
	deleteRecipe := func(slug string) func() {
		return func() {
			m.call(t, http.MethodPost, "/api/recipes/bulk-actions/delete", map[string]any{"recipes": []any{slug}})
		}
	}
	days := time.Now().AddDate(3, 0, 0) // far enough ahead to touch no real plan
	day := func(offset int) string { return days.AddDate(0, 0, offset).Format("2006-01-02") }

	// Taxonomy: the food and unit the recipe's lines link to.
	var foodName, unitName string
	t.Run("manage_taxonomy", func(t *testing.T) {
		for _, res := range []struct{ resource, base, name string }{
			{"foods", "/api/foods", "live rice " + word},
			{"units", "/api/units", "live cup " + word},
			{"tags", "/api/organizers/tags", title("Tag")},
			{"categories", "/api/organizers/categories", title("Category")},
			{"tools", "/api/organizers/tools", title("Tool")},
			{"labels", "/api/groups/labels", title("Label")},
		} {
			created := items(t, ok(t, "manage_taxonomy", map[string]any{"resource": res.resource, "action": "create", "name": res.name}))
			id := pick(created[0], "item_id", "id")
			got := m.obj(t, res.base+"/"+id)
			if got["name"] != res.name {
				t.Errorf("%s created as %v", res.resource, got)
			}
			base := res.base
			cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, base+"/"+id, nil) })
			switch res.resource {
			case "foods":
				foodName = res.name
				continue
			case "units":
				unitName = res.name
				continue
			}
			renamed := res.name + " renamed"
			ok(t, "manage_taxonomy", map[string]any{"resource": res.resource, "action": "update", "item_id": id, "name": renamed})
			if got := m.obj(t, res.base+"/"+id); got["name"] != renamed {
				t.Errorf("%s after rename: %v", res.resource, got)
			}
			ok(t, "manage_taxonomy", map[string]any{"resource": res.resource, "action": "delete", "item_id": id})
			if code := m.status(t, res.base+"/"+id); code == 200 {
				t.Errorf("%s still there after delete", res.resource)
			}
		}
		// The food of that very name first; a library's other rices may
		// follow, as holding one of the words.
		listed := items(t, ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "search": "live rice " + word}))
		if len(listed) == 0 || listed[0]["name"] != "live rice "+word {
			t.Errorf("foods listed = %v, want %q first", listed, "live rice "+word)
		}
	})

	recipe := slugOf("Risotto")
	t.Run("create_recipe", func(t *testing.T) {
		cleanups = append(cleanups, deleteRecipe(recipe))
		r := ok(t, "create_recipe", map[string]any{
			"name": title("Risotto"), "description": "Creamy rice.",
			"ingredients": []any{
				map[string]any{"quantity": 2, "unit": unitName, "food": foodName, "note": "rinsed"},
				"1 litre stock",
			},
			"instructions": []string{"Toast the rice.", "Add the stock slowly."},
			"recipe_yield": "4 servings", "prep_time": "10 minutes", "cook_time": "25 minutes",
			"tags": []string{title("Dinner")}, "categories": []string{title("Mains")}, "source_url": "https://example.org/" + word,
		})
		if pick(r, "slug") != recipe {
			t.Fatalf("create = %v", r)
		}
		for _, base := range []string{"/api/organizers/tags", "/api/organizers/categories"} {
			for _, it := range m.search(t, base, word) {
				id := fmt.Sprint(it["id"])
				b := base
				cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, b+"/"+id, nil) })
			}
		}
		got := m.obj(t, "/api/recipes/"+recipe)
		checks := map[string]any{"description": "Creamy rice.", "recipeYield": "4 servings", "prepTime": "10 minutes",
			"performTime": "25 minutes", "orgURL": "https://example.org/" + word}
		for k, want := range checks {
			if got[k] != want {
				t.Errorf("Mealie stored %s = %v, want %v", k, got[k], want)
			}
		}
		if !strings.Contains(fmt.Sprint(names(got["tags"])), title("Dinner")) || !strings.Contains(fmt.Sprint(names(got["recipeCategory"])), title("Mains")) {
			t.Errorf("Mealie stored tags %v categories %v", names(got["tags"]), names(got["recipeCategory"]))
		}
		steps, _ := got["recipeInstructions"].([]any)
		if len(steps) != 2 {
			t.Errorf("Mealie stored %d steps", len(steps))
		}
		// What Mealie's app shows: the linked unit and food, not only a note.
		if s, _ := got["settings"].(map[string]any); s != nil && s["disableAmount"] == true {
			t.Errorf("settings.disableAmount is on: Mealie's app shows only notes")
		}
		lines, _ := got["recipeIngredient"].([]any)
		if len(lines) != 2 {
			t.Fatalf("Mealie stored ingredients %v", lines)
		}
		first := lines[0].(map[string]any)
		if f, _ := first["food"].(map[string]any); f == nil || f["name"] != foodName {
			t.Errorf("first line's food = %v, want %s linked", first["food"], foodName)
		}
		if u, _ := first["unit"].(map[string]any); u == nil || u["name"] != unitName {
			t.Errorf("first line's unit = %v, want %s linked", first["unit"], unitName)
		}
		// sous's own view agrees with what Mealie stored.
		view := ok(t, "get_recipe", map[string]any{"slug": recipe})
		if pick(view, "cook_time", "cook") != "25 minutes" || pick(view, "prep_time", "prep") != "10 minutes" {
			t.Errorf("get_recipe times = %v", view)
		}
		if ings := fmt.Sprint(view["ingredients"]); !strings.Contains(ings, foodName) || !strings.Contains(ings, unitName) {
			t.Errorf("get_recipe ingredients = %v", ings)
		}
	})

	t.Run("search_recipes", func(t *testing.T) {
		got := items(t, ok(t, "search_recipes", map[string]any{"query": word}))
		if len(got) != 1 || got[0]["slug"] != recipe {
			t.Errorf("search %s = %v", word, got)
		}
	})

	// Names as a cook says them: "rice <word>" covers the food "live rice
	// <word>" (its head noun), in a search's filter and in suggestions, and
	// an answer says how it read the name; a tag that does not exist is
	// refused with the closest, not answered with every recipe.
	t.Run("names", func(t *testing.T) {
		general := "rice " + word
		got := ok(t, "search_recipes", map[string]any{"foods": []string{general}})
		if l := items(t, got); len(l) != 1 || l[0]["slug"] != recipe {
			t.Errorf("search foods %q = %v", general, got)
		}
		if r := fmt.Sprint(got["resolved"]); !strings.Contains(r, foodName) {
			t.Errorf("search resolved = %v, want %q read as %q", got["resolved"], general, foodName)
		}
		sg := ok(t, "suggest_recipes", map[string]any{"foods": []string{general}})
		if !strings.Contains(fmt.Sprint(sg["items"]), recipe) || !strings.Contains(fmt.Sprint(sg["resolved"]), foodName) || sg["unknown_foods"] != nil {
			t.Errorf("suggest %q = %v", general, sg)
		}
		fails(t, "search_recipes", map[string]any{"tags": []string{"no such tag " + word}}, "no tag is called")
		// manage_taxonomy takes the food by its plural.
		ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "update", "item_id": foodName + "s", "data": map[string]any{"description": "named by its plural"}})
		for _, f := range m.search(t, "/api/foods", foodName) {
			if f["name"] == foodName && f["description"] != "named by its plural" {
				t.Errorf("food after an update by its plural: %v", f)
			}
		}
		// A write's unknown food is created and reported; the food the
		// line names by its plural is the stored one, not a copy.
		named := slugOf("Names")
		cleanups = append(cleanups, deleteRecipe(named))
		fresh := "live quince " + word
		w := ok(t, "create_recipe", map[string]any{"name": title("Names"), "ingredients": []any{
			map[string]any{"quantity": 1, "food": fresh},
			map[string]any{"quantity": 2, "food": foodName + "s"},
		}})
		for _, it := range m.search(t, "/api/foods", "quince "+word) {
			id := fmt.Sprint(it["id"])
			cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/foods/"+id, nil) })
		}
		if fmt.Sprint(w["created_foods"]) != "["+fresh+"]" || !strings.Contains(fmt.Sprint(w["resolved"]), foodName) {
			t.Errorf("create_recipe = %v, want %q created and %q read as %q", w, fresh, foodName+"s", foodName)
		}
		lines, _ := m.obj(t, "/api/recipes/"+named)["recipeIngredient"].([]any)
		for i, want := range []string{fresh, foodName} {
			if i >= len(lines) {
				t.Fatalf("Mealie stored %v", lines)
			}
			if f, _ := lines[i].(map[string]any)["food"].(map[string]any); f == nil || f["name"] != want {
				t.Errorf("line %d food = %v, want %q linked", i, lines[i], want)
			}
		}
		// A counting word Mealie lacks becomes a unit, so "1 block <food>"
		// keeps its food; a recipe naming the search's food only in a line
		// of text comes back as a text match.
		texty := slugOf("Texty")
		cleanups = append(cleanups, deleteRecipe(texty))
		// A fixed food name: parsers read a run's random word unevenly.
		tofu := "extra-firm tofu"
		tw := ok(t, "create_recipe", map[string]any{"name": title("Texty"), "ingredients": []any{
			"1 block " + tofu, map[string]any{"note": "2 cups boiled " + general + ", rinsed"},
		}})
		if strings.Contains(fmt.Sprint(tw["created_foods"]), tofu) {
			for _, it := range m.search(t, "/api/foods", tofu) {
				if id := fmt.Sprint(it["id"]); it["name"] == tofu {
					cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/foods/"+id, nil) })
				}
			}
		}
		if strings.Contains(fmt.Sprint(tw["created_units"]), "block") {
			for _, it := range m.search(t, "/api/units", "block") {
				if id := fmt.Sprint(it["id"]); it["name"] == "block" {
					cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/units/"+id, nil) })
				}
			}
		}
		tl, _ := m.obj(t, "/api/recipes/"+texty)["recipeIngredient"].([]any)
		if len(tl) != 2 {
			t.Fatalf("Mealie stored %v", tl)
		}
		first, _ := tl[0].(map[string]any)
		if u, _ := first["unit"].(map[string]any); u == nil || u["name"] != "block" {
			t.Errorf("line %v: want the unit block (create_recipe answered %v)", first, tw)
		}
		if f, _ := first["food"].(map[string]any); f == nil || f["name"] != tofu {
			t.Errorf("line %v: want the food %q linked", first, tofu)
		}
		got = ok(t, "search_recipes", map[string]any{"foods": []string{general}})
		if tm := fmt.Sprint(got["text_matches"]); !strings.Contains(tm, texty) || strings.Contains(fmt.Sprint(got["items"]), texty) {
			t.Errorf("search foods %q = %v, want %s as a text match", general, got, texty)
		}
	})

	t.Run("update_recipe", func(t *testing.T) {
		ok(t, "update_recipe", map[string]any{"slug": recipe, "tags": []string{title("Comfort")}, "rating": 4, "cook_time": "30 minutes"})
		for _, it := range m.search(t, "/api/organizers/tags", "comfort") {
			id := fmt.Sprint(it["id"])
			cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/organizers/tags/"+id, nil) })
		}
		got := m.obj(t, "/api/recipes/"+recipe)
		tags := fmt.Sprint(names(got["tags"]))
		if !strings.Contains(tags, title("Comfort")) || !strings.Contains(tags, title("Dinner")) {
			t.Errorf("tags after a merging update = %v", tags)
		}
		if got["performTime"] != "30 minutes" {
			t.Errorf("performTime = %v, want the new cook time", got["performTime"])
		}
		view := ok(t, "get_recipe", map[string]any{"slug": recipe, "fields": []string{"rating"}})
		if fmt.Sprint(view["rating"]) != fmt.Sprint(got["rating"]) || got["rating"] != 4.0 {
			t.Errorf("rating: sous says %v, Mealie shows %v, want 4", view["rating"], got["rating"])
		}
	})

	t.Run("mark_recipe_made", func(t *testing.T) {
		r := ok(t, "mark_recipe_made", map[string]any{"slug": recipe, "date": "2025-05-06"})
		if r["last_made"] != "2025-05-06" {
			t.Errorf("mark made = %v", r)
		}
		if lm, _ := m.obj(t, "/api/recipes/"+recipe)["lastMade"].(string); !strings.HasPrefix(lm, "2025-05-06") {
			t.Errorf("Mealie's lastMade = %v", lm)
		}
	})

	t.Run("images", func(t *testing.T) {
		id := fmt.Sprint(m.obj(t, "/api/recipes/"+recipe)["id"])
		fails(t, "set_recipe_image", map[string]any{"slug": recipe, "url": "http://127.0.0.1:9/none.jpg"}, "")
		if code := m.status(t, "/api/media/recipes/"+id+"/images/original.webp"); code == 200 {
			t.Errorf("an image is there after a failed fetch")
		}
		ok(t, "upload_recipe_image", map[string]any{"slug": recipe, "path": pngName})
		if code := m.status(t, "/api/media/recipes/"+id+"/images/original.webp"); code != 200 {
			t.Errorf("image after upload: %d", code)
		}
	})

	other := slugOf("Porridge")
	t.Run("bulk_tag_recipes", func(t *testing.T) {
		cleanups = append(cleanups, deleteRecipe(other))
		ok(t, "create_recipe", map[string]any{"name": title("Porridge"), "ingredients": []any{"50 g oats"}})
		ok(t, "bulk_tag_recipes", map[string]any{"slugs": []string{recipe, other}, "tags": []string{title("Batch")}, "categories": []string{title("Mains")}})
		for _, it := range m.search(t, "/api/organizers/tags", "batch") {
			id := fmt.Sprint(it["id"])
			cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/organizers/tags/"+id, nil) })
		}
		got := m.obj(t, "/api/recipes/"+other)
		if !strings.Contains(fmt.Sprint(names(got["tags"])), title("Batch")) || !strings.Contains(fmt.Sprint(names(got["recipeCategory"])), title("Mains")) {
			t.Errorf("after bulk tag: tags %v categories %v", names(got["tags"]), names(got["recipeCategory"]))
		}
	})

	t.Run("parse_ingredients", func(t *testing.T) {
		got := items(t, ok(t, "parse_ingredients", map[string]any{"lines": []string{"2 cups flour"}, "parser": "brute"}))
		if len(got) != 1 {
			t.Errorf("brute = %v", got)
		}
		text, isErr := callTool(t, cs, "parse_ingredients", map[string]any{"lines": []string{"2 cups flour"}, "parser": "nlp"})
		if isErr && !strings.Contains(text, "brute") {
			t.Errorf("nlp failed without naming a parser that works: %s", text)
		}
	})

	t.Run("suggest_recipes", func(t *testing.T) {
		ok(t, "suggest_recipes", map[string]any{"foods": []string{foodName}, "max_missing_foods": 5})
	})

	t.Run("meal_plan", func(t *testing.T) {
		e := ok(t, "add_meal_plan_entry", map[string]any{"date": day(0), "recipe_slug": recipe, "entry_type": "lunch"})
		entryID := pick(e, "entry_id", "id")
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/mealplans/"+entryID, nil) })
		stored := m.obj(t, "/api/households/mealplans/"+entryID)
		if stored["date"] != day(0) || stored["entryType"] != "lunch" || stored["recipeId"] != m.obj(t, "/api/recipes/"+recipe)["id"] {
			t.Errorf("Mealie stored the entry as %v", stored)
		}
		got := items(t, ok(t, "get_meal_plan", map[string]any{"start_date": day(0), "end_date": day(0)}))
		if len(got) != 1 {
			t.Errorf("plan on %s = %v", day(0), got)
		}
		ok(t, "get_todays_meals", nil)
		// Moved in place: the same id, the new day and meal, the recipe kept.
		ok(t, "update_meal_plan_entry", map[string]any{"entry_id": entryID, "date": day(1), "entry_type": "dinner"})
		stored = m.obj(t, "/api/households/mealplans/"+entryID)
		if stored["date"] != day(1) || stored["entryType"] != "dinner" || stored["recipeId"] != m.obj(t, "/api/recipes/"+recipe)["id"] {
			t.Errorf("Mealie holds the moved entry as %v", stored)
		}
		ok(t, "delete_meal_plan_entry", map[string]any{"entry_id": entryID})
		if code := m.status(t, "/api/households/mealplans/"+entryID); code != 404 {
			t.Errorf("entry after delete: %d", code)
		}
		r := ok(t, "random_meal_plan", map[string]any{"start_date": day(10), "end_date": day(11)})
		made := map[string]bool{}
		for _, d := range items(t, r) {
			e, _ := d["entry"].(map[string]any)
			id := pick(e, "entry_id")
			if id == "" {
				t.Errorf("a random day without an entry id: %v", d)
				continue
			}
			made[id] = true
			cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/mealplans/"+id, nil) })
		}
		o := m.obj(t, "/api/households/mealplans?start_date="+day(10)+"&end_date="+day(11)+"&perPage=-1")
		held := 0
		for _, it := range o["items"].([]any) {
			if made[fmt.Sprint(it.(map[string]any)["id"])] {
				held++
			}
		}
		if len(made) != 2 || held != 2 {
			t.Errorf("random plan: sous answered %d entries, Mealie holds %d of them", len(made), held)
		}
	})

	t.Run("cookbooks", func(t *testing.T) {
		c := ok(t, "create_cookbook", map[string]any{"name": title("Book"), "tags": []string{strings.ToLower(title("Dinner"))}})
		id := pick(c, "cookbook_id", "id")
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/cookbooks/"+id, nil) })
		stored := m.obj(t, "/api/households/cookbooks/"+id)
		if !strings.Contains(fmt.Sprint(stored["queryFilterString"]), title("Dinner")) {
			t.Errorf("Mealie stored the filter %v, want the tag in Mealie's casing", stored["queryFilterString"])
		}
		got := items(t, ok(t, "get_cookbook_recipes", map[string]any{"cookbook": fmt.Sprint(stored["slug"])}))
		if len(got) != 1 || got[0]["slug"] != recipe {
			t.Errorf("cookbook recipes = %v", got)
		}
		ok(t, "update_cookbook", map[string]any{"cookbook_id": id, "description": "Evenings."})
		if d := m.obj(t, "/api/households/cookbooks/"+id)["description"]; d != "Evenings." {
			t.Errorf("Mealie stored description %v", d)
		}
		ok(t, "list_cookbooks", nil)
		ok(t, "delete_cookbook", map[string]any{"cookbook_id": id})
		if code := m.status(t, "/api/households/cookbooks/"+id); code == 200 {
			t.Errorf("cookbook still there after delete")
		}
	})

	t.Run("library", func(t *testing.T) {
		ok(t, "library_stats", map[string]any{"resource": "tags"})
		ok(t, "library_stats", map[string]any{"resource": "foods", "max_recipes": 50})
		ok(t, "find_duplicate_recipes", nil)
		ok(t, "check_recipe_links", map[string]any{"check_sources": false})
	})

	// The sentence a kitchen assistant exists for: plan a week and shop for
	// it on a list that does not exist yet (the emulator's household has
	// none; a live one gets a new, uniquely named list).
	t.Run("plan_a_week_and_shop", func(t *testing.T) {
		if m.emulated {
			if l := ok(t, "get_shopping_list", nil); len(items(t, l)) != 0 {
				t.Fatalf("the empty household has lists: %v", l)
			}
		}
		for _, d := range []int{20, 22} {
			e := ok(t, "add_meal_plan_entry", map[string]any{"date": day(d), "recipe_slug": recipe, "entry_type": "dinner"})
			id := pick(e, "entry_id", "id")
			cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/mealplans/"+id, nil) })
		}
		week := map[string]any{"start_date": day(20), "end_date": day(26)}
		name := title("Week")
		r := ok(t, "add_to_shopping_list", map[string]any{"list_id": name, "meal_plan_range": week, "skip_in_stock": false})
		listID := pick(r, "list_id")
		if listID != "" {
			cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/shopping/lists/"+listID, nil) })
		}
		if r["created_list"] != true || pick(r, "list_name") != name {
			t.Fatalf("add_to_shopping_list on a missing list = %v, want it created", r)
		}
		stored := m.obj(t, "/api/households/shopping/lists/"+listID)
		listItems, _ := stored["listItems"].([]any)
		var rice map[string]any
		for _, it := range listItems {
			row := it.(map[string]any)
			if refs, _ := row["recipeReferences"].([]any); len(refs) == 0 {
				t.Errorf("a row without its recipe: %v", row)
			}
			if f, _ := row["food"].(map[string]any); f != nil && f["name"] == foodName {
				rice = row
			}
		}
		// Planned twice: the recipe's 2 units of rice are bought twice, on
		// one row.
		if rice == nil || rice["quantity"] != 4.0 {
			t.Fatalf("Mealie's list holds %v (sous said %v)", listItems, r)
		}
		refs, _ := stored["recipeReferences"].([]any)
		if len(refs) != 1 || refs[0].(map[string]any)["recipeQuantity"] != 2.0 {
			t.Errorf("list recipe references %v, want the recipe twice", refs)
		}
		// The same sentence again adds nothing.
		again := ok(t, "add_to_shopping_list", map[string]any{"list_id": strings.ToLower(name), "meal_plan_range": week, "skip_in_stock": false})
		if pick(again, "list_id") != listID || !strings.Contains(fmt.Sprint(again["already_on_list"]), recipe) {
			t.Errorf("second add = %v", again)
		}
		if n := len(m.obj(t, "/api/households/shopping/lists/"+listID)["listItems"].([]any)); n != len(listItems) {
			t.Errorf("the second add changed the list: %d rows, were %d", n, len(listItems))
		}
		// Bought the rice, by name; then the list renamed keeps it.
		ok(t, "update_shopping_items", map[string]any{"list_id": listID, "check": []string{foodName}})
		if got := m.obj(t, "/api/households/shopping/items/"+fmt.Sprint(rice["id"])); got["checked"] != true {
			t.Errorf("rice after check by name: %v", got)
		}
		renamed := title("Big Shop")
		ok(t, "manage_shopping_lists", map[string]any{"action": "rename", "list_id": listID, "name": renamed})
		after := m.obj(t, "/api/households/shopping/lists/"+listID)
		if after["name"] != renamed || len(after["listItems"].([]any)) != len(listItems) {
			t.Errorf("after rename: %v with %d rows, want %d", after["name"], len(after["listItems"].([]any)), len(listItems))
		}
		if got := m.obj(t, "/api/households/shopping/items/"+fmt.Sprint(rice["id"])); got["checked"] != true {
			t.Errorf("the rename un-checked the rice: %v", got)
		}
		fails(t, "manage_shopping_lists", map[string]any{"action": "delete", "list_id": listID, "confirm_name": name}, "does not match")
		ok(t, "manage_shopping_lists", map[string]any{"action": "delete", "list_id": listID, "confirm_name": renamed})
		if code := m.status(t, "/api/households/shopping/lists/"+listID); code != 404 {
			t.Errorf("list after delete: %d, want 404", code)
		}
	})

	// A recipe that uses another (referencedRecipe, Mealie 3.5 and later):
	// get_recipe names the sub-recipe, Mealie's endpoint expands it onto
	// the list, and taking the recipe off takes its rows.
	t.Run("sub_recipe", func(t *testing.T) {
		if !strings.HasPrefix(m.version, "v3") {
			t.Skip("Mealie " + m.version + " has no sub-recipes (referencedRecipe came in 3.5): the emulator-3.11 and emulator-3.20 runs take this step, and a live Mealie 3.x does with MEALIE_INTEGRATION=1 MEALIE_URL=… MEALIE_API_TOKEN=… go test -run TestAcceptance/live ./integration/e2e")
		}
		feast := slugOf("Feast")
		cleanups = append(cleanups, deleteRecipe(feast))
		ok(t, "create_recipe", map[string]any{"name": title("Feast"), "ingredients": []any{"1 lemon"}})
		sub := m.obj(t, "/api/recipes/"+recipe)
		line := map[string]any{"quantity": 2, "note": "", "referenceId": uuid.NewString(),
			"referencedRecipe": map[string]any{"id": sub["id"], "name": sub["name"], "slug": sub["slug"]}}
		if code, body := m.call(t, http.MethodPatch, "/api/recipes/"+feast, map[string]any{"recipeIngredient": []any{line}}); code != 200 {
			t.Fatalf("linking the sub-recipe: %d %v", code, body)
		}
		view := ok(t, "get_recipe", map[string]any{"slug": feast})
		if want := fmt.Sprintf("2 %s (recipe %s)", sub["name"], recipe); fmt.Sprint(view["ingredients"]) != "["+want+"]" {
			t.Errorf("get_recipe ingredients = %v, want [%s]", view["ingredients"], want)
		}
		r := ok(t, "add_to_shopping_list", map[string]any{"list_id": title("Feast List"), "recipe_slugs": []string{feast}, "skip_in_stock": false})
		listID := pick(r, "list_id")
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/shopping/lists/"+listID, nil) })
		var rice map[string]any
		for _, it := range m.obj(t, "/api/households/shopping/lists/"+listID)["listItems"].([]any) {
			if f, _ := it.(map[string]any)["food"].(map[string]any); f != nil && f["name"] == foodName {
				rice = it.(map[string]any)
			}
		}
		if rice == nil || rice["quantity"] != 4.0 {
			t.Fatalf("the sub-recipe's 2 units of rice, twice: %v (sous said %v)", rice, r)
		}
		ok(t, "update_shopping_items", map[string]any{"list_id": listID, "remove_recipes": []string{feast}})
		if left := m.obj(t, "/api/households/shopping/lists/"+listID)["listItems"].([]any); len(left) != 0 {
			t.Errorf("after taking the feast off, the list holds %v", left)
		}
	})

	t.Run("shopping", func(t *testing.T) {
		code, l := m.call(t, http.MethodPost, "/api/households/shopping/lists", map[string]any{"name": title("List")})
		if code != 201 {
			t.Fatalf("creating a list: %d %v", code, l)
		}
		listID := fmt.Sprint(l.(map[string]any)["id"])
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/shopping/lists/"+listID, nil) })
		// The household's only list is shown whole; several are listed.
		all, _ := m.obj(t, "/api/households/shopping/lists?perPage=-1")["items"].([]any)
		if got := ok(t, "get_shopping_list", nil); len(all) == 1 {
			if got["list_id"] != listID || got["sections"] == nil {
				t.Errorf("get_shopping_list with one list = %v, want list %s shown", got, listID)
			}
		} else if len(items(t, got)) != len(all) {
			t.Errorf("get_shopping_list = %v, want the %d lists Mealie holds", got, len(all))
		}
		r := ok(t, "add_to_shopping_list", map[string]any{"list_id": listID, "items": []string{"3 lemons"}, "recipe_slugs": []string{recipe}, "skip_in_stock": false})
		stored := m.obj(t, "/api/households/shopping/lists/"+listID)
		listItems, _ := stored["listItems"].([]any)
		if len(listItems) < 3 {
			t.Errorf("Mealie's list holds %d items after adding a line and a recipe: %v (sous said %v)", len(listItems), listItems, r)
		}
		first := listItems[0].(map[string]any)
		itemID := fmt.Sprint(first["id"])
		ok(t, "update_shopping_items", map[string]any{"list_id": listID, "check": []string{itemID}})
		if got := m.obj(t, "/api/households/shopping/items/"+itemID); got["checked"] != true {
			t.Errorf("item after check: %v", got)
		}
		ok(t, "get_shopping_list", map[string]any{"list_id": listID})
	})

	t.Run("import_recipe_from_url", func(t *testing.T) {
		text, isErr := callTool(t, cs, "import_recipe_from_url", map[string]any{"url": importURL})
		called["import_recipe_from_url"] = true
		if isErr {
			// 3.11 and 3.20 refuse to fetch loopback addresses: the error must say
			// the page could not be fetched, not that Mealie is unhealthy.
			if strings.Contains(text, "unhealthy") {
				t.Errorf("import error = %q", text)
			}
			return
		}
		var r map[string]any
		_ = json.Unmarshal([]byte(text), &r)
		slug := pick(r, "slug")
		cleanups = append(cleanups, deleteRecipe(slug))
		if got := m.obj(t, "/api/recipes/"+slug); got["name"] != title("Flapjacks") {
			t.Errorf("imported as %v", got["name"])
		}
	})

	t.Run("rename_and_delete", func(t *testing.T) {
		r := ok(t, "update_recipe", map[string]any{"slug": other, "name": title("Oat Porridge")})
		renamed := slugOf("Oat Porridge")
		cleanups = append(cleanups, deleteRecipe(renamed))
		if pick(r, "slug") != renamed || pick(r, "renamed_from") != other {
			t.Errorf("rename = %v", r)
		}
		if m.status(t, "/api/recipes/"+renamed) != 200 || m.status(t, "/api/recipes/"+other) != 404 {
			t.Errorf("after rename: new %d old %d, want 200 and 404", m.status(t, "/api/recipes/"+renamed), m.status(t, "/api/recipes/"+other))
		}
		fails(t, "delete_recipe", map[string]any{"slug": renamed, "confirm_slug": other}, "")
		ok(t, "delete_recipe", map[string]any{"slug": renamed, "confirm_slug": renamed})
		if code := m.status(t, "/api/recipes/"+renamed); code != 404 {
			t.Errorf("after delete: %d", code)
		}
	})

	// A change made in Mealie's own app is seen by the next call.
	t.Run("external_changes", func(t *testing.T) {
		code, tag := m.call(t, http.MethodPost, "/api/organizers/tags", map[string]any{"name": title("Outside")})
		if code != 201 {
			t.Fatalf("creating a tag in Mealie: %d %v", code, tag)
		}
		tagID := fmt.Sprint(tag.(map[string]any)["id"])
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/organizers/tags/"+tagID, nil) })
		ok(t, "update_recipe", map[string]any{"slug": recipe, "tags": []string{strings.ToLower(title("Outside"))}})
		n := 0
		for _, it := range m.search(t, "/api/organizers/tags", word) {
			if strings.EqualFold(fmt.Sprint(it["name"]), title("Outside")) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d tags named %q: sous created a second one instead of using Mealie's", n, title("Outside"))
		}
		ok(t, "delete_recipe", map[string]any{"slug": recipe, "confirm_slug": recipe})
	})

	var missing []string
	for _, name := range toolNames(t, cs) {
		if !called[name] && !pantryOnly[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("Mealie-backed tools never called: %v", missing)
	}
}

// pantryOnly are the tools that talk to the food API, not to Mealie.
var pantryOnly = map[string]bool{
	"get_pantry": true, "set_item_state": true, "add_to_pantry": true, "what_can_i_cook": true,
	"get_meta_recipes": true, "log_cook": true, "create_meta_recipe": true,
}
