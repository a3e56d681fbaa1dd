package mealietest

import (
	"slices"
	"testing"
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
