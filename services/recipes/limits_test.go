package recipes

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
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

// TestBoundsBeforeMealie: each bound in proto/limits that mcpfront's tool
// schemas also carry is refused by the service itself, with the sentence
// naming the argument, what was given and what is expected, before any
// request to Mealie; a value at the bound gets through to Mealie.
func TestBoundsBeforeMealie(t *testing.T) {
	s, f := newService(t)
	ctx := context.Background()
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("n%d", i)
		}
		return out
	}
	url := func(n int) string { return "https://example.com/" + strings.Repeat("u", n-len("https://example.com/")) }
	rating := func(r float64) *float64 { return &r }
	foods := recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS
	for _, tt := range []struct {
		name string
		// call sends the request with the bounded value at n.
		call func(n int) error
		// bound is the largest n accepted; want is the refusal of bound+1.
		bound int
		want  string
	}{
		{"search query", func(n int) error {
			_, err := s.SearchRecipes(ctx, connect.NewRequest(&recipesv1.SearchRecipesRequest{Query: strings.Repeat("q", n)}))
			return err
		}, limits.SearchQueryChars, fmt.Sprintf("query: at most %d characters, got %d", limits.SearchQueryChars, limits.SearchQueryChars+1)},
		{"search tags", func(n int) error {
			_, err := s.SearchRecipes(ctx, connect.NewRequest(&recipesv1.SearchRecipesRequest{Tags: names(n)}))
			return err
		}, limits.TaxonomyNames, fmt.Sprintf("tags: at most %d names, got %d", limits.TaxonomyNames, limits.TaxonomyNames+1)},
		{"search foods", func(n int) error {
			_, err := s.SearchRecipes(ctx, connect.NewRequest(&recipesv1.SearchRecipesRequest{Foods: names(n)}))
			return err
		}, limits.TaxonomyNames, fmt.Sprintf("foods: at most %d names, got %d", limits.TaxonomyNames, limits.TaxonomyNames+1)},
		{"suggest foods", func(n int) error {
			_, err := s.SuggestRecipes(ctx, connect.NewRequest(&recipesv1.SuggestRecipesRequest{Foods: names(n)}))
			return err
		}, limits.SuggestFoods, fmt.Sprintf("foods: at most %d names, got %d", limits.SuggestFoods, limits.SuggestFoods+1)},
		{"suggest tools", func(n int) error {
			_, err := s.SuggestRecipes(ctx, connect.NewRequest(&recipesv1.SuggestRecipesRequest{Tools: names(n)}))
			return err
		}, limits.SuggestTools, fmt.Sprintf("tools: at most %d names, got %d", limits.SuggestTools, limits.SuggestTools+1)},
		{"bulk tags", func(n int) error {
			_, err := s.BulkTagRecipes(ctx, connect.NewRequest(&recipesv1.BulkTagRecipesRequest{Slugs: []string{"x"}, Tags: names(n)}))
			return err
		}, limits.TaxonomyNames, fmt.Sprintf("tags: at most %d names, got %d", limits.TaxonomyNames, limits.TaxonomyNames+1)},
		{"bulk categories", func(n int) error {
			_, err := s.BulkTagRecipes(ctx, connect.NewRequest(&recipesv1.BulkTagRecipesRequest{Slugs: []string{"x"}, Categories: names(n)}))
			return err
		}, limits.TaxonomyNames, fmt.Sprintf("categories: at most %d names, got %d", limits.TaxonomyNames, limits.TaxonomyNames+1)},
		{"image url", func(n int) error {
			_, err := s.SetRecipeImageFromURL(ctx, connect.NewRequest(&recipesv1.SetRecipeImageFromURLRequest{Slug: "x", Url: url(n)}))
			return err
		}, limits.URLChars, fmt.Sprintf("url: at most %d characters, got %d", limits.URLChars, limits.URLChars+1)},
		{"import url", func(n int) error {
			_, err := s.ImportRecipeFromURL(ctx, connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{Url: url(n)}))
			return err
		}, limits.URLChars, fmt.Sprintf("url: at most %d characters, got %d", limits.URLChars, limits.URLChars+1)},
		{"made note", func(n int) error {
			_, err := s.MarkRecipeMade(ctx, connect.NewRequest(&recipesv1.MarkRecipeMadeRequest{Slug: "x", Note: strings.Repeat("m", n)}))
			return err
		}, limits.MadeNoteChars, fmt.Sprintf("note: at most %d characters, got %d", limits.MadeNoteChars, limits.MadeNoteChars+1)},
		{"made rating", func(n int) error {
			_, err := s.MarkRecipeMade(ctx, connect.NewRequest(&recipesv1.MarkRecipeMadeRequest{Slug: "x", Rating: rating(float64(n))}))
			return err
		}, limits.MaxRecipeRating, fmt.Sprintf("rating must be between %d and %d, got %d", limits.MinRecipeRating, limits.MaxRecipeRating, limits.MaxRecipeRating+1)},
		{"update rating", func(n int) error {
			_, err := s.UpdateRecipe(ctx, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "x", Rating: rating(float64(n))}))
			return err
		}, limits.MaxRecipeRating, fmt.Sprintf("rating must be between %d and %d, got %d", limits.MinRecipeRating, limits.MaxRecipeRating, limits.MaxRecipeRating+1)},
		{"update confirm", func(n int) error {
			_, err := s.UpdateRecipe(ctx, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "x", Description: ptrStr("d"), Confirm: strings.Repeat("c", n)}))
			return err
		}, limits.ConfirmChars, fmt.Sprintf("confirm: at most %d characters, got %d", limits.ConfirmChars, limits.ConfirmChars+1)},
		{"taxonomy search", func(n int) error {
			_, err := s.ListTaxonomy(ctx, connect.NewRequest(&recipesv1.ListTaxonomyRequest{Resource: foods, Search: strings.Repeat("s", n)}))
			return err
		}, limits.TaxonomyNameChars, fmt.Sprintf("search: at most %d characters, got %d", limits.TaxonomyNameChars, limits.TaxonomyNameChars+1)},
		{"merge into_id", func(n int) error {
			_, err := s.MergeTaxonomy(ctx, connect.NewRequest(&recipesv1.MergeTaxonomyRequest{Resource: foods, FromIds: []string{"a"}, IntoId: strings.Repeat("i", n)}))
			return err
		}, limits.TaxonomyRefChars, fmt.Sprintf("into_id: at most %d characters, got %d", limits.TaxonomyRefChars, limits.TaxonomyRefChars+1)},
		{"merge from_ids", func(n int) error {
			_, err := s.MergeTaxonomy(ctx, connect.NewRequest(&recipesv1.MergeTaxonomyRequest{Resource: foods, FromIds: []string{"a", strings.Repeat("f", n)}, IntoId: "b"}))
			return err
		}, limits.TaxonomyRefChars, fmt.Sprintf("from_ids[1]: at most %d characters, got %d", limits.TaxonomyRefChars, limits.TaxonomyRefChars+1)},
		{"delete ids", func(n int) error {
			_, err := s.DeleteTaxonomy(ctx, connect.NewRequest(&recipesv1.DeleteTaxonomyRequest{Resource: foods, Ids: []string{strings.Repeat("d", n)}}))
			return err
		}, limits.TaxonomyRefChars, fmt.Sprintf("ids[0]: at most %d characters, got %d", limits.TaxonomyRefChars, limits.TaxonomyRefChars+1)},
		{"update items id", func(n int) error {
			_, err := s.UpdateTaxonomy(ctx, connect.NewRequest(&recipesv1.UpdateTaxonomyRequest{Resource: foods, Items: []*recipesv1.TaxonomyWrite{{Id: strings.Repeat("u", n)}}}))
			return err
		}, limits.TaxonomyRefChars, fmt.Sprintf("items[0].id: at most %d characters, got %d", limits.TaxonomyRefChars, limits.TaxonomyRefChars+1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := len(f.requests())
			err := tt.call(tt.bound + 1)
			if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("over the bound: got %v, want InvalidArgument saying %q", err, tt.want)
			}
			if n := len(f.requests()); n != before {
				t.Errorf("over the bound: %d requests reached Mealie", n-before)
			}
			err = tt.call(tt.bound)
			if err != nil && (strings.Contains(err.Error(), "at most") || strings.Contains(err.Error(), "must be between")) {
				t.Errorf("at the bound: refused with %v", err)
			}
			if n := len(f.requests()); n == before {
				t.Errorf("at the bound: nothing reached Mealie (%v)", err)
			}
		})
	}
}
