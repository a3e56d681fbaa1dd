package recipes

import (
	"context"
	"fmt"
	"strings"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// CreateRecipe creates a recipe in two calls: POST {name} (or Mealie's
// duplicate for from_slug), then one PATCH with everything else. A failed
// PATCH leaves a stub on Mealie; the error names its slug so it is never
// silently orphaned: Mealie's create takes only a name, so creation is
// always two calls.
func (s *Service) CreateRecipe(ctx context.Context, req *connect.Request[recipesv1.CreateRecipeRequest]) (*connect.Response[recipesv1.CreateRecipeResponse], error) {
	m := req.Msg
	name, err := required("name", m.GetName())
	if err != nil {
		return nil, err
	}
	if len([]rune(name)) > MaxNameChars {
		return nil, invalid("name: at most %d characters", MaxNameChars)
	}
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	if len(m.GetNotes()) > MaxNotes {
		return nil, invalid("notes: at most %d", MaxNotes)
	}
	if err := checkContent(m, false); err != nil {
		return nil, err
	}
	from := strings.TrimSpace(m.GetFromSlug())
	if from != "" {
		if from, err = checkSlug("from_slug", from); err != nil {
			return nil, err
		}
	}
	// Resolve everything that can fail before the first write, so a bad
	// ingredient does not leave a stub behind.
	ir, err := s.buildIngredients(ctx, m.GetIngredients())
	if err != nil {
		return nil, err
	}
	set, err := s.resolveSet(ctx, m.GetTags(), m.GetCategories(), m.GetTools())
	if err != nil {
		return nil, s.withCreated(err, set)
	}
	patch := createPatch(m, from != "", ir.lines)
	var slug string
	var base *mealie.Recipe
	if from != "" {
		if base, err = s.mealie.DuplicateRecipe(ctx, from, name); err != nil {
			return nil, mealie.ConnectError(err)
		}
		slug = base.Slug
	} else if slug, err = s.mealie.CreateRecipe(ctx, name); err != nil {
		return nil, mealie.ConnectError(err)
	}
	if structured(ir.lines) {
		// The new recipe's settings come from the household's preferences,
		// which only a read of the recipe tells; see showAmounts.
		stored := base
		if stored == nil {
			if stored, _, err = s.mealie.GetRecipe(ctx, slug); err != nil {
				return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf(
					"recipe '%s' was created but reading it before filling it in failed, so a stub '%s' is left on Mealie (update or delete it): %v", slug, slug, errMessage(err)))
			}
		}
		patch.Settings = showAmounts(stored)
	}
	set.addTo(patch, base, replaceFlags{})
	out := &recipesv1.CreateRecipeResponse{
		Slug: slug, Name: name, Created: set.created(), Unresolved: ir.unresolved, Unparsed: ir.unparsed,
		Resolved: nilIfEmpty(ir.resolved), CreatedFoods: ir.created, CreatedUnits: ir.createdUnits, ChangedLines: ir.changed,
	}
	if !patch.IsZero() {
		r, err := s.mealie.PatchRecipe(ctx, slug, patch)
		if err != nil {
			return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf(
				"recipe '%s' was created but filling it in failed, so a stub '%s' is left on Mealie (update or delete it): %v", slug, slug, errMessage(err)))
		}
		out.Name = r.Name
		if err := s.keepTimeTagsLocked(ctx, slug, r); err != nil {
			return nil, timeTagsFailed(slug, err)
		}
	}
	return connect.NewResponse(out), nil
}

// createPatch is the PATCH that fills a new recipe in: the texts given, and
// the lines, steps and notes. A plain create always writes ingredients and
// steps: Mealie fills a new recipe with a placeholder "1 Cup Flour" and a
// markdown tip (testdata/recipes_get__fresh.json) that would otherwise read
// as content. A duplicate keeps the lines and steps it copied unless new
// ones are given.
func createPatch(m *recipesv1.CreateRecipeRequest, duplicate bool, lines []mealie.IngredientLine) *mealie.RecipePatch {
	p := &mealie.RecipePatch{
		Description: nonBlank(m.GetDescription()),
		RecipeYield: nonBlank(m.GetRecipeYield()),
		PrepTime:    nonBlank(m.GetPrepTime()),
		// Mealie's app shows performTime as "Cook Time" (see cookTime).
		PerformTime: nonBlank(m.GetCookTime()),
		TotalTime:   nonBlank(m.GetTotalTime()),
		OrgURL:      nonBlank(m.GetSourceUrl()),
	}
	if !duplicate || len(m.GetIngredients()) > 0 {
		p.Ingredients = lines
	}
	if !duplicate || len(m.GetInstructions()) > 0 {
		p.Instructions = steps(m.GetInstructions())
	}
	if len(m.GetNotes()) > 0 {
		p.Notes = notesPayload(m.GetNotes())
	}
	return p
}

// nonBlank is v trimmed, or nil when that leaves nothing: a create writes
// only the texts it was given.
func nonBlank(v string) *string {
	if v = strings.TrimSpace(v); v == "" {
		return nil
	}
	return &v
}

// structured reports whether any line carries a quantity, unit or food,
// which Mealie's app hides while the recipe's disableAmount is on.
func structured(lines []mealie.IngredientLine) bool {
	for _, l := range lines {
		if l.Structured() {
			return true
		}
	}
	return false
}

// showAmounts returns the settings that make Mealie 2.x's app show
// structured lines: the recipe's settings whole with disableAmount off, as
// Mealie's own editor saves a recipe after parsing its ingredients. On 2.0
// and 2.8 a new recipe has it on, and the app then shows each line as its
// note alone (see mealie.Recipe.AmountsHidden). The whole object is sent
// because a partial one resets the other settings (see mealie.Recipe.Settings).
// nil when nothing needs to change (already off, or Mealie 3, which has no
// such setting).
func showAmounts(r *mealie.Recipe) *mealie.RecipeSettings {
	if r == nil || !r.AmountsHidden() {
		return nil
	}
	st, _ := r.SettingsWith(false)
	return st
}
