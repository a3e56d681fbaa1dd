package recipes

import (
	"context"
	"fmt"
	"strings"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/mealieslug"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// updatePatch is the PATCH of an update's texts, steps and notes: each
// text given replaces the recipe's, trimmed, an empty one clearing it; steps
// and notes replace the recipe's when their set_ flag says so.
func updatePatch(m *recipesv1.UpdateRecipeRequest) *mealie.RecipePatch {
	p := &mealie.RecipePatch{
		Description: trimmed(m.Description),
		RecipeYield: trimmed(m.RecipeYield),
		PrepTime:    trimmed(m.PrepTime),
		PerformTime: trimmed(m.CookTime),
		TotalTime:   trimmed(m.TotalTime),
		OrgURL:      trimmed(m.SourceUrl),
	}
	if m.GetSetInstructions() {
		p.Instructions = steps(m.GetInstructions())
	}
	if m.GetSetNotes() {
		p.Notes = notesPayload(m.GetNotes())
	}
	return p
}

// trimmed is *v trimmed, or nil when v is: an update writes every text it
// was given, and only those.
func trimmed(v *string) *string {
	if v == nil {
		return nil
	}
	t := strings.TrimSpace(*v)
	return &t
}

// UpdateRecipe reads the recipe, merges tags, categories and tools (unless
// a replace flag is set), replaces bodies, and writes. PATCH replaces list
// fields wholesale (TestPatchReplacesTags in integration/contract), hence the read.
//
// A rename is written with PUT of the whole recipe: PATCH {name} on Mealie
// 2.0 reports a new slug it never stores (TestPatchNameKeepsStoredSlug in integration/contract), while
// PUT moves it (TestRenameWithSlugOrPut in integration/contract). The new slug is then read back;
// if it does not answer, the recipe is looked up by id so the error says
// where it really is (see renameUnverified).
func (s *Service) UpdateRecipe(ctx context.Context, req *connect.Request[recipesv1.UpdateRecipeRequest]) (*connect.Response[recipesv1.UpdateRecipeResponse], error) {
	m := req.Msg
	slug, err := checkSlug("slug", m.GetSlug())
	if err != nil {
		return nil, err
	}
	if m.Name != nil {
		n := strings.TrimSpace(m.GetName())
		if n == "" || len([]rune(n)) > MaxNameChars {
			return nil, invalid("name must be 1 to %d characters", MaxNameChars)
		}
		if err := checkName("name", n); err != nil {
			return nil, err
		}
	}
	if err := checkRating(m.Rating); err != nil {
		return nil, err
	}
	if err := checkText("confirm", m.GetConfirm(), MaxConfirmChars); err != nil {
		return nil, err
	}
	if !m.GetSetIngredients() && len(m.GetIngredients()) > 0 {
		return nil, invalid("ingredients given without set_ingredients=true")
	}
	if !m.GetSetInstructions() && len(m.GetInstructions()) > 0 {
		return nil, invalid("instructions given without set_instructions=true")
	}
	if !m.GetSetNotes() && len(m.GetNotes()) > 0 {
		return nil, invalid("notes given without set_notes=true")
	}
	if err := checkContent(m, true); err != nil {
		return nil, err
	}
	if err := checkLineEdits(m); err != nil {
		return nil, err
	}
	unlock, err := s.lockRecipes(ctx, slug)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cur, _, err := s.mealie.GetRecipe(ctx, slug)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	// Before anything is resolved or created: a refused update writes
	// nothing, not even a new tag.
	if err := guardDestructive(cur, slug, m); err != nil {
		return nil, err
	}
	var settings *mealie.RecipeSettings
	if m.ShowAmounts != nil {
		st, ok := cur.SettingsWith(!m.GetShowAmounts())
		if !ok && !m.GetShowAmounts() {
			return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("show_amounts=false: this Mealie has no setting that hides amounts (Mealie 3's app always shows them), so nothing was written"))
		}
		settings = st
	}
	patch := updatePatch(m)
	ir := &ingredientResult{}
	var edits *lineEdits
	switch {
	case m.GetSetIngredients():
		if ir, err = s.buildIngredients(ctx, m.GetIngredients()); err != nil {
			return nil, err
		}
		patch.Ingredients = ir.lines
	case hasLineEdits(m):
		if edits, err = s.editLines(ctx, cur, m); err != nil {
			return nil, err
		}
		ir, patch.Ingredients = edits.ir, edits.lines
	}
	if st := showAmounts(cur); st != nil && structured(ir.lines) {
		patch.Settings = st
	}
	if settings != nil {
		// Asked for outright, so it wins over showAmounts above.
		patch.Settings = settings
	}
	set, err := s.resolveSet(ctx, m.GetTags(), m.GetCategories(), m.GetTools())
	if err != nil {
		return nil, s.withCreated(err, set)
	}
	set.addTo(patch, cur, replaceFlags{tags: m.GetReplaceTags(), cats: m.GetReplaceCategories(), tools: m.GetReplaceTools()})
	out := &recipesv1.UpdateRecipeResponse{
		Slug: slug, Created: set.created(), Unresolved: ir.unresolved, Unparsed: ir.unparsed,
		Resolved: nilIfEmpty(ir.resolved), CreatedFoods: ir.created, CreatedUnits: ir.createdUnits, ChangedLines: ir.changed,
		Replaced: replacedFields(cur, patch, m),
	}
	rename := m.Name != nil && strings.TrimSpace(m.GetName()) != cur.Name
	if !rename {
		if !patch.IsZero() {
			r, err := s.mealie.PatchRecipe(ctx, slug, patch)
			if err != nil {
				return nil, s.withCreated(err, set)
			}
			if edits != nil {
				out.LineEdits = edits.report(r, m)
			}
			if err := s.keepTimeTags(ctx, slug, r); err != nil {
				return nil, timeTagsFailed(slug, err)
			}
		}
		return s.rate(ctx, out, m.Rating, !patch.IsZero())
	}
	name := strings.TrimSpace(m.GetName())
	r, err := s.mealie.RenameRecipe(ctx, slug, cur, patch, name)
	if err != nil {
		return nil, s.withCreated(err, set)
	}
	if edits != nil {
		out.LineEdits = edits.report(r, m)
	}
	// Mealie answers with the slug it stored; when it did not move although
	// the name's slug differs, the rename failed as on 2.0's PATCH path.
	want := mealieslug.Make(name)
	newSlug := r.Slug
	if newSlug == "" || (newSlug == slug && want != slug) {
		newSlug = want
	}
	stored := r
	if newSlug != slug {
		got, _, err := s.mealie.GetRecipe(ctx, newSlug)
		if err != nil || got.Slug != newSlug {
			return nil, s.renameUnverified(ctx, slug, cur.ID, name, newSlug, err)
		}
		out.RenamedFrom, stored = slug, got
	}
	out.Slug = newSlug
	// The recipe as read after the rename: its time tags need no read of
	// their own.
	if err := s.keepTimeTags(ctx, newSlug, stored); err != nil {
		return nil, timeTagsFailed(newSlug, err)
	}
	return s.rate(ctx, out, m.Rating, true)
}

// rate writes the token user's rating of the updated recipe, when one was
// given, and answers the recipe's rating as Mealie then reports it (see
// writeRating). wrote says whether the update already changed the recipe,
// for the message when the rating then fails.
func (s *Service) rate(ctx context.Context, out *recipesv1.UpdateRecipeResponse, rating *float64, wrote bool) (*connect.Response[recipesv1.UpdateRecipeResponse], error) {
	if rating == nil {
		return connect.NewResponse(out), nil
	}
	fail := func(step string, err error) error {
		if wrote {
			return connect.NewError(mealie.ConnectCode(err), fmt.Errorf("recipe '%s' was updated but %s failed: %s", out.Slug, step, errMessage(err)))
		}
		return mealie.ConnectError(err)
	}
	r, step, err := s.writeRating(ctx, out.Slug, *rating)
	if err != nil {
		if step == "" {
			return nil, err
		}
		return nil, fail(step, err)
	}
	out.Rating = r
	return connect.NewResponse(out), nil
}

// renameUnverified words a rename whose new slug does not answer. It reads
// the recipe back by id (GET /api/recipes/{id} takes an id as well as a
// slug) and says where it is: still at the old slug, under another slug, or
// under an empty one no route reaches; it never guesses.
func (s *Service) renameUnverified(ctx context.Context, slug, id, name, newSlug string, verr error) error {
	head := fmt.Sprintf("recipe '%s' was renamed to %q but Mealie does not answer under the new slug '%s' (%s)", slug, name, newSlug, verifyDetail(verr))
	var where string
	if id == "" {
		where = "its id is unknown, so where it is now could not be checked; search for it by name"
	} else {
		at, _, err := s.mealie.GetRecipe(ctx, id)
		switch {
		case err != nil:
			where = fmt.Sprintf("reading it back by id %s failed too (%s); search for it by name", id, errMessage(err))
		case at.Slug == slug:
			where = fmt.Sprintf("the rename did not take: the recipe is still at '%s'", slug)
		case at.Slug == "":
			where = fmt.Sprintf("Mealie stored it with an empty slug, so no slug reaches it; its id is %s", id)
		default:
			where = fmt.Sprintf("Mealie has it at '%s'", at.Slug)
		}
	}
	return connect.NewError(connect.CodeInternal, fmt.Errorf("%s; %s", head, where))
}

func verifyDetail(err error) string {
	if err == nil {
		return "it answers with another slug"
	}
	return errMessage(err)
}
