package recipes

import (
	"context"
	"slices"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// textMatches are the recipes a foods filter misses because they name a
// food only in a line of text with no Mealie food linked ("juice of 1
// lime", a line an import left unparsed): Mealie's foods filter reads
// linked foods alone. Every recipe's lines are read through the detail
// cache, as suggest_recipes reads them. foods are the given names and
// linkedIDs[i] the food ids the filter took for foods[i] (filterKeys), so
// a recipe the filter itself lists is not repeated. A recipe qualifies
// when each food name (with requireAll) or any of them names a text line
// or a linked line's note (names.CoversLine: "chicken thighs" in "4
// boneless, skinless chicken thighs") or is a food the recipe links, and
// it carries every tag, category and tool filtered on (by slug), and keep
// (the time and history filters, nil for none) keeps it. hit holds each
// food name that a recipe's lines or links answered, whether or not the
// recipe was listed: a name Mealie has no food for is unknown only when no
// line names it either.
func (s *Service) textMatches(ctx context.Context, foods []string, linkedIDs [][]string, q mealie.RecipeQuery, limit int, keep keepFunc) ([]*recipesv1.RecipeSummary, map[string]bool, error) {
	list, _, err := s.mealie.AllRecipes(ctx, mealie.MaxLibraryRecipes)
	if err != nil {
		return nil, nil, err
	}
	hit := map[string]bool{}
	linked := make([]map[string]bool, len(foods))
	for i := range foods {
		linked[i] = map[string]bool{}
		if i < len(linkedIDs) {
			for _, id := range linkedIDs[i] {
				linked[i][id] = true
			}
		}
	}
	var out []*recipesv1.RecipeSummary
	err = s.details(ctx, list, func(sum *mealie.RecipeSummary, r *mealie.Recipe, err error) error {
		if err != nil {
			return nil
		}
		if !hasAll(r.Tags, q.Tags) || !hasAll(r.Categories, q.Categories) || !hasAll(r.Tools, q.Tools) {
			return nil
		}
		byLink, byText := 0, 0
		for fi, f := range foods {
			link, text := false, false
			for i := range r.Ingredients {
				in := &r.Ingredients[i]
				if in.Food != nil && in.Food.ID != "" {
					link = link || linked[fi][in.Food.ID]
					// "300 g chicken breast (or boneless chicken
					// thighs)": the note offers it
					text = text || names.CoversLine(f, str(in.Note))
				} else if t := lineText(in); t != "" && names.CoversLine(f, t) {
					text = true
				}
			}
			switch {
			case link:
				byLink++
			case text:
				byText++
			}
			if text {
				hit[f] = true
			}
		}
		if len(out) >= limit || (keep != nil && keep(sum) != fits) {
			return nil
		}
		// Mealie's filter already lists a recipe a linked food qualifies
		// (any food, or with requireAll every one).
		inFilter := byLink > 0 && (!q.RequireAll || byLink == len(foods))
		if !inFilter && byText > 0 && (!q.RequireAll || byLink+byText == len(foods)) {
			out = append(out, summary(&r.RecipeSummary))
		}
		return nil
	})
	return out, hit, err
}

// hasAll reports whether organizers carry every slug in want.
func hasAll(have []mealie.Organizer, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(have, func(o mealie.Organizer) bool { return o.Slug == w || o.ID == w }) {
			return false
		}
	}
	return true
}
