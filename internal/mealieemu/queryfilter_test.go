package mealieemu

import (
	"slices"
	"testing"
	"time"
)

// TestListValuesSplitLikeMealie: Mealie splits a filter list at every comma
// and ends it at the first ']', inside quotes or not, and drops a value's
// quotes only when it is longer than two characters; the emulator reads
// lists the same way, so a name holding one of them is not matched more
// kindly here than on a real Mealie.
func TestListValuesSplitLikeMealie(t *testing.T) {
	for _, tt := range []struct {
		list string
		want []string
	}{
		{`["Quick", "Easy"]`, []string{"Quick", "Easy"}},
		{`["salt, pepper"]`, []string{`"salt`, `pepper"`}},
		{`[""]`, []string{`""`}},
		{`["(vegan) AND x"]`, []string{"(vegan) AND x"}},
		{`[]`, nil},
	} {
		toks, err := tokenize(tt.list)
		if err != nil {
			t.Fatalf("tokenize(%s): %v", tt.list, err)
		}
		var got []string
		for _, tok := range toks {
			if tok.kind == "str" || tok.kind == "word" {
				got = append(got, tok.text)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("tokenize(%s) values = %q, want %q", tt.list, got, tt.want)
		}
	}
	if _, err := tokenize(`tags.name IN ["x] OR id IS NOT NULL"`); err == nil {
		t.Error(`a ']' inside quotes should end the list and leave a broken filter`)
	}
}

// TestFilterJoinsEachRelationOnce pins Mealie's join semantics: conditions
// on one relation hold for the same related row, so two ANDed conditions on
// tags.name match nothing, and 2.x counts a recipe once per joined row that
// passes (testdata/recordings/<version>/TestCookbookQueryFilterString.json in
// the contract package).
func TestFilterJoinsEachRelationOnce(t *testing.T) {
	st := newStore(profiles["3.11"], time.Now)
	a, b, c := &organizer{ID: newID(), Name: "A"}, &organizer{ID: newID(), Name: "B"}, &organizer{ID: newID(), Name: "C"}
	st.tags = []*organizer{a, b, c}
	both := &recipe{TagIDs: []string{a.ID, b.ID}}
	none := &recipe{}
	tests := []struct {
		filter string
		row    *recipe
		want   int
	}{
		{`tags.name IN ["A"]`, both, 1},
		{`tags.name IN ["A"] AND tags.name IN ["B"]`, both, 0},
		{`tags.name IN ["A"] OR tags.name IN ["B"]`, both, 2},
		{`tags.name CONTAINS ALL ["A", "B"]`, both, 2},
		{`tags.name IN ["A"] AND name = ""`, both, 1},
		{`tags.name <> "A"`, both, 1},
		{`tags.name IS NULL`, none, 1},
		{`tags.name IS NULL`, both, 0},
	}
	for _, tt := range tests {
		q, err := parseQueryFilter(tt.filter, st.recipeFilterAttrs())
		if err != nil {
			t.Fatalf("%s: %v", tt.filter, err)
		}
		if got := q.matchCount(tt.row); got != tt.want {
			t.Errorf("%s: %d joined rows match, want %d", tt.filter, got, tt.want)
		}
	}
}
