package recipes

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// rankLocally is Mealie 3.x's suggestion ranking computed from recipe
// details: a recipe qualifies when it lacks at most maxMissing of its
// ingredient foods and at most MaxMissingTools of its tools, ordered by
// sortSuggestions. Lines with no food
// (text Mealie's parser did not link) count as on hand when one of
// textNames covers their words (names.Covers: "lime" in "juice of 1 lime")
// and are left out otherwise, as Mealie leaves them out. Recipes with no
// food, no tool and no such line say nothing about what is on hand and are
// left out; textOnly keeps only recipes with a line matched by text (the
// ones Mealie's own ranking cannot see). hits maps each folded text name to
// a few of the lines it matched; scores holds every recipe read, by slug.
func (s *Service) rankLocally(ctx context.Context, foods, tools map[string]string, staples map[string]bool, textNames []textName, owners map[string][]string, maxMissing, limit int, textOnly bool) ([]*recipesv1.Suggestion, map[string][]string, map[string]score, error) {
	list, _, err := s.mealie.AllRecipes(ctx, mealie.MaxLibraryRecipes)
	if err != nil {
		return nil, nil, nil, err
	}
	var out []*recipesv1.Suggestion
	hits := map[string][]string{}
	scores := map[string]score{}
	err = s.details(ctx, list, func(sum *mealie.RecipeSummary, r *mealie.Recipe, err error) error {
		if err != nil {
			return nil
		}
		sg, sc := rankOne(r, foods, tools, staples, textNames, owners, maxMissing, hits)
		scores[r.Slug] = sc
		if sg != nil && (!textOnly || sc.text > 0) {
			out = append(out, sg)
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	sortSuggestions(out, scores)
	if len(out) > limit {
		out = out[:limit]
	}
	return out, hits, scores, nil
}

// score is what sous read of one recipe against the names on hand:
// covered counts its foods on hand and the names on hand its lines of text
// name (each name once, however many lines), text the latter alone.
type score struct {
	covered, text int
	// linked counts the recipe's linked lines; a recipe with none is read
	// by its words alone
	linked int
	// uses are the names on hand the recipe uses, as they were named
	// (see usesOf); named counts those the cook named in the call, which
	// rank first.
	uses  []string
	named int
	// missing counts the recipe's foods not on hand, and name is the
	// recipe's: a recipe left out for missing too many is still named
	// when it uses more of the named foods (leftOutNote).
	missing int
	name    string
}

// sortSuggestions orders by how many of the foods the cook named in the
// call a recipe uses, most first, so a recipe using more of them is never
// left out while one using fewer is shown (asked for chicken thighs, rice
// and a lime, a recipe with the thighs and nine other foods was dropped
// for recipes with none of the three). Then it puts recipes with linked
// foods before unparsed ones (whose missing foods cannot be counted: on
// the household library, the pantry's suggestions were ten unparsed
// recipes, none of them makeable), then orders by most covered (see
// score), then fewest missing foods, then fewer lines matched only by
// text (a linked food is surer than a word in a line), then fewest
// missing tools, then name.
func sortSuggestions(out []*recipesv1.Suggestion, scores map[string]score) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		sa, sb := scores[a.GetRecipe().GetSlug()], scores[b.GetRecipe().GetSlug()]
		if sa.named != sb.named {
			return sa.named > sb.named
		}
		if ua, ub := a.GetUnparsed(), b.GetUnparsed(); ua != ub {
			return ub // a recipe of text lines says less
		}
		if sa.covered != sb.covered {
			return sa.covered > sb.covered
		}
		if len(a.MissingFoods) != len(b.MissingFoods) {
			return len(a.MissingFoods) < len(b.MissingFoods)
		}
		if sa.text != sb.text {
			return sa.text < sb.text
		}
		if len(a.MissingTools) != len(b.MissingTools) {
			return len(a.MissingTools) < len(b.MissingTools)
		}
		return strings.ToLower(a.Recipe.Name) < strings.ToLower(b.Recipe.Name)
	})
}

// textName is a name on hand read against lines of text: a name the cook
// gave or a pantry item's own name covers the kinds of it anywhere in the
// line (names.CoversLine: "chicken" in "2 boneless, skinless chicken
// breasts"); a pantry alias only names the same thing (names.Mentions).
type textName struct {
	name  string
	alias bool
	// owner is the name on hand it reads for: the food given, or the
	// pantry item an alias belongs to (see usesOf).
	owner string
	// pantry marks a name that came from the pantry, not from the cook.
	pantry bool
}

func (tn textName) matches(line string) bool {
	if tn.alias {
		return names.Mentions(tn.name, line)
	}
	return names.CoversLine(tn.name, line)
}

// maxTextHits is how many matched lines a name's resolved entry quotes.
const maxTextHits = 3

// lineText is what a line without a food says: its note, else what Mealie
// displays, else the text it was written from.
func lineText(in *mealie.RecipeIngredient) string {
	for _, t := range []string{str(in.Note), in.Display, str(in.OriginalText)} {
		if strings.TrimSpace(t) != "" {
			return t
		}
	}
	return ""
}

// rankOne scores one recipe; sg is nil when it does not qualify. A staple
// (see staples) is neither missing nor covered: it does not make a recipe
// fit what the cook named. owners maps each food id on hand to the names
// on hand that cover it, for the recipe's uses.
func rankOne(r *mealie.Recipe, foods, tools map[string]string, staples map[string]bool, textNames []textName, owners map[string][]string, maxMissing int, hits map[string][]string) (sg *recipesv1.Suggestion, sc score) {
	sg = &recipesv1.Suggestion{Recipe: &recipesv1.RecipeSummary{Slug: r.Slug, Name: r.Name, Description: str(r.Description)}}
	seen := map[string]bool{}
	textSeen := map[string]bool{}
	used := map[string]bool{}
	needed := 0
	for i := range r.Ingredients {
		in := &r.Ingredients[i]
		if in.Food == nil || in.Food.ID == "" {
			t := lineText(in)
			if t == "" {
				continue
			}
			for _, tn := range textNames {
				if tn.matches(t) {
					used[tn.owner] = true
					needed++
					k := names.Fold(tn.name)
					if !textSeen[k] {
						textSeen[k] = true
						sc.text++
						sc.covered++
					}
					if len(hits[k]) < maxTextHits && !slices.Contains(hits[k], t) {
						hits[k] = append(hits[k], t)
					}
					break
				}
			}
			continue
		}
		sc.linked++
		for _, o := range owners[in.Food.ID] {
			used[o] = true
		}
		if seen[in.Food.ID] || staples[in.Food.ID] {
			continue
		}
		seen[in.Food.ID] = true
		needed++
		if _, ok := foods[in.Food.ID]; !ok {
			sg.MissingFoods = append(sg.MissingFoods, cleanFood(in.Food.Name))
		} else {
			sc.covered++
		}
	}
	for _, t := range r.Tools {
		needed++
		if _, ok := tools[t.ID]; !ok {
			sg.MissingTools = append(sg.MissingTools, t.Name)
		}
	}
	sc.uses, sc.named = usesOf(used, textNames)
	sc.missing, sc.name = len(sg.MissingFoods), r.Name
	if needed == 0 || len(sg.MissingFoods) > maxMissing || len(sg.MissingTools) > MaxMissingTools {
		return nil, sc
	}
	if len(foods)+len(textNames) > 0 && sc.covered == 0 {
		// Foods were named and the recipe uses none of them (staples
		// aside): Mealie's own finder leaves such a recipe out
		// (find_suggested_recipes keeps a recipe only with at least one
		// of the user's foods).
		return nil, sc
	}
	sg.Unparsed = sc.linked == 0
	sg.Uses = sc.uses
	return sg, sc
}

// usesOf lists the names on hand a recipe uses, in the order they were
// given (the textNames list, the foods named first, then the pantry's),
// and counts those the cook named (the textNames not from the pantry).
func usesOf(used map[string]bool, textNames []textName) ([]string, int) {
	var out []string
	named := 0
	for _, tn := range textNames {
		if tn.owner == "" || !used[tn.owner] || slices.Contains(out, tn.owner) {
			continue
		}
		out = append(out, tn.owner)
		if !tn.pantry {
			named++
		}
	}
	return out, named
}

// maxLeftOut is how many recipes leftOutNote names.
const maxLeftOut = 3

// leftOutNote names the recipes that use more of the foods the cook named
// than every suggestion shown, left out because they lack more than
// maxMissing other foods, with the max_missing_foods that would show them:
// asked for aubergine and chickpeas, the one recipe with both (and eight
// foods more) was missing while one with aubergine alone was shown. Empty
// when there is none.
func leftOutNote(items []*recipesv1.Suggestion, scores map[string]score, maxMissing int) string {
	best := 0
	shown := map[string]bool{}
	for _, sg := range items {
		shown[sg.GetRecipe().GetSlug()] = true
		best = max(best, scores[sg.GetRecipe().GetSlug()].named)
	}
	var slugs []string
	for slug, sc := range scores {
		if !shown[slug] && sc.named > best && sc.missing > maxMissing && sc.linked > 0 {
			slugs = append(slugs, slug)
		}
	}
	if len(slugs) == 0 {
		return ""
	}
	slices.SortFunc(slugs, func(a, b string) int {
		sa, sb := scores[a], scores[b]
		if sa.named != sb.named {
			return sb.named - sa.named
		}
		if sa.missing != sb.missing {
			return sa.missing - sb.missing
		}
		return strings.Compare(a, b)
	})
	var parts []string
	need := 0
	for _, slug := range slugs[:min(len(slugs), maxLeftOut)] {
		sc := scores[slug]
		need = max(need, sc.missing)
		parts = append(parts, fmt.Sprintf("%s (%s; uses %s, lacks %d other foods)", sc.name, slug, strings.Join(sc.uses, ", "), sc.missing))
	}
	return fmt.Sprintf("left out for lacking more than %d foods, though they use more of the foods named: %s; max_missing_foods=%d shows them",
		maxMissing, strings.Join(parts, "; "), min(need, MaxMissingFoodsCap))
}

// addLeftOut adds leftOutNote's sentence to a suggestion answer's note.
func addLeftOut(out *recipesv1.SuggestRecipesResponse, items []*recipesv1.Suggestion, scores map[string]score, maxMissing int) {
	if n := leftOutNote(items, scores, maxMissing); n != "" {
		if out.Note != "" {
			out.Note += "; "
		}
		out.Note += n
	}
}
