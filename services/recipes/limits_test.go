package recipes

import (
	"context"
	"strings"
	"testing"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// TestTextLimitsBeforeMealie: overlong text and slugs with control
// characters are InvalidArgument naming the field, without quoting the
// value and before any request to Mealie, so a direct Connect client is held
// to the same caps as mcpfront's schemas.
func TestTextLimitsBeforeMealie(t *testing.T) {
	s, f := newService(t)
	long := strings.Repeat("a", MaxTextChars+1)
	name := strings.Repeat("n", MaxTaxonomyNameChars+1)
	ctx := context.Background()
	for _, tt := range []struct {
		field string
		call  func() error
	}{
		{"slug", func() error {
			_, err := s.GetRecipe(ctx, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "a\x00b"}))
			return err
		}},
		{"slug", func() error {
			_, err := s.MarkRecipeMade(ctx, connect.NewRequest(&recipesv1.MarkRecipeMadeRequest{Slug: "a\nb"}))
			return err
		}},
		{"slug", func() error {
			_, err := s.DeleteRecipe(ctx, connect.NewRequest(&recipesv1.DeleteRecipeRequest{Slug: strings.Repeat("s", MaxSlugChars+1)}))
			return err
		}},
		{"slugs[1]", func() error {
			_, err := s.BulkTagRecipes(ctx, connect.NewRequest(&recipesv1.BulkTagRecipesRequest{Slugs: []string{"ok", "a\tb"}, Tags: []string{"x"}}))
			return err
		}},
		{"description", func() error {
			_, err := s.CreateRecipe(ctx, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: "x", Description: long}))
			return err
		}},
		{"prep_time", func() error {
			_, err := s.CreateRecipe(ctx, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: "x", PrepTime: long}))
			return err
		}},
		{"tags[0]", func() error {
			_, err := s.CreateRecipe(ctx, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: "x", Tags: []string{name}}))
			return err
		}},
		{"notes[0].text", func() error {
			_, err := s.CreateRecipe(ctx, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: "x", Notes: []*recipesv1.Note{{Text: long}}}))
			return err
		}},
		{"description", func() error {
			d := long
			_, err := s.UpdateRecipe(ctx, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "x", Description: &d}))
			return err
		}},
		{"categories[0]", func() error {
			_, err := s.SearchRecipes(ctx, connect.NewRequest(&recipesv1.SearchRecipesRequest{Categories: []string{name}}))
			return err
		}},
		{"foods[0]", func() error {
			_, err := s.SuggestRecipes(ctx, connect.NewRequest(&recipesv1.SuggestRecipesRequest{Foods: []string{name}}))
			return err
		}},
	} {
		t.Run(tt.field, func(t *testing.T) {
			before := len(f.requests())
			err := tt.call()
			if connect.CodeOf(err) != connect.CodeInvalidArgument {
				t.Fatalf("got %v, want InvalidArgument", err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.field) || len(msg) > 300 {
				t.Errorf("message does not name %s or quotes the value: %.300s", tt.field, msg)
			}
			if n := len(f.requests()); n != before {
				t.Errorf("%d requests reached Mealie", n-before)
			}
		})
	}
}
