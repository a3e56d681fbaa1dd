package abuse_test

import "testing"

// gapCases are malformed arguments that once reached a backend (slugs with
// control characters, text without a length cap, unchecked pantry items;
// docs/security.md, "Bad input from the model"). Each must now be refused,
// naming the parameter, before Mealie or the food API is asked.
var gapCases = []struct {
	name, tool, param string
	args              map[string]any
}{
	{"NUL in a slug", "get_recipe", "slug",
		map[string]any{"slug": "a\x00b"}},
	{"newline in a slug", "mark_recipe_made", "slug",
		map[string]any{"slug": "a\nb"}},
	{"1 MB description", "create_recipe", "description",
		map[string]any{"name": "x", "description": hugeString}},
	{"1 MB tag", "create_recipe", "tags",
		map[string]any{"name": "x", "tags": []any{hugeString}}},
	{"1 MB prep time", "create_recipe", "prep_time",
		map[string]any{"name": "x", "prep_time": hugeString}},
	{"1 MB description on update", "update_recipe", "description",
		map[string]any{"slug": "toast", "description": hugeString}},
	{"1 MB cookbook description", "create_cookbook", "description",
		map[string]any{"name": "x", "description": hugeString}},
	{"1 MB cookbook id", "update_cookbook", "cookbook_id",
		map[string]any{"cookbook_id": hugeString}},
	{"1 MB search tag", "search_recipes", "tags",
		map[string]any{"tags": []any{hugeString}}},
	{"1 MB food", "suggest_recipes", "foods",
		map[string]any{"foods": []any{hugeString}}},
	{"1 MB method", "create_meta_recipe", "method",
		map[string]any{"name": "x", "method": hugeString}},
	{"1 MB recipe name", "log_cook", "recipe",
		map[string]any{"recipe": hugeString}},
	{"unknown location", "add_to_pantry", "location",
		map[string]any{"items": []any{map[string]any{"name": "eggs", "location": "garage"}}}},
	{"empty item name", "add_to_pantry", "name",
		map[string]any{"items": []any{map[string]any{"name": ""}}}},
}

func TestClosedGaps(t *testing.T) {
	s := newBadInputStack(t)
	for _, c := range gapCases {
		t.Run(c.tool+"/"+c.name, func(t *testing.T) {
			if text := s.expectRefused(t, c.tool, c.args, c.param); len(text) > maxRefusal {
				t.Errorf("refusal is %d bytes", len(text))
			}
		})
	}
}
