package mealieemu

import (
	"net/http"
	"testing"
)

// TestParserReadsLikeMealie pins parser readings against what real Mealie
// answered for the same lines (services/recipes/testdata/parsed/): a
// fraction character is an amount, and nlp reads a counting word as a unit
// though none is stored for it.
func TestParserReadsLikeMealie(t *testing.T) {
	s := newServer(t, WithVersion("2.8"))
	for _, c := range []struct {
		parser, line string
		qty          float64
		unit, food   string
	}{
		{"nlp", "½ cup granulated sugar", 0.5, "cup", "granulated sugar"},
		{"brute", "1½ pounds steak", 1.5, "pound", "steak"}, // the stored unit
		{"nlp", "1 stick butter", 1, "stick", "butter"},
		{"nlp", "2 blocks extra-firm tofu", 2, "block", "extra-firm tofu"},
		{"nlp", "3 large eggs", 3, "", "large eggs"},
	} {
		code, got := call(t, s, http.MethodPost, "/api/parser/ingredients", map[string]any{"parser": c.parser, "ingredients": []string{c.line}})
		if code != http.StatusOK {
			t.Fatalf("%q: %d %v", c.line, code, got)
		}
		in := got.([]any)[0].(map[string]any)["ingredient"].(map[string]any)
		var unit, food string
		if u, ok := in["unit"].(map[string]any); ok {
			unit, _ = u["name"].(string)
		}
		if f, ok := in["food"].(map[string]any); ok {
			food, _ = f["name"].(string)
		}
		if in["quantity"] != c.qty || unit != c.unit || food != c.food {
			t.Errorf("%s %q = %v %q %q, want %v %q %q", c.parser, c.line, in["quantity"], unit, food, c.qty, c.unit, c.food)
		}
	}
}
