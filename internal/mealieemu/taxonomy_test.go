package mealieemu

import (
	"net/http"
	"testing"
)

// TestIngredientRowRoutes walks foods and units, which share their handlers,
// through create, get, PUT, merge and delete on the 2.0 profile, and checks
// that recipe ingredients follow a merge and turn null on a delete.
func TestIngredientRowRoutes(t *testing.T) {
	const unknown = "0b7f0a52-5d2b-4c4e-9d4e-1f3c2a6b8e90"
	cases := []struct {
		path, noun, fromKey, toKey string
		// used is a seeded row the second Weeknight Chili ingredient points at.
		used string
		// ingKey is that ingredient's field holding the row.
		ingKey string
		// dupStatus answers a second create with the same name: foods have a
		// unique name (services/internal/mealie/testdata/foods__create_same_name.json), units do not.
		dupStatus int
	}{
		{"foods", "foods", "fromFood", "toFood", seedID("food", "garlic"), "food", http.StatusBadRequest},
		{"units", "units", "fromUnit", "toUnit", seedID("unit", "clove"), "unit", http.StatusCreated},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			s := newServer(t, WithVersion("2.0"))
			base := "/api/" + c.path
			ingredientRow := func() any {
				t.Helper()
				_, body := call(t, s, http.MethodGet, "/api/recipes/weeknight-chili", nil)
				in := obj(t, list(t, obj(t, body)["recipeIngredient"])[2])
				if in[c.ingKey] == nil {
					return nil
				}
				return obj(t, in[c.ingKey])["id"]
			}
			message := func(body any) any {
				t.Helper()
				return obj(t, obj(t, body)["detail"])["message"]
			}

			if code, _ := call(t, s, http.MethodPost, base, map[string]any{}); code != http.StatusUnprocessableEntity {
				t.Errorf("create without name: %d", code)
			}
			code, body := call(t, s, http.MethodPost, base, map[string]any{"name": "shallot"})
			if code != http.StatusCreated || obj(t, body)["name"] != "shallot" {
				t.Fatalf("create: %d %v", code, body)
			}
			id := obj(t, body)["id"].(string)
			if code, _ := call(t, s, http.MethodPost, base, map[string]any{"name": "shallot"}); code != c.dupStatus {
				t.Errorf("create same name: %d, want %d", code, c.dupStatus)
			}

			if code, body := call(t, s, http.MethodGet, base+"/"+id, nil); code != http.StatusOK || obj(t, body)["id"] != id {
				t.Errorf("get: %d %v", code, body)
			}
			if code, body := call(t, s, http.MethodGet, base+"/"+unknown, nil); code != http.StatusNotFound || message(body) != "Not found." {
				t.Errorf("get unknown: %d %v", code, body)
			}
			if code, _ := call(t, s, http.MethodGet, base+"/not-a-uuid", nil); code != http.StatusUnprocessableEntity {
				t.Errorf("get bad id: %d", code)
			}

			if code, _ := call(t, s, http.MethodPut, base+"/"+id, map[string]any{}); code != http.StatusUnprocessableEntity {
				t.Errorf("put without name: %d", code)
			}
			if code, body := call(t, s, http.MethodPut, base+"/"+unknown, map[string]any{"name": "x"}); code != http.StatusBadRequest || message(body) != "An unexpected error occurred" {
				t.Errorf("put unknown: %d %v", code, body)
			}
			if code, body := call(t, s, http.MethodPut, base+"/"+id, map[string]any{"name": "banana shallot"}); code != http.StatusOK || obj(t, body)["name"] != "banana shallot" {
				t.Errorf("put: %d %v", code, body)
			}

			merge := base + "/merge"
			code, body = call(t, s, http.MethodPut, merge, map[string]any{})
			if code != http.StatusUnprocessableEntity || len(list(t, obj(t, body)["detail"])) != 2 {
				t.Errorf("merge without ids: %d %v", code, body)
			}
			code, body = call(t, s, http.MethodPut, merge, map[string]any{c.fromKey: unknown, c.toKey: id})
			if code != http.StatusInternalServerError || message(body) != "Failed to merge "+c.noun {
				t.Errorf("merge unknown: %d %v", code, body)
			}
			code, body = call(t, s, http.MethodPut, merge, map[string]any{c.fromKey: c.used, c.toKey: id})
			if code != http.StatusOK || obj(t, body)["message"] != "Successfully merged "+c.noun {
				t.Errorf("merge: %d %v", code, body)
			}
			if got := ingredientRow(); got != id {
				t.Errorf("ingredient after merge points at %v, want %s", got, id)
			}
			if code, _ := call(t, s, http.MethodGet, base+"/"+c.used, nil); code != http.StatusNotFound {
				t.Errorf("merged-away row answers %d", code)
			}

			// 2.0 deletes a row in use; the ingredient keeps its place with null
			// (TestDeleteFoodInUseNullsIngredient in integration/contract).
			code, body = call(t, s, http.MethodDelete, base+"/"+id, nil)
			if code != http.StatusOK || obj(t, body)["id"] != id {
				t.Fatalf("delete: %d %v", code, body)
			}
			if got := ingredientRow(); got != nil {
				t.Errorf("ingredient after delete points at %v, want null", got)
			}
			if code, _ := call(t, s, http.MethodDelete, base+"/"+id, nil); code != http.StatusBadRequest {
				t.Errorf("delete again: %d", code)
			}
		})
	}
}
