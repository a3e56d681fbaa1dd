package recipes

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
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

// TestCreateRecipePayload writes with SOUS_CREATE_FOODS=false: unknown
// foods stay words in the note, as before foods were created.
func TestCreateRecipePayload(t *testing.T) {
	s, f := newService(t)
	s.keepUnknownFoods = true
	res, err := s.CreateRecipe(context.Background(), req(&recipesv1.CreateRecipeRequest{
		Name: "Sunday Pancakes",
		Ingredients: []*recipesv1.IngredientInput{
			{Kind: &recipesv1.IngredientInput_Text{Text: "2 cups flour, sifted"}},
			{Kind: &recipesv1.IngredientInput_Text{Text: "1 1/2 tbsp sugar"}},
			{Kind: &recipesv1.IngredientInput_Text{Text: "salt to taste"}},
			{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(2), Food: "EGGS"}}},
			{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(500), Unit: "g", Food: "dragonfruit"}}},
		},
		Instructions: []string{"Mix.", " ", "Cook."},
		Tags:         []string{"breakfast", "Vegan"},
		Categories:   []string{"Dinner"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	m := res.Msg
	if m.Slug != "sunday-pancakes" || !slices.Equal(m.Created.GetTags(), []string{"Vegan"}) || len(m.Created.GetCategories()) != 0 {
		t.Errorf("response = %v", m)
	}
	if !slices.Equal(m.Unresolved, []string{"sugar", "salt to taste", "g", "dragonfruit"}) {
		t.Errorf("unresolved = %q", m.Unresolved)
	}
	want := []string{"POST /api/parser/ingredients", "POST /api/organizers/tags", "POST /api/recipes", "PATCH /api/recipes/sunday-pancakes"}
	if got := f.writes(); !slices.Equal(got, want) {
		t.Errorf("writes = %q, want %q", got, want)
	}
	body := f.lastBody(http.MethodPatch, "/api/recipes/sunday-pancakes")
	ings := body["recipeIngredient"].([]any)
	type line struct {
		qty  any
		unit any
		food any
		note string
	}
	wantLines := []line{
		{2.0, "cup", "flour", "sifted"},
		{1.5, "tablespoon", nil, "sugar"},
		{nil, nil, nil, "salt to taste"},     // wholly unresolved: the source line, no quantity
		{2.0, nil, "egg", ""},                // plural resolved case-insensitively
		{nil, nil, nil, "500 g dragonfruit"}, // wholly unresolved structured line
	}
	for i, in := range ings {
		l := in.(map[string]any)
		if l["referenceId"] == nil || l["referenceId"] == "" {
			t.Errorf("line %d has no referenceId", i)
		}
		got := line{l["quantity"], nameOf(l["unit"]), nameOf(l["food"]), l["note"].(string)}
		if got != wantLines[i] {
			t.Errorf("line %d = %+v, want %+v", i, got, wantLines[i])
		}
		for _, k := range []string{"unit", "food"} {
			if o, ok := l[k].(map[string]any); ok && (o["id"] == nil || len(o) != 2) {
				t.Errorf("line %d %s = %v, want {id,name}", i, k, o)
			}
		}
	}
	stepsOut := body["recipeInstructions"].([]any)
	if len(stepsOut) != 2 {
		t.Fatalf("steps = %v", stepsOut)
	}
	for _, st := range stepsOut {
		if refs, ok := st.(map[string]any)["ingredientReferences"].([]any); !ok || refs == nil {
			t.Errorf("step without ingredientReferences: %v", st)
		}
	}
	tags := body["tags"].([]any)
	if len(tags) != 2 || tags[0].(map[string]any)["name"] != "Breakfast" || tags[1].(map[string]any)["id"] == nil {
		t.Errorf("tags = %v", tags)
	}
	noWriteTwice(t, f)
}

func nameOf(v any) any {
	if m, ok := v.(map[string]any); ok {
		return m["name"]
	}
	return nil
}

func TestCreateFailedPatchNamesStub(t *testing.T) {
	s, f := newService(t)
	f.patchStatus = 500
	_, err := s.CreateRecipe(context.Background(), req(&recipesv1.CreateRecipeRequest{Name: "Stubby", Description: "x"}))
	if err == nil || !strings.Contains(err.Error(), "stub 'stubby'") {
		t.Fatalf("err = %v", err)
	}
	if got := f.writes(); !slices.Equal(got, []string{"POST /api/recipes", "PATCH /api/recipes/stubby"}) {
		t.Errorf("writes = %q", got)
	}
}

func TestUpdateMergesOrReplacesTags(t *testing.T) {
	for _, tc := range []struct {
		replace bool
		want    []string
	}{
		{false, []string{"Breakfast", "Quick & Easy", "vegan"}},
		{true, []string{"vegan"}},
	} {
		s, f := newService(t)
		res, err := s.UpdateRecipe(context.Background(), req(&recipesv1.UpdateRecipeRequest{Slug: pancakes, Tags: []string{"vegan"}, ReplaceTags: tc.replace}))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tg := range f.lastBody(http.MethodPatch, "/api/recipes/"+pancakes)["tags"].([]any) {
			names = append(names, tg.(map[string]any)["name"].(string))
		}
		if !slices.Equal(names, tc.want) || res.Msg.Slug != pancakes || res.Msg.RenamedFrom != "" {
			t.Errorf("replace=%v: tags %q, response %v", tc.replace, names, res.Msg)
		}
		got, err := s.GetRecipe(context.Background(), req(&recipesv1.GetRecipeRequest{Slug: pancakes}))
		if err != nil || !slices.Equal(got.Msg.Recipe.Tags, tc.want) {
			t.Errorf("read back %v, %v", got, err)
		}
		noWriteTwice(t, f)
	}
}

func TestRenameMovesSlug(t *testing.T) {
	s, f := newService(t)
	ctx := context.Background()
	res, err := s.UpdateRecipe(ctx, req(&recipesv1.UpdateRecipeRequest{Slug: pancakes, Name: proto.String("Fluffy Pancakes"), Description: proto.String("new")}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Msg.Slug != "fluffy-pancakes" || res.Msg.RenamedFrom != pancakes {
		t.Errorf("response = %v", res.Msg)
	}
	if got := f.writes(); !slices.Equal(got, []string{"PUT /api/recipes/" + pancakes}) {
		t.Errorf("writes = %q", got)
	}
	put := f.lastBody(http.MethodPut, "/api/recipes/"+pancakes)
	if put["description"] != "new" || put["name"] != "Fluffy Pancakes" {
		t.Errorf("PUT body = %v", put)
	}
	if _, err := s.GetRecipe(ctx, req(&recipesv1.GetRecipeRequest{Slug: pancakes})); codeOf(err) != connect.CodeNotFound {
		t.Errorf("old slug: %v", err)
	}
	if got, err := s.GetRecipe(ctx, req(&recipesv1.GetRecipeRequest{Slug: "fluffy-pancakes"})); err != nil || got.Msg.Recipe.Name != "Fluffy Pancakes" {
		t.Errorf("new slug: %v, %v", got, err)
	}
}

func TestRenameThatDidNotMoveIsAnError(t *testing.T) {
	s, f := newService(t)
	f.putKeepsSlug = true
	_, err := s.UpdateRecipe(context.Background(), req(&recipesv1.UpdateRecipeRequest{Slug: pancakes, Name: proto.String("Fluffy Pancakes")}))
	if err == nil || !strings.Contains(err.Error(), "'fluffy-pancakes'") || !strings.Contains(err.Error(), "'"+pancakes+"'") {
		t.Fatalf("err = %v", err)
	}
}

// TestRenameUnverifiedSaysWhereItIs checks that a rename whose new slug does
// not answer reports where the recipe really is, read back by id, and never
// claims it may still be at the old slug when it is not.
func TestRenameUnverifiedSaysWhereItIs(t *testing.T) {
	empty, other := "", "somewhere-else"
	tests := []struct {
		name   string
		setup  func(f *fakeMealie)
		want   string
		banned string
	}{
		{"kept old slug", func(f *fakeMealie) { f.putKeepsSlug = true }, "still at '" + pancakes + "'", ""},
		{"stored empty slug", func(f *fakeMealie) { f.putStores = &empty }, "empty slug", "still at"},
		{"stored elsewhere", func(f *fakeMealie) { f.putStores = &other }, "at 'somewhere-else'", "still at"},
		{"lost", func(f *fakeMealie) { f.putDrops = true }, "search for it by name", "still at"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, f := newService(t)
			tc.setup(f)
			_, err := s.UpdateRecipe(context.Background(), req(&recipesv1.UpdateRecipeRequest{Slug: pancakes, Name: proto.String("Fluffy Pancakes")}))
			if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.banned != "" && strings.Contains(err.Error(), tc.banned)) {
				t.Fatalf("err = %v; want it to say %q and not %q", err, tc.want, tc.banned)
			}
			if strings.Contains(err.Error(), "may still be") {
				t.Errorf("err guesses: %v", err)
			}
		})
	}
}

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

func TestDeleteFallback(t *testing.T) {
	tests := []struct {
		status   int
		code     connect.Code
		fallback bool
		writes   []string
	}{
		{0, 0, false, []string{"DELETE /api/recipes/" + pancakes}},
		{500, 0, true, []string{"DELETE /api/recipes/" + pancakes, "POST /api/recipes/bulk-actions/delete"}},
		{404, connect.CodeNotFound, false, []string{"DELETE /api/recipes/" + pancakes}},
	}
	for _, tc := range tests {
		s, f := newService(t)
		f.deleteStatus = tc.status
		res, err := s.DeleteRecipe(context.Background(), req(&recipesv1.DeleteRecipeRequest{Slug: pancakes, ConfirmSlug: pancakes}))
		if tc.code != 0 {
			if codeOf(err) != tc.code {
				t.Errorf("status %d: err %v", tc.status, err)
			}
		} else if err != nil || res.Msg.UsedBulkFallback != tc.fallback {
			t.Errorf("status %d: %v, %v", tc.status, res, err)
		}
		if got := f.writes(); !slices.Equal(got, tc.writes) {
			t.Errorf("status %d: writes %q", tc.status, got)
		}
	}
}

func TestBulkTagSkipsUnknownSlugs(t *testing.T) {
	s, f := newService(t)
	res, err := s.BulkTagRecipes(context.Background(), req(&recipesv1.BulkTagRecipesRequest{Slugs: []string{pancakes, "ghost"}, Tags: []string{"Breakfast"}, Categories: []string{"Brunch"}}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Msg.Slugs, []string{pancakes}) || !slices.Equal(res.Msg.NotFound, []string{"ghost"}) || !slices.Equal(res.Msg.Created.GetCategories(), []string{"Brunch"}) {
		t.Errorf("response = %v", res.Msg)
	}
	body := f.lastBody(http.MethodPost, "/api/recipes/bulk-actions/tag")
	tag := body["tags"].([]any)[0].(map[string]any)
	if tag["id"] == nil || tag["slug"] != "breakfast" || len(body["recipes"].([]any)) != 1 {
		t.Errorf("bulk tag body = %v", body)
	}
	noWriteTwice(t, f)
}

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

func TestSuggestComputesLocallyOn20(t *testing.T) {
	s, f := newService(t)
	res, err := s.SuggestRecipes(context.Background(), req(&recipesv1.SuggestRecipesRequest{Foods: []string{"flour", "Eggs", "unobtainium"}, Tools: []string{"skillet"}}))
	if err != nil {
		t.Fatal(err)
	}
	m := res.Msg
	if m.Note == "" || !slices.Equal(m.UnknownFoods, []string{"unobtainium"}) || len(m.Items) != 1 ||
		m.Items[0].Recipe.Slug != pancakes || !slices.Equal(m.Items[0].MissingFoods, []string{"whole milk"}) || len(m.Items[0].MissingTools) != 0 {
		t.Errorf("response = %v", m)
	}
	if _, err := s.SuggestRecipes(context.Background(), req(&recipesv1.SuggestRecipesRequest{FromPantry: true})); codeOf(err) != connect.CodeFailedPrecondition {
		t.Errorf("from_pantry without a pantry: %v", err)
	}
	// Run by sous itself, the refusal names the settings its user sets.
	inProcess, err := New(Config{MealieURL: f.srv.URL, MealieToken: "tok", Backoff: 1, PantrySetting: "FOOD_API_BASE and FOOD_API_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inProcess.SuggestRecipes(context.Background(), req(&recipesv1.SuggestRecipesRequest{FromPantry: true})); codeOf(err) != connect.CodeFailedPrecondition ||
		!strings.Contains(err.Error(), "set FOOD_API_BASE and FOOD_API_TOKEN") {
		t.Errorf("from_pantry without a pantry, in-process: %v", err)
	}
}

func TestTaxonomyUpdateReadsBeforeWrite(t *testing.T) {
	s, f := newService(t)
	const egg = "48db43cc-7f1f-47d7-ab0a-37c59372b820"
	res, err := s.UpdateTaxonomy(context.Background(), req(&recipesv1.UpdateTaxonomyRequest{
		Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS,
		Items:    []*recipesv1.TaxonomyWrite{{Id: egg, Name: proto.String("hen egg")}, {Id: egg, Color: proto.String("#fff")}},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Msg.Items) != 1 || res.Msg.Items[0].Name != "hen egg" || res.Msg.Items[0].Description != "chicken egg" || len(res.Msg.Errors) != 1 || res.Msg.Errors[0].Index != 1 {
		t.Errorf("response = %v", res.Msg)
	}
	put := f.lastBody(http.MethodPut, "/api/foods/"+egg)
	if put["pluralName"] != "eggs" || put["createdAt"] != nil || put["label"] != nil {
		t.Errorf("PUT body = %v", put)
	}
}

// TestSearchUnknownTagIsRefused: Mealie drops an unknown tag filter and
// lists every recipe, and "no recipes matched" would say no recipe carries
// a tag that does not exist; the name is refused with the closest ones,
// before any search.
func TestSearchUnknownTagIsRefused(t *testing.T) {
	s, f := newService(t)
	_, err := s.SearchRecipes(context.Background(), req(&recipesv1.SearchRecipesRequest{Tags: []string{"nonexistent"}}))
	if codeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), `no tag is called "nonexistent"`) || !strings.Contains(err.Error(), `"Breakfast"`) {
		t.Fatalf("err = %v", err)
	}
	for _, l := range f.requests() {
		if l.Path == "/api/recipes" {
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

// fakePantry answers GetPantry with fixed items; other methods are not used.
type fakePantry struct {
	pantryv1connect.PantryServiceClient
	items []*pantryv1.PantryItem
}

func (p *fakePantry) GetPantry(context.Context, *connect.Request[pantryv1.GetPantryRequest]) (*connect.Response[pantryv1.GetPantryResponse], error) {
	return connect.NewResponse(&pantryv1.GetPantryResponse{Groups: []*pantryv1.LocationGroup{{Location: pantryv1.Location_LOCATION_CUPBOARD, Items: p.items}}}), nil
}

func TestSuggestFromPantry(t *testing.T) {
	f := newFake(t)
	s, err := New(Config{MealieURL: f.srv.URL, MealieToken: "tok", Backoff: 1, Pantry: &fakePantry{items: []*pantryv1.PantryItem{
		{Name: "plain flour", Aliases: []string{"Flour"}, State: pantryv1.ItemState_ITEM_STATE_IN},
		{Name: "eggs", State: pantryv1.ItemState_ITEM_STATE_LOW},
		{Name: "whole milk", State: pantryv1.ItemState_ITEM_STATE_OUT},
		{Name: "saffron", State: pantryv1.ItemState_ITEM_STATE_IN},
		// Kept in two places: two pantry items, one name to report.
		{Name: "Saffron", State: pantryv1.ItemState_ITEM_STATE_IN, Location: pantryv1.Location_LOCATION_FRIDGE},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.SuggestRecipes(context.Background(), req(&recipesv1.SuggestRecipesRequest{FromPantry: true, Tools: []string{"Skillet"}}))
	if err != nil {
		t.Fatal(err)
	}
	m := res.Msg
	// flour matches by alias, eggs by plural; milk is out, so missing.
	if !slices.Equal(m.UnmatchedPantryItems, []string{"saffron"}) || len(m.Items) != 1 || !slices.Equal(m.Items[0].MissingFoods, []string{"whole milk"}) {
		t.Errorf("response = %v", m)
	}
}
