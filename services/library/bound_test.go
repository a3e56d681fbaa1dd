package library

import (
	"fmt"
	"strings"
	"testing"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
)

func TestBoundDuplicates(t *testing.T) {
	groups := func(n int) []*libraryv1.DuplicateGroup {
		var out []*libraryv1.DuplicateGroup
		for i := range n {
			key := fmt.Sprintf("smoky chicken tacos %d", i)
			out = append(out, &libraryv1.DuplicateGroup{Key: key, Reason: duplicateReason, Recipes: []*libraryv1.RecipeRef{
				{Slug: fmt.Sprintf("smoky-chicken-tacos-%d", i)}, {Slug: fmt.Sprintf("smoky-chicken-tacos-%d-1", i)},
			}})
		}
		return out
	}
	tests := []struct {
		name     string
		groups   int
		wantNote bool
	}{
		{name: "none", groups: 0},
		{name: "a few", groups: 10},
		{name: "a library imported twice", groups: 1000, wantNote: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, note := boundDuplicates(groups(tt.groups))
			if (note != "") != tt.wantNote {
				t.Fatalf("note = %q, want one: %v", note, tt.wantNote)
			}
			if !tt.wantNote && len(kept) != tt.groups {
				t.Errorf("kept %d of %d groups with no note", len(kept), tt.groups)
			}
			if tt.wantNote && (len(kept) == 0 || len(kept) >= tt.groups || !strings.Contains(note, fmt.Sprintf("%d more groups", tt.groups-len(kept)))) {
				t.Errorf("kept %d of %d, note %q", len(kept), tt.groups, note)
			}
			dedupeReasons(kept)
			for i, g := range kept {
				if (g.GetReason() != "") != (i == 0) {
					t.Errorf("group %d reason %q: want it on the first group only", i, g.GetReason())
				}
			}
		})
	}
}

func TestBoundLinks(t *testing.T) {
	res := &libraryv1.CheckRecipeLinksResult{}
	for i := range 3000 {
		res.NoImage = append(res.NoImage, &libraryv1.RecipeRef{Slug: fmt.Sprintf("recipe-number-%d", i)})
	}
	for i := range 10 {
		res.Items = append(res.Items, &libraryv1.LinkResult{Slug: fmt.Sprintf("r-%d", i), Url: "https://example.org/x"})
	}
	note := boundLinks(res)
	if len(res.Items) != 10 || len(res.NoImage) == 0 || len(res.NoImage) >= 3000 {
		t.Errorf("kept %d links and %d recipes without an image", len(res.Items), len(res.NoImage))
	}
	if !strings.Contains(note, fmt.Sprintf("listed %d of 3000 recipes without an image", len(res.NoImage))) {
		t.Errorf("note = %q", note)
	}
}
