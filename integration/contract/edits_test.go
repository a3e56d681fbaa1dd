package contract

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"testing"

	"github.com/google/uuid"
)

// TestPatchLinesAsRead pins what update_recipe's line edits rely on: a
// PATCH of recipeIngredient carrying the lines exactly as GET answered
// them (every field, the food's and unit's whole objects), with one line
// replaced by a new one, one dropped and one added, stores the lines sent
// back unchanged, field by field, in the order sent.
func TestPatchLinesAsRead(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		food := func(name string) map[string]any {
			code, f := tg.call(t, http.MethodPost, "/api/foods", map[string]any{"name": tg.uniqueName(name)})
			if code != 201 {
				t.Fatalf("food: %d %v", code, f)
			}
			o := asObj(t, f)
			t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/foods/"+o["id"].(string), nil) })
			return o
		}
		code, unit := tg.call(t, http.MethodPost, "/api/units", map[string]any{"name": tg.uniqueName("contract cup")})
		if code != 201 {
			t.Fatalf("unit: %d %v", code, unit)
		}
		u := asObj(t, unit)
		t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/units/"+u["id"].(string), nil) })
		rice, broth, veg, lemon := food("contract rice"), food("contract broth"), food("contract stock"), food("contract lemon")
		line := func(q float64, f map[string]any, note, title string) map[string]any {
			l := map[string]any{"quantity": q, "unit": map[string]any{"id": u["id"], "name": u["name"]},
				"food": map[string]any{"id": f["id"], "name": f["name"]}, "note": note, "referenceId": uuid.NewString()}
			if title != "" {
				l["title"] = title
			}
			return l
		}
		s := newRecipe(t, tg, tg.uniqueName("Contract Risotto"))
		first := []any{line(1.5, rice, "arborio", "For the risotto"), line(4, broth, "warm", ""), line(1, lemon, "zest", "To finish")}
		if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, map[string]any{"recipeIngredient": first}); code != 200 {
			t.Fatalf("patch lines: %d %v", code, body)
		}
		_, got := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		read := asObj(t, got)["recipeIngredient"].([]any)
		if len(read) != 3 {
			t.Fatalf("stored %d lines", len(read))
		}
		// rice as read, the broth replaced, the lemon dropped, a line added
		sent := []any{read[0], line(4, veg, "warm", ""), line(2, lemon, "wedges", "")}
		if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, map[string]any{"recipeIngredient": sent}); code != 200 {
			t.Fatalf("patch lines as read: %d %v", code, body)
		}
		_, got = tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		after := asObj(t, got)["recipeIngredient"].([]any)
		if len(after) != 3 {
			t.Fatalf("after the edit %d lines: %v", len(after), after)
		}
		if !reflect.DeepEqual(after[0], read[0]) {
			a, _ := json.Marshal(after[0])
			b, _ := json.Marshal(read[0])
			t.Errorf("the line sent back as read changed:\n%s\n%s", b, a)
		}
		if f := asObj(t, asObj(t, after[1])["food"]); f["id"] != veg["id"] {
			t.Errorf("the replaced line's food = %v, want %v", f, veg["name"])
		}
		if asObj(t, after[2])["note"] != "wedges" {
			t.Errorf("the added line = %v", after[2])
		}
	})
}

// TestCookbookByTimeTag pins the filter a cookbook by time uses: the tag
// sous keeps on the recipes that fit, asked for with CONTAINS ALL of the
// tag twice, which every version reads as a subquery of its own
// (QueryFilterBuilder: any() on the relation for each value), so it
// combines with a tag list of any one of several tags and with a
// category. Two IN conditions on tags match nothing
// (TestCookbookQueryFilterString), and 3.11 and 3.20 read a CONTAINS ALL
// of one value as IN, which then matches nothing too; 2.x reads it as a
// subquery.
func TestCookbookByTimeTag(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		dinner, lunch, quick := newTag(t, tg, tg.uniqueName("Contract Dinner")), newTag(t, tg, tg.uniqueName("Contract Lunch")), newTag(t, tg, tg.uniqueName("Contract Quick"))
		code, cat := tg.call(t, http.MethodPost, "/api/organizers/categories", map[string]any{"name": tg.uniqueName("Contract Mains")})
		if code != 201 {
			t.Fatalf("category: %d %v", code, cat)
		}
		mains := asObj(t, cat)
		t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/organizers/categories/"+mains["id"].(string), nil) })
		recipe := func(cats []any, tags ...map[string]any) string {
			s := newRecipe(t, tg, tg.uniqueName("Contract Supper"))
			list := make([]any, len(tags))
			for i, tag := range tags {
				list[i] = tag
			}
			body := map[string]any{"tags": list}
			if cats != nil {
				body["recipeCategory"] = cats
			}
			if code, b := tg.call(t, http.MethodPatch, "/api/recipes/"+s, body); code != 200 {
				t.Fatalf("tag recipe: %d %v", code, b)
			}
			return s
		}
		quickDinner := recipe([]any{mains}, dinner, quick)
		slowDinner := recipe(nil, dinner)
		quickLunch := recipe(nil, lunch, quick)
		quickOnly := recipe([]any{mains}, quick)
		name := func(o map[string]any) string { return `"` + o["name"].(string) + `"` }
		sorted := func(s ...string) []string { sort.Strings(s); return s }
		oneValue := sorted(quickDinner, quickLunch)
		if !is2x(tg) {
			oneValue = nil
		}
		for _, tt := range []struct {
			filter string
			want   []string
		}{
			{`tags.name IN [` + name(dinner) + `, ` + name(lunch) + `] AND tags.name CONTAINS ALL [` + name(quick) + `]`, oneValue},
			{`tags.name IN [` + name(dinner) + `, ` + name(lunch) + `] AND tags.name CONTAINS ALL [` + name(quick) + `, ` + name(quick) + `]`, sorted(quickDinner, quickLunch)},
			{`tags.name CONTAINS ALL [` + name(dinner) + `, ` + name(quick) + `]`, sorted(quickDinner)},
			{`recipe_category.name IN [` + name(mains) + `] AND tags.name CONTAINS ALL [` + name(quick) + `, ` + name(quick) + `]`, sorted(quickDinner, quickOnly)},
		} {
			code, cb := tg.call(t, http.MethodPost, "/api/households/cookbooks", map[string]any{"name": tg.uniqueName("Contract Quick Book"), "queryFilterString": tt.filter})
			if code != 200 && code != 201 {
				t.Fatalf("create cookbook %q: %d %v", tt.filter, code, cb)
			}
			c := asObj(t, cb)
			t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/households/cookbooks/"+c["id"].(string), nil) })
			if got := recipeSlugs(t, tg, "cookbook="+url.QueryEscape(c["slug"].(string))); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cookbook %q holds %v, want %v", tt.filter, got, tt.want)
			}
		}
		_ = slowDinner
	})
}

// TestTimesAndLastMadeOnTheList pins what search_recipes' time and history
// filters read: the recipe list answers totalTime, prepTime and
// performTime as they were written (free text, never normalised) and
// lastMade, null until the recipe is made, on every version.
func TestTimesAndLastMadeOnTheList(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		word := tg.uniqueWord()
		s := newRecipe(t, tg, "Contract Timed "+word)
		times := map[string]any{"totalTime": "PT25M", "prepTime": "10 minutes", "performTime": "1½ hours"}
		if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, times); code != 200 {
			t.Fatalf("patch times: %d %v", code, body)
		}
		list := func() map[string]any {
			code, page := tg.call(t, http.MethodGet, "/api/recipes?perPage=10&search="+word, nil)
			items, _ := asObj(t, page)["items"].([]any)
			if code != 200 || len(items) != 1 {
				t.Fatalf("list: %d %v", code, page)
			}
			return asObj(t, items[0])
		}
		got := list()
		for k, v := range times {
			if got[k] != v {
				t.Errorf("the list answers %s = %v, want %v as written", k, got[k], v)
			}
		}
		if got["lastMade"] != nil {
			t.Errorf("lastMade of a recipe never made = %v", got["lastMade"])
		}
		if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s+"/last-made", map[string]any{"timestamp": "2030-02-03T18:00:00"}); code != 200 {
			t.Fatalf("last-made: %d %v", code, body)
		}
		if got := list(); got["lastMade"] == nil {
			t.Errorf("lastMade after the recipe was made is null on the list")
		}
	})
}
