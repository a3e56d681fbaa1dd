package recipes

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// Suggestion limits.
const (
	// DefaultSuggestLimit and MaxSuggestLimit bound the suggestions returned.
	DefaultSuggestLimit = limits.DefaultSuggestLimit
	MaxSuggestLimit     = limits.SuggestLimit
	// DefaultMaxMissingFoods and MaxMissingFoodsCap bound how many foods a
	// suggestion may lack: past ten it is a shopping list, not a suggestion.
	DefaultMaxMissingFoods = limits.DefaultMissingFoods
	MaxMissingFoodsCap     = limits.MissingFoods
	// MaxMissingTools is how many tools a suggestion may lack. Mealie's own
	// default for maxMissingTools (3.x openapi.json) is not documented as a
	// number sous can rely on, so sous sends its own.
	MaxMissingTools = 5
	// MaxSuggestFoods and MaxSuggestTools cap the foods and the tools
	// named.
	MaxSuggestFoods = limits.SuggestFoods
	MaxSuggestTools = limits.SuggestTools
)

// localNote says that the ranking was computed by sous.
const localNote = "this Mealie has no suggestions endpoint (added after 2.0), so sous ranked the recipes itself from their ingredient foods and tools"

// SuggestRecipes ranks recipes by how few foods and tools they miss. Names
// are resolved to Mealie foods and tools; from_pantry adds the pantry's
// in-stock items. On Mealie 2.0, which has no /api/recipes/suggestions
// (testdata/recipes_suggestions__not_in_2_0.json), the same ranking is computed from
// the cached recipe details and the answer says so.
func (s *Service) SuggestRecipes(ctx context.Context, req *connect.Request[recipesv1.SuggestRecipesRequest]) (*connect.Response[recipesv1.SuggestRecipesResponse], error) {
	m := req.Msg
	limit := int(m.GetLimit())
	if limit == 0 {
		limit = DefaultSuggestLimit
	}
	if limit < 1 || limit > MaxSuggestLimit {
		return nil, invalid("limit must be between 1 and %d, got %d", MaxSuggestLimit, limit)
	}
	maxMissing := DefaultMaxMissingFoods
	if m.MaxMissingFoods != nil {
		if maxMissing = int(m.GetMaxMissingFoods()); maxMissing < 0 || maxMissing > MaxMissingFoodsCap {
			return nil, invalid("max_missing_foods must be between 0 and %d, got %d", MaxMissingFoodsCap, maxMissing)
		}
	}
	if err := checkCount("foods", len(m.GetFoods()), MaxSuggestFoods); err != nil {
		return nil, err
	}
	if err := checkCount("tools", len(m.GetTools()), MaxSuggestTools); err != nil {
		return nil, err
	}
	if err := checkTexts("foods", m.GetFoods(), MaxTaxonomyNameChars); err != nil {
		return nil, err
	}
	if err := checkTexts("tools", m.GetTools(), MaxTaxonomyNameChars); err != nil {
		return nil, err
	}
	if !m.GetFromPantry() && len(uniqueNames(m.GetFoods()))+len(uniqueNames(m.GetTools())) == 0 {
		return nil, invalid("give foods or tools on hand, or from_pantry=true")
	}
	if m.GetFromPantry() && s.pantry == nil {
		msg := "no pantry is configured, so from_pantry cannot be used; name the foods instead"
		if s.pantrySetting != "" {
			msg = "no pantry is configured (set " + s.pantrySetting + "), so from_pantry cannot be used; name the foods instead"
		}
		return nil, connect.NewError(connect.CodeFailedPrecondition, errors.New(msg))
	}
	foods, err := s.mealie.Taxonomy(ctx, mealie.Foods)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	tools, err := s.mealie.Taxonomy(ctx, mealie.Tools)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out := &recipesv1.SuggestRecipesResponse{}
	resolved := map[string]*recipesv1.Names{}
	fx := indexItems(foods)
	foodIDs := map[string]string{} // id -> name
	var foodOrder []string
	addFood := func(it *mealie.TaxonomyItem) {
		if _, ok := foodIDs[it.ID]; !ok {
			foodIDs[it.ID] = it.Name
			foodOrder = append(foodOrder, it.ID)
		}
	}
	// A name on hand matches every food it covers ("rice" the library's
	// rices, "chicken" its chicken thighs), and lines Mealie keeps as text
	// by their words ("lime" in "juice of 1 lime"): textNames are read
	// against those.
	var textNames []textName
	var unknown []string
	// owners maps each food id on hand to the names on hand covering it,
	// so each suggestion says which of them it uses.
	owners := map[string][]string{}
	own := func(id, name string) {
		if !slices.Contains(owners[id], name) {
			owners[id] = append(owners[id], name)
		}
	}
	named := uniqueNames(m.GetFoods())
	for _, n := range named {
		textNames = append(textNames, textName{name: n, owner: n})
		found := fx.covered(n)
		if len(found) == 0 {
			unknown = append(unknown, n)
			continue
		}
		for _, it := range found {
			addFood(it)
			own(it.ID, n)
		}
		addResolved(resolved, n, itemNamesOf(found)...)
	}
	if m.GetFromPantry() {
		items, err := s.pantryInStock(ctx)
		if err != nil {
			return nil, err
		}
		for _, pi := range items {
			// The item's own name covers the library's kinds of it; an
			// alias is another name for the same thing and only ever
			// names that thing ("chicken" for "chicken thighs" is not
			// every chicken), in the library and in lines of text.
			var found []*mealie.TaxonomyItem
			for i, n := range append([]string{pi.GetName()}, pi.GetAliases()...) {
				if strings.TrimSpace(n) == "" {
					continue
				}
				alias := i > 0
				textNames = append(textNames, textName{name: n, alias: alias, owner: pi.GetName(), pantry: true})
				matched := fx.covered(n)
				if alias {
					matched = fx.same(n)
				}
				for _, it := range matched {
					if !slices.Contains(found, it) {
						found = append(found, it)
					}
				}
			}
			if len(found) == 0 {
				// An ingredient kept in two places is two pantry
				// items; the cook reads its name once.
				if !slices.ContainsFunc(out.UnmatchedPantryItems, func(n string) bool { return strings.EqualFold(n, pi.GetName()) }) {
					out.UnmatchedPantryItems = append(out.UnmatchedPantryItems, pi.GetName())
				}
				continue
			}
			for _, it := range found {
				addFood(it)
				own(it.ID, pi.GetName())
			}
			addResolved(resolved, pi.GetName(), itemNamesOf(found)...)
		}
	}
	// Staples count as on hand unless named: a recipe is not "missing"
	// salt. They go to Mealie's finder as on hand too.
	staples := map[string]bool{}
	for i, n := range append(slices.Clone(stapleNames), exactStaples...) {
		took := false
		match := fx.covered
		if i >= len(stapleNames) {
			match = fx.same
		}
		for _, it := range match(n) {
			if _, named := foodIDs[it.ID]; !named && !staples[it.ID] {
				staples[it.ID], took = true, true
			}
		}
		if took {
			out.AssumedOnHand = append(out.AssumedOnHand, n)
		}
	}
	tx := indexItems(tools)
	toolIDs := map[string]string{}
	var toolOrder []string
	var unknownTools []string
	toolNames := uniqueNames(m.GetTools())
	for _, n := range toolNames {
		if it, _, _ := tx.bind(n); it != nil {
			if _, ok := toolIDs[it.ID]; !ok {
				toolIDs[it.ID] = it.Name
				toolOrder = append(toolOrder, it.ID)
			}
			addResolved(resolved, n, it.Name)
		} else {
			unknownTools = append(unknownTools, n)
		}
	}
	// finish answers with items, and with each name nothing knows: a food
	// no Mealie food covers and no line names, a tool Mealie does not
	// have, each with the library's closest names (closestNames). When no
	// name given is known and the pantry adds none, nothing could be
	// suggested from them: the call is refused, naming them all.
	finish := func(items []*recipesv1.Suggestion, textHits map[string][]string) (*connect.Response[recipesv1.SuggestRecipesResponse], error) {
		out.Items = items
		var gone []*recipesv1.UnknownName
		for _, n := range unknown {
			if hits := textHits[names.Fold(n)]; len(hits) > 0 {
				// not a Mealie food, but recipe lines name it
				addResolved(resolved, n, hits...)
				continue
			}
			out.UnknownFoods = append(out.UnknownFoods, n)
			gone = append(gone, &recipesv1.UnknownName{Field: "foods", Name: n})
		}
		for _, n := range unknownTools {
			gone = append(gone, &recipesv1.UnknownName{Field: "tools", Name: n})
		}
		lib := s.libraryOnce(ctx)
		for _, u := range gone {
			res := mealie.Foods
			if u.Field == "tools" {
				res = mealie.Tools
			}
			c, err := s.closestNames(ctx, lib, res, u.Name)
			if err != nil {
				return nil, mealie.ConnectError(err)
			}
			u.Closest = c
		}
		if len(gone) > 0 && len(gone) == len(named)+len(toolNames) && !m.GetFromPantry() {
			var parts []string
			for _, u := range gone {
				parts = append(parts, unknownPhrase(u.Field, u.Name, u.Closest))
			}
			return nil, invalid("%s, so nothing could be suggested; name what you have as the library does", strings.Join(parts, "; "))
		}
		out.Unknown = gone
		out.Resolved = nilIfEmpty(resolved)
		return connect.NewResponse(out), nil
	}
	if len(foodIDs)+len(toolIDs)+len(textNames) == 0 {
		return finish(nil, nil)
	}
	if !s.noSuggestions.Load() && len(foodIDs)+len(toolIDs) > 0 {
		got, err := s.mealie.SuggestRecipes(ctx, mealie.SuggestionQuery{
			FoodIDs: append(slices.Clone(foodOrder), stapleIDs(staples)...), ToolIDs: toolOrder, Limit: limit, MaxMissingFoods: maxMissing, MaxMissingTools: MaxMissingTools,
		})
		switch {
		case err == nil:
			var items []*recipesv1.Suggestion
			for i := range got {
				items = append(items, remoteSuggestion(&got[i]))
			}
			// Mealie ranks by linked foods only, and within its limit by
			// fewest missing: every recipe is read here too (recipes whose
			// lines are text, and those Mealie's limit left out although
			// they use more of the foods named) and merged in.
			local, hits, scores, err := s.rankLocally(ctx, foodIDs, toolIDs, staples, textNames, owners, maxMissing, limit, false)
			if err != nil {
				return nil, mealie.ConnectError(err)
			}
			if len(foodIDs)+len(textNames) > 0 {
				items = usingNamed(items, scores)
			}
			items = mergeSuggestions(items, local, scores, limit)
			addLeftOut(out, items, scores, maxMissing)
			return finish(items, hits)
		case mealie.StatusOf(err) == http.StatusNotFound:
			s.noSuggestions.Store(true)
		default:
			return nil, mealie.ConnectError(err)
		}
	}
	items, hits, scores, err := s.rankLocally(ctx, foodIDs, toolIDs, staples, textNames, owners, maxMissing, limit, false)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if s.noSuggestions.Load() {
		out.Note = localNote
	}
	addLeftOut(out, items, scores, maxMissing)
	return finish(items, hits)
}

// mergeSuggestions adds the text-matched suggestions to Mealie's, keeping
// Mealie's first and dropping repeats, then orders them as sortSuggestions
// does with the scores sous read from the same recipes: Mealie's answer
// says what is missing but not what is covered, and a recipe of text lines
// misses nothing (a line no name covers is left out) so by fewest missing
// alone it came above recipes whose linked foods match more.
func mergeSuggestions(remote, text []*recipesv1.Suggestion, scores map[string]score, limit int) []*recipesv1.Suggestion {
	seen := map[string]bool{}
	out := make([]*recipesv1.Suggestion, 0, len(remote)+len(text))
	for _, list := range [][]*recipesv1.Suggestion{remote, text} {
		for _, sg := range list {
			if seen[sg.GetRecipe().GetSlug()] {
				continue
			}
			seen[sg.GetRecipe().GetSlug()] = true
			out = append(out, sg)
		}
	}
	for _, sg := range out {
		if sc, ok := scores[sg.GetRecipe().GetSlug()]; ok {
			sg.Uses = sc.uses
		}
	}
	sortSuggestions(out, scores)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// usingNamed drops Mealie's suggestions that use none of the foods named.
// Mealie keeps only recipes with at least one of the foods it is sent, but
// sous sends the staples along (stapleNames): without this a recipe whose
// one match is salt was offered for "chickpeas and spinach". A recipe
// whose details could not be read (no score) is kept as Mealie ranked it.
func usingNamed(items []*recipesv1.Suggestion, scores map[string]score) []*recipesv1.Suggestion {
	out := items[:0]
	for _, sg := range items {
		if sc, ok := scores[sg.GetRecipe().GetSlug()]; ok && sc.covered == 0 {
			continue
		}
		out = append(out, sg)
	}
	return out
}

func remoteSuggestion(sg *mealie.Suggestion) *recipesv1.Suggestion {
	r := summary(&sg.Recipe)
	out := &recipesv1.Suggestion{Recipe: &recipesv1.RecipeSummary{Slug: r.Slug, Name: r.Name, Description: r.Description}}
	for _, f := range sg.MissingFoods {
		out.MissingFoods = append(out.MissingFoods, cleanFood(f.Name))
	}
	for _, t := range sg.MissingTools {
		out.MissingTools = append(out.MissingTools, t.Name)
	}
	return out
}

// pantryInStock lists the pantry's items that are in stock or running low.
func (s *Service) pantryInStock(ctx context.Context) ([]*pantryv1.PantryItem, error) {
	res, err := s.pantry.GetPantry(ctx, connect.NewRequest(&pantryv1.GetPantryRequest{}))
	if err != nil {
		var ce *connect.Error
		if errors.As(err, &ce) {
			return nil, connect.NewError(ce.Code(), errors.New("the pantry could not be read: "+ce.Message()))
		}
		return nil, connect.NewError(connect.CodeUnavailable, errors.New("the pantry could not be read: "+err.Error()))
	}
	var out []*pantryv1.PantryItem
	for _, g := range res.Msg.GetGroups() {
		for _, it := range g.GetItems() {
			if st := it.GetState(); st == pantryv1.ItemState_ITEM_STATE_IN || st == pantryv1.ItemState_ITEM_STATE_LOW {
				out = append(out, it)
			}
		}
	}
	return out, nil
}

// stapleNames are what a kitchen is taken to have when suggesting: salt,
// black pepper, water and cooking oils, read as general names (so "salt"
// covers "kosher salt" and "Salt and pepper to taste", never "garlic salt";
// "black pepper" never a bell pepper); "pepper" and "oil" only as
// themselves (exactStaples), since "pepper" would cover a poblano. On a
// library of 40 imported recipes counting them cost this: asked for chicken thighs, rice and a
// lime, the one recipe with all three was left out for lacking salt,
// pepper and oil, and recipes of unparsed lines (which miss nothing
// countable) came first.
var stapleNames = []string{"salt", "black pepper", "water", "olive oil", "vegetable oil", "canola oil", "cooking oil", "cooking spray"}

// exactStaples are staples read only as the thing itself (names.Same).
var exactStaples = []string{"pepper", "oil", "salt and pepper"}

// stapleIDs lists the staple food ids in a stable order.
func stapleIDs(staples map[string]bool) []string {
	out := make([]string, 0, len(staples))
	for id := range staples {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
