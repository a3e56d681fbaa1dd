package recipes

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
)

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
// is the library's "tomato"), and records the reading in resolved. A food
// the parser joined from two is the first (see firstFood).
func bindParsed(in *recipesv1.Ingredient, fx, ux *itemIndex, resolved map[string]*recipesv1.Names) {
	if in.GetFood() != "" && in.GetFoodId() == "" {
		in.Food = firstFood(in.GetFood())
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
