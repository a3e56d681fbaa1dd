package recipes

import (
	"context"
	"net/http"
	"slices"
	"testing"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// TestTagSlugCollisionReusesTheTag: a new name whose slug is an existing
// tag's ("🌶️ quick & easy!" beside "Quick & Easy") is that tag to Mealie,
// whose unique slug would refuse a copy with a bare 500
// (services/internal/mealie/testdata/organizers_tags__create_duplicate.json); the write uses the existing tag
// and creates nothing. Two new names with one slug in the same call create
// one tag.
func TestTagSlugCollisionReusesTheTag(t *testing.T) {
	s, f := newService(t)
	res, err := s.CreateRecipe(context.Background(), req(&recipesv1.CreateRecipeRequest{
		Name: "Chilli oil", Tags: []string{"🌶️ quick & easy!", "Fiery!", "fiery?"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Msg.GetCreated().GetTags(); !slices.Equal(got, []string{"Fiery!"}) {
		t.Errorf("created tags = %q, want only Fiery!", got)
	}
	posts := 0
	for _, w := range f.writes() {
		if w == "POST /api/organizers/tags" {
			posts++
		}
	}
	if posts != 1 {
		t.Errorf("%d tag creations, want 1: %q", posts, f.writes())
	}
	body := f.lastBody(http.MethodPatch, "/api/recipes/chilli-oil")
	var slugs []string
	for _, tg := range body["tags"].([]any) {
		slugs = append(slugs, tg.(map[string]any)["slug"].(string))
	}
	if !slices.Equal(slugs, []string{"quick-easy", "fiery"}) {
		t.Errorf("tag slugs = %q", slugs)
	}
}
