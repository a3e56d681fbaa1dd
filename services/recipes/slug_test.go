package recipes

import (
	"context"
	"strings"
	"testing"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// TestDotSlugsNeverReachMealie: "." and ".." (padded too) are refused with
// InvalidArgument by every RPC that takes a slug, before any request:
// url.PathEscape keeps dots, so "/api/recipes/.." is a dot-segment that a
// proxy or Mealie may resolve to another path, and a DELETE or PUT would
// land there.
func TestDotSlugsNeverReachMealie(t *testing.T) {
	s, f := newService(t)
	ctx := context.Background()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	rpcs := []struct {
		name, field string
		call        func(slug string) error
	}{
		{"GetRecipe", "slug", func(v string) error {
			_, err := s.GetRecipe(ctx, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: v}))
			return err
		}},
		{"CreateRecipe", "from_slug", func(v string) error {
			_, err := s.CreateRecipe(ctx, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: "Copy", FromSlug: v}))
			return err
		}},
		{"UpdateRecipe", "slug", func(v string) error {
			d := "new"
			_, err := s.UpdateRecipe(ctx, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: v, Description: &d}))
			return err
		}},
		{"SetRecipeImageFromURL", "slug", func(v string) error {
			_, err := s.SetRecipeImageFromURL(ctx, connect.NewRequest(&recipesv1.SetRecipeImageFromURLRequest{Slug: v, Url: "https://example.com/soup.png"}))
			return err
		}},
		{"UploadRecipeImage", "slug", func(v string) error {
			_, err := s.UploadRecipeImage(ctx, connect.NewRequest(&recipesv1.UploadRecipeImageRequest{Slug: v, Image: png, Extension: "png"}))
			return err
		}},
		{"BulkTagRecipes", "slugs[1]", func(v string) error {
			_, err := s.BulkTagRecipes(ctx, connect.NewRequest(&recipesv1.BulkTagRecipesRequest{Slugs: []string{"pancakes", v}, Tags: []string{"quick"}}))
			return err
		}},
		{"DeleteRecipe", "slug", func(v string) error {
			_, err := s.DeleteRecipe(ctx, connect.NewRequest(&recipesv1.DeleteRecipeRequest{Slug: v, ConfirmSlug: v}))
			return err
		}},
		{"MarkRecipeMade", "slug", func(v string) error {
			_, err := s.MarkRecipeMade(ctx, connect.NewRequest(&recipesv1.MarkRecipeMadeRequest{Slug: v}))
			return err
		}},
		{"ResolveRecipeSlugs", "slugs[0]", func(v string) error {
			_, err := s.ResolveRecipeSlugs(ctx, connect.NewRequest(&recipesv1.ResolveRecipeSlugsRequest{Slugs: []string{v}}))
			return err
		}},
	}
	for _, r := range rpcs {
		for _, slug := range []string{".", "..", " .. "} {
			t.Run(r.name+"/"+strings.TrimSpace(slug), func(t *testing.T) {
				before := len(f.requests())
				err := r.call(slug)
				if connect.CodeOf(err) != connect.CodeInvalidArgument {
					t.Fatalf("got %v, want InvalidArgument", err)
				}
				if msg := err.Error(); !strings.Contains(msg, r.field) || !strings.Contains(msg, "is not a slug") {
					t.Errorf("message %q does not refuse %s as a slug", msg, r.field)
				}
				if got := f.requests()[before:]; len(got) != 0 {
					t.Errorf("Mealie was asked %v", got)
				}
			})
		}
	}
}

// TestCheckSlugKeepsDottedSlugs: only the dot segments themselves are
// refused; a slug with dots inside is a path segment like any other.
func TestCheckSlugKeepsDottedSlugs(t *testing.T) {
	for _, v := range []string{"pad-thai", "v1.2-soup", "...", ".hidden", "a..b"} {
		if got, err := checkSlug("slug", v); err != nil || got != v {
			t.Errorf("checkSlug(%q) = %q, %v", v, got, err)
		}
	}
}
