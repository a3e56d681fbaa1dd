package contract

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestVersionSwitches pins the answers the emulator's version profiles
// switch on and no other contract test reaches: the recipe finder, a
// cookbook read, the extra meal-plan entry types, case in query filters,
// and a bulk tag sent without groupId.
func TestVersionSwitches(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		word := tg.uniqueWord()
		s, foodID := recipeWithFood(t, tg)
		_, r := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		name, _ := asObj(t, r)["name"].(string)

		// The recipe finder came after 2.0, where the path reads as a slug.
		code, body := tg.call(t, http.MethodGet, "/api/recipes/suggestions?foods="+foodID, nil)
		if want := map[bool]int{true: 404, false: 200}[tg.mealie() == "2.0"]; code != want {
			t.Errorf("suggestions on %s: %d %v, want %d", tg.profile, code, body, want)
		}

		// A cookbook read embeds its recipes on 2.x only.
		code, cb := tg.call(t, http.MethodPost, "/api/households/cookbooks", map[string]any{"name": "Contract Shelf " + word,
			"queryFilterString": `name = "` + name + `"`})
		if code != 200 && code != 201 {
			t.Fatalf("create cookbook: %d %v", code, cb)
		}
		id, _ := asObj(t, cb)["id"].(string)
		t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/households/cookbooks/"+id, nil) })
		_, got := tg.call(t, http.MethodGet, "/api/households/cookbooks/"+id, nil)
		if _, has := asObj(t, got)["recipes"]; has != is2x(tg) {
			t.Errorf("cookbook read on %s has recipes: %v", tg.profile, has)
		}

		// snack, drink and dessert entries came with 3.x.
		code, plan := tg.call(t, http.MethodPost, "/api/households/mealplans",
			map[string]any{"date": "2031-04-05", "entryType": "snack", "title": "Contract snack " + word})
		if want := map[bool]int{true: 422, false: 201}[is2x(tg)]; code != want {
			t.Errorf("snack entry on %s: %d %v, want %d", tg.profile, code, plan, want)
		}
		if code == 201 {
			pid := asObj(t, plan)["id"]
			t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/households/mealplans/"+jsonNumber(pid), nil) })
		}

		// String filters ignore case from 2.8 on.
		q := url.QueryEscape(`name = "` + strings.ToLower(name) + `"`)
		code, page := tg.call(t, http.MethodGet, "/api/recipes?queryFilter="+q, nil)
		if want := map[bool]float64{true: 0, false: 1}[tg.mealie() == "2.0"]; code != 200 || asObj(t, page)["total"] != want {
			t.Errorf("lower-case name filter on %s: %d %v, want total %v", tg.profile, code, page, want)
		}

		// A tag sent to a bulk action as {id, name, slug}, without the
		// groupId 3.11 shows, is applied on 2.x and 3.20; 3.11 answers 200
		// and applies nothing.
		tag := newTag(t, tg, "Contract Shelf Tag "+word)
		delete(tag, "groupId")
		code, body = tg.call(t, http.MethodPost, "/api/recipes/bulk-actions/tag", map[string]any{"recipes": []any{s}, "tags": []any{tag}})
		if code != 200 {
			t.Errorf("bulk tag without groupId on %s: %d %v, want 200", tg.profile, code, body)
		}
		_, r = tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		tags, _ := asObj(t, r)["tags"].([]any)
		if applied := len(tags) == 1 && asObj(t, tags[0])["id"] == tag["id"]; applied != !bulkNeedsGroupID(tg) || (!applied && len(tags) != 0) {
			t.Errorf("tags after the bulk tag on %s: %v", tg.profile, tags)
		}
	})
}

// bulkNeedsGroupID reports a Mealie whose bulk tag and categorize apply
// nothing for organizers sent without groupId: 3.11 only
// (testdata/recordings/<version>/TestVersionSwitches.json).
// mealie3 reports a Mealie 3 target (3.11 or 3.20): what the shopping
// tests pin is the same on both (testdata/recordings/3.11 and 3.20,
// TestShoppingNoteRowDisplay.json and TestShoppingSubRecipeExpands.json).
func mealie3(tg target) bool { return strings.HasPrefix(tg.profile, "3.") }

func bulkNeedsGroupID(tg target) bool { return tg.mealie() == "3.11" }

// patchNameMovesSlug reports a Mealie whose PATCH {name} moves the stored
// slug: 3.20, where 2.0 to 3.11 leave it behind
// (testdata/recordings/<version>/TestPatchNameKeepsStoredSlug.json).
func patchNameMovesSlug(tg target) bool { return tg.mealie() == "3.20" }

// idlessTagCreated reports a Mealie that creates and links a tag sent
// without id in a recipe PATCH: 3.20, where 2.0 to 3.11 answer 500
// (testdata/recordings/<version>/TestOrganizerObjectsNeedIDNameSlug.json).
func idlessTagCreated(tg target) bool { return tg.mealie() == "3.20" }

// aiProvidersPerGroup reports a Mealie that sets OpenAI per group: 3.20,
// whose about has no enableOpenai
// (testdata/recordings/<version>/TestAboutAndAuth.json).
func aiProvidersPerGroup(tg target) bool { return tg.mealie() == "3.20" }

// importFailsWith400 reports a Mealie that answers a failed URL import 400
// with the exception's class name: 3.20
// (testdata/recordings/3.20/TestErrorBodyShapes.json).
func importFailsWith400(tg target) bool { return tg.mealie() == "3.20" }

// jsonNumber writes a JSON number (a meal-plan id) as a path segment.
func jsonNumber(v any) string {
	f, _ := v.(float64)
	return strconv.Itoa(int(f))
}
