package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

func decode(t *testing.T, resp *http.Response, v any) {
	t.Helper()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: not JSON: %.200s", resp.Request.URL, raw)
	}
}

// call sends an authenticated JSON request and decodes the answer (a JSON
// value, or the text of a non-JSON body).
func (tg target) call(t *testing.T, method, path string, body any) (int, any) {
	t.Helper()
	return tg.callAs(t, tg.token, method, path, body)
}

func (tg target) callAs(t *testing.T, token, method, path string, body any) (int, any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, tg.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	// A fresh connection each time: after an unhandled 500 Mealie's server
	// drops the connection, and the next request on it would read a reset.
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		v = string(raw)
	}
	tg.tape.observe(t, method, path, body, resp.StatusCode, v)
	return resp.StatusCode, v
}

func asObj(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("want an object, got %T %v", v, v)
	}
	return m
}

// uniqueName keeps runs against a shared live instance from colliding. The
// number is registered with the tape, so recordings stay stable.
func (tg target) uniqueName(prefix string) string {
	n := strconv.FormatInt(time.Now().UnixNano()%1_000_000_000+1_000_000_000, 10)[1:]
	tg.tape.nonce(n)
	return prefix + " " + n
}

// uniqueWord is a lower-case word no other run uses, for names whose slug
// the test predicts; registered with the tape like uniqueName's number.
func (tg target) uniqueWord() string {
	w := strings.ReplaceAll(uuid.NewString()[:8], "-", "")
	tg.tape.nonce(w)
	return w
}

// is2x reports whether the target behaves as a Mealie 2.x, whose known
// quirks some assertions pin down.
func is2x(tg target) bool { return strings.HasPrefix(tg.profile, "2.") }

func TestAboutAndAuth(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		code, about := tg.callAs(t, "", http.MethodGet, "/api/app/about", nil)
		if code != 200 {
			t.Fatalf("about: %d", code)
		}
		if v, _ := asObj(t, about)["version"].(string); v == "" {
			t.Errorf("about has no version: %v", about)
		}
		code, self := tg.call(t, http.MethodGet, "/api/users/self", nil)
		if code != 200 || asObj(t, self)["id"] == nil || asObj(t, self)["householdId"] == nil {
			t.Errorf("self: %d %v", code, self)
		}
		// Whether the openai parser can work: about's enableOpenai up to
		// 3.11; 3.20 sets OpenAI per group as an AI provider, drops the
		// key and says it in the group's aiProviderSettings.
		_, hasFlag := asObj(t, about)["enableOpenai"]
		if hasFlag == aiProvidersPerGroup(tg) {
			t.Errorf("about on %s has enableOpenai: %v", tg.profile, hasFlag)
		}
		if aiProvidersPerGroup(tg) {
			code, g := tg.call(t, http.MethodGet, "/api/groups/self", nil)
			ai, _ := asObj(t, g)["aiProviderSettings"].(map[string]any)
			if code != 200 || ai["aiEnabled"] != false {
				t.Errorf("group on %s: %d %v, want aiProviderSettings.aiEnabled false", tg.profile, code, g)
			}
		}
	})
}

func TestPaginationEnvelope(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		var made []string
		for i := 0; i < 3; i++ {
			code, slug := tg.call(t, http.MethodPost, "/api/recipes", map[string]any{"name": tg.uniqueName("Contract Paging")})
			if code != 201 {
				t.Fatalf("create: %d %v", code, slug)
			}
			made = append(made, slug.(string))
		}
		t.Cleanup(func() {
			for _, s := range made {
				tg.call(t, http.MethodDelete, "/api/recipes/"+s, nil)
			}
		})
		code, page := tg.call(t, http.MethodGet, "/api/recipes?page=1&perPage=2", nil)
		if code != 200 {
			t.Fatalf("list: %d", code)
		}
		p := asObj(t, page)
		var keys []string
		for k := range p {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if want := []string{"items", "next", "page", "per_page", "previous", "total", "total_pages"}; !reflect.DeepEqual(keys, want) {
			t.Errorf("envelope keys = %v, want %v", keys, want)
		}
		next, _ := p["next"].(string)
		if !strings.HasPrefix(next, "/recipes?") || !strings.Contains(next, "page=2") {
			t.Errorf("next = %q, want a relative /recipes link without /api", next)
		}
		if p["previous"] != nil {
			t.Errorf("previous on page 1 = %v", p["previous"])
		}
	})
}

func TestRecipeLifecycle(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		name := tg.uniqueName("Contract Pancakes")
		code, slug := tg.call(t, http.MethodPost, "/api/recipes", map[string]any{"name": name})
		if code != 201 {
			t.Fatalf("create: %d %v", code, slug)
		}
		s, ok := slug.(string)
		if !ok {
			t.Fatalf("create answered %T, want a bare slug string", slug)
		}
		code, byslug := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		if code != 200 {
			t.Fatalf("get: %d", code)
		}
		r := asObj(t, byslug)
		if r["name"] != name || r["slug"] != s {
			t.Errorf("recipe = %v %v", r["name"], r["slug"])
		}
		if code, byid := tg.call(t, http.MethodGet, "/api/recipes/"+r["id"].(string), nil); code != 200 || asObj(t, byid)["slug"] != s {
			t.Errorf("get by id: %d", code)
		}
		code, del := tg.call(t, http.MethodDelete, "/api/recipes/"+s, nil)
		if code != 200 || asObj(t, del)["id"] != r["id"] {
			t.Errorf("delete: %d, want 200 with the deleted recipe", code)
		}
		code, again := tg.call(t, http.MethodDelete, "/api/recipes/"+s, nil)
		detail, _ := asObj(t, again)["detail"].(map[string]any)
		if code != 404 || detail["message"] != "No Entry Found" {
			t.Errorf("second delete: %d %v", code, again)
		}
	})
}

func TestPatchReplacesTags(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		var tags []map[string]any
		for _, n := range []string{tg.uniqueName("Contract Dinner"), tg.uniqueName("Contract Spicy"), tg.uniqueName("Contract Vegan")} {
			code, tag := tg.call(t, http.MethodPost, "/api/organizers/tags", map[string]any{"name": n})
			if code != 201 {
				t.Fatalf("create tag: %d %v", code, tag)
			}
			o := asObj(t, tag)
			tags = append(tags, map[string]any{"id": o["id"], "name": o["name"], "slug": o["slug"]})
			t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/organizers/tags/"+o["id"].(string), nil) })
		}
		_, slug := tg.call(t, http.MethodPost, "/api/recipes", map[string]any{"name": tg.uniqueName("Contract Chili")})
		s := slug.(string)
		t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/recipes/"+s, nil) })
		if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, map[string]any{"tags": tags[:2]}); code != 200 {
			t.Fatalf("patch two tags: %d %v", code, body)
		}
		// PATCH replaces the list.
		code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, map[string]any{"tags": tags[2:]})
		if code != 200 {
			t.Fatalf("patch one tag: %d %v", code, body)
		}
		got := asObj(t, body)["tags"].([]any)
		if len(got) != 1 || asObj(t, got[0])["id"] != tags[2]["id"] {
			t.Errorf("tags after replacing PATCH = %v, want only %v", got, tags[2]["name"])
		}
	})
}

func TestMealplanIDsAreIntegers(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		code, body := tg.call(t, http.MethodPost, "/api/households/mealplans",
			map[string]any{"date": "2030-01-02", "entryType": "dinner", "title": tg.uniqueName("Contract leftovers")})
		if code != 201 {
			t.Fatalf("create: %d %v", code, body)
		}
		id, ok := asObj(t, body)["id"].(float64)
		if !ok || id != float64(int(id)) {
			t.Fatalf("id = %v, want an integer", asObj(t, body)["id"])
		}
		path := fmt.Sprintf("/api/households/mealplans/%d", int(id))
		if code, _ := tg.call(t, http.MethodDelete, path, nil); code != 200 {
			t.Errorf("delete: %d", code)
		}
		// services/mealplan/testdata/mealplans__get_uuid_instead_of_int_422.json
		if code, _ := tg.call(t, http.MethodGet, "/api/households/mealplans/5f0c1d0e-8a51-4c7a-9d57-3c0f5e6b1a2b", nil); code != 422 {
			t.Errorf("uuid as meal-plan id: %d, want 422", code)
		}
	})
}
