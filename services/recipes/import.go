package recipes

import (
	"context"
	"fmt"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// placeholderNote is the ingredient Mealie puts in a recipe it created
// without content (testdata/recipes_get__fresh.json).
const placeholderNote = "1 Cup Flour"

// ImportRecipeFromURL has Mealie scrape a page and flags a failed scrape: a
// page that renders its recipe in the browser still imports as a 201 with
// placeholder content (TestURLImportWithoutRecipeIs201WithPlaceholders in
// integration/contract).
func (s *Service) ImportRecipeFromURL(ctx context.Context, req *connect.Request[recipesv1.ImportRecipeFromURLRequest]) (*connect.Response[recipesv1.ImportRecipeFromURLResponse], error) {
	u, err := httpURL("url", req.Msg.GetUrl())
	if err != nil {
		return nil, err
	}
	incTags, incCats := true, true
	if req.Msg.IncludeTags != nil {
		incTags = req.Msg.GetIncludeTags()
	}
	if req.Msg.IncludeCategories != nil {
		incCats = req.Msg.GetIncludeCategories()
	}
	if !req.Msg.GetAllowDuplicate() {
		dup, err := s.alreadyImported(ctx, u)
		if err != nil {
			return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("checking whether %s was already imported failed, so nothing was imported: %s", u, errMessage(err)))
		}
		if dup != nil {
			return nil, duplicateImport(dup)
		}
	}
	slug, err := s.mealie.ImportRecipeURL(ctx, u, incTags, incCats)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	r, err := s.mealie.RecipeDetail(ctx, slug)
	if err != nil {
		return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("recipe '%s' was imported but reading it back failed: %s", slug, errMessage(err)))
	}
	if err := s.keepTimeTagsLocked(ctx, slug, r); err != nil {
		return nil, timeTagsFailed(slug, err)
	}
	return connect.NewResponse(&recipesv1.ImportRecipeFromURLResponse{
		Slug: slug, Name: r.Name, ScrapeFailed: scrapeFailed(r),
		IngredientCount: int32(len(r.Ingredients)), InstructionCount: int32(len(r.Instructions)),
	}), nil
}

// scrapeFailed reports an import that stored nothing but placeholders: no
// ingredients or no steps, or Mealie's own "1 Cup Flour" placeholder.
func scrapeFailed(r *mealie.Recipe) bool {
	if len(r.Ingredients) == 0 || len(r.Instructions) == 0 {
		return true
	}
	return len(r.Ingredients) == 1 && str(r.Ingredients[0].Note) == placeholderNote && r.Ingredients[0].Food == nil
}
