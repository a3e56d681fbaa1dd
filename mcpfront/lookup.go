package mcpfront

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/mealieslug"
	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// A tool that takes a recipe, a cookbook, a shopping list or a taxonomy
// item by its slug or id also takes its exact name, case-insensitively,
// where one thing has it: a model that read "Chicken Curry" in a list
// passes that. Text that could be a slug or an id (no capitals, no spaces)
// is passed through as one; text that cannot (a capital or a space) is
// looked up by name first. A miss answers the closest real matches the same
// way everywhere: "no recipe 'Chicken Curry'; did you mean chicken-curry-2
// (Chicken Curry)?". A write is never retried under another name after a
// miss: the model reads the suggestion and calls again.

// maxSuggestions is how many close matches a miss names.
const maxSuggestionsShown = 3

// looksLikeName reports whether s cannot be a slug or an id, so it is
// looked up by name: slugs and ids have no capitals and no spaces.
// Text with a control character (a newline, a NUL) is neither: it passes
// through, for the service to refuse before any request.
func looksLikeName(s string) bool {
	if strings.TrimSpace(s) == "" || strings.ContainsFunc(s, unicode.IsControl) {
		return false
	}
	return strings.ContainsFunc(s, unicode.IsUpper) || strings.ContainsFunc(s, unicode.IsSpace)
}

// candidate is one real thing a miss can suggest: the value to pass and
// the name a person knows it by.
type candidate struct{ ref, name string }

func (c candidate) String() string {
	if c.name == "" || c.name == c.ref {
		return c.ref
	}
	return fmt.Sprintf("%s (%s)", c.ref, c.name)
}

// byName picks the candidates whose name is given, case-insensitively.
func byName(given string, cs []candidate) []candidate {
	var out []candidate
	for _, c := range cs {
		if strings.EqualFold(strings.TrimSpace(c.name), strings.TrimSpace(given)) {
			out = append(out, c)
		}
	}
	return out
}

// sameCase keeps, of several candidates byName found, the one whose name
// is written exactly as given, when exactly one is. A real library's
// foods hold "tomatoes" and "Tomatoes" as two items, and a model copies
// the name manage_taxonomy listed; recipes are not read this way, since a
// recipe's name is said by people in any case.
func sameCase(given string, m []candidate) []candidate {
	var exact []candidate
	for _, c := range m {
		if strings.TrimSpace(c.name) == strings.TrimSpace(given) {
			exact = append(exact, c)
		}
	}
	if len(m) > 1 && len(exact) == 1 {
		return exact
	}
	return m
}

// nearest ranks candidates by how close their name or ref is to given
// (same name, containing it, a few letters apart) and keeps the closest.
func nearest(given string, cs []candidate) []candidate {
	g := strings.ToLower(strings.TrimSpace(given))
	type scored struct {
		c candidate
		d int
	}
	var ranked []scored
	for _, c := range cs {
		best := -1
		for _, s := range []string{strings.ToLower(c.name), strings.ToLower(c.ref)} {
			if s == "" {
				continue
			}
			d := toolschema.EditDistance(g, s)
			for _, w := range strings.Fields(s) {
				// A slip of one word of a longer name.
				d = min(d, toolschema.EditDistance(g, w))
			}
			if len(g) >= 3 && (strings.Contains(s, g) || strings.Contains(g, s)) {
				d = min(d, 1)
			}
			if sharesStem(g, s) {
				d = min(d, 2)
			}
			if d <= max(2, len([]rune(g))/3) && (best < 0 || d < best) {
				best = d
			}
		}
		if best >= 0 {
			ranked = append(ranked, scored{c, best})
		}
	}
	slices.SortStableFunc(ranked, func(a, b scored) int { return a.d - b.d })
	var out []candidate
	for _, r := range ranked[:min(len(ranked), maxSuggestionsShown)] {
		out = append(out, r.c)
	}
	return out
}

// sharesStem reports whether a word of a and a word of b start with the
// same four letters ("grocery list" and "Groceries"): a stem in common
// makes a name near even when whole strings are far apart.
func sharesStem(a, b string) bool {
	const stem = 4
	for _, wa := range strings.Fields(a) {
		ra := []rune(wa)
		if len(ra) < stem {
			continue
		}
		for _, wb := range strings.Fields(b) {
			if rb := []rune(wb); len(rb) >= stem && string(ra[:stem]) == string(rb[:stem]) {
				return true
			}
		}
	}
	return false
}

// missError words a miss: "no recipe 'x'; did you mean a (A)?", or what to
// call to see what there is.
func missError(noun, given string, close []candidate, lister string) error {
	if len(close) == 0 {
		return fmt.Errorf("no %s %s; %s lists what there is", noun, toolschema.Quote(given), lister)
	}
	var s []string
	for _, c := range close[:min(len(close), maxSuggestionsShown)] {
		s = append(s, c.String())
	}
	return fmt.Errorf("no %s %s; did you mean %s?", noun, toolschema.Quote(given), strings.Join(s, ", "))
}

// ambiguous words a name several things share.
func ambiguous(noun, given string, cs []candidate) error {
	var s []string
	for _, c := range cs {
		s = append(s, c.ref)
	}
	return fmt.Errorf("%d %ss are named %s: %s; pass one of these instead", len(cs), noun, toolschema.Quote(given), strings.Join(s, ", "))
}

// isNotFound reports a service's NotFound.
func isNotFound(err error) bool {
	var ce *connect.Error
	return errors.As(err, &ce) && ce.Code() == connect.CodeNotFound
}

// pick resolves given among cs by exact name: one match is it, several are
// ambiguous, none is a miss naming the nearest.
func pick(noun, given, lister string, cs []candidate) (string, error) {
	switch m := byName(given, cs); len(m) {
	case 1:
		return m[0].ref, nil
	case 0:
		return "", missError(noun, given, nearest(given, cs), lister)
	default:
		return "", ambiguous(noun, given, m)
	}
}

// recipeCandidates searches recipes by the words given, for a lookup or a
// suggestion: Mealie's own search ranks them.
func recipeCandidates(ctx context.Context, b Backends, given string) ([]candidate, error) {
	res, err := b.Recipes.SearchRecipes(ctx, connect.NewRequest(&recipesv1.SearchRecipesRequest{
		Query: strings.TrimSpace(strings.ReplaceAll(given, "-", " ")), Fields: []string{"name"}, Limit: ptr(int32(20)),
	}))
	if err != nil {
		return nil, err
	}
	var out []candidate
	for _, r := range res.Msg.GetItems() {
		out = append(out, candidate{ref: r.GetSlug(), name: r.GetName()})
	}
	return out, nil
}

// resolveRecipe turns what a caller gave for a recipe into a slug: a
// slug-like value as it is, a name by exact match.
func resolveRecipe(ctx context.Context, b Backends, given string) (string, error) {
	if !looksLikeName(given) {
		return given, nil
	}
	cs, err := recipeCandidates(ctx, b, given)
	if err != nil {
		return "", err
	}
	if m := byName(given, cs); len(m) == 1 {
		return m[0].ref, nil
	} else if len(m) > 1 {
		return "", ambiguous("recipe", given, m)
	}
	// Mealie's search lists every recipe sharing a word, A to Z, so a name
	// of common words ("Paprika Chicken Comfort Bowl" among twenty other
	// chicken recipes) can fall past the page read; the recipe the name's
	// own slug names is the next place to look.
	if slug := mealieslug.Make(given); slug != "" {
		res, err := b.Recipes.GetRecipe(ctx, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: slug, Fields: []string{"name"}}))
		if err == nil && strings.EqualFold(strings.TrimSpace(res.Msg.GetRecipe().GetName()), strings.TrimSpace(given)) {
			return slug, nil
		}
	}
	return "", recipeMiss(ctx, b, given, cs)
}

// recipeMiss is the refusal of a recipe that is not there, with the
// closest recipes Mealie's search finds (cs when already searched).
func recipeMiss(ctx context.Context, b Backends, given string, cs []candidate) error {
	if cs == nil {
		var err error
		if cs, err = recipeCandidates(ctx, b, given); err != nil {
			cs = nil
		}
	}
	// Mealie's search also matches recipes that only share a word or an
	// ingredient; only names near the one given are worth suggesting.
	return missError("recipe", given, nearest(given, cs), "search_recipes")
}

// onRecipeMiss replaces a service's NotFound for a recipe with the miss
// sentence and its suggestions; other errors pass.
func onRecipeMiss(ctx context.Context, b Backends, given string, err error) error {
	if err == nil || !isNotFound(err) {
		return err
	}
	return recipeMiss(ctx, b, given, nil)
}

// cookbookCandidates lists the cookbooks, by slug.
func cookbookCandidates(ctx context.Context, b Backends, byID bool) ([]candidate, error) {
	res, err := b.Library.ListCookbooks(ctx, connect.NewRequest(&libraryv1.ListCookbooksRequest{}))
	if err != nil {
		return nil, err
	}
	var out []candidate
	for _, c := range res.Msg.GetItems() {
		ref := c.GetSlug()
		if byID {
			ref = c.GetId()
		}
		out = append(out, candidate{ref: ref, name: c.GetName()})
	}
	return out, nil
}

// resolveCookbook turns a cookbook name into its slug (byID false) or id.
func resolveCookbook(ctx context.Context, b Backends, given string, byID bool) (string, error) {
	if !looksLikeName(given) {
		return given, nil
	}
	cs, err := cookbookCandidates(ctx, b, byID)
	if err != nil {
		return "", err
	}
	return pick("cookbook", given, "list_cookbooks", cs)
}

// onCookbookMiss replaces a NotFound for a cookbook with the nearest ones.
func onCookbookMiss(ctx context.Context, b Backends, given string, byID bool, err error) error {
	if err == nil || !isNotFound(err) {
		return err
	}
	cs, lerr := cookbookCandidates(ctx, b, byID)
	if lerr != nil {
		return err
	}
	return missError("cookbook", given, nearest(given, cs), "list_cookbooks")
}

// listCandidates lists the household's shopping lists, by id.
func listCandidates(ctx context.Context, b Backends) ([]candidate, error) {
	res, err := b.MealPlan.GetShoppingList(ctx, connect.NewRequest(&mealplanv1.GetShoppingListRequest{}))
	if err != nil {
		return nil, err
	}
	var out []candidate
	for _, l := range res.Msg.GetItems() {
		out = append(out, candidate{ref: l.GetId(), name: l.GetName()})
	}
	return out, nil
}

// resolveList turns a shopping list's name into its id.
func resolveList(ctx context.Context, b Backends, given string) (string, error) {
	if given == "" || !looksLikeName(given) {
		return given, nil
	}
	cs, err := listCandidates(ctx, b)
	if err != nil {
		return "", err
	}
	return pick("shopping list", given, "get_shopping_list", cs)
}

// onListMiss replaces a NotFound for a shopping list with the nearest.
func onListMiss(ctx context.Context, b Backends, given string, err error) error {
	if err == nil || given == "" || !isNotFound(err) {
		return err
	}
	cs, lerr := listCandidates(ctx, b)
	if lerr != nil {
		return err
	}
	return missError("shopping list", given, nearest(given, cs), "get_shopping_list")
}

// resolveTaxonomy turns a taxonomy item's exact name into its id. A name
// no item has exactly is passed on as it is: the recipes service reads it
// with its name resolver (a plural, an alias, a slug) and answers a miss
// with the closest names itself.
func resolveTaxonomy(ctx context.Context, b Backends, res recipesv1.TaxonomyResource, noun, given string) (string, error) {
	if given == "" || !looksLikeName(given) {
		return given, nil
	}
	r, err := b.Recipes.ListTaxonomy(ctx, connect.NewRequest(&recipesv1.ListTaxonomyRequest{Resource: res, Search: given}))
	if err != nil {
		return "", err
	}
	var cs []candidate
	for _, it := range r.Msg.GetItems() {
		cs = append(cs, candidate{ref: it.GetId(), name: it.GetName()})
	}
	switch m := sameCase(given, byName(given, cs)); len(m) {
	case 0:
		return given, nil
	case 1:
		return m[0].ref, nil
	default:
		return "", ambiguous(noun, given, m)
	}
}
