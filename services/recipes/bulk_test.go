package recipes

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

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
