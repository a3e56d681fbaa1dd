package recipes

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

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
