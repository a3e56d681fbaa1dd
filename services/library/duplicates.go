package library

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"connectrpc.com/connect"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// duplicateReason is the one-line reason every duplicate group carries.
const duplicateReason = "names equal ignoring case, punctuation, accents, spacing and a trailing (1), (2)… that Mealie adds to a reused name"

// copySuffix is the " (1)" Mealie appends to a new recipe's name when its
// slug is taken (RecipeService.create_one; the emulator's
// store.createRecipe does the same): the commonest duplicate of all is a
// recipe imported twice, and it differs from the first only by that.
var copySuffix = regexp.MustCompile(`\s*\(\d+\)\s*$`)

// nameKey normalises a recipe name for duplicate detection: accents dropped
// (NFD, then combining marks removed), case folded, every run of
// punctuation, symbols and spaces collapsed to one space. "Pad  Thaï" and
// "pad thai!" both become "pad thai". A trailing copySuffix is dropped
// first, unless it is the whole name.
func nameKey(name string) string {
	if trimmed := copySuffix.ReplaceAllString(name, ""); strings.TrimSpace(trimmed) != "" {
		name = trimmed
	}
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	plain, _, err := transform.String(t, name)
	if err != nil {
		plain = name
	}
	var b strings.Builder
	space := false
	for _, r := range plain {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteString(strings.ToLower(string(r)))
			continue
		}
		space = true
	}
	return b.String()
}

// groupDuplicates groups recipes by nameKey, keeping groups of two or more,
// ordered by key, recipes by slug.
func groupDuplicates(recipes []*libraryv1.RecipeRef) []*libraryv1.DuplicateGroup {
	byKey := map[string][]*libraryv1.RecipeRef{}
	for _, r := range recipes {
		k := nameKey(r.GetName())
		if k == "" {
			// A name of only punctuation says nothing about sameness.
			continue
		}
		byKey[k] = append(byKey[k], r)
	}
	var out []*libraryv1.DuplicateGroup
	for k, rs := range byKey {
		if len(rs) < 2 {
			continue
		}
		slices.SortFunc(rs, func(a, b *libraryv1.RecipeRef) int { return strings.Compare(a.Slug, b.Slug) })
		out = append(out, &libraryv1.DuplicateGroup{Key: k, Reason: duplicateReason, Recipes: rs})
	}
	slices.SortFunc(out, func(a, b *libraryv1.DuplicateGroup) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// FindDuplicateRecipes sweeps recipe summaries and groups equal names.
func (s *Service) FindDuplicateRecipes(ctx context.Context, req *connect.Request[libraryv1.FindDuplicateRecipesRequest], stream *connect.ServerStream[libraryv1.FindDuplicateRecipesResponse]) error {
	max, err := scanLimit(req.Msg.GetMaxRecipes(), MaxScanRecipes)
	if err != nil {
		return err
	}
	progress := func(p *libraryv1.ReportProgress) error {
		return stream.Send(&libraryv1.FindDuplicateRecipesResponse{Event: &libraryv1.FindDuplicateRecipesResponse_Progress{Progress: p}})
	}
	var refs []*libraryv1.RecipeRef
	st, err := s.sweep(ctx, max, recipesv1.RecipeView_RECIPE_VIEW_SUMMARY, "reading recipe names", progress, func(r *recipesv1.Recipe) {
		refs = append(refs, &libraryv1.RecipeRef{Slug: r.GetSlug(), Name: r.GetName()})
	})
	if err != nil {
		return err
	}
	groups, left := boundDuplicates(groupDuplicates(refs))
	dedupeReasons(groups)
	return stream.Send(&libraryv1.FindDuplicateRecipesResponse{Event: &libraryv1.FindDuplicateRecipesResponse_Result{Result: &libraryv1.FindDuplicateRecipesResult{
		Items:        groups,
		Scanned:      st.scanned,
		LibraryTotal: st.libraryTotal,
		Truncated:    joinNotes(st.truncatedNote(), left),
	}}})
}
