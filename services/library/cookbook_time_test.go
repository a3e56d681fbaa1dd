package library

import "testing"

// The time condition sous writes into a cookbook's filter reads back as
// the bound, and comes off again leaving the rest as it was built.
func TestTimeConditionRoundTrip(t *testing.T) {
	for _, c := range []struct {
		rest  string
		bound int
	}{
		{"", 30},
		{`tags.name IN ["Dinner"]`, 45},
		{`tags.name IN ["Dinner"] OR recipe_category.name IN ["Mains"]`, 20},
		{`(tags.name IN ["A"]) AND (rating >= 4)`, 90},
	} {
		f := withTime(c.rest, c.bound)
		if got := cookbookBound(f); got != c.bound {
			t.Errorf("bound of %q = %d, want %d", f, got, c.bound)
		}
		if got := withoutTime(f); got != c.rest {
			t.Errorf("withoutTime(%q) = %q, want %q", f, got, c.rest)
		}
	}
	// a filter sous did not write keeps every character
	for _, f := range []string{`(tags.name IN ["A"])`, `name LIKE "%soup%"`, ""} {
		if got := withoutTime(f); got != f || cookbookBound(f) != 0 {
			t.Errorf("withoutTime(%q) = %q, bound %d", f, got, cookbookBound(f))
		}
	}
}
