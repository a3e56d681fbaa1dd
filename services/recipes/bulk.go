package recipes

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// BulkTagRecipes adds tags and categories to recipes. Unknown slugs are
// left out before the write: Mealie answers the whole action with a 500
// for one unknown slug.
func (s *Service) BulkTagRecipes(ctx context.Context, req *connect.Request[recipesv1.BulkTagRecipesRequest]) (*connect.Response[recipesv1.BulkTagRecipesResponse], error) {
	m := req.Msg
	slugs := uniqueNames(m.GetSlugs())
	if len(slugs) == 0 || len(slugs) > MaxBulkSlugs {
		return nil, invalid("slugs: give 1 to %d, got %d", MaxBulkSlugs, len(slugs))
	}
	if len(uniqueNames(m.GetTags()))+len(uniqueNames(m.GetCategories())) == 0 {
		return nil, invalid("give tags or categories to add")
	}
	for i, sl := range slugs {
		if _, err := checkSlug(fmt.Sprintf("slugs[%d]", i), sl); err != nil {
			return nil, err
		}
	}
	if err := checkCount("tags", len(m.GetTags()), MaxTaxonomyNames); err != nil {
		return nil, err
	}
	if err := checkCount("categories", len(m.GetCategories()), MaxTaxonomyNames); err != nil {
		return nil, err
	}
	if err := checkTaxonomy(m.GetTags(), m.GetCategories(), nil); err != nil {
		return nil, err
	}
	out := &recipesv1.BulkTagRecipesResponse{}
	var found []string
	for _, sl := range slugs {
		if _, err := s.mealie.ResolveRecipe(ctx, sl); err != nil {
			if mealie.StatusOf(err) == http.StatusNotFound {
				out.NotFound = append(out.NotFound, sl)
				continue
			}
			return nil, mealie.ConnectError(err)
		}
		found = append(found, sl)
	}
	if len(found) == 0 {
		return connect.NewResponse(out), nil
	}
	set, err := s.resolveSet(ctx, m.GetTags(), m.GetCategories(), nil)
	if err != nil {
		return nil, s.withCreated(err, set)
	}
	out.Created = set.created()
	// Mealie's bulk action reads each recipe's tags and writes them back
	// with the new ones: an update of one of them through sous meanwhile
	// would be undone, or undo this.
	unlock, err := s.lockRecipes(ctx, found...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if len(set.tags) > 0 {
		if err := s.mealie.BulkTagRecipes(ctx, found, set.tags); err != nil {
			return nil, s.withCreated(err, set)
		}
	}
	if len(set.cats) > 0 {
		if err := s.mealie.BulkCategorizeRecipes(ctx, found, set.cats); err != nil {
			return nil, s.withCreated(err, set)
		}
	}
	out.Slugs = found
	return connect.NewResponse(out), nil
}

// DeleteRecipe deletes a recipe when confirm_slug equals slug. A 5xx falls
// back to the bulk delete action, which gets through when the ORM cannot
// cascade the row delete (testdata/recipes_delete__throwaway.json); a 404 does not,
// so a typo is not answered by a second attempt.
func (s *Service) DeleteRecipe(ctx context.Context, req *connect.Request[recipesv1.DeleteRecipeRequest]) (*connect.Response[recipesv1.DeleteRecipeResponse], error) {
	slug, err := checkSlug("slug", req.Msg.GetSlug())
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Msg.GetConfirmSlug()) != slug {
		return nil, invalid("confirm_slug must equal slug %q; nothing was deleted", slug)
	}
	out := &recipesv1.DeleteRecipeResponse{Slug: slug}
	err = s.mealie.DeleteRecipe(ctx, slug)
	if err == nil {
		return connect.NewResponse(out), nil
	}
	if mealie.StatusOf(err) < 500 {
		return nil, mealie.ConnectError(err)
	}
	if ferr := s.mealie.BulkDeleteRecipes(ctx, []string{slug}); ferr != nil {
		return nil, connect.NewError(mealie.ConnectCode(ferr), fmt.Errorf("deleting recipe '%s' failed (%s) and the bulk delete fallback failed too: %s", slug, errMessage(err), errMessage(ferr)))
	}
	out.UsedBulkFallback = true
	return connect.NewResponse(out), nil
}
