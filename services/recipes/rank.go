package recipes

import (
	"context"
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
func (s *Service) rankLocally(ctx context.Context, foods, tools map[string]string, staples map[string]bool, textNames []textName, maxMissing, limit int, textOnly bool) ([]*recipesv1.Suggestion, map[string][]string, map[string]score, error) {
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
		sg, sc := rankOne(r, foods, tools, staples, textNames, maxMissing, hits)
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
}

// sortSuggestions puts recipes with linked foods before unparsed ones
// (whose missing foods cannot be counted: on the household library, the
// pantry's suggestions were ten unparsed recipes, none of them makeable),
// then orders by most covered
// (see score), then fewest missing foods, then fewer lines matched only
// by text (a linked food is
// surer than a word in a line), then fewest missing tools, then name.
func sortSuggestions(out []*recipesv1.Suggestion, scores map[string]score) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		sa, sb := scores[a.GetRecipe().GetSlug()], scores[b.GetRecipe().GetSlug()]
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
// fit what the cook named.
func rankOne(r *mealie.Recipe, foods, tools map[string]string, staples map[string]bool, textNames []textName, maxMissing int, hits map[string][]string) (sg *recipesv1.Suggestion, sc score) {
	sg = &recipesv1.Suggestion{Recipe: &recipesv1.RecipeSummary{Slug: r.Slug, Name: r.Name, Description: str(r.Description)}}
	seen := map[string]bool{}
	textSeen := map[string]bool{}
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
	return sg, sc
}
