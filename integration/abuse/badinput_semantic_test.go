package abuse_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxRefusal bounds a refusal's length: one sentence, not the argument
// echoed back. A 1 MB value quoted in an error would cost the model a
// megabyte of context for a typo.
const maxRefusal = 2000

// semanticCases are malformed arguments that pass the JSON schema and must
// be caught by mcpfront or the services before any backend request: dates
// that are not on the calendar, ranges the wrong way round or past a cap,
// mismatched confirmations, URL schemes Mealie must never be sent, paths
// outside the image directory, impossible quantities and empty names.
var semanticCases = []struct {
	name, tool, param string
	args              map[string]any
}{
	{"30 February", "get_meal_plan", "start_date", map[string]any{"start_date": "2026-02-30", "end_date": "2026-03-02"}},
	{"month 13", "add_meal_plan_entry", "date", map[string]any{"date": "2026-13-01", "title": "x"}},
	{"end before start", "get_meal_plan", "end_date", map[string]any{"start_date": "2026-03-05", "end_date": "2026-03-02"}},
	{"random plan past 14 days", "random_meal_plan", "14 days", map[string]any{"start_date": "2026-01-01", "end_date": "2026-03-01"}},
	{"random plan on 30 February", "random_meal_plan", "start_date", map[string]any{"start_date": "2026-02-30", "end_date": "2026-03-02"}},
	{"made on 30 February", "mark_recipe_made", "date", map[string]any{"slug": "toast", "date": "2026-02-30"}},
	{"cooked on 30 February", "log_cook", "date", map[string]any{"recipe": "Toast", "date": "2026-02-30"}},
	{"shopping range on 30 February", "add_to_shopping_list", "meal_plan_range.start_date", map[string]any{"meal_plan_range": map[string]any{"start_date": "2026-02-30", "end_date": "2026-03-01"}}},
	{"confirm_slug differs", "delete_recipe", "confirm_slug", map[string]any{"slug": "toast", "confirm_slug": "pad-thai"}},
	{"empty slug", "get_recipe", "slug", map[string]any{"slug": ""}},
	{"blank recipe name", "create_recipe", "name", map[string]any{"name": "   "}},
	{"empty cookbook name", "create_cookbook", "name", map[string]any{"name": ""}},
	{"empty pantry ingredient", "set_item_state", "ingredient", map[string]any{"ingredient": "", "state": "in"}},
	{"javascript: import", "import_recipe_from_url", "url", map[string]any{"url": "javascript:alert(1)"}},
	{"file: import", "import_recipe_from_url", "url", map[string]any{"url": "file:///etc/passwd"}},
	{"not a URL", "import_recipe_from_url", "url", map[string]any{"url": "not a url"}},
	{"file: image", "set_recipe_image", "url", map[string]any{"slug": "toast", "url": "file:///etc/passwd"}},
	{"javascript: source", "create_recipe", "source_url", map[string]any{"name": "x", "source_url": "javascript:alert(1)"}},
	{"path traversal", "upload_recipe_image", "etc/passwd", map[string]any{"slug": "toast", "path": "../../etc/passwd"}},
	{"traversal with an image name", "upload_recipe_image", "image directory", map[string]any{"slug": "toast", "path": "../../tmp/x.jpg"}},
	{"negative quantity", "add_to_pantry", "quantity", map[string]any{"items": []any{map[string]any{"name": "eggs", "quantity": -5}}}},
	{"negative meta-recipe id", "create_meta_recipe", "id", map[string]any{"name": "x", "id": -1}},
	{"nothing to add", "add_to_shopping_list", "items", map[string]any{}},
	{"nothing to update", "update_shopping_items", "check", map[string]any{"list_id": "l1"}},
	{"nothing to tag", "bulk_tag_recipes", "tags", map[string]any{"slugs": []any{"toast"}}},
	{"update with nothing", "manage_taxonomy", "name", map[string]any{"resource": "tags", "action": "update"}},
	{"merge without source", "manage_taxonomy", "item_id", map[string]any{"resource": "tags", "action": "merge", "merge_into": "x"}},
	{"neither recipe nor meta-recipe", "log_cook", "recipe", map[string]any{}},
	{"neither slug nor title", "add_meal_plan_entry", "recipe_slug", map[string]any{"date": "2026-12-01"}},
}

func TestSemanticRefusals(t *testing.T) {
	s := newBadInputStack(t)
	for _, c := range semanticCases {
		t.Run(c.tool+"/"+c.name, func(t *testing.T) {
			text := s.expectRefused(t, c.tool, c.args, c.param)
			if len(text) > maxRefusal {
				t.Errorf("refusal is %d bytes", len(text))
			}
		})
	}
}

// TestNonUTF8IsReplaced sends raw JSON whose string holds bytes that are
// not UTF-8. JSON decoding turns them into U+FFFD, so nothing but valid
// text reaches the services; the call is answered, not crashed.
func TestNonUTF8IsReplaced(t *testing.T) {
	s := newBadInputStack(t)
	text, isErr, err := s.call(t, "search_recipes", json.RawMessage(append(append([]byte(`{"query":"pad`), 0xff, 0xfe), ` thai"}`...)))
	if err != nil {
		t.Fatalf("protocol error: %v", err)
	}
	if isErr {
		t.Fatalf("search with replaced bytes failed: %s", text)
	}
	for _, r := range s.mealie.Requests() {
		q, err := url.QueryUnescape(r.RawQuery)
		if err != nil || !utf8.ValidString(q) {
			t.Errorf("non-UTF-8 bytes reached Mealie: %q", r.RawQuery)
		}
	}
}

// TestEmojiAndRightToLeftNamesWork: names in any script, emoji included,
// are data, not malformed input: they are saved and read back unchanged.
func TestEmojiAndRightToLeftNamesWork(t *testing.T) {
	s := newBadInputStack(t)
	for _, name := range []string{"Phở bò 🍜", "שקשוקה", "كشري مصري", "Crème brûlée ✨"} {
		t.Run(name, func(t *testing.T) {
			text, isErr, err := s.call(t, "create_recipe", map[string]any{"name": name, "tags": []any{"🌶️ fiery"}})
			if err != nil || isErr {
				t.Fatalf("create_recipe(%q): %v %s", name, err, text)
			}
			var created struct{ Slug string }
			if err := json.Unmarshal([]byte(text), &created); err != nil || created.Slug == "" {
				t.Fatalf("no slug in %s", text)
			}
			got, isErr, err := s.call(t, "get_recipe", map[string]any{"slug": created.Slug, "fields": []any{"name", "tags"}})
			if err != nil || isErr {
				t.Fatalf("get_recipe(%q): %v %s", created.Slug, err, got)
			}
			if !strings.Contains(got, name) || !strings.Contains(got, "🌶️ fiery") {
				t.Errorf("name or tag changed on the way: %s", got)
			}
		})
	}
}

// TestRefusalsStayShort: a refused 1 MB argument must not come back
// quoted in full.
func TestRefusalsStayShort(t *testing.T) {
	s := newBadInputStack(t)
	text := s.expectRefused(t, "search_recipes", map[string]any{"query": hugeString}, "query")
	if len(text) > maxRefusal {
		t.Errorf("refusal is %d bytes", len(text))
	}
}

// TestTagSlugCollision: a new tag whose name differs from an existing tag's
// only by an emoji or punctuation has the same slug, which Mealie's unique
// constraint turns into a 500 (the demo library has "Spicy"). The call
// reuses the existing tag rather than blaming Mealie's health.
func TestTagSlugCollision(t *testing.T) {
	s := newBadInputStack(t)
	text, isErr, err := s.call(t, "create_recipe", map[string]any{"name": "Chilli oil", "tags": []any{"🌶️ spicy"}})
	if err != nil || isErr {
		t.Fatalf("create_recipe: %v %s", err, text)
	}
	if strings.Contains(text, `"created"`) {
		t.Errorf("a second tag with Spicy's slug was reported created: %s", text)
	}
	got, isErr, err := s.call(t, "get_recipe", map[string]any{"slug": "chilli-oil", "fields": []any{"tags"}})
	if err != nil || isErr || !strings.Contains(got, `"Spicy"`) {
		t.Errorf("the recipe does not carry the existing Spicy tag: %v %s", err, got)
	}
}
