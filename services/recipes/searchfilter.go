package recipes

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// MaxTotalMinutes caps max_total_minutes: a week (limits.TotalMinutes).
const MaxTotalMinutes = limits.TotalMinutes

// verdict is what the time and history filters make of one recipe.
type verdict int

const (
	// dropped: the recipe does not fit (too long, or made before).
	dropped verdict = iota
	// fits: the recipe fits.
	fits
	// noTime: the recipe has no time sous can read, so whether it fits a
	// time bound is unknown; it is left out and counted.
	noTime
)

// keepFunc judges one recipe summary.
type keepFunc func(*mealie.RecipeSummary) verdict

// searchKeep is the filter of a search's max_total_minutes and never_made,
// which Mealie cannot apply: its times are text (cooktime), and its
// lastMade is filtered as a date the 3.x household join replaces with 1900
// when the household never made the recipe (RepositoryRecipes'
// last_made alias in Mealie 3.x), so both are read here from the list
// payload every version answers. nil when neither is set.
func searchKeep(m *recipesv1.SearchRecipesRequest) keepFunc {
	if m.MaxTotalMinutes == nil && !m.GetNeverMade() {
		return nil
	}
	bound := int(m.GetMaxTotalMinutes())
	never := m.GetNeverMade()
	return func(r *mealie.RecipeSummary) verdict {
		if never && str(r.LastMade) != "" {
			return dropped
		}
		if bound == 0 {
			return fits
		}
		n, ok := recipeMinutes(r)
		switch {
		case !ok:
			return noTime
		case n <= bound:
			return fits
		}
		return dropped
	}
}

// kept reports whether keep lets r through, counting in untimed a recipe
// left out for having no time sous can read.
func kept(keep keepFunc, r *mealie.RecipeSummary, untimed *int32) bool {
	switch keep(r) {
	case fits:
		return true
	case noTime:
		*untimed++
	}
	return false
}

// maxClosest is how many closest names an unknown name is answered with.
const maxClosest = 3

// checkUnknown reports the names of one filter that matched nothing. The
// search goes on with the others, and each unknown name is answered with
// the library's closest names (closestNames); when every name of the
// filter is unknown, or require_all asks for all of them, the search could
// only widen or come back empty, so the call is refused instead, with the
// same closest names.
func (s *Service) checkUnknown(ctx context.Context, lib libraryList, res mealie.Resource, field string, given, missed []string, requireAll bool, out *[]*recipesv1.UnknownName) error {
	var found []*recipesv1.UnknownName
	for _, n := range missed {
		c, err := s.closestNames(ctx, lib, res, n)
		if err != nil {
			return mealie.ConnectError(err)
		}
		found = append(found, &recipesv1.UnknownName{Field: field, Name: n, Closest: c})
	}
	if requireAll || len(missed) == len(given) {
		var parts []string
		for _, u := range found {
			parts = append(parts, unknownPhrase(field, u.GetName(), u.GetClosest()))
		}
		why := "so nothing was searched"
		if requireAll && len(missed) < len(given) {
			why = "and require_all needs every name, so nothing was searched"
		}
		return invalid("%s: %s, %s", field, strings.Join(parts, "; "), why)
	}
	*out = append(*out, found...)
	return nil
}

// libraryList answers the library's recipe list, read at most once for
// one call (libraryOnce): a call with several unknown names reads the
// closest names of each from one sweep.
type libraryList func() ([]mealie.RecipeSummary, error)

// libraryOnce is a libraryList that reads the list on first use.
func (s *Service) libraryOnce(ctx context.Context) libraryList {
	return sync.OnceValues(func() ([]mealie.RecipeSummary, error) {
		list, _, err := s.mealie.AllRecipes(ctx, mealie.MaxLibraryRecipes)
		return list, err
	})
}

// unknownPhrase says one unknown name and its closest names.
func unknownPhrase(field, name string, closest []string) string {
	noun := strings.TrimSuffix(field, "s")
	if field == "categories" {
		noun = "category"
	}
	if len(closest) == 0 {
		return fmt.Sprintf("no %s is called %q and none comes close", noun, name)
	}
	return fmt.Sprintf("no %s is called %q (closest: %s)", noun, name, strings.Join(quoted(closest, maxClosest), ", "))
}

// closestNames are up to maxClosest names of the library's res nearest in
// meaning to name, which matched none of them. Meaning is read from the
// library itself, strongest first:
//
//  1. for foods, the foods that lines naming it are linked to: a line
//     "2 aubergines (eggplant), diced" linked to "aubergine" says what
//     this library calls an eggplant;
//  2. names sharing a word with it, the head noun first ("chicken
//     breast" finds "chicken thighs");
//  3. names carried by the recipes that mention it in their name or
//     description (the tags of "Vegetarian chilli" for "veggie"; the
//     foods of the spaghetti recipes for "spaghetti"), the more often
//     and the more particular to them the closer;
//  4. close spellings ("tumeric" for "turmeric"), only within the few
//     edits of a typo: a name that only looks alike, such as "salt" for
//     "spaghetti", is never offered.
func (s *Service) closestNames(ctx context.Context, lib libraryList, res mealie.Resource, name string) ([]string, error) {
	items, err := s.mealie.Taxonomy(ctx, res)
	if err != nil {
		return nil, err
	}
	x := indexItems(items)
	var out []string
	add := func(ns ...string) {
		for _, n := range ns {
			if len(out) < maxClosest && n != "" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	linked, carried, err := s.usedBeside(ctx, lib, res, name)
	if err != nil {
		return nil, err
	}
	add(linked...)
	add(sharedWords(items, name)...)
	add(carried...)
	add(x.Resolve(name).Suggestions...)
	return out, nil
}

// sharedWords are the item names sharing a word with name (see names.Words,
// which drops preparation words and reads plurals as singulars), those
// sharing its head noun first, then those sharing more words, then A to Z.
func sharedWords(items []mealie.TaxonomyItem, name string) []string {
	w := names.Words(name)
	if len(w) == 0 {
		return nil
	}
	head := w[len(w)-1]
	type cand struct {
		name   string
		head   bool
		shared int
	}
	var cs []cand
	for i := range items {
		iw := names.Words(items[i].Name)
		shared := 0
		for _, x := range w {
			if len(x) > 2 && slices.Contains(iw, x) {
				shared++
			}
		}
		if shared == 0 {
			continue
		}
		cs = append(cs, cand{items[i].Name, len(iw) > 0 && iw[len(iw)-1] == head, shared})
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].head != cs[b].head {
			return cs[a].head
		}
		if cs[a].shared != cs[b].shared {
			return cs[a].shared > cs[b].shared
		}
		return strings.ToLower(cs[a].name) < strings.ToLower(cs[b].name)
	})
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// usedBeside reads the library for what it uses beside name. linked are,
// for foods, the foods of lines whose text holds its words, most lines
// first. carried are the res names (foods, tags, categories or
// tools) of the recipes that name it in their name or description,
// ordered by how particular they are to those recipes: hits over the square
// root of the recipes carrying the name in all, so "Dinner" on every recipe
// does not come first.
func (s *Service) usedBeside(ctx context.Context, lib libraryList, res mealie.Resource, name string) (linked, carried []string, err error) {
	list, err := lib()
	if err != nil {
		return nil, nil, err
	}
	lineHits := map[string]int{}
	hits, uses := map[string]int{}, map[string]int{}
	want := names.Words(name)
	mentions := func(text string) bool { return text != "" && containsWords(names.Words(text), want) }
	count := func(r *mealie.Recipe, mentioned bool) {
		var have []string
		switch res {
		case mealie.Tags:
			have = orgNames(r.Tags)
		case mealie.Categories:
			have = orgNames(r.Categories)
		case mealie.Tools:
			have = orgNames(r.Tools)
		case mealie.Foods:
			for i := range r.Ingredients {
				if f := r.Ingredients[i].Food; f != nil && f.Name != "" && !slices.Contains(have, f.Name) {
					have = append(have, f.Name)
				}
			}
		}
		for _, n := range have {
			uses[n]++
			if mentioned {
				hits[n]++
			}
		}
	}
	if res != mealie.Foods {
		// Tags, categories and tools are on the list payload: no detail
		// needs reading.
		for i := range list {
			r := &mealie.Recipe{RecipeSummary: list[i]}
			count(r, mentions(r.Name) || mentions(str(r.Description)))
		}
	} else {
		err = s.details(ctx, list, func(_ *mealie.RecipeSummary, r *mealie.Recipe, err error) error {
			if err != nil {
				return nil
			}
			mentioned := mentions(r.Name) || mentions(str(r.Description))
			for i := range r.Ingredients {
				in := &r.Ingredients[i]
				if in.Food == nil || in.Food.Name == "" {
					continue
				}
				if mentions(str(in.Note)) || mentions(str(in.OriginalText)) {
					lineHits[in.Food.Name]++
					mentioned = true
				}
			}
			count(r, mentioned)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	// Salt, pepper, water and oil stand beside everything and mean
	// nothing: "spaghetti" was answered with "salt".
	for n := range hits {
		if isStaple(n) {
			delete(hits, n)
		}
	}
	linked = byScore(lineHits, func(n string) float64 { return float64(lineHits[n]) })
	carried = byScore(hits, func(n string) float64 { return float64(hits[n]) / math.Sqrt(float64(uses[n])) })
	return linked, carried, nil
}

// byScore lists m's keys by score, highest first, then A to Z.
func byScore(m map[string]int, score func(string) float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(a, b int) bool {
		if sa, sb := score(out[a]), score(out[b]); sa != sb {
			return sa > sb
		}
		return strings.ToLower(out[a]) < strings.ToLower(out[b])
	})
	return out
}

// containsWords reports whether want stands in have as consecutive words.
func containsWords(have, want []string) bool {
	if len(want) == 0 {
		return false
	}
	for i := 0; i+len(want) <= len(have); i++ {
		if slices.Equal(have[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// isStaple reports whether a food name is one of the staples suggestions
// take as on hand (stapleNames, exactStaples), or a kind of one.
func isStaple(name string) bool {
	for _, st := range stapleNames {
		if names.Covers(st, name) {
			return true
		}
	}
	for _, st := range exactStaples {
		if names.Key(st) == names.Key(name) {
			return true
		}
	}
	return false
}
