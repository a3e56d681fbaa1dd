package recipes

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
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
	// MaxSuggestInputs caps the foods and tools named.
	MaxSuggestInputs = limits.SuggestInputs
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
	if len(m.GetFoods())+len(m.GetTools()) > MaxSuggestInputs {
		return nil, invalid("give at most %d foods and tools", MaxSuggestInputs)
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
	for _, n := range uniqueNames(m.GetFoods()) {
		textNames = append(textNames, textName{name: n})
		found := fx.covered(n)
		if len(found) == 0 {
			unknown = append(unknown, n)
			continue
		}
		for _, it := range found {
			addFood(it)
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
				textNames = append(textNames, textName{name: n, alias: alias})
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
			}
			addResolved(resolved, pi.GetName(), itemNamesOf(found)...)
		}
	}
	tx := indexItems(tools)
	toolIDs := map[string]string{}
	var toolOrder []string
	for _, n := range uniqueNames(m.GetTools()) {
		if it, _, _ := tx.bind(n); it != nil {
			if _, ok := toolIDs[it.ID]; !ok {
				toolIDs[it.ID] = it.Name
				toolOrder = append(toolOrder, it.ID)
			}
			addResolved(resolved, n, it.Name)
		}
	}
	finish := func(items []*recipesv1.Suggestion, textHits map[string][]string) *connect.Response[recipesv1.SuggestRecipesResponse] {
		out.Items = items
		for _, n := range unknown {
			if hits := textHits[names.Fold(n)]; len(hits) > 0 {
				// not a Mealie food, but recipe lines name it
				addResolved(resolved, n, hits...)
				continue
			}
			out.UnknownFoods = append(out.UnknownFoods, n)
		}
		out.Resolved = nilIfEmpty(resolved)
		return connect.NewResponse(out)
	}
	if len(foodIDs)+len(toolIDs)+len(textNames) == 0 {
		return finish(nil, nil), nil
	}
	if !s.noSuggestions.Load() && len(foodIDs)+len(toolIDs) > 0 {
		got, err := s.mealie.SuggestRecipes(ctx, mealie.SuggestionQuery{
			FoodIDs: foodOrder, ToolIDs: toolOrder, Limit: limit, MaxMissingFoods: maxMissing, MaxMissingTools: MaxMissingTools,
		})
		switch {
		case err == nil:
			var items []*recipesv1.Suggestion
			for i := range got {
				items = append(items, remoteSuggestion(&got[i]))
			}
			// Mealie ranks by linked foods only; recipes whose lines
			// are text are read here and merged in.
			text, hits, scores, err := s.rankLocally(ctx, foodIDs, toolIDs, textNames, maxMissing, limit, true)
			if err != nil {
				return nil, mealie.ConnectError(err)
			}
			return finish(mergeSuggestions(items, text, scores, limit), hits), nil
		case mealie.StatusOf(err) == http.StatusNotFound:
			s.noSuggestions.Store(true)
		default:
			return nil, mealie.ConnectError(err)
		}
	}
	items, hits, _, err := s.rankLocally(ctx, foodIDs, toolIDs, textNames, maxMissing, limit, false)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if s.noSuggestions.Load() {
		out.Note = localNote
	}
	return finish(items, hits), nil
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
	sortSuggestions(out, scores)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

func remoteSuggestion(sg *mealie.Suggestion) *recipesv1.Suggestion {
	r := summary(&sg.Recipe)
	out := &recipesv1.Suggestion{Recipe: &recipesv1.RecipeSummary{Slug: r.Slug, Name: r.Name, Description: r.Description}}
	for _, f := range sg.MissingFoods {
		out.MissingFoods = append(out.MissingFoods, f.Name)
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
func (s *Service) rankLocally(ctx context.Context, foods, tools map[string]string, textNames []textName, maxMissing, limit int, textOnly bool) ([]*recipesv1.Suggestion, map[string][]string, map[string]score, error) {
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
		sg, sc := rankOne(r, foods, tools, textNames, maxMissing, hits)
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
}

// sortSuggestions orders by most covered first (see score), then fewest
// missing foods, then fewer lines matched only by text (a linked food is
// surer than a word in a line), then fewest missing tools, then name.
func sortSuggestions(out []*recipesv1.Suggestion, scores map[string]score) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		sa, sb := scores[a.GetRecipe().GetSlug()], scores[b.GetRecipe().GetSlug()]
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
// gave or a pantry item's own name covers the kinds of it (names.Covers:
// "chicken" in "2 chicken breasts"); a pantry alias only names the same
// thing (names.Mentions).
type textName struct {
	name  string
	alias bool
}

func (tn textName) matches(line string) bool {
	if tn.alias {
		return names.Mentions(tn.name, line)
	}
	return names.Covers(tn.name, line)
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

// rankOne scores one recipe; sg is nil when it does not qualify.
func rankOne(r *mealie.Recipe, foods, tools map[string]string, textNames []textName, maxMissing int, hits map[string][]string) (sg *recipesv1.Suggestion, sc score) {
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
		if seen[in.Food.ID] {
			continue
		}
		seen[in.Food.ID] = true
		needed++
		if _, ok := foods[in.Food.ID]; !ok {
			sg.MissingFoods = append(sg.MissingFoods, in.Food.Name)
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
	return sg, sc
}

// parsers maps the API's parser to Mealie's name; unspecified is Mealie's
// default, nlp.
var parsers = map[recipesv1.Parser]string{
	recipesv1.Parser_PARSER_UNSPECIFIED: "nlp",
	recipesv1.Parser_PARSER_NLP:         "nlp",
	recipesv1.Parser_PARSER_BRUTE:       "brute",
	recipesv1.Parser_PARSER_OPENAI:      "openai",
}

// MaxParseLines caps one ParseIngredients call.
const MaxParseLines = limits.ParseLines

// ParseIngredients runs Mealie's parser over lines.
func (s *Service) ParseIngredients(ctx context.Context, req *connect.Request[recipesv1.ParseIngredientsRequest]) (*connect.Response[recipesv1.ParseIngredientsResponse], error) {
	parser, ok := parsers[req.Msg.GetParser()]
	if !ok {
		return nil, invalid("parser: unknown value %d; use PARSER_NLP, PARSER_BRUTE or PARSER_OPENAI, or leave it unset for nlp", req.Msg.GetParser())
	}
	lines := req.Msg.GetLines()
	if len(lines) == 0 || len(lines) > MaxParseLines {
		return nil, invalid("lines: give 1 to %d, got %d", MaxParseLines, len(lines))
	}
	clean := make([]string, len(lines))
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			return nil, invalid("lines[%d] is empty", i)
		}
		if len([]rune(l)) > MaxLineChars {
			return nil, invalid("lines[%d]: at most %d characters", i, MaxLineChars)
		}
		clean[i] = l
	}
	if parser == "openai" {
		// Mealie answers a bare 500 when OpenAI is not configured (2.0 to
		// 3.20); its about route (its group's AI settings on 3.20) says so
		// beforehand.
		if on := s.mealie.OpenAIEnabled(ctx); on != nil && !*on {
			return nil, connect.NewError(connect.CodeFailedPrecondition, errors.New(
				"parser openai is not enabled on this Mealie server (it has no OpenAI settings): use parser nlp or brute"))
		}
	}
	got, err := s.mealie.ParseIngredients(ctx, parser, clean)
	if err != nil {
		if mealie.ServerFailed(err) {
			return nil, s.parserAlternative(ctx, parser, clean, err)
		}
		return nil, mealie.ConnectError(err)
	}
	out := &recipesv1.ParseIngredientsResponse{}
	foods, err := s.mealie.Taxonomy(ctx, mealie.Foods)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	units, err := s.mealie.Taxonomy(ctx, mealie.Units)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	fx, ux := indexItems(foods), indexItems(units)
	resolved := map[string]*recipesv1.Names{}
	for i := range got {
		pi := parsed(&got[i])
		bindParsed(pi.GetIngredient(), fx, ux, resolved)
		keepEveryWord(pi.GetIngredient(), got[i].Input, &got[i], fx, ux)
		out.Items = append(out.Items, pi)
	}
	out.Resolved = nilIfEmpty(resolved)
	return connect.NewResponse(out), nil
}

// parserAlternative words a parser's server failure with which parser does
// work here: it tries the others on the same lines (they only read) and
// names the first that answers, so the caller can call again with it.
func (s *Service) parserAlternative(ctx context.Context, failed string, lines []string, err error) error {
	for _, p := range []string{"nlp", "brute"} {
		if p == failed {
			continue
		}
		if _, perr := s.mealie.ParseIngredients(ctx, p, lines); perr == nil {
			return connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("%s; parser %s works on this server: call again with parser %s", errMessage(err), p, p))
		}
	}
	return connect.NewError(mealie.ConnectCode(err), fmt.Errorf("%s; the other parsers failed too, so none works on this server now: write the lines as structured ingredients instead", errMessage(err)))
}

// bindParsed fills in the ids of a parsed food and unit Mealie did not
// match but sous binds (as create_recipe would write the line: "tomatoes"
// is the library's "tomato"), and records the reading in resolved.
func bindParsed(in *recipesv1.Ingredient, fx, ux *itemIndex, resolved map[string]*recipesv1.Names) {
	if in.GetFood() != "" && in.GetFoodId() == "" {
		if it, _, _ := fx.bind(in.GetFood()); it != nil {
			addResolved(resolved, in.GetFood(), it.Name)
			in.Food, in.FoodId = it.Name, it.ID
		}
	}
	if in.GetUnit() != "" && in.GetUnitId() == "" {
		if it, _, _ := ux.bind(in.GetUnit()); it != nil {
			addResolved(resolved, in.GetUnit(), it.Name)
			in.Unit, in.UnitId = it.Name, it.ID
		}
	}
}

// keepEveryWord puts into the parsed line's note the words of the input
// the parser dropped ("or canola oil", "(thinly sliced)"), as a write does
// (restoreWords), so a model that passes parse_ingredients' objects on to
// create_recipe or update_recipe stores every word of the line.
func keepEveryWord(in *recipesv1.Ingredient, line string, pi *mealie.ParsedIngredient, fx, ux *itemIndex) {
	if in == nil || strings.TrimSpace(line) == "" {
		return
	}
	w := mealie.IngredientLine{Note: in.GetNote()}
	if in.GetUnit() != "" {
		w.Unit = &mealie.IngredientRef{ID: in.GetUnitId(), Name: in.GetUnit()}
	}
	if in.GetFood() != "" {
		w.Food = &mealie.IngredientRef{ID: in.GetFoodId(), Name: in.GetFood()}
	}
	if note, changed := restoreWords(parsedParts(line, pi), w, fx, ux); changed {
		in.Note = note
	}
}

// parsed shapes one parser answer. Foods and units the parser named but
// Mealie does not know come back without an id, and stay without one.
func parsed(p *mealie.ParsedIngredient) *recipesv1.ParsedIngredient {
	out := &recipesv1.ParsedIngredient{Input: p.Input, Ingredient: ingredient(&p.Ingredient)}
	if c := p.Confidence.Average; c != nil {
		v := *c
		out.Confidence = &v
	}
	return out
}
