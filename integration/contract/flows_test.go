package contract

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// This file walks the Mealie endpoints sous calls, one flow per test, and
// asserts the state each write leaves behind by reading it back. With the
// recordings under testdata/recordings it is also what holds the emulator to
// each real version, exchange by exchange.

// taxonomyPaths are the taxonomy resources sous manages, by the path of
// their collection.
var taxonomyPaths = []string{"/api/foods", "/api/units", "/api/groups/labels", "/api/organizers/tags", "/api/organizers/categories", "/api/organizers/tools"}

func TestTaxonomyCreateRenameDelete(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		for _, base := range taxonomyPaths {
			name := tg.uniqueName("contract item")
			code, body := tg.call(t, http.MethodPost, base, map[string]any{"name": name})
			if code != 201 && code != 200 {
				t.Fatalf("POST %s: %d %v", base, code, body)
			}
			it := asObj(t, body)
			id, _ := it["id"].(string)
			if it["name"] != name || id == "" {
				t.Fatalf("POST %s answered %v", base, it)
			}
			// search matches any one of its words (Mealie's SearchFilter ORs
			// a LIKE per word on SQLite, 2.0 to 3.20) and ranks rows holding
			// the whole string first, so a Mealie holding other "contract"
			// rows answers them too, after the one just made.
			code, page := tg.call(t, http.MethodGet, base+"?perPage=50&search="+url.QueryEscape(name), nil)
			if items, _ := asObj(t, page)["items"].([]any); code != 200 || len(items) == 0 || asObj(t, items[0])["id"] != id {
				t.Errorf("GET %s?search: %d %v, want the item just made first", base, code, page)
			}
			// The PUT sous sends: the current row with a new name.
			renamed := name + " renamed"
			it["name"] = renamed
			code, body = tg.call(t, http.MethodPut, base+"/"+id, it)
			if code != 200 || asObj(t, body)["name"] != renamed {
				t.Errorf("PUT %s: %d %v", base, code, body)
			}
			code, body = tg.call(t, http.MethodGet, base+"/"+id, nil)
			if code != 200 || asObj(t, body)["name"] != renamed {
				t.Errorf("GET %s after rename: %d %v", base, code, body)
			}
			if code, body := tg.call(t, http.MethodDelete, base+"/"+id, nil); code != 200 {
				t.Errorf("DELETE %s: %d %v", base, code, body)
			}
			// Labels answer an unhandled 500 for an id that is gone; the
			// others a 404.
			want := 404
			if base == "/api/groups/labels" {
				want = 500
			}
			if code, _ := tg.call(t, http.MethodGet, base+"/"+id, nil); code != want {
				t.Errorf("GET %s after delete: %d, want %d", base, code, want)
			}
		}
	})
}

func TestFoodAndUnitMerge(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		for _, res := range []struct{ base, from, to string }{
			{"/api/foods", "fromFood", "toFood"},
			{"/api/units", "fromUnit", "toUnit"},
		} {
			var ids []string
			for _, n := range []string{"contract keep", "contract drop"} {
				code, body := tg.call(t, http.MethodPost, res.base, map[string]any{"name": tg.uniqueName(n)})
				if code != 201 {
					t.Fatalf("POST %s: %d %v", res.base, code, body)
				}
				id := asObj(t, body)["id"].(string)
				ids = append(ids, id)
				t.Cleanup(func() { tg.call(t, http.MethodDelete, res.base+"/"+id, nil) })
			}
			code, body := tg.call(t, http.MethodPut, res.base+"/merge", map[string]any{res.from: ids[1], res.to: ids[0]})
			if code != 200 {
				t.Errorf("merge %s: %d %v", res.base, code, body)
			}
			if code, _ := tg.call(t, http.MethodGet, res.base+"/"+ids[1], nil); code != 404 {
				t.Errorf("merged-away %s row: %d, want 404", res.base, code)
			}
			if code, _ := tg.call(t, http.MethodGet, res.base+"/"+ids[0], nil); code != 200 {
				t.Errorf("merged-into %s row: %d, want 200", res.base, code)
			}
		}
	})
}

func TestRecipePatchFields(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		s := newRecipe(t, tg, tg.uniqueName("Contract Risotto"))
		patch := map[string]any{
			"description": "Creamy.", "recipeYield": "4 servings", "prepTime": "10 minutes",
			"performTime": "25 minutes", "totalTime": "35 minutes", "orgURL": "https://example.org/risotto",
			"notes":              []any{map[string]any{"title": "Tip", "text": "Stir often."}},
			"recipeInstructions": []any{map[string]any{"text": "Toast the rice.", "ingredientReferences": []any{}}, map[string]any{"text": "Add stock.", "ingredientReferences": []any{}}},
		}
		code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, patch)
		if code != 200 {
			t.Fatalf("patch: %d %v", code, body)
		}
		code, body = tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		if code != 200 {
			t.Fatalf("get: %d", code)
		}
		r := asObj(t, body)
		for _, k := range []string{"description", "recipeYield", "prepTime", "performTime", "totalTime", "orgURL"} {
			if r[k] != patch[k] {
				t.Errorf("%s = %v, want %v", k, r[k], patch[k])
			}
		}
		if r["cookTime"] != nil {
			t.Errorf("cookTime = %v: a PATCH of performTime must not set it", r["cookTime"])
		}
		steps, _ := r["recipeInstructions"].([]any)
		if len(steps) != 2 || asObj(t, steps[1])["text"] != "Add stock." {
			t.Errorf("instructions = %v", steps)
		}
		notes, _ := r["notes"].([]any)
		if len(notes) != 1 || asObj(t, notes[0])["text"] != "Stir often." {
			t.Errorf("notes = %v", notes)
		}
	})
}

// TestIngredientDisplay pins what Mealie stores and shows for a structured
// ingredient line: a new recipe carries settings.disableAmount (true on 2.x),
// under which the display drops quantity, unit and food; once it is off the
// display carries them, with fractions as each version renders them.
func TestIngredientDisplay(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		code, food := tg.call(t, http.MethodPost, "/api/foods", map[string]any{"name": tg.uniqueName("contract rice")})
		if code != 201 {
			t.Fatalf("food: %d %v", code, food)
		}
		f := asObj(t, food)
		t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/foods/"+f["id"].(string), nil) })
		code, unit := tg.call(t, http.MethodPost, "/api/units", map[string]any{"name": tg.uniqueName("contract cup")})
		if code != 201 {
			t.Fatalf("unit: %d %v", code, unit)
		}
		u := asObj(t, unit)
		t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/units/"+u["id"].(string), nil) })
		s := newRecipe(t, tg, tg.uniqueName("Contract Pilaf"))
		_, fresh := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		settings := asObj(t, asObj(t, fresh)["settings"])
		_, hasDisableAmount := settings["disableAmount"]
		if hasDisableAmount != is2x(tg) {
			t.Errorf("settings.disableAmount present on %s: %v", tg.profile, hasDisableAmount)
		}
		ing := map[string]any{"quantity": 1.5, "unit": map[string]any{"id": u["id"], "name": u["name"]},
			"food": map[string]any{"id": f["id"], "name": f["name"]}, "note": "rinsed", "referenceId": uuid.NewString()}
		code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, map[string]any{"recipeIngredient": []any{ing}})
		if code != 200 {
			t.Fatalf("patch ingredient: %d %v", code, body)
		}
		_, got := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		line := asObj(t, asObj(t, got)["recipeIngredient"].([]any)[0])
		display, _ := line["display"].(string)
		if settings["disableAmount"] == true && strings.Contains(display, u["name"].(string)) {
			t.Errorf("display %q names the unit while disableAmount is on", display)
		}
		if hasDisableAmount {
			settings["disableAmount"] = false
			code, body = tg.call(t, http.MethodPatch, "/api/recipes/"+s, map[string]any{"settings": settings})
			if code != 200 {
				t.Fatalf("patch settings: %d %v", code, body)
			}
			_, got = tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		}
		line = asObj(t, asObj(t, got)["recipeIngredient"].([]any)[0])
		display, _ = line["display"].(string)
		if !strings.Contains(display, u["name"].(string)) || !strings.Contains(display, f["name"].(string)) {
			t.Errorf("display with disableAmount off = %q, want the unit and the food", display)
		}
		if st := asObj(t, asObj(t, got)["settings"]); hasDisableAmount && st["disableAmount"] != false {
			t.Errorf("settings.disableAmount after PATCH = %v", st["disableAmount"])
		}
	})
}

func TestParserShapes(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		lines := []string{"2 cups flour", "1 1/2 tsp salt", "3 eggs"}
		code, body := tg.call(t, http.MethodPost, "/api/parser/ingredients", map[string]any{"parser": "brute", "ingredients": lines})
		list, _ := body.([]any)
		if code != 200 || len(list) != len(lines) {
			t.Fatalf("brute: %d %v", code, body)
		}
		for i, it := range list {
			o := asObj(t, it)
			if o["input"] != lines[i] || o["ingredient"] == nil {
				t.Errorf("brute item %d = %v", i, o)
			}
		}
		code, body = tg.call(t, http.MethodPost, "/api/parser/ingredients", map[string]any{"parser": "nlp", "ingredients": lines})
		if tg.mealie() == "2.0" {
			// The nlp parser of 2.0 shells out to CRF++ and its model; where
			// they are missing it answers 500, as such an install does.
			if code != 500 && code != 200 {
				t.Errorf("nlp on 2.0: %d %v", code, body)
			}
			return
		}
		list, _ = body.([]any)
		if code != 200 || len(list) != len(lines) {
			t.Fatalf("nlp: %d %v", code, body)
		}
		first := asObj(t, asObj(t, list[0])["ingredient"])
		if first["quantity"] != 2.0 {
			t.Errorf("nlp quantity of %q = %v, want 2", lines[0], first["quantity"])
		}
		code, body = tg.call(t, http.MethodPost, "/api/parser/ingredients", map[string]any{"parser": "nope", "ingredients": lines})
		if code != 422 {
			t.Errorf("unknown parser: %d %v, want 422", code, body)
		}
	})
}

func TestBulkTagCategorizeDelete(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		tag := newTag(t, tg, tg.uniqueName("Contract Bulk"))
		code, cat := tg.call(t, http.MethodPost, "/api/organizers/categories", map[string]any{"name": tg.uniqueName("Contract Bulk Cat")})
		if code != 201 {
			t.Fatalf("category: %d %v", code, cat)
		}
		c := asObj(t, cat)
		t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/organizers/categories/"+c["id"].(string), nil) })
		a, b := newRecipe(t, tg, tg.uniqueName("Contract Bulk A")), newRecipe(t, tg, tg.uniqueName("Contract Bulk B"))
		code, body := tg.call(t, http.MethodPost, "/api/recipes/bulk-actions/tag", map[string]any{"recipes": []any{a, b}, "tags": []any{tag}})
		if code != 200 {
			t.Fatalf("bulk tag: %d %v", code, body)
		}
		// As with tags, 3.11 needs the category's groupId (without it the
		// categorize answers 200 and applies nothing).
		category := map[string]any{"id": c["id"], "name": c["name"], "slug": c["slug"]}
		if g, ok := c["groupId"]; ok {
			category["groupId"] = g
		}
		code, body = tg.call(t, http.MethodPost, "/api/recipes/bulk-actions/categorize",
			map[string]any{"recipes": []any{a, b}, "categories": []any{category}})
		if code != 200 {
			t.Fatalf("bulk categorize: %d %v", code, body)
		}
		_, r := tg.call(t, http.MethodGet, "/api/recipes/"+b, nil)
		tags, _ := asObj(t, r)["tags"].([]any)
		cats, _ := asObj(t, r)["recipeCategory"].([]any)
		if len(tags) != 1 || asObj(t, tags[0])["id"] != tag["id"] || len(cats) != 1 || asObj(t, cats[0])["id"] != c["id"] {
			t.Errorf("after bulk actions tags=%v categories=%v", tags, cats)
		}
		// The bulk delete takes slugs; an id deletes nothing and still
		// answers 200.
		_, ra := tg.call(t, http.MethodGet, "/api/recipes/"+a, nil)
		if code, body := tg.call(t, http.MethodPost, "/api/recipes/bulk-actions/delete", map[string]any{"recipes": []any{asObj(t, ra)["id"]}}); code != 200 {
			t.Errorf("bulk delete by id: %d %v", code, body)
		}
		if code, _ := tg.call(t, http.MethodGet, "/api/recipes/"+a, nil); code != 200 {
			t.Errorf("after bulk delete by id: %d, want 200 (not deleted)", code)
		}
		code, body = tg.call(t, http.MethodPost, "/api/recipes/bulk-actions/delete", map[string]any{"recipes": []any{a}})
		if code != 200 {
			t.Errorf("bulk delete: %d %v", code, body)
		}
		if code, _ := tg.call(t, http.MethodGet, "/api/recipes/"+a, nil); code != 404 {
			t.Errorf("after bulk delete: %d, want 404", code)
		}
	})
}

func TestMealPlanFlow(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		s := newRecipe(t, tg, tg.uniqueName("Contract Curry"))
		_, r := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		recipeID := asObj(t, r)["id"].(string)
		code, body := tg.call(t, http.MethodPost, "/api/households/mealplans",
			map[string]any{"date": "2031-03-04", "entryType": "lunch", "recipeId": recipeID})
		if code != 201 {
			t.Fatalf("create: %d %v", code, body)
		}
		e := asObj(t, body)
		id := int(e["id"].(float64))
		if rec, _ := e["recipe"].(map[string]any); rec["slug"] != s {
			t.Errorf("entry recipe = %v, want %s", e["recipe"], s)
		}
		code, body = tg.call(t, http.MethodGet, "/api/households/mealplans?start_date=2031-03-04&end_date=2031-03-04&perPage=-1", nil)
		items, _ := asObj(t, body)["items"].([]any)
		if code != 200 || len(items) != 1 || asObj(t, items[0])["id"] != float64(id) {
			t.Errorf("list by date: %d %v", code, body)
		}
		if code, body := tg.call(t, http.MethodGet, "/api/households/mealplans/today", nil); code != 200 {
			t.Errorf("today: %d %v", code, body)
		}
		if code, body := tg.call(t, http.MethodDelete, fmt.Sprintf("/api/households/mealplans/%d", id), nil); code != 200 {
			t.Errorf("delete: %d %v", code, body)
		}
		if code, _ := tg.call(t, http.MethodGet, fmt.Sprintf("/api/households/mealplans/%d", id), nil); code != 404 {
			t.Errorf("get after delete: %d, want 404", code)
		}
		code, body = tg.call(t, http.MethodPost, "/api/households/mealplans/random", map[string]any{"date": "2031-03-05", "entryType": "dinner"})
		if code != 200 && code != 201 {
			t.Fatalf("random: %d %v", code, body)
		}
		rnd := asObj(t, body)
		if rnd["recipeId"] == nil {
			t.Errorf("random entry without a recipe: %v", rnd)
		}
		tg.call(t, http.MethodDelete, fmt.Sprintf("/api/households/mealplans/%d", int(rnd["id"].(float64))), nil)
	})
}

func TestShoppingItemsFlow(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		code, l := tg.call(t, http.MethodPost, "/api/households/shopping/lists", map[string]any{"name": tg.uniqueName("Contract Groceries")})
		if code != 201 {
			t.Fatalf("create list: %d %v", code, l)
		}
		listID := asObj(t, l)["id"].(string)
		t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/households/shopping/lists/"+listID, nil) })
		code, body := tg.call(t, http.MethodPost, "/api/households/shopping/items/create-bulk", []any{
			map[string]any{"shoppingListId": listID, "note": "oat milk", "quantity": 2},
			map[string]any{"shoppingListId": listID, "note": "lemons", "quantity": 3},
		})
		if code != 201 {
			t.Fatalf("create-bulk: %d %v", code, body)
		}
		created, _ := asObj(t, body)["createdItems"].([]any)
		if len(created) != 2 {
			t.Fatalf("createdItems = %v", created)
		}
		first := asObj(t, created[0])
		first["checked"] = true
		code, body = tg.call(t, http.MethodPut, "/api/households/shopping/items/"+first["id"].(string), first)
		if code != 200 {
			t.Errorf("check item: %d %v", code, body)
		}
		code, body = tg.call(t, http.MethodDelete, "/api/households/shopping/items/"+asObj(t, created[1])["id"].(string), nil)
		if code != 200 {
			t.Errorf("delete item: %d %v", code, body)
		}
		code, body = tg.call(t, http.MethodGet, "/api/households/shopping/lists/"+listID, nil)
		items, _ := asObj(t, body)["listItems"].([]any)
		if code != 200 || len(items) != 1 || asObj(t, items[0])["checked"] != true {
			t.Errorf("list after check and delete: %d %v", code, items)
		}
		q := url.QueryEscape(fmt.Sprintf(`shoppingListId = "%s"`, listID))
		code, body = tg.call(t, http.MethodGet, "/api/households/shopping/items?perPage=-1&queryFilter="+q, nil)
		if got, _ := asObj(t, body)["items"].([]any); code != 200 || len(got) != 1 {
			t.Errorf("items filtered by list: %d %v", code, body)
		}
	})
}

func TestTimelineAndLastMade(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		s := newRecipe(t, tg, tg.uniqueName("Contract Stew"))
		_, r := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		recipeID := asObj(t, r)["id"].(string)
		code, body := tg.call(t, http.MethodPost, "/api/recipes/timeline/events", map[string]any{
			"recipeId": recipeID, "subject": "Made it", "eventType": "info", "eventMessage": "for guests", "timestamp": "2031-01-02T18:00:00Z"})
		if code != 201 {
			t.Fatalf("timeline event: %d %v", code, body)
		}
		code, body = tg.call(t, http.MethodPatch, "/api/recipes/"+s+"/last-made", map[string]any{"timestamp": "2031-01-02T18:00:00Z"})
		if code != 200 {
			t.Fatalf("last-made: %d %v", code, body)
		}
		_, r = tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		if lm, _ := asObj(t, r)["lastMade"].(string); !strings.HasPrefix(lm, "2031-01-02") {
			t.Errorf("lastMade = %v", asObj(t, r)["lastMade"])
		}
		q := url.QueryEscape(fmt.Sprintf(`recipeId = "%s"`, recipeID))
		code, body = tg.call(t, http.MethodGet, "/api/recipes/timeline/events?perPage=-1&queryFilter="+q, nil)
		items, _ := asObj(t, body)["items"].([]any)
		found := false
		for _, it := range items {
			if asObj(t, it)["subject"] == "Made it" {
				found = true
			}
		}
		if code != 200 || !found {
			t.Errorf("timeline events of the recipe: %d %v", code, items)
		}
	})
}

// TestBackdatedLastMade: PATCH last-made with a day before the recipe's
// last-made day. Mealie 2.0 stores the older day (lastMade moves back);
// 2.8 and 3.11 keep the later one, as both the PATCH answer and a read show
// (their last-made is kept per household and the recipe's is the newest of
// them). sous never sends the older day (MarkRecipeMade in services/recipes).
func TestBackdatedLastMade(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		s := newRecipe(t, tg, tg.uniqueName("Contract Backdated"))
		if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s+"/last-made", map[string]any{"timestamp": "2031-03-10T12:00:00Z"}); code != 200 {
			t.Fatalf("last-made: %d %v", code, body)
		}
		code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s+"/last-made", map[string]any{"timestamp": "2031-03-01T12:00:00Z"})
		if code != 200 {
			t.Fatalf("backdated last-made: %d %v", code, body)
		}
		want := "2031-03-10"
		if tg.mealie() == "2.0" {
			want = "2031-03-01"
		}
		if lm, _ := asObj(t, body)["lastMade"].(string); !strings.HasPrefix(lm, want) {
			t.Errorf("the backdated PATCH answers lastMade %v, want %s", asObj(t, body)["lastMade"], want)
		}
		_, r := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		if lm, _ := asObj(t, r)["lastMade"].(string); !strings.HasPrefix(lm, want) {
			t.Errorf("after a backdated PATCH lastMade = %v, want %s", asObj(t, r)["lastMade"], want)
		}
	})
}

func TestRecipeListOrderAndFilters(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		word := tg.uniqueWord()
		for _, n := range []string{"Apple", "Cherry", "Banana"} {
			newRecipe(t, tg, "Contract "+n+" "+word)
		}
		names := func(query string) []string {
			code, page := tg.call(t, http.MethodGet, "/api/recipes?perPage=10&search="+word+"&"+query, nil)
			if code != 200 {
				t.Fatalf("list %s: %d %v", query, code, page)
			}
			var out []string
			for _, it := range asObj(t, page)["items"].([]any) {
				out = append(out, strings.Fields(asObj(t, it)["name"].(string))[1])
			}
			return out
		}
		if got := strings.Join(names("orderBy=name&orderDirection=asc"), ","); got != "Apple,Banana,Cherry" {
			t.Errorf("orderBy=name asc: %s", got)
		}
		// Without a direction Mealie sorts descending.
		if got := strings.Join(names("orderBy=name"), ","); got != "Cherry,Banana,Apple" {
			t.Errorf("orderBy=name with no direction: %s", got)
		}
		// The source-URL filter a duplicate check needs.
		s := newRecipe(t, tg, "Contract Source "+word)
		src := "https://example.org/" + word + "/soup"
		if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, map[string]any{"orgURL": src}); code != 200 {
			t.Fatalf("patch orgURL: %d %v", code, body)
		}
		q := url.QueryEscape(fmt.Sprintf(`orgURL = "%s"`, src))
		code, page := tg.call(t, http.MethodGet, "/api/recipes?perPage=5&queryFilter="+q, nil)
		items, _ := asObj(t, page)["items"].([]any)
		if code != 200 || len(items) != 1 || asObj(t, items[0])["slug"] != s {
			t.Errorf("orgURL filter: %d %v", code, page)
		}
	})
}

func TestRecipeImageFromUnreachableURL(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		s := newRecipe(t, tg, tg.uniqueName("Contract Picture"))
		// Mealie answers 200 whether or not it fetched anything, and sets a
		// new image key either way: only the image file tells.
		code, body := tg.call(t, http.MethodPost, "/api/recipes/"+s+"/image", map[string]any{"url": "http://127.0.0.1:9/none.jpg"})
		if code != 200 {
			t.Errorf("image from an unreachable URL: %d %v", code, body)
		}
		_, after := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		r := asObj(t, after)
		if key, _ := r["image"].(string); key == "" {
			t.Errorf("image key after a failed fetch = %v, want a new key", r["image"])
		}
		for _, f := range []string{"original.webp", "min-original.webp"} {
			if code, _ := tg.callAs(t, "", http.MethodGet, "/api/media/recipes/"+r["id"].(string)+"/images/"+f, nil); code != 404 {
				t.Errorf("image file %s after a failed fetch: %d, want 404", f, code)
			}
		}
	})
}

// TestUnitsSeeder pins Mealie's own units seeder (POST
// /api/groups/seeders/units, its data-management page's "seed units"),
// which sous follows when it creates a standard unit the library lacks:
// each unit with its name, plural, abbreviation and plural abbreviation,
// fractions on and abbreviations not used for display; 23 units on 2.x, 24
// (with sprig) on 3.x; a second run adds nothing; no locale is a 422.
func TestUnitsSeeder(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		listUnits := func() []map[string]any {
			_, body := tg.call(t, http.MethodGet, "/api/units?perPage=-1&orderBy=name&orderDirection=asc", nil)
			var out []map[string]any
			for _, it := range asObj(t, body)["items"].([]any) {
				out = append(out, asObj(t, it))
			}
			return out
		}
		before := map[string]bool{}
		for _, u := range listUnits() {
			before[u["id"].(string)] = true
		}
		t.Cleanup(func() {
			for _, u := range listUnits() {
				if id := u["id"].(string); !before[id] {
					tg.call(t, http.MethodDelete, "/api/units/"+id, nil)
				}
			}
		})
		if code, body := tg.call(t, http.MethodPost, "/api/groups/seeders/units", map[string]any{}); code != 422 {
			t.Errorf("seed without a locale: %d %v, want 422", code, body)
		}
		code, body := tg.call(t, http.MethodPost, "/api/groups/seeders/units", map[string]any{"locale": "en-US"})
		if code != 200 || asObj(t, body)["message"] != "Seeding Successful" || asObj(t, body)["error"] != false {
			t.Fatalf("seed units: %d %v", code, body)
		}
		byName := map[string]map[string]any{}
		for _, u := range listUnits() {
			byName[u["name"].(string)] = u
		}
		want := 24
		if is2x(tg) {
			want = 23
		}
		if len(byName) < want {
			t.Errorf("%d units after seeding, want at least %d", len(byName), want)
		}
		for _, c := range []struct{ name, plural, abbr, pluralAbbr string }{
			{"teaspoon", "teaspoons", "tsp", ""}, {"tablespoon", "tablespoons", "tbsp", ""}, {"cup", "cups", "c", ""},
			{"fluid ounce", "fluid ounces", "fl oz", ""}, {"milliliter", "milliliters", "ml", ""},
			{"pound", "pounds", "lb", "lbs"}, {"gram", "grams", "g", ""}, {"pinch", "pinches", "", ""},
		} {
			u := byName[c.name]
			if u == nil {
				t.Errorf("no %q seeded", c.name)
				continue
			}
			if before[u["id"].(string)] {
				continue // there before the seeder ran, which keeps it
			}
			// the seeder passes its file's plural abbreviation, null where
			// the file has none (a unit POSTed without one gets "")
			var pluralAbbr any
			if c.pluralAbbr != "" {
				pluralAbbr = c.pluralAbbr
			}
			if u["pluralName"] != c.plural || u["abbreviation"] != c.abbr || u["pluralAbbreviation"] != pluralAbbr ||
				u["useAbbreviation"] != false || u["fraction"] != true || u["description"] != "" {
				t.Errorf("%s seeded as %v", c.name, u)
			}
		}
		if _, ok := byName["sprig"]; ok == is2x(tg) {
			t.Errorf("sprig seeded on %s: %v", tg.profile, ok)
		}
		if code, _ := tg.call(t, http.MethodPost, "/api/groups/seeders/units", map[string]any{"locale": "en-US"}); code != 200 {
			t.Errorf("second seed: %d", code)
		}
		if n := len(listUnits()); n != len(byName) {
			t.Errorf("a second seed made %d units, then %d", len(byName), n)
		}
	})
}
