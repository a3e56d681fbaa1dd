package mcpfront

import (
	"strings"
	"testing"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// TestRefusedDeletes: a delete the service refused because recipes use the
// item is a tool error naming it, the count and the way out; other
// failures alone stay in the answer's errors. Before, a refusal came back
// as a success naming the item by its id and "MergeTaxonomy".
func TestRefusedDeletes(t *testing.T) {
	tests := []struct {
		name     string
		noun     string
		deleted  []string
		errs     []*recipesv1.ItemError
		want     []string // nil: no tool error
		notWants []string
	}{
		{name: "nothing refused", noun: "food", deleted: []string{"a"}},
		{name: "a failure that is no refusal", noun: "food", errs: []*recipesv1.ItemError{{Item: "x", Message: "Mealie answered 500"}}},
		{
			name: "a food in use", noun: "food",
			errs: []*recipesv1.ItemError{{Item: "id-1", Name: "flour", UsedBy: 3, Message: "food \"flour\" is used by 3 recipes (MergeTaxonomy)"}},
			want: []string{"3 recipes use food 'flour', so it was not deleted", "action=merge", "merge_into", "force=true"}, notWants: []string{"MergeTaxonomy", "id-1"},
		},
		{
			name: "a tag in use, another deleted", noun: "tag", deleted: []string{"id-2"},
			errs: []*recipesv1.ItemError{{Item: "id-1", Name: "Spicy", UsedBy: 1}, {Item: "id-3", Message: "Mealie answered 500"}},
			want: []string{"1 recipe uses tag 'Spicy'", "force=true", "(deleted: id-2)", "(failed: id-3: Mealie answered 500)"}, notWants: []string{"action=merge"},
		},
		{
			name: "no name known", noun: "unit",
			errs: []*recipesv1.ItemError{{Item: "id-9", UsedBy: 2}},
			want: []string{"2 recipes use unit id-9"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := refusedDeletes(tt.noun, tt.deleted, tt.errs)
			if tt.want == nil {
				if err != nil {
					t.Errorf("refusedDeletes = %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no tool error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
			for _, n := range tt.notWants {
				if strings.Contains(err.Error(), n) {
					t.Errorf("%q holds %q", err, n)
				}
			}
		})
	}
}
