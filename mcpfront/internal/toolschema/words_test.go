package toolschema

import "testing"

// TestClosest pins the "did you mean" of unknown arguments: a slip or a
// shortened name finds the parameter, an unrelated word finds nothing.
func TestClosest(t *testing.T) {
	params := []string{"name", "recipe_yield", "prep_time", "cook_time", "source_url", "replace_tags", "replace_tools"}
	for _, c := range []struct{ in, want string }{
		{"prep", "prep_time"},
		{"source", "source_url"},
		{"nmae", "name"},
		{"yield", "recipe_yield"},
		{"colour", ""},
		{"x", ""},
	} {
		if got := closest(c.in, params); got != c.want {
			t.Errorf("closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
