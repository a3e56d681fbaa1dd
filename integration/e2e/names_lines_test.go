package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/foodapiproc"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// TestNamesAndLines drives, through a real MCP client session, how sous
// reads names and lines as cooks write them, and reads every write back
// through Mealie's own API: other Englishes found ("eggplant" finds the
// library's aubergine, "prawns" its shrimp); the pantry skip never widening
// (sugar, flour and tinned chopped tomatoes in stock leave light brown
// sugar, flour tortillas and fresh tomatoes on the list); a free-text
// shopping line keeping its amount and unit; pasted lines stored with no
// unit left in a note; the priced tomato reported beside its clean twin and
// merged into it; "1 tsp turmeric" shown as "1 teaspoon turmeric"; "3
// tablespoons red lentils" linked to the library's red lentils; and
// parse_ingredients answering exactly what create_recipe then stores. On
// the emulator's profiles it runs on a library whose units Mealie's seeder
// made and on one with none; live (MEALIE_INTEGRATION=1, a Mealie of your
// own: it adds foods and units) on whichever the Mealie has.
func TestNamesAndLines(t *testing.T) {
	if !haveFoodAPI() {
		t.Skip("the food API's virtualenv is missing: run make test-deps")
	}
	food := harness.StartFoodAPI(t, foodapiproc.Start, foodapiproc.Options{})
	for _, v := range catalogVersions {
		for _, seeded := range []bool{true, false} {
			name := "emulator-" + v + map[bool]string{true: "-units-seeded", false: "-no-units"}[seeded]
			t.Run(name, func(t *testing.T) {
				opts := []mealieemu.Option{mealieemu.WithVersion(v), mealieemu.WithSeed("empty")}
				if v == "2.0" {
					// as the live 2.0 runs: nlp without its CRF++ model
					opts = append(opts, mealieemu.WithoutNLPModel())
				}
				em := mealietest.NewServer(t, opts...)
				m := dialMealie(t, em.URL, em.Token)
				m.emulated = true
				if seeded {
					if code, body := m.call(t, http.MethodPost, "/api/groups/seeders/units", map[string]any{"locale": "en-US"}); code != 200 {
						t.Fatalf("seeding units: %d %v", code, body)
					}
				}
				namesAndLines(t, m, foodEnv(food))
			})
		}
	}
	t.Run("live", func(t *testing.T) {
		namesAndLines(t, newLiveMealie(t), foodEnv(food))
	})
}

// namesAndLines is one run of TestNamesAndLines against the Mealie m.
func namesAndLines(t *testing.T, m *liveMealie, food []string) {
	units := m.obj(t, "/api/units?perPage=-1")["items"].([]any)
	t.Logf("Mealie %s at %s, %d units", m.version, m.url, len(units))
	cs := stdioSession(t, nil, append([]string{"MEALIE_URL=" + m.url, "MEALIE_API_TOKEN=" + m.token}, food...)...)
	word := "w" + strings.ReplaceAll(uuid.NewString()[:8], "-", "")
	var cleanups []func()
	defer func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}()
	// foodID finds a food by its exact name, creating it (and removing it
	// afterwards) when the library lacks it.
	foodID := func(t *testing.T, name string) string {
		t.Helper()
		for _, f := range m.search(t, "/api/foods", name) {
			if f["name"] == name {
				return f["id"].(string)
			}
		}
		code, body := m.call(t, http.MethodPost, "/api/foods", map[string]any{"name": name})
		if code != 201 {
			t.Fatalf("creating the food %q: %d %v", name, code, body)
		}
		id := body.(map[string]any)["id"].(string)
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/foods/"+id, nil) })
		return id
	}
	recipe := func(t *testing.T, title string, lines ...any) (string, map[string]any) {
		t.Helper()
		r := callOK(t, cs, "create_recipe", map[string]any{"name": title + " " + word, "ingredients": lines})
		slug := r["slug"].(string)
		cleanups = append(cleanups, func() {
			m.call(t, http.MethodPost, "/api/recipes/bulk-actions/delete", map[string]any{"recipes": []any{slug}})
		})
		return slug, r
	}
	stored := func(t *testing.T, slug string) []map[string]any {
		t.Helper()
		var out []map[string]any
		for _, l := range m.obj(t, "/api/recipes/"+slug)["recipeIngredient"].([]any) {
			out = append(out, l.(map[string]any))
		}
		return out
	}
	nameOf := func(v any) string {
		if o, ok := v.(map[string]any); ok && o != nil {
			s, _ := o["name"].(string)
			return s
		}
		return ""
	}

	t.Run("other Englishes", func(t *testing.T) {
		aub, shrimp := foodID(t, "aubergine"), foodID(t, "shrimp")
		slug, _ := recipe(t, "Aubergine Prawn Curry", map[string]any{"quantity": 1, "food": "aubergine"}, map[string]any{"quantity": 200, "unit": "g", "food": "shrimp"})
		for i, l := range stored(t, slug) {
			if id, _ := l["food"].(map[string]any)["id"].(string); id != []string{aub, shrimp}[i] {
				t.Errorf("line %d links %v, want the library's food", i, l["food"])
			}
		}
		// a kind is not the general food: the library's shrimp is not
		// king prawns
		if text, isErr := callTool(t, cs, "search_recipes", map[string]any{"foods": []string{"king prawns"}}); !isErr || strings.Contains(text, slug) {
			t.Errorf("search for king prawns = %s, want no food found", text)
		}
		for _, said := range []string{"eggplant", "prawns", "aubergines"} {
			res := callOK(t, cs, "search_recipes", map[string]any{"foods": []string{said}, "limit": 100})
			var slugs []string
			for _, it := range items(t, res) {
				slugs = append(slugs, fmt.Sprint(it["slug"]))
			}
			if !slices.Contains(slugs, slug) {
				t.Errorf("search for %q = %q, want %s (read as %v)", said, slugs, slug, res["resolved"])
			}
			// a query reads the same names as the foods filter
			res = callOK(t, cs, "search_recipes", map[string]any{"query": said, "limit": 100})
			slugs = nil
			for _, it := range items(t, res) {
				slugs = append(slugs, fmt.Sprint(it["slug"]))
			}
			if !slices.Contains(slugs, slug) {
				t.Errorf("query %q = %q, want %s", said, slugs, slug)
			}
		}
	})

	t.Run("the pantry skip never widens", func(t *testing.T) {
		callOK(t, cs, "add_to_pantry", map[string]any{"items": []any{
			map[string]any{"name": "sugar", "location": "cupboard"}, map[string]any{"name": "all-purpose flour", "location": "cupboard"},
			map[string]any{"name": "chopped tomatoes", "location": "cupboard"}, map[string]any{"name": "eggs", "location": "fridge"},
		}})
		slug, _ := recipe(t, "Breakfast Tacos", "1 cup light brown sugar", "8 flour tortillas", "2 fresh tomatoes", "4 large eggs")
		res := callOK(t, cs, "add_to_shopping_list", map[string]any{"recipe_slugs": []string{slug}, "list_id": "Tacos " + word})
		listID := res["list_id"].(string)
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/shopping/lists/"+listID, nil) })
		var skipped []string
		for _, s := range res["skipped_in_stock"].([]any) {
			skipped = append(skipped, fmt.Sprint(s.(map[string]any)["have"]))
		}
		if !slices.Equal(skipped, []string{"eggs"}) {
			t.Errorf("skipped as in stock: %q (%v), want eggs alone", skipped, res["skipped_in_stock"])
		}
		var shown []string
		for _, it := range m.obj(t, "/api/households/shopping/lists/"+listID)["listItems"].([]any) {
			shown = append(shown, fmt.Sprint(it.(map[string]any)["display"]))
		}
		for _, want := range []string{"light brown sugar", "tortilla", "tomato"} {
			if !slices.ContainsFunc(shown, func(s string) bool { return strings.Contains(strings.ToLower(s), want) }) {
				t.Errorf("the list shows %q, want %q on it", shown, want)
			}
		}
	})

	t.Run("an imported recipe's headings are not bought, a named item is", func(t *testing.T) {
		// An import never parsed: its lines are the page's text, section
		// headings among them, as Mealie's scraper stores them.
		code, v := m.call(t, http.MethodPost, "/api/recipes", map[string]any{"name": "Imported Satay " + word})
		if code != 201 {
			t.Fatalf("creating the recipe: %d %v", code, v)
		}
		slug := fmt.Sprint(v)
		cleanups = append(cleanups, func() {
			m.call(t, http.MethodPost, "/api/recipes/bulk-actions/delete", map[string]any{"recipes": []any{slug}})
		})
		var ings []any
		for _, note := range []string{"FOR THE MARINADE", "2 tbsp soy sauce", "1 tsp ground cumin", "For the peanut sauce:", "3 tbsp peanut butter", "TO SERVE", "lime wedges"} {
			ings = append(ings, map[string]any{"note": note, "quantity": 0, "referenceId": uuid.NewString()})
		}
		if code, v := m.call(t, http.MethodPatch, "/api/recipes/"+slug, map[string]any{"recipeIngredient": ings}); code != 200 {
			t.Fatalf("recipe lines: %d %v", code, v)
		}
		callOK(t, cs, "add_to_pantry", map[string]any{"items": []any{map[string]any{"name": "jasmine rice", "location": "cupboard"}}})
		res := callOK(t, cs, "add_to_shopping_list", map[string]any{"recipe_slugs": []string{slug}, "items": []string{"jasmine rice"}, "list_id": "Satay " + word})
		listID := res["list_id"].(string)
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/shopping/lists/"+listID, nil) })
		if n, _ := res["headings_skipped"].(float64); n != 3 {
			t.Errorf("headings_skipped = %v, want 3 (%v)", res["headings_skipped"], res)
		}
		if got := fmt.Sprint(res["added_though_in_stock"]); !strings.Contains(got, "jasmine rice") {
			t.Errorf("added_though_in_stock = %s, want the named jasmine rice", got)
		}
		var shown []string
		for _, it := range m.obj(t, "/api/households/shopping/lists/"+listID)["listItems"].([]any) {
			row := it.(map[string]any)
			shown = append(shown, strings.ToLower(fmt.Sprint(row["display"], " ", row["note"])))
		}
		for _, heading := range []string{"marinade", "peanut sauce:", "to serve"} {
			if slices.ContainsFunc(shown, func(s string) bool { return strings.Contains(s, heading) }) {
				t.Errorf("the list shows %q, a heading bought", shown)
			}
		}
		// every line that is not a heading is on the list or skipped as
		// the pantry's (its seed holds soy sauce and cumin)
		skipped := strings.ToLower(fmt.Sprint(res["skipped_in_stock"]))
		for _, want := range []string{"soy sauce", "cumin", "peanut butter", "lime wedges", "jasmine rice"} {
			if !slices.ContainsFunc(shown, func(s string) bool { return strings.Contains(s, want) }) && !strings.Contains(skipped, want) {
				t.Errorf("the list shows %q and skipped %s, want %q on it", shown, skipped, want)
			}
		}
	})

	t.Run("a shopping line keeps its amount", func(t *testing.T) {
		foodID(t, "light brown sugar")
		res := callOK(t, cs, "add_to_shopping_list", map[string]any{"items": []string{"2 cups light brown sugar, packed"}, "list_id": "Baking " + word, "skip_in_stock": false})
		listID := res["list_id"].(string)
		cleanups = append(cleanups, func() { m.call(t, http.MethodDelete, "/api/households/shopping/lists/"+listID, nil) })
		rows := m.obj(t, "/api/households/shopping/lists/"+listID)["listItems"].([]any)
		if len(rows) != 1 {
			t.Fatalf("rows %v", rows)
		}
		row := rows[0].(map[string]any)
		display := fmt.Sprint(row["display"])
		if !strings.HasPrefix(display, "2 c") || !strings.Contains(display, "light brown sugar") {
			t.Errorf("Mealie's app shows %q, want 2 cups of light brown sugar", display)
		}
		if nameOf(row["unit"]) != "cup" {
			t.Errorf("the row's unit is %v, want cup", row["unit"])
		}
	})

	t.Run("pasted lines store no junk", func(t *testing.T) {
		lines := []any{"2 tsp. red pepper chili flakes", "1/2 cup green onions, chopped", "1 Tbsp. cornstarch + 1 Tbsp. water (optional)",
			"½ TB ground coriander", "1 tablespoon fresh ginger, grated", "1 tsp. garlic, minced or pressed thru a garlic press"}
		slug, _ := recipe(t, "Pasted Stir Fry", lines...)
		for i, l := range stored(t, slug) {
			unit, note := nameOf(l["unit"]), fmt.Sprint(l["note"])
			if unit == "" {
				t.Errorf("%q stored without its unit: %v", lines[i], l)
			}
			for _, w := range strings.Fields(strings.ToLower(note)) {
				if slices.Contains([]string{"tsp", "tsp.", "tbsp", "tbsp.", "tb", "cup", "teaspoon", "tablespoon", "terabyte"}, strings.Trim(w, ",;()")) && i != 2 {
					t.Errorf("%q stored the note %q", lines[i], note)
				}
			}
			if strings.Trim(note, " ,;.()") == "" && note != "" {
				t.Errorf("%q stored the note %q", lines[i], note)
			}
		}
	})

	t.Run("the priced tomato", func(t *testing.T) {
		clean := "tomato " + word
		priced := clean + " ($0.45)"
		keep, gone := foodID(t, clean), foodID(t, priced)
		foodID(t, "Tomato "+word)
		res := callOK(t, cs, "library_stats", map[string]any{"resource": "foods", "top": 1})
		var group []any
		for _, g := range res["near_duplicates"].([]any) {
			if slices.Contains(g.([]any), any(priced)) {
				group = g.([]any)
			}
		}
		if len(group) < 3 || group[0] == priced {
			t.Fatalf("near-duplicates %v: want %q beside %q, the clean one first", res["near_duplicates"], priced, clean)
		}
		callOK(t, cs, "manage_taxonomy", map[string]any{"resource": "foods", "action": "merge", "item_id": priced, "merge_into": keep})
		if code := m.status(t, "/api/foods/"+gone); code == 200 {
			t.Errorf("the priced tomato is still there after the merge")
		}
	})

	t.Run("1 tsp turmeric", func(t *testing.T) {
		slug, r := recipe(t, "Golden Rice", "1 tsp turmeric")
		l := stored(t, slug)[0]
		if d := fmt.Sprint(l["display"]); d != "1 teaspoon turmeric" {
			t.Errorf("Mealie's app shows %q (created units %v), want \"1 teaspoon turmeric\"", d, r["created"])
		}
	})

	t.Run("3 tablespoons red lentils", func(t *testing.T) {
		lentils := foodID(t, "red lentils")
		slug, _ := recipe(t, "Lentil Soup", "3 tablespoons red lentils")
		l := stored(t, slug)[0]
		if id, _ := l["food"].(map[string]any)["id"].(string); id != lentils {
			t.Errorf("the line links %v, want the library's red lentils", l["food"])
		}
		// a library imported without seeded units keeps its tablespoon
		// as the parser named it ("Tbsp"): that one is linked, not a
		// second made
		if u := strings.ToLower(nameOf(l["unit"])); !slices.Contains([]string{"tablespoon", "tbsp", "tbsps"}, u) {
			t.Errorf("the line's unit is %v, want the library's tablespoon", l["unit"])
		}
	})

	t.Run("a can's size and a cook's word", func(t *testing.T) {
		slug, _ := recipe(t, "Pantry Chili", "1 (14 oz) can chopped tomatoes", "4 cups good-quality chicken stock")
		got := stored(t, slug)
		if len(got) != 2 {
			t.Fatalf("stored %v", got)
		}
		can := fmt.Sprint(got[0]["display"], " | ", got[0]["note"])
		if !strings.Contains(can, "14 oz") || !strings.Contains(can, "tomato") {
			t.Errorf("Mealie's app shows %q for the can, want its 14 oz and the tomatoes", can)
		}
		if f := strings.ToLower(nameOf(got[1]["food"])); strings.Contains(f, "quality") {
			t.Errorf("the stock line's food is %q: a cook's word stored as a food", f)
		}
		if d := fmt.Sprint(got[1]["display"]); !strings.Contains(d, "chicken stock") || !strings.Contains(d, "good-quality") {
			t.Errorf("Mealie's app shows %q for the stock, want chicken stock and its good-quality", d)
		}
	})

	t.Run("the preview is what is stored", func(t *testing.T) {
		lines := []string{"2 Tbsp. soy sauce", "1 tsp. ground cumin", "1 large yellow onion, chopped", "3 cloves garlic, smashed",
			"4 1/2 cups water", "1/4 cup fresh cilantro, chopped", "2 cups cooked jasmine rice"}
		preview := items(t, callOK(t, cs, "parse_ingredients", map[string]any{"lines": lines}))
		var in []any
		for _, l := range lines {
			in = append(in, l)
		}
		slug, _ := recipe(t, "Previewed Bowl", in...)
		got := stored(t, slug)
		if len(got) != len(preview) {
			t.Fatalf("stored %d lines, previewed %d", len(got), len(preview))
		}
		for i, p := range preview {
			if c, _ := p["check"].(string); c != "" {
				t.Errorf("%q: an ordinary line is checked: %s", lines[i], c)
			}
			s := got[i]
			q, _ := s["quantity"].(float64)
			pq, _ := p["quantity"].(float64)
			sNote, _ := s["note"].(string)
			pNote, _ := p["note"].(string)
			if q != pq || nameOf(s["unit"]) != fmt.Sprint(p["unit"]) && !(p["unit"] == nil && nameOf(s["unit"]) == "") ||
				nameOf(s["food"]) != fmt.Sprint(p["food"]) && !(p["food"] == nil && nameOf(s["food"]) == "") || sNote != pNote {
				t.Errorf("%q: previewed %v, stored quantity %v unit %q food %q note %q", lines[i], p, s["quantity"], nameOf(s["unit"]), nameOf(s["food"]), sNote)
			}
		}
	})
}
