package recipes

import (
	"context"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

func TestDeleteFoodInUseIsRefused(t *testing.T) {
	s, f := newService(t)
	ctx := context.Background()
	const flour = "c20613de-050e-4228-9bb6-ec224754ffc0"
	foods := recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS
	res, err := s.DeleteTaxonomy(ctx, req(&recipesv1.DeleteTaxonomyRequest{Resource: foods, Ids: []string{flour}}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Msg.Deleted) != 0 || len(res.Msg.Errors) != 1 || !strings.Contains(res.Msg.Errors[0].Message, "used by 1 recipe") ||
		!strings.Contains(res.Msg.Errors[0].Message, "merge") {
		t.Errorf("response = %v", res.Msg)
	}
	if got := f.writes(); len(got) != 0 {
		t.Errorf("writes = %q", got)
	}
	res, err = s.DeleteTaxonomy(ctx, req(&recipesv1.DeleteTaxonomyRequest{Resource: foods, Ids: []string{flour}, Force: true}))
	if err != nil || !slices.Equal(res.Msg.Deleted, []string{flour}) {
		t.Errorf("forced: %v, %v", res, err)
	}
}

// TestDeleteOrganizerInUseIsRefused checks that a tag, category or tool a
// recipe carries is refused with its count unless force is set, that an
// unused one is deleted, and that the count costs one list request per id.
func TestDeleteOrganizerInUseIsRefused(t *testing.T) {
	tests := []struct {
		res      recipesv1.TaxonomyResource
		path, id string // the fixture recipe carries id
		recKey   string
	}{
		{recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TAGS, "/api/organizers/tags/", "6cc5a1ef-8beb-40e1-80c7-4a216a33fa20", "tags"},
		{recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_CATEGORIES, "/api/organizers/categories/", "4801c146-0d33-45a7-b8c8-97c30a20d912", "recipeCategory"},
		{recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TOOLS, "/api/organizers/tools/", "bac5359c-28f2-47fd-a06d-bb43c1193757", "tools"},
	}
	for _, tc := range tests {
		t.Run(tc.res.String(), func(t *testing.T) {
			s, f := newService(t)
			ctx := context.Background()
			res, err := s.DeleteTaxonomy(ctx, req(&recipesv1.DeleteTaxonomyRequest{Resource: tc.res, Ids: []string{tc.id}}))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Msg.Deleted) != 0 || len(res.Msg.Errors) != 1 ||
				!strings.Contains(res.Msg.Errors[0].Message, "is used by 1 recipe, so it was not deleted: pass force=true to remove it from them") ||
				res.Msg.Errors[0].UsedBy != 1 || res.Msg.Errors[0].Name == "" || !strings.Contains(res.Msg.Errors[0].Message, `"`+res.Msg.Errors[0].Name+`"`) {
				t.Errorf("response = %v", res.Msg)
			}
			if got := f.writes(); len(got) != 0 {
				t.Errorf("writes = %q", got)
			}
			var lists int
			for _, l := range f.requests() {
				if l.Path == "/api/recipes" {
					lists++
					if !strings.Contains(l.Query, "perPage=1") || !strings.Contains(l.Query, tc.id) {
						t.Errorf("count query = %s", l.Query)
					}
				}
			}
			if lists != 1 {
				t.Errorf("%d list requests, want 1", lists)
			}
			res, err = s.DeleteTaxonomy(ctx, req(&recipesv1.DeleteTaxonomyRequest{Resource: tc.res, Ids: []string{tc.id}, Force: true}))
			if err != nil || !slices.Equal(res.Msg.Deleted, []string{tc.id}) {
				t.Fatalf("forced: %v, %v", res, err)
			}
			if got := f.writes(); !slices.Equal(got, []string{"DELETE " + tc.path + tc.id}) {
				t.Errorf("writes = %q", got)
			}
			// Now that no recipe carries it, a new one of the same kind
			// that nothing uses deletes without force.
			created, err := s.CreateTaxonomy(ctx, req(&recipesv1.CreateTaxonomyRequest{Resource: tc.res, Items: []*recipesv1.TaxonomyWrite{{Name: proto.String("Unused")}}}))
			if err != nil || len(created.Msg.Items) != 1 {
				t.Fatalf("create: %v, %v", created, err)
			}
			id := created.Msg.Items[0].Id
			res, err = s.DeleteTaxonomy(ctx, req(&recipesv1.DeleteTaxonomyRequest{Resource: tc.res, Ids: []string{id}}))
			if err != nil || !slices.Equal(res.Msg.Deleted, []string{id}) {
				t.Errorf("unused: %v, %v", res, err)
			}
		})
	}
}
