package recipes

import (
	"context"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// TestNameWithoutSlugIsRefused checks that a name Mealie would slug to ""
// is refused before any request, on create, copy and rename.
func TestNameWithoutSlugIsRefused(t *testing.T) {
	s, f := newService(t)
	ctx := context.Background()
	for _, name := range []string{"🥞", "🥞🥞", "!!! ???", "— · —"} {
		calls := map[string]func() error{
			"create": func() error {
				_, err := s.CreateRecipe(ctx, req(&recipesv1.CreateRecipeRequest{Name: name}))
				return err
			},
			"copy": func() error {
				_, err := s.CreateRecipe(ctx, req(&recipesv1.CreateRecipeRequest{Name: name, FromSlug: pancakes}))
				return err
			},
			"rename": func() error {
				_, err := s.UpdateRecipe(ctx, req(&recipesv1.UpdateRecipeRequest{Slug: pancakes, Name: proto.String(name)}))
				return err
			},
		}
		for what, call := range calls {
			err := call()
			if codeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), "needs letters or digits") {
				t.Errorf("%s %q: %v", what, name, err)
			}
		}
	}
	if reqs := f.requests(); len(reqs) != 0 {
		t.Errorf("a name without a slug reached Mealie: %v", reqs)
	}
	// A name that only transliterates still has a slug.
	if _, err := s.CreateRecipe(ctx, req(&recipesv1.CreateRecipeRequest{Name: "Käse 🥞"})); err != nil {
		t.Errorf("Käse 🥞: %v", err)
	}
}
