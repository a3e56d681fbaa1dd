package recipes_test

import (
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// TestNameWithoutSlugIsRefusedOnEveryVersion checks that a recipe name Mealie would slug
// to "" (emoji or punctuation only) is refused before any write, on create,
// copy and rename: Mealie would store the recipe under slug "" where no
// route reaches it, and the recipe renamed stays where it was.
func TestNameWithoutSlugIsRefusedOnEveryVersion(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		c := ctx(t)
		for _, name := range []string{"🥞", "🥞🥞", "?!"} {
			_, err := s.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: name}))
			if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), "needs letters or digits") {
				t.Errorf("create %q: %v", name, err)
			}
			_, err = s.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: name, FromSlug: "pancakes"}))
			if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), "needs letters or digits") {
				t.Errorf("copy as %q: %v", name, err)
			}
			_, err = s.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "pancakes", Name: proto.String(name)}))
			if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), "needs letters or digits") {
				t.Errorf("rename to %q: %v", name, err)
			}
		}
		if w := s.writes(); len(w) != 0 {
			t.Errorf("writes = %q", w)
		}
		got, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "pancakes"}))
		if err != nil || got.Msg.Recipe.Slug != "pancakes" {
			t.Errorf("pancakes after the refused renames: %v, %v", got, err)
		}
	})
}
