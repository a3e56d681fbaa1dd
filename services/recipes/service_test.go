package recipes

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

const pancakes = "fixture-pancakes"

func newService(t testing.TB) (*Service, *fakeMealie) {
	t.Helper()
	f := newFake(t)
	s, err := New(Config{MealieURL: f.srv.URL, MealieToken: "tok", Backoff: 1})
	if err != nil {
		t.Fatal(err)
	}
	return s, f
}

func req[T any](m *T) *connect.Request[T] { return connect.NewRequest(m) }

// noWriteTwice fails when one write (method, path, body) was sent twice:
// Mealie has no idempotency key, so a repeated write duplicates data.
func noWriteTwice(t *testing.T, f *fakeMealie) {
	t.Helper()
	seen := map[logged]bool{}
	for _, l := range f.requests() {
		if l.Method == http.MethodGet || l.Path == "/api/parser/ingredients" {
			continue
		}
		if seen[l] {
			t.Errorf("write sent twice: %s %s %s", l.Method, l.Path, l.Body)
		}
		seen[l] = true
	}
}

func codeOf(err error) connect.Code { return connect.CodeOf(err) }

func TestBadInputSendsNoRequest(t *testing.T) {
	s, f := newService(t)
	ctx := context.Background()
	str := proto.String
	tests := []struct {
		name string
		call func() error
	}{
		{"get empty slug", func() error { _, err := s.GetRecipe(ctx, req(&recipesv1.GetRecipeRequest{})); return err }},
		{"get unknown field", func() error {
			_, err := s.GetRecipe(ctx, req(&recipesv1.GetRecipeRequest{Slug: "x", Fields: []string{"nope"}}))
			return err
		}},
		{"search limit 0", func() error {
			_, err := s.SearchRecipes(ctx, req(&recipesv1.SearchRecipesRequest{Limit: proto.Int32(0)}))
			return err
		}},
		{"search limit 10000", func() error {
			_, err := s.SearchRecipes(ctx, req(&recipesv1.SearchRecipesRequest{Limit: proto.Int32(10000)}))
			return err
		}},
		{"search ingredients field", func() error {
			_, err := s.SearchRecipes(ctx, req(&recipesv1.SearchRecipesRequest{Fields: []string{"ingredients"}}))
			return err
		}},
		{"create without name", func() error {
			_, err := s.CreateRecipe(ctx, req(&recipesv1.CreateRecipeRequest{Name: " "}))
			return err
		}},
		{"create bad source url", func() error {
			_, err := s.CreateRecipe(ctx, req(&recipesv1.CreateRecipeRequest{Name: "x", SourceUrl: "not a url"}))
			return err
		}},
		{"create empty ingredient", func() error {
			_, err := s.CreateRecipe(ctx, req(&recipesv1.CreateRecipeRequest{Name: "x", Ingredients: []*recipesv1.IngredientInput{{}}}))
			return err
		}},
		{"update empty slug", func() error { _, err := s.UpdateRecipe(ctx, req(&recipesv1.UpdateRecipeRequest{})); return err }},
		{"update rating 9", func() error {
			_, err := s.UpdateRecipe(ctx, req(&recipesv1.UpdateRecipeRequest{Slug: "x", Rating: proto.Float64(9)}))
			return err
		}},
		{"update empty name", func() error {
			_, err := s.UpdateRecipe(ctx, req(&recipesv1.UpdateRecipeRequest{Slug: "x", Name: str(" ")}))
			return err
		}},
		{"image url malformed", func() error {
			_, err := s.SetRecipeImageFromURL(ctx, req(&recipesv1.SetRecipeImageFromURLRequest{Slug: "x", Url: "ftp://x/y.png"}))
			return err
		}},
		{"upload non-image", func() error {
			_, err := s.UploadRecipeImage(ctx, req(&recipesv1.UploadRecipeImageRequest{Slug: "x", Image: []byte("hello, world"), Extension: "png"}))
			return err
		}},
		{"upload bad extension", func() error {
			_, err := s.UploadRecipeImage(ctx, req(&recipesv1.UploadRecipeImageRequest{Slug: "x", Image: pngBytes, Extension: "exe"}))
			return err
		}},
		{"bulk no slugs", func() error {
			_, err := s.BulkTagRecipes(ctx, req(&recipesv1.BulkTagRecipesRequest{Tags: []string{"a"}}))
			return err
		}},
		{"delete mismatch", func() error {
			_, err := s.DeleteRecipe(ctx, req(&recipesv1.DeleteRecipeRequest{Slug: "a", ConfirmSlug: "b"}))
			return err
		}},
		{"import malformed url", func() error {
			_, err := s.ImportRecipeFromURL(ctx, req(&recipesv1.ImportRecipeFromURLRequest{Url: "example.com/recipe"}))
			return err
		}},
		{"mark made bad date", func() error {
			_, err := s.MarkRecipeMade(ctx, req(&recipesv1.MarkRecipeMadeRequest{Slug: "x", Date: "30/11/2026"}))
			return err
		}},
		{"parse no lines", func() error { _, err := s.ParseIngredients(ctx, req(&recipesv1.ParseIngredientsRequest{})); return err }},
		{"parse unknown parser", func() error {
			_, err := s.ParseIngredients(ctx, req(&recipesv1.ParseIngredientsRequest{Lines: []string{"1 egg"}, Parser: 9}))
			return err
		}},
		{"list unknown resource", func() error { _, err := s.ListTaxonomy(ctx, req(&recipesv1.ListTaxonomyRequest{})); return err }},
		{"merge tags", func() error {
			_, err := s.MergeTaxonomy(ctx, req(&recipesv1.MergeTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TAGS}))
			return err
		}},
		{"merge into itself", func() error {
			id := "c20613de-050e-4228-9bb6-ec224754ffc0"
			_, err := s.MergeTaxonomy(ctx, req(&recipesv1.MergeTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS, FromIds: []string{id}, IntoId: id}))
			return err
		}},
		{"delete taxonomy nil uuid", func() error {
			_, err := s.DeleteTaxonomy(ctx, req(&recipesv1.DeleteTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS, Ids: []string{"00000000-0000-0000-0000-000000000000"}}))
			return err
		}},
		{"update taxonomy no items", func() error {
			_, err := s.UpdateTaxonomy(ctx, req(&recipesv1.UpdateTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_UNITS}))
			return err
		}},
		{"suggest nothing on hand", func() error { _, err := s.SuggestRecipes(ctx, req(&recipesv1.SuggestRecipesRequest{})); return err }},
		{"resolve empty", func() error {
			_, err := s.ResolveRecipeSlugs(ctx, req(&recipesv1.ResolveRecipeSlugsRequest{Slugs: []string{""}}))
			return err
		}},
	}
	for _, tc := range tests {
		if err := tc.call(); codeOf(err) != connect.CodeInvalidArgument {
			t.Errorf("%s: got %v, want InvalidArgument", tc.name, err)
		}
	}
	// An enum refusal names the values that work.
	_, err := s.ParseIngredients(ctx, req(&recipesv1.ParseIngredientsRequest{Lines: []string{"1 egg"}, Parser: 9}))
	if err == nil || !strings.Contains(err.Error(), "use PARSER_NLP, PARSER_BRUTE or PARSER_OPENAI") {
		t.Errorf("unknown parser: %v, want the parsers named", err)
	}
	if reqs := f.requests(); len(reqs) != 0 {
		t.Errorf("bad input reached Mealie: %v", reqs)
	}
}

// pngBytes is the smallest header http.DetectContentType reads as PNG.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01")

func TestUploadAndMarkMade(t *testing.T) {
	s, f := newService(t)
	ctx := context.Background()
	if _, err := s.UploadRecipeImage(ctx, req(&recipesv1.UploadRecipeImageRequest{Slug: pancakes, Image: pngBytes, Extension: ".PNG"})); err != nil {
		t.Fatal(err)
	}
	var upload logged
	for _, l := range f.requests() {
		if l.Method == http.MethodPut {
			upload = l
		}
	}
	if !strings.Contains(upload.Body, `name="extension"`) || !strings.Contains(upload.Body, "\r\n\r\npng\r\n") || !strings.Contains(upload.Body, `name="image"`) {
		t.Errorf("multipart body = %q", upload.Body)
	}
	res, err := s.MarkRecipeMade(ctx, req(&recipesv1.MarkRecipeMadeRequest{Slug: pancakes, Date: "2026-01-15", Note: "good"}))
	if err != nil {
		t.Fatal(err)
	}
	ev := f.lastBody(http.MethodPost, "/api/recipes/timeline/events")
	lm := f.lastBody(http.MethodPatch, "/api/recipes/"+pancakes+"/last-made")
	if res.Msg.Date != "2026-01-15" || res.Msg.EventId == "" || ev["recipeId"] != "0b920beb-8d7d-4ef1-864f-9e383541adc2" ||
		ev["eventMessage"] != "good" || !strings.HasPrefix(ev["timestamp"].(string), "2026-01-15") || lm["timestamp"] != ev["timestamp"] {
		t.Errorf("response %v event %v last-made %v", res.Msg, ev, lm)
	}
	noWriteTwice(t, f)
}

// TestSearchUnknownTagIsRefused: Mealie drops an unknown tag filter and
// lists every recipe, and "no recipes matched" would say no recipe carries
// a tag that does not exist; the name is refused, before any search, with
// the closest names by meaning, never with a tag that only looks alike.
func TestSearchUnknownTagIsRefused(t *testing.T) {
	s, f := newService(t)
	_, err := s.SearchRecipes(context.Background(), req(&recipesv1.SearchRecipesRequest{Tags: []string{"nonexistent"}}))
	if codeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), `no tag is called "nonexistent" and none comes close`) || strings.Contains(err.Error(), `"Breakfast"`) {
		t.Fatalf("err = %v", err)
	}
	for _, l := range f.requests() {
		if isSearch(l) {
			t.Errorf("an unknown tag reached Mealie's list, which would drop the filter: %v", l)
		}
	}
	res, err := s.SearchRecipes(context.Background(), req(&recipesv1.SearchRecipesRequest{Tags: []string{"BREAKFAST"}, Fields: []string{"tags"}}))
	if err != nil || len(res.Msg.Items) != 1 {
		t.Fatalf("%v, %v", res, err)
	}
	last := f.requests()[len(f.requests())-1]
	if !strings.Contains(last.Query, "tags=breakfast") {
		t.Errorf("query = %s", last.Query)
	}
	if it := res.Msg.Items[0]; it.Slug == "" || it.Name != "" || len(it.Tags) == 0 {
		t.Errorf("projection = %v", it)
	}
}
