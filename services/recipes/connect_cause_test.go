package recipes_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/souskitchen/sous/internal/mealieemu"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// forbidden is Mealie 3's answer to a taxonomy create by a user without
// the "organize group data" permission.
func forbidden(path string) mealieemu.FaultRule {
	return mealieemu.FaultRule{Method: http.MethodPost, PathPrefix: path, Status: http.StatusForbidden, Body: `{"detail":"Forbidden"}`}
}

// TestOrganizePermission: a 403 on creating a food, tag or category names
// the permission the token's user lacks (not the token), and a recipe write
// that needed a new tag saves nothing and says so. Before, all of them
// read "authentication failed — check MEALIE_API_TOKEN".
func TestOrganizePermission(t *testing.T) {
	tests := []struct {
		name string
		rule mealieemu.FaultRule
		call func(c context.Context, s *stack) (string, error)
		// recipeWrite marks a recipe write, which must save nothing.
		recipeWrite bool
	}{
		{name: "create a food", rule: forbidden("/api/foods"), call: func(c context.Context, s *stack) (string, error) {
			res, err := s.client.CreateTaxonomy(c, connect.NewRequest(&recipesv1.CreateTaxonomyRequest{
				Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS, Items: []*recipesv1.TaxonomyWrite{{Name: proto.String("ramp")}}}))
			if err != nil {
				return "", err
			}
			if len(res.Msg.Errors) != 1 {
				return "", nil
			}
			return res.Msg.Errors[0].GetMessage(), nil
		}},
		{name: "create a category", rule: forbidden("/api/organizers/categories"), call: func(c context.Context, s *stack) (string, error) {
			res, err := s.client.CreateTaxonomy(c, connect.NewRequest(&recipesv1.CreateTaxonomyRequest{
				Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_CATEGORIES, Items: []*recipesv1.TaxonomyWrite{{Name: proto.String("Brunch")}}}))
			if err != nil {
				return "", err
			}
			if len(res.Msg.Errors) != 1 {
				return "", nil
			}
			return res.Msg.Errors[0].GetMessage(), nil
		}},
		{name: "create a recipe with a new tag", rule: forbidden("/api/organizers/tags"), recipeWrite: true, call: func(c context.Context, s *stack) (string, error) {
			_, err := s.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: "Lost Soup", Tags: []string{"Brand New Tag"}}))
			if connect.CodeOf(err) != connect.CodePermissionDenied {
				return "", err
			}
			return err.Error(), nil
		}},
		{name: "tag a recipe with a new tag", rule: forbidden("/api/organizers/tags"), recipeWrite: true, call: func(c context.Context, s *stack) (string, error) {
			_, err := s.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "pancakes", Tags: []string{"Brand New Tag"}}))
			if connect.CodeOf(err) != connect.CodePermissionDenied {
				return "", err
			}
			return err.Error(), nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStack(t, "3.11", mealieemu.WithFault(tt.rule))
			msg, err := tt.call(ctx(t), s)
			if err != nil || !strings.Contains(msg, `"organize group data" permission`) || !strings.Contains(msg, "MEALIE_API_TOKEN lacks") {
				t.Fatalf("got %q, %v; want the missing permission named", msg, err)
			}
			if tt.recipeWrite {
				if !strings.Contains(msg, "the recipe was not saved") {
					t.Errorf("%q does not say the recipe was not saved", msg)
				}
				for _, w := range s.writes() {
					if strings.HasPrefix(w, http.MethodPost+" /api/recipes") || strings.HasPrefix(w, http.MethodPatch+" /api/recipes") || strings.HasPrefix(w, http.MethodPut+" /api/recipes") {
						t.Errorf("the recipe was written: %s", w)
					}
				}
			}
		})
	}
}

// TestRecipeAlreadyExistsOnUpdate: Mealie's 400 "Recipe already exists" on
// a rename is a conflict in what was sent, with its likely causes named,
// not a plain rejection.
func TestRecipeAlreadyExistsOnUpdate(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		_, err := s.client.UpdateRecipe(ctx(t), connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "pancakes", Name: proto.String("Tomato Soup")}))
		if connect.CodeOf(err) != connect.CodeFailedPrecondition || !strings.Contains(err.Error(), "not only a taken name") || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("rename onto an existing recipe's name: %v", err)
		}
	})
}
