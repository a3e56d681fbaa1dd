package mealieemu

import (
	"net/http"
	"net/url"
	"testing"
)

// TestProfiles pins each version difference profile.go declares.
func TestProfiles(t *testing.T) {
	type check struct {
		suggestionsStatus int
		hasServings       bool
		hasFoodOnHand     bool
		snackStatus       int
		newTagStatus      int
		cookbookRecipes   bool
	}
	want := map[string]check{
		"2.0":  {404, false, true, 422, 500, true},
		"2.8":  {200, true, false, 422, 500, true},
		"3.11": {200, true, false, 201, 500, false},
		"3.20": {200, true, false, 201, 200, false},
	}
	for v, w := range want {
		t.Run(v, func(t *testing.T) {
			s := newServer(t, WithVersion(v))
			code, _ := call(t, s, http.MethodGet, "/api/recipes/suggestions?foods="+seedID("food", "onion"), nil)
			if code != w.suggestionsStatus {
				t.Errorf("suggestions: %d, want %d", code, w.suggestionsStatus)
			}
			_, r := call(t, s, http.MethodGet, "/api/recipes/weeknight-chili", nil)
			rec := obj(t, r)
			if _, ok := rec["recipeServings"]; ok != w.hasServings {
				t.Errorf("recipeServings present = %v", ok)
			}
			food := obj(t, obj(t, list(t, rec["recipeIngredient"])[1])["food"])
			if _, ok := food["onHand"]; ok != w.hasFoodOnHand {
				t.Errorf("food onHand present = %v", ok)
			}
			code, _ = call(t, s, http.MethodPost, "/api/households/mealplans", map[string]any{"date": "2030-01-01", "entryType": "snack", "title": "x"})
			if code != w.snackStatus {
				t.Errorf("snack entry: %d, want %d", code, w.snackStatus)
			}
			code, body := call(t, s, http.MethodPatch, "/api/recipes/pancakes",
				map[string]any{"tags": []any{map[string]any{"name": "Meal Prep", "slug": "meal-prep"}}})
			if code != w.newTagStatus {
				t.Errorf("tag without id: %d, want %d (%v)", code, w.newTagStatus, body)
			}
			_, cb := call(t, s, http.MethodGet, "/api/households/cookbooks/sweet-things", nil)
			if _, ok := obj(t, cb)["recipes"]; ok != w.cookbookRecipes {
				t.Errorf("cookbook recipes present = %v", ok)
			}
		})
	}
}

// TestSharpEdges walks the 2.0 quirks sous must cope with, on the demo seed.
func TestSharpEdges(t *testing.T) {
	s := newServer(t, WithVersion("2.0"))
	// PATCH {name} keeps the stored slug: the old slug answers with the new
	// slug shown, the new slug is a 404, and later writes fail
	// (TestPatchNameKeepsStoredSlug in integration/contract and the captures after it).
	code, body := call(t, s, http.MethodPatch, "/api/recipes/tomato-soup", map[string]any{"name": "Roasted Tomato Soup"})
	if code != 200 || obj(t, body)["slug"] != "roasted-tomato-soup" {
		t.Fatalf("rename: %d %v", code, obj(t, body)["slug"])
	}
	if code, body := call(t, s, http.MethodGet, "/api/recipes/tomato-soup", nil); code != 200 || obj(t, body)["slug"] != "roasted-tomato-soup" {
		t.Errorf("old slug after rename: %d", code)
	}
	if code, _ := call(t, s, http.MethodGet, "/api/recipes/roasted-tomato-soup", nil); code != 404 {
		t.Errorf("new slug after PATCH rename: %d, want 404", code)
	}
	if code, body := call(t, s, http.MethodPatch, "/api/recipes/tomato-soup", map[string]any{"description": "x"}); code != 500 {
		t.Errorf("PATCH after rename: %d %v, want 500 NoResultFound", code, body)
	}
	// An ingredient without referenceId commits and breaks the recipe.
	code, _ = call(t, s, http.MethodPatch, "/api/recipes/guacamole", map[string]any{"recipeIngredient": []any{map[string]any{"note": "3 avocados"}}})
	if code != 500 {
		t.Errorf("ingredient without referenceId: %d, want 500", code)
	}
	if code, _ := call(t, s, http.MethodGet, "/api/recipes/guacamole", nil); code != 500 {
		t.Errorf("GET broken recipe: %d, want 500", code)
	}
	code, page := call(t, s, http.MethodGet, "/api/recipes?search=guacamole", nil)
	if code != 200 || len(list(t, obj(t, page)["items"])) != 1 {
		t.Errorf("list still shows the broken recipe: %d %v", code, page)
	}
	// PUT renames properly.
	_, full := call(t, s, http.MethodGet, "/api/recipes/pancakes", nil)
	f := obj(t, full)
	f["name"] = "Fluffy Pancakes"
	if code, body := call(t, s, http.MethodPut, "/api/recipes/pancakes", f); code != 200 || obj(t, body)["slug"] != "fluffy-pancakes" {
		t.Fatalf("PUT rename: %d %v", code, body)
	}
	if code, _ := call(t, s, http.MethodGet, "/api/recipes/pancakes", nil); code != 404 {
		t.Errorf("old slug after PUT rename: %d, want 404", code)
	}
	if code, body := call(t, s, http.MethodPut, "/api/recipes/fluffy-pancakes", map[string]any{"name": "Only A Name"}); code != 400 {
		t.Errorf("partial PUT: %d %v, want 400 Recipe already exists", code, body)
	}
	// Deleting a food in use nulls it in recipes.
	onion := seedID("food", "onion")
	if code, _ := call(t, s, http.MethodDelete, "/api/foods/"+onion, nil); code != 200 {
		t.Fatalf("delete food: %d", code)
	}
	_, chili := call(t, s, http.MethodGet, "/api/recipes/weeknight-chili", nil)
	ing := obj(t, list(t, obj(t, chili)["recipeIngredient"])[1])
	if ing["food"] != nil || ing["note"] != "diced" {
		t.Errorf("ingredient after food delete = %v", ing)
	}
	// Labels are created with 200 and a default colour.
	code, lbl := call(t, s, http.MethodPost, "/api/groups/labels", map[string]any{"name": "Snacks"})
	if code != 200 || obj(t, lbl)["color"] != defaultLabelColor {
		t.Errorf("label: %d %v", code, lbl)
	}
	// The 2.0 meal-plan list ignores camelCase date filters.
	_, all := call(t, s, http.MethodGet, "/api/households/mealplans?perPage=-1", nil)
	_, camel := call(t, s, http.MethodGet, "/api/households/mealplans?perPage=-1&startDate=2000-01-01&endDate=2000-01-02", nil)
	_, snake := call(t, s, http.MethodGet, "/api/households/mealplans?perPage=-1&start_date=2025-01-06&end_date=2025-01-06", nil)
	if obj(t, camel)["total"] != obj(t, all)["total"] || obj(t, snake)["total"] != 1.0 {
		t.Errorf("date filters: all %v camel %v snake %v", obj(t, all)["total"], obj(t, camel)["total"], obj(t, snake)["total"])
	}
}

func TestURLImport(t *testing.T) {
	page := `<html><head><meta property="og:title" content="JS Rendered Stew"></head><body></body></html>`
	s := newServer(t, WithSeed("empty"), WithWebPage("https://example.org/stew", page))
	tests := []struct {
		url    string
		status int
	}{
		{"https://example.org/stew", 201},
		{"http://127.0.0.1/x", 500},
		{"http://localhost/x", 500},
		{"not a url", 400},
		{"https://example.org/unregistered", 500}, // unreachable: see handleCreateFromURL
	}
	for _, tt := range tests {
		if code, body := call(t, s, http.MethodPost, "/api/recipes/create/url", map[string]any{"url": tt.url}); code != tt.status {
			t.Errorf("%s: %d %v, want %d", tt.url, code, body, tt.status)
		}
	}
	// 3.20 answers each failure 400, naming the exception
	// (testdata/recordings/3.20/TestErrorBodyShapes.json in the contract
	// package for gaierror).
	s20 := newServer(t, WithSeed("empty"), WithVersion("3.20"))
	for _, tt := range []struct{ url, exception string }{
		{"http://127.0.0.1/x", "InvalidDomainError"},
		{"not a url", "HTTPException"},
		{"https://example.org/unregistered", "gaierror"},
	} {
		code, body := call(t, s20, http.MethodPost, "/api/recipes/create/url", map[string]any{"url": tt.url})
		if d := obj(t, obj(t, body)["detail"]); code != 400 || d["message"] != tt.exception {
			t.Errorf("3.20 %s: %d %v, want 400 %s", tt.url, code, body, tt.exception)
		}
	}
	// An OpenGraph-only page imports with Mealie's placeholder lines.
	_, r := call(t, s, http.MethodGet, "/api/recipes/js-rendered-stew", nil)
	if got := obj(t, list(t, obj(t, r)["recipeIngredient"])[0])["note"]; got != "Could not detect ingredients" {
		t.Errorf("placeholder ingredient = %v", got)
	}
}

// TestProfileRenameAndInUse pins how each profile answers writes after a
// PATCH {name} left the stored slug behind, the delete of a used food, and
// the self-merge that deletes a food
// (testdata/recordings/<version>/TestPatchNameKeepsStoredSlug.json and
// TestDeleteFoodInUseNullsIngredient.json in the contract package).
func TestProfileRenameAndInUse(t *testing.T) {
	type check struct {
		oldSlug, newSlug int // GET statuses after PATCH {name}
		patchAgain       int
		deleteStuck      int
		deleteUsedFood   int
	}
	want := map[string]check{
		"2.0":  {200, 404, 500, 200, 200},
		"2.8":  {200, 404, 500, 200, 200},
		"3.11": {200, 404, 403, 500, 200},
		// 3.20 moved the recipe: the old slug is gone for every route.
		"3.20": {404, 200, 404, 404, 200},
	}
	for v, w := range want {
		t.Run(v, func(t *testing.T) {
			s := newServer(t, WithVersion(v))
			code, body := call(t, s, http.MethodPatch, "/api/recipes/weeknight-chili", map[string]any{"name": "Weekend Chili"})
			if code != 200 || obj(t, body)["slug"] != "weekend-chili" {
				t.Fatalf("rename: %d %v", code, body)
			}
			if code, _ := call(t, s, http.MethodGet, "/api/recipes/weeknight-chili", nil); code != w.oldSlug {
				t.Errorf("old slug: %d, want %d", code, w.oldSlug)
			}
			if code, _ := call(t, s, http.MethodGet, "/api/recipes/weekend-chili", nil); code != w.newSlug {
				t.Errorf("new slug: %d, want %d", code, w.newSlug)
			}
			if code, _ := call(t, s, http.MethodPatch, "/api/recipes/weeknight-chili", map[string]any{"description": "x"}); code != w.patchAgain {
				t.Errorf("PATCH after the rename: %d, want %d", code, w.patchAgain)
			}
			if code, _ := call(t, s, http.MethodDelete, "/api/recipes/weeknight-chili", nil); code != w.deleteStuck {
				t.Errorf("DELETE after the rename: %d, want %d", code, w.deleteStuck)
			}

			onion := seedID("food", "onion")
			code, body = call(t, s, http.MethodDelete, "/api/foods/"+onion, nil)
			if code != w.deleteUsedFood {
				t.Fatalf("delete used food: %d %v, want %d", code, body, w.deleteUsedFood)
			}
			if after, _ := call(t, s, http.MethodGet, "/api/foods/"+onion, nil); after != 404 {
				t.Errorf("food GET after delete answered %d, want 404", after)
			}

			garlic := seedID("food", "garlic")
			code, _ = call(t, s, http.MethodPut, "/api/foods/merge", map[string]any{"fromFood": garlic, "toFood": garlic})
			if code != 200 {
				t.Fatalf("self-merge: %d", code)
			}
			if code, _ := call(t, s, http.MethodGet, "/api/foods/"+garlic, nil); code != 404 {
				t.Errorf("food merged into itself still answers %d, want 404", code)
			}
		})
	}
}

// TestProfileFilterCase pins that string filters ignore case from
// 2.8 on and match exactly in 2.0.
func TestProfileFilterCase(t *testing.T) {
	for v, want := range map[string]float64{"2.0": 0, "2.8": 1, "3.11": 1, "3.20": 1} {
		t.Run(v, func(t *testing.T) {
			s := newServer(t, WithVersion(v))
			q := url.QueryEscape(`name = "weeknight chili"`)
			code, body := call(t, s, http.MethodGet, "/api/recipes?queryFilter="+q, nil)
			if code != 200 || obj(t, body)["total"] != want {
				t.Errorf("lower-case name filter: %d total=%v, want %v", code, obj(t, body)["total"], want)
			}
			code, body = call(t, s, http.MethodGet, "/api/foods?queryFilter="+url.QueryEscape(`name = "ONION"`), nil)
			if code != 200 || obj(t, body)["total"] != want {
				t.Errorf("upper-case food filter: %d total=%v, want %v", code, obj(t, body)["total"], want)
			}
		})
	}
}

// TestNLPWithoutModel pins WithoutNLPModel: only 2.0's nlp parser needs the
// CRF++ model, and without it nlp (the default) is a 500 while brute works
// (testdata/recordings/2.0/TestParserShapes.json in the contract package).
func TestNLPWithoutModel(t *testing.T) {
	tests := []struct {
		version, parser string
		noModel         bool
		want            int
	}{
		{"2.0", "nlp", true, 500},
		{"2.0", "", true, 500},
		{"2.0", "brute", true, 200},
		{"2.0", "nlp", false, 200},
		{"2.8", "nlp", true, 200},
		{"3.11", "nlp", true, 200},
		{"3.20", "nlp", true, 200},
	}
	for _, tt := range tests {
		opts := []Option{WithVersion(tt.version), WithSeed("empty")}
		if tt.noModel {
			opts = append(opts, WithoutNLPModel())
		}
		s := newServer(t, opts...)
		body := map[string]any{"ingredients": []string{"2 cups flour"}}
		if tt.parser != "" {
			body["parser"] = tt.parser
		}
		if code, got := call(t, s, http.MethodPost, "/api/parser/ingredients", body); code != tt.want {
			t.Errorf("%s parser %q without model %v: %d %v, want %d", tt.version, tt.parser, tt.noModel, code, got, tt.want)
		}
	}
}

// TestProfile320Writes pins the recipe writes 3.20 answers unlike 3.11
// (testdata/recordings/3.20/TestPatchNameKeepsStoredSlug.json and
// TestOrganizerObjectsNeedIDNameSlug.json in the contract package): the
// slug follows a changed name only, a name onto another recipe's slug is
// 400, and a category without id is created and linked (3.11's answers to
// the same rename and tag writes are in TestProfileRenameAndInUse and
// TestProfiles).
func TestProfile320Writes(t *testing.T) {
	tests := []struct {
		version        string
		slugOnly       int    // PATCH {slug} alone
		slugAfter      string // the slug GET by id then reports
		collide        int    // PATCH {name} onto another recipe's slug
		idlessCategory int    // PATCH a category without id
	}{
		{"3.20", 200, "weeknight-chili", 400, 200},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			s := newServer(t, WithVersion(tt.version))
			_, r := call(t, s, http.MethodGet, "/api/recipes/weeknight-chili", nil)
			id, _ := obj(t, r)["id"].(string)
			if code, body := call(t, s, http.MethodPatch, "/api/recipes/weeknight-chili", map[string]any{"slug": "chili-again"}); code != tt.slugOnly {
				t.Errorf("PATCH {slug}: %d %v, want %d", code, body, tt.slugOnly)
			}
			_, r = call(t, s, http.MethodGet, "/api/recipes/"+id, nil)
			if got := obj(t, r)["slug"]; got != tt.slugAfter {
				t.Errorf("slug after PATCH {slug}: %v, want %s", got, tt.slugAfter)
			}
			if code, body := call(t, s, http.MethodPatch, "/api/recipes/"+id, map[string]any{"name": "Pancakes"}); code != tt.collide {
				t.Errorf("PATCH {name} onto pancakes: %d %v, want %d", code, body, tt.collide)
			}
			code, body := call(t, s, http.MethodPatch, "/api/recipes/pancakes",
				map[string]any{"recipeCategory": []any{map[string]any{"name": "Second Breakfast", "slug": "whatever"}}})
			if code != tt.idlessCategory {
				t.Fatalf("category without id: %d %v, want %d", code, body, tt.idlessCategory)
			}
			if code != 200 {
				return
			}
			cats := list(t, obj(t, body)["recipeCategory"])
			if len(cats) != 1 || obj(t, cats[0])["slug"] != "second-breakfast" {
				t.Errorf("categories after the PATCH: %v, want the new second-breakfast", cats)
			}
			_, page := call(t, s, http.MethodGet, "/api/organizers/categories?search=second", nil)
			if n := obj(t, page)["total"]; n != 1.0 {
				t.Errorf("categories named second: %v, want 1 (created)", n)
			}
		})
	}
}
