package contract

import (
	"fmt"
	"net/http"
	"testing"
)

// TestMealPlanUpdate pins what update_meal_plan_entry relies on: PUT
// /api/households/mealplans/{id} with the entry whole (its id, groupId and
// userId as GET gave them) moves it to another day and meal in place,
// keeping its id; a recipeId with an empty title plans a recipe on a
// title-only entry, and a title with recipeId null drops the recipe; the
// household's other entries are untouched.
func TestMealPlanUpdate(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		s := newRecipe(t, tg, tg.uniqueName("Contract Lasagne"))
		_, r := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		recipeID := asObj(t, r)["id"].(string)
		create := func(body map[string]any) map[string]any {
			t.Helper()
			code, e := tg.call(t, http.MethodPost, "/api/households/mealplans", body)
			if code != 201 {
				t.Fatalf("create: %d %v", code, e)
			}
			o := asObj(t, e)
			t.Cleanup(func() {
				tg.call(t, http.MethodDelete, fmt.Sprintf("/api/households/mealplans/%d", int(o["id"].(float64))), nil)
			})
			return o
		}
		dinner := create(map[string]any{"date": "2031-05-07", "entryType": "dinner", "recipeId": recipeID, "text": "double batch"})
		lunch := create(map[string]any{"date": "2031-05-08", "entryType": "lunch", "title": "Leftovers"})
		path := func(e map[string]any) string {
			return fmt.Sprintf("/api/households/mealplans/%d", int(e["id"].(float64)))
		}
		whole := func(e map[string]any, change map[string]any) map[string]any {
			body := map[string]any{"id": e["id"], "groupId": e["groupId"], "userId": e["userId"], "date": e["date"],
				"entryType": e["entryType"], "title": e["title"], "text": e["text"], "recipeId": e["recipeId"]}
			for k, v := range change {
				body[k] = v
			}
			return body
		}
		// Move the dinner to Saturday and make it a lunch.
		code, moved := tg.call(t, http.MethodPut, path(dinner), whole(dinner, map[string]any{"date": "2031-05-10", "entryType": "lunch"}))
		if code != 200 {
			t.Fatalf("move: %d %v", code, moved)
		}
		_, got := tg.call(t, http.MethodGet, path(dinner), nil)
		g := asObj(t, got)
		movedDinner := g
		if g["id"] != dinner["id"] || g["date"] != "2031-05-10" || g["entryType"] != "lunch" || g["recipeId"] != recipeID || g["text"] != "double batch" {
			t.Errorf("moved entry read back as %v", g)
		}
		if rec, _ := g["recipe"].(map[string]any); rec["slug"] != s {
			t.Errorf("moved entry's recipe = %v, want %s", g["recipe"], s)
		}
		_, other := tg.call(t, http.MethodGet, path(lunch), nil)
		if o := asObj(t, other); o["date"] != "2031-05-08" || o["title"] != "Leftovers" || o["recipeId"] != nil {
			t.Errorf("the other entry changed: %v", o)
		}
		// Plan the recipe on the title-only entry.
		if code, body := tg.call(t, http.MethodPut, path(lunch), whole(lunch, map[string]any{"recipeId": recipeID, "title": ""})); code != 200 {
			t.Fatalf("recipe onto a title entry: %d %v", code, body)
		}
		_, got = tg.call(t, http.MethodGet, path(lunch), nil)
		if g := asObj(t, got); g["recipeId"] != recipeID || g["title"] != "" {
			t.Errorf("title entry given a recipe read back as %v", g)
		}
		// A title with recipeId null drops the recipe.
		if code, body := tg.call(t, http.MethodPut, path(dinner), whole(movedDinner, map[string]any{"title": "Takeaway", "recipeId": nil})); code != 200 {
			t.Fatalf("title replaces the recipe: %d %v", code, body)
		}
		_, got = tg.call(t, http.MethodGet, path(dinner), nil)
		if g := asObj(t, got); g["recipeId"] != nil || g["recipe"] != nil || g["title"] != "Takeaway" {
			t.Errorf("entry given a title read back as %v", g)
		}
	})
}
