package recipes

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// SweepProgressEvery is how many recipes pass between progress messages: a
// 2000-recipe sweep then sends 40, enough for a client to show movement.
const SweepProgressEvery = 50

// MaxResolveSlugs caps one ResolveRecipeSlugs call.
const MaxResolveSlugs = limits.ResolveSlugs

// details reads the detail of every recipe in list, Fanout at a time,
// through the client's detail cache, and calls fn in list order. fn's error
// stops the sweep.
func (s *Service) details(ctx context.Context, list []mealie.RecipeSummary, fn func(*mealie.RecipeSummary, *mealie.Recipe, error) error) error {
	type result struct {
		r   *mealie.Recipe
		err error
	}
	if err := s.mealie.CheckDetails(ctx); err != nil {
		return err
	}
	results := make([]chan result, len(list))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	ctx, cancel := context.WithCancel(ctx)
	sem := make(chan struct{}, mealie.Fanout)
	var wg sync.WaitGroup
	// Cancel first, then wait: an early return must stop the producer
	// before waiting for it.
	defer func() { cancel(); wg.Wait() }()
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range list {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				defer func() { <-sem }()
				var updated string
				if u := list[i].UpdatedAt; u != nil {
					updated = *u
				}
				r, err := s.mealie.RecipeDetailAt(ctx, list[i].Slug, updated)
				results[i] <- result{r, err}
			}(i)
		}
	}()
	for i := range list {
		var res result
		select {
		case res = <-results[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := fn(&list[i], res.r, res.err); err != nil {
			return err
		}
	}
	return nil
}

// SweepRecipes streams the library: progress with the total first, then one
// recipe per message (summary or curated detail), progress every
// SweepProgressEvery recipes, a failure message for a recipe whose detail
// cannot be read, and a last progress message.
func (s *Service) SweepRecipes(ctx context.Context, req *connect.Request[recipesv1.SweepRecipesRequest], stream *connect.ServerStream[recipesv1.SweepRecipesResponse]) error {
	max := int(req.Msg.GetMaxRecipes())
	if max < 0 || max > mealie.MaxLibraryRecipes {
		return invalid("max_recipes must be between 1 and %d (0 means %d), got %d", mealie.MaxLibraryRecipes, mealie.MaxLibraryRecipes, max)
	}
	if max == 0 {
		max = mealie.MaxLibraryRecipes
	}
	view := req.Msg.GetView()
	if _, ok := recipesv1.RecipeView_name[int32(view)]; !ok {
		return invalid("view: unknown value %d; use RECIPE_VIEW_SUMMARY or RECIPE_VIEW_DETAIL", view)
	}
	list, total, err := s.mealie.AllRecipes(ctx, max)
	if err != nil {
		return mealie.ConnectError(err)
	}
	progress := func(n int) error {
		return stream.Send(&recipesv1.SweepRecipesResponse{Item: &recipesv1.SweepRecipesResponse_Progress{Progress: &recipesv1.SweepProgress{
			Scanned: int32(n), Total: int32(len(list)), LibraryTotal: int32(total),
		}}})
	}
	if err := progress(0); err != nil {
		return err
	}
	n := 0
	step := func() error {
		n++
		if n%SweepProgressEvery == 0 && n < len(list) {
			return progress(n)
		}
		return nil
	}
	if view != recipesv1.RecipeView_RECIPE_VIEW_DETAIL {
		for i := range list {
			if err := stream.Send(&recipesv1.SweepRecipesResponse{Item: &recipesv1.SweepRecipesResponse_Recipe{Recipe: summaryAsRecipe(&list[i])}}); err != nil {
				return err
			}
			if err := step(); err != nil {
				return err
			}
		}
		return progress(n)
	}
	err = s.details(ctx, list, func(sum *mealie.RecipeSummary, r *mealie.Recipe, err error) error {
		var msg *recipesv1.SweepRecipesResponse
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			msg = &recipesv1.SweepRecipesResponse{Item: &recipesv1.SweepRecipesResponse_Failure{Failure: &recipesv1.SweepFailure{Slug: sum.Slug, Message: errMessage(err)}}}
		} else {
			msg = &recipesv1.SweepRecipesResponse{Item: &recipesv1.SweepRecipesResponse_Recipe{Recipe: detail(r)}}
		}
		if err := stream.Send(msg); err != nil {
			return err
		}
		return step()
	})
	if err != nil {
		return mealie.ConnectError(err)
	}
	return progress(n)
}

// summaryAsRecipe carries a list item in the Recipe message of a sweep.
func summaryAsRecipe(r *mealie.RecipeSummary) *recipesv1.Recipe {
	s := summary(r)
	return &recipesv1.Recipe{
		Slug: s.Slug, Name: s.Name, Description: s.Description, Id: s.Id, RecipeYield: s.RecipeYield,
		PrepTime: s.PrepTime, CookTime: s.CookTime, TotalTime: s.TotalTime, Tags: s.Tags, Categories: s.Categories,
		Tools: s.Tools, SourceUrl: s.SourceUrl, Rating: s.Rating, LastMade: s.LastMade, HasImage: s.HasImage, DateAdded: s.DateAdded,
	}
}

// ResolveRecipeSlugs maps slugs to ids through the client's slug -> id
// cache; unknown slugs are listed apart, not an error.
func (s *Service) ResolveRecipeSlugs(ctx context.Context, req *connect.Request[recipesv1.ResolveRecipeSlugsRequest]) (*connect.Response[recipesv1.ResolveRecipeSlugsResponse], error) {
	slugs := req.Msg.GetSlugs()
	if len(slugs) == 0 || len(slugs) > MaxResolveSlugs {
		return nil, invalid("slugs: give 1 to %d, got %d", MaxResolveSlugs, len(slugs))
	}
	for i, sl := range slugs {
		if _, err := checkSlug(fmt.Sprintf("slugs[%d]", i), sl); err != nil {
			return nil, err
		}
	}
	out := &recipesv1.ResolveRecipeSlugsResponse{}
	for _, sl := range slugs {
		sl = strings.TrimSpace(sl)
		ref, err := s.mealie.ResolveRecipe(ctx, sl)
		if err != nil {
			if mealie.StatusOf(err) == http.StatusNotFound {
				out.NotFound = append(out.NotFound, sl)
				continue
			}
			return nil, mealie.ConnectError(err)
		}
		out.Recipes = append(out.Recipes, &recipesv1.ResolvedRecipe{Slug: sl, Id: ref.ID, Name: ref.Name})
	}
	return connect.NewResponse(out), nil
}
