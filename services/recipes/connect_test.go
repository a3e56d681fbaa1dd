// Package recipes_test drives sous.recipes.v1 over Connect against the Mealie
// emulator, on every emulated Mealie version.
package recipes_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/recipes"
)

// versions are the emulator profiles every flow runs on: each version, and
// 2.8 and 3.20 on PostgreSQL, whose search is not SQLite's.
var versions = []string{"2.0", "2.8", "3.11", "3.20", "2.8-pg", "3.20-pg"}

// testTimeout bounds each test's calls.
const testTimeout = 30 * time.Second

type stack struct {
	mealie *mealieemu.Server
	client recipesv1connect.RecipesServiceClient
}

func newStack(t *testing.T, version string, opts ...mealieemu.Option) *stack {
	t.Helper()
	m := mealietest.NewServer(t, append([]mealieemu.Option{mealieemu.WithVersion(version)}, opts...)...)
	svc, err := recipes.New(recipes.Config{MealieURL: m.URL, MealieToken: m.Token, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	path, h := svc.Handler()
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	st := &stack{mealie: m, client: recipesv1connect.NewRecipesServiceClient(srv.Client(), srv.URL)}
	t.Cleanup(func() { st.noWriteTwice(t) })
	return st
}

// noWriteTwice fails when Mealie saw one write (method, path, body) twice:
// it has no idempotency key, so a repeated write duplicates data.
func (s *stack) noWriteTwice(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range s.mealie.Requests() {
		if r.Method == http.MethodGet || r.Path == "/api/parser/ingredients" {
			continue
		}
		key := r.Method + " " + r.Path + "?" + r.RawQuery + " " + string(r.Body)
		if seen[key] {
			t.Errorf("write sent twice: %s", key)
		}
		seen[key] = true
	}
}

func (s *stack) writes() []string {
	var out []string
	for _, r := range s.mealie.Requests() {
		if r.Method != http.MethodGet && r.Path != "/api/parser/ingredients" {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return c
}

func each(t *testing.T, fn func(t *testing.T, version string)) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) { fn(t, v) })
	}
}

func TestStatusSearchGet(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		c := ctx(t)
		st, err := s.client.GetStatus(c, connect.NewRequest(&recipesv1.GetStatusRequest{}))
		if err != nil || st.Msg.MealieVersion == "" || st.Msg.User == "" {
			t.Fatalf("GetStatus = %v, %v", st, err)
		}
		res, err := s.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Query: "pancakes", Fields: []string{"name", "last_made"}}))
		if err != nil || len(res.Msg.Items) == 0 || res.Msg.Items[0].Slug != "pancakes" || res.Msg.Items[0].LastMade == "" {
			t.Fatalf("SearchRecipes = %v, %v", res, err)
		}
		tagged, err := s.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Tags: []string{"spicy"}, Limit: proto.Int32(100)}))
		if err != nil || tagged.Msg.Total == 0 || int(tagged.Msg.Total) >= 24 {
			t.Fatalf("tag filter = %v, %v", tagged, err)
		}
		// Listed by name A to Z: Mealie orders by name descending unless
		// told otherwise.
		all, err := s.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Limit: proto.Int32(100)}))
		if err != nil || len(all.Msg.Items) < 3 {
			t.Fatalf("list all = %v, %v", all, err)
		}
		names := make([]string, 0, len(all.Msg.Items))
		for _, it := range all.Msg.Items {
			names = append(names, strings.ToLower(it.GetName()))
		}
		if !slices.IsSorted(names) {
			t.Errorf("search lists recipes out of A to Z order: %q", names)
		}
		// An unknown tag is refused with the closest: Mealie would drop
		// the filter and list everything.
		none, err := s.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Tags: []string{"no such tag"}}))
		if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), `no tag is called "no such tag"`) {
			t.Fatalf("unknown tag = %v, %v", none, err)
		}
		got, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "weeknight-chili"}))
		if err != nil || got.Msg.Recipe.Name != "Weeknight Chili" || len(got.Msg.Recipe.Ingredients) != 9 || len(got.Msg.Recipe.Notes) != 1 {
			t.Fatalf("GetRecipe = %v, %v", got, err)
		}
		full, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "weeknight-chili", Full: true}))
		if err != nil || full.Msg.Raw.GetFields()["slug"].GetStringValue() != "weeknight-chili" {
			t.Fatalf("GetRecipe full = %v, %v", full, err)
		}
		if _, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "no-such"})); connect.CodeOf(err) != connect.CodeNotFound || !strings.Contains(err.Error(), "recipe 'no-such' not found") {
			t.Fatalf("unknown slug: %v", err)
		}
	})
}

func TestUpdateAddsTagAndKeepsOthers(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		c := ctx(t)
		before, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "pancakes"}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "pancakes", Tags: []string{"Brunch"}}))
		if err != nil || !slices.Equal(res.Msg.Created.GetTags(), []string{"Brunch"}) {
			t.Fatalf("UpdateRecipe = %v, %v", res, err)
		}
		after, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "pancakes"}))
		if err != nil {
			t.Fatal(err)
		}
		want := append(slices.Clone(before.Msg.Recipe.Tags), "Brunch")
		if !slices.Equal(after.Msg.Recipe.Tags, want) {
			t.Errorf("tags %q, want %q", after.Msg.Recipe.Tags, want)
		}
	})
}

func TestRenameMovesSlugOnEveryVersion(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		c := ctx(t)
		res, err := s.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "pancakes", Name: proto.String("Fluffy Pancakes"), Description: proto.String("Even fluffier.")}))
		if err != nil || res.Msg.Slug != "fluffy-pancakes" || res.Msg.RenamedFrom != "pancakes" {
			t.Fatalf("rename = %v, %v", res, err)
		}
		if _, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "pancakes"})); connect.CodeOf(err) != connect.CodeNotFound {
			t.Errorf("old slug: %v", err)
		}
		got, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "fluffy-pancakes"}))
		if err != nil || got.Msg.Recipe.Description != "Even fluffier." || len(got.Msg.Recipe.Ingredients) != 7 {
			t.Fatalf("new slug: %v, %v", got, err)
		}
		// The renamed recipe must still take writes.
		if _, err := s.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "fluffy-pancakes", Description: proto.String("again")})); err != nil {
			t.Errorf("write after rename: %v", err)
		}
	})
}

func TestCreateRecipe(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		c := ctx(t)
		res, err := s.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{
			Name: "Garlic Butter Noodles",
			Ingredients: []*recipesv1.IngredientInput{
				{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(3), Unit: "tablespoon", Food: "Butter"}}},
				{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(2), Unit: "clove", Food: "garlic", Note: "minced"}}},
				{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(250), Unit: "gram", Food: "udon-ish noodles"}}},
			},
			Instructions: []string{"Boil the noodles.", "Toss with garlic butter."},
			Tags:         []string{"quick & easy", "Noodles"},
			Tools:        []string{"skillet"},
		}))
		if err != nil {
			t.Fatal(err)
		}
		if res.Msg.Slug != "garlic-butter-noodles" || !slices.Equal(res.Msg.Created.GetTags(), []string{"Noodles"}) || len(res.Msg.Unresolved) != 0 ||
			!slices.Equal(res.Msg.CreatedFoods, []string{"udon-ish noodles"}) {
			t.Errorf("CreateRecipe = %v", res.Msg)
		}
		got, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: res.Msg.Slug}))
		if err != nil {
			t.Fatal(err)
		}
		r := got.Msg.Recipe
		if len(r.Ingredients) != 3 || r.Ingredients[0].Food != "butter" || r.Ingredients[1].Note != "minced" || r.Ingredients[2].Food != "udon-ish noodles" ||
			!slices.Equal(r.Instructions, []string{"Boil the noodles.", "Toss with garlic butter."}) || len(r.Tags) != 2 || !slices.Equal(r.Tools, []string{"Skillet"}) {
			t.Errorf("read back %v", r)
		}
		if w := s.writes(); !slices.Contains(w, "POST /api/recipes") || !slices.Contains(w, "PATCH /api/recipes/garlic-butter-noodles") {
			t.Errorf("writes = %q", w)
		}
	})
}

// TestCreateFailedPatchNamesStubOnEveryVersion makes the follow-up PATCH fail (Mealie
// answers it with a 500) and checks the error names the stub the create
// left behind.
func TestCreateFailedPatchNamesStubOnEveryVersion(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		c := ctx(t)
		s.mealie.SetFaults(mealieemu.FaultRule{Method: http.MethodPatch, PathPrefix: "/api/recipes/stub-stew", Status: http.StatusInternalServerError})
		_, err := s.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: "Stub Stew", Tags: []string{"Spicy"}}))
		if err == nil || !strings.Contains(err.Error(), "stub 'stub-stew'") {
			t.Fatalf("err = %v, want it to name the stub", err)
		}
		var w []string
		for _, x := range s.writes() {
			if strings.Contains(x, "/api/recipes") {
				w = append(w, x)
			}
		}
		if !slices.Equal(w, []string{"POST /api/recipes", "PATCH /api/recipes/stub-stew"}) {
			t.Errorf("writes = %q", w)
		}
	})
}

// breakRecipe sends Mealie the PATCH that 2.0 commits and then cannot read
// back (ingredients without referenceId), so later deletes answer 500.
func breakRecipe(t *testing.T, s *stack, slug string) {
	body, _ := json.Marshal(map[string]any{"recipeIngredient": []any{map[string]any{"note": "1 egg"}}})
	req, _ := http.NewRequest(http.MethodPatch, s.mealie.URL+"/api/recipes/"+slug, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.mealie.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

func TestDeleteFallbackOnEveryVersion(t *testing.T) {
	s := newStack(t, "2.0")
	c := ctx(t)
	breakRecipe(t, s, "tomato-soup")
	s.mealie.ResetRequests()
	res, err := s.client.DeleteRecipe(c, connect.NewRequest(&recipesv1.DeleteRecipeRequest{Slug: "tomato-soup", ConfirmSlug: "tomato-soup"}))
	if err != nil || !res.Msg.UsedBulkFallback {
		t.Fatalf("DeleteRecipe = %v, %v", res, err)
	}
	if w := s.writes(); !slices.Equal(w, []string{"DELETE /api/recipes/tomato-soup", "POST /api/recipes/bulk-actions/delete"}) {
		t.Errorf("writes = %q", w)
	}
	s.mealie.ResetRequests()
	if _, err := s.client.DeleteRecipe(c, connect.NewRequest(&recipesv1.DeleteRecipeRequest{Slug: "no-such", ConfirmSlug: "no-such"})); connect.CodeOf(err) != connect.CodeNotFound {
		t.Errorf("404 delete: %v", err)
	}
	if w := s.writes(); !slices.Equal(w, []string{"DELETE /api/recipes/no-such"}) {
		t.Errorf("a 404 fell back: %q", w)
	}
	res, err = s.client.DeleteRecipe(c, connect.NewRequest(&recipesv1.DeleteRecipeRequest{Slug: "pancakes", ConfirmSlug: "pancakes"}))
	if err != nil || res.Msg.UsedBulkFallback {
		t.Errorf("plain delete = %v, %v", res, err)
	}
}

func TestBadInputNeverReachesMealie(t *testing.T) {
	s := newStack(t, "2.8")
	c := ctx(t)
	s.mealie.ResetRequests()
	calls := map[string]func() error{
		"empty slug": func() error {
			_, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{}))
			return err
		},
		"limit 0": func() error {
			_, err := s.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Limit: proto.Int32(0)}))
			return err
		},
		"limit 10000": func() error {
			_, err := s.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Limit: proto.Int32(10000)}))
			return err
		},
		"unknown resource": func() error {
			_, err := s.client.ListTaxonomy(c, connect.NewRequest(&recipesv1.ListTaxonomyRequest{Resource: 42}))
			return err
		},
		"merge tags": func() error {
			_, err := s.client.MergeTaxonomy(c, connect.NewRequest(&recipesv1.MergeTaxonomyRequest{Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TAGS}))
			return err
		},
		"non-image upload": func() error {
			_, err := s.client.UploadRecipeImage(c, connect.NewRequest(&recipesv1.UploadRecipeImageRequest{Slug: "pancakes", Image: []byte("%PDF-1.4"), Extension: "png"}))
			return err
		},
		"malformed url": func() error {
			_, err := s.client.ImportRecipeFromURL(c, connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{Url: "not a url"}))
			return err
		},
	}
	for name, call := range calls {
		if err := call(); connect.CodeOf(err) != connect.CodeInvalidArgument {
			t.Errorf("%s: %v", name, err)
		}
	}
	if reqs := s.mealie.Requests(); len(reqs) != 0 {
		t.Errorf("bad input reached Mealie: %d requests", len(reqs))
	}
}

func TestSweepAndResolve(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		c := ctx(t)
		for _, view := range []recipesv1.RecipeView{recipesv1.RecipeView_RECIPE_VIEW_SUMMARY, recipesv1.RecipeView_RECIPE_VIEW_DETAIL} {
			stream, err := s.client.SweepRecipes(c, connect.NewRequest(&recipesv1.SweepRecipesRequest{MaxRecipes: 10, View: view}))
			if err != nil {
				t.Fatal(err)
			}
			var first *recipesv1.SweepProgress
			n, ingredients := 0, 0
			for stream.Receive() {
				switch it := stream.Msg().Item.(type) {
				case *recipesv1.SweepRecipesResponse_Progress:
					if first == nil {
						first = it.Progress
					}
				case *recipesv1.SweepRecipesResponse_Recipe:
					n++
					ingredients += len(it.Recipe.Ingredients)
				case *recipesv1.SweepRecipesResponse_Failure:
					t.Errorf("failure %v", it.Failure)
				}
			}
			if err := stream.Err(); err != nil {
				t.Fatal(err)
			}
			if first == nil || first.Total != 10 || first.LibraryTotal != 24 || n != 10 {
				t.Errorf("%v: first progress %v, %d recipes", view, first, n)
			}
			if (view == recipesv1.RecipeView_RECIPE_VIEW_DETAIL) != (ingredients > 0) {
				t.Errorf("%v: %d ingredients", view, ingredients)
			}
		}
		res, err := s.client.ResolveRecipeSlugs(c, connect.NewRequest(&recipesv1.ResolveRecipeSlugsRequest{Slugs: []string{"pancakes", "ghost", "pancakes"}}))
		if err != nil || len(res.Msg.Recipes) != 2 || res.Msg.Recipes[0].Id == "" || !slices.Equal(res.Msg.NotFound, []string{"ghost"}) {
			t.Fatalf("Resolve = %v, %v", res, err)
		}
	})
}

func TestSuggest(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		res, err := s.client.SuggestRecipes(ctx(t), connect.NewRequest(&recipesv1.SuggestRecipesRequest{
			Foods: []string{"all-purpose flour", "sugar", "baking powder", "salt", "milk", "egg", "butter", "moon cheese"}, Tools: []string{"Skillet"},
			MaxMissingFoods: proto.Int32(0),
		}))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Msg
		if (m.Note != "") != (v == "2.0") {
			t.Errorf("note %q on %s", m.Note, v)
		}
		if !slices.Equal(m.UnknownFoods, []string{"moon cheese"}) || len(m.Items) == 0 || m.Items[0].Recipe.Slug != "pancakes" {
			t.Errorf("SuggestRecipes = %v", m)
		}
	})
}

func TestParseAndTaxonomy(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v)
		c := ctx(t)
		parsed, err := s.client.ParseIngredients(c, connect.NewRequest(&recipesv1.ParseIngredientsRequest{Lines: []string{"2 cups all-purpose flour"}, Parser: recipesv1.Parser_PARSER_BRUTE}))
		if err != nil || len(parsed.Msg.Items) != 1 || parsed.Msg.Items[0].Ingredient.GetQuantity() != 2 {
			t.Fatalf("Parse = %v, %v", parsed, err)
		}
		foods := recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS
		list, err := s.client.ListTaxonomy(c, connect.NewRequest(&recipesv1.ListTaxonomyRequest{Resource: foods, Search: "garlic"}))
		if err != nil || len(list.Msg.Items) == 0 {
			t.Fatalf("List = %v, %v", list, err)
		}
		created, err := s.client.CreateTaxonomy(c, connect.NewRequest(&recipesv1.CreateTaxonomyRequest{Resource: foods, Items: []*recipesv1.TaxonomyWrite{
			{Name: proto.String("garlic scape"), PluralName: proto.String("garlic scapes")}, {}, {Name: proto.String("ramp")},
		}}))
		if err != nil || len(created.Msg.Items) != 2 || len(created.Msg.Errors) != 1 || created.Msg.Errors[0].Index != 1 {
			t.Fatalf("Create = %v, %v", created, err)
		}
		scape, ramp := created.Msg.Items[0], created.Msg.Items[1]
		upd, err := s.client.UpdateTaxonomy(c, connect.NewRequest(&recipesv1.UpdateTaxonomyRequest{Resource: foods, Items: []*recipesv1.TaxonomyWrite{{Id: scape.Id, Description: proto.String("curly")}}}))
		if err != nil || len(upd.Msg.Items) != 1 || upd.Msg.Items[0].PluralName != "garlic scapes" || upd.Msg.Items[0].Description != "curly" {
			t.Fatalf("Update = %v, %v", upd, err)
		}
		merged, err := s.client.MergeTaxonomy(c, connect.NewRequest(&recipesv1.MergeTaxonomyRequest{Resource: foods, FromIds: []string{ramp.Id}, IntoId: scape.Id}))
		if err != nil || !slices.Equal(merged.Msg.Merged, []string{ramp.Id}) {
			t.Fatalf("Merge = %v, %v", merged, err)
		}
		if _, err := s.client.MergeTaxonomy(c, connect.NewRequest(&recipesv1.MergeTaxonomyRequest{Resource: foods, FromIds: []string{scape.Id}, IntoId: scape.Id})); connect.CodeOf(err) != connect.CodeInvalidArgument {
			t.Errorf("merge into itself: %v", err)
		}
		garlic := list.Msg.Items[0]
		del, err := s.client.DeleteTaxonomy(c, connect.NewRequest(&recipesv1.DeleteTaxonomyRequest{Resource: foods, Ids: []string{garlic.Id, scape.Id}}))
		if err != nil || !slices.Equal(del.Msg.Deleted, []string{scape.Id}) || len(del.Msg.Errors) != 1 || !strings.Contains(del.Msg.Errors[0].Message, "merge") {
			t.Fatalf("Delete = %v, %v", del, err)
		}
	})
}

func TestImagesBulkImportMarkMade(t *testing.T) {
	page := `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Lemon Bars","recipeIngredient":["1 cup flour","2 lemons"],"recipeInstructions":[{"@type":"HowToStep","text":"Bake."}]}</script></head></html>`
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v, mealieemu.WithWebPage("https://recipes.example.net/lemon-bars", page))
		c := ctx(t)
		png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
		s.mealie.ServeImageAt("https://images.example.net/p.png", png)
		if _, err := s.client.SetRecipeImageFromURL(c, connect.NewRequest(&recipesv1.SetRecipeImageFromURLRequest{Slug: "pancakes", Url: "https://images.example.net/p.png"})); err != nil {
			t.Errorf("SetRecipeImageFromURL: %v", err)
		}
		if _, err := s.client.UploadRecipeImage(c, connect.NewRequest(&recipesv1.UploadRecipeImageRequest{Slug: "pancakes", Image: png, Extension: "png"})); err != nil {
			t.Errorf("UploadRecipeImage: %v", err)
		}
		bulk, err := s.client.BulkTagRecipes(c, connect.NewRequest(&recipesv1.BulkTagRecipesRequest{Slugs: []string{"pancakes", "tomato-soup", "ghost"}, Tags: []string{"Weekend"}}))
		if err != nil || len(bulk.Msg.Slugs) != 2 || !slices.Equal(bulk.Msg.NotFound, []string{"ghost"}) {
			t.Errorf("BulkTagRecipes = %v, %v", bulk, err)
		}
		soup, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "tomato-soup", Fields: []string{"tags"}}))
		if err != nil || !slices.Contains(soup.Msg.Recipe.Tags, "Weekend") || len(soup.Msg.Recipe.Tags) < 2 {
			t.Errorf("after bulk tag: %v, %v", soup, err)
		}
		imp, err := s.client.ImportRecipeFromURL(c, connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{Url: "https://recipes.example.net/lemon-bars"}))
		if err != nil || imp.Msg.Slug == "" || imp.Msg.ScrapeFailed {
			t.Errorf("ImportRecipeFromURL = %v, %v", imp, err)
		}
		made, err := s.client.MarkRecipeMade(c, connect.NewRequest(&recipesv1.MarkRecipeMadeRequest{Slug: "pancakes", Note: "kids loved it"}))
		if err != nil || made.Msg.EventId == "" || made.Msg.Date != time.Now().Format(time.DateOnly) {
			t.Fatalf("MarkRecipeMade = %v, %v", made, err)
		}
		got, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "pancakes", Fields: []string{"last_made"}}))
		if err != nil || got.Msg.Recipe.LastMade != time.Now().UTC().Format(time.DateOnly) {
			t.Errorf("last made = %v, %v", got, err)
		}
	})
}
