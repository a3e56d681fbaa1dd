package recipes

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/amount"
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
	// The lines go the way a write takes them (planIngredients), so the
	// answer is what create_recipe stores: nlp, Mealie's default and the
	// MCP tool's, falls back to brute as a write does (Mealie 2.0 without
	// its CRF++ model answers nlp with a 500); brute or openai named
	// outright is the one used, and its failure names the one that works.
	parse := s.parseLines
	if p := req.Msg.GetParser(); p != recipesv1.Parser_PARSER_UNSPECIFIED && p != recipesv1.Parser_PARSER_NLP {
		parse = func(ctx context.Context, texts []string) ([]mealie.ParsedIngredient, error) {
			got, err := s.mealie.ParseIngredients(ctx, parser, texts)
			if err != nil {
				if mealie.ServerFailed(err) {
					return nil, s.parserAlternative(ctx, parser, texts, err)
				}
				return nil, mealie.ConnectError(err)
			}
			if len(got) != len(texts) {
				return nil, mealie.ConnectError(&mealie.Error{Kind: mealie.KindProtocol, Message: "Mealie's parser answered a different number of lines than it was sent"})
			}
			return got, nil
		}
	}
	var parsedLines []mealie.ParsedIngredient
	in := make([]*recipesv1.IngredientInput, len(clean))
	for i, l := range clean {
		in[i] = &recipesv1.IngredientInput{Kind: &recipesv1.IngredientInput_Text{Text: l}}
	}
	pl, err := s.planIngredients(ctx, in, func(ctx context.Context, texts []string) ([]mealie.ParsedIngredient, error) {
		p, err := parse(ctx, texts)
		parsedLines = p
		return p, err
	}, true)
	if err != nil {
		return nil, err
	}
	res, err := s.carryOut(ctx, pl, true)
	if err != nil {
		return nil, err
	}
	out := &recipesv1.ParseIngredientsResponse{Resolved: nilIfEmpty(res.resolved), NewFoods: res.created, NewUnits: res.createdUnits}
	for i, w := range res.lines {
		pi := &recipesv1.ParsedIngredient{Input: clean[i], Ingredient: storedIngredient(w), Check: res.checks[i]}
		if parsedLines != nil {
			if c := parsedLines[i].Confidence.Average; c != nil {
				v := *c
				pi.Confidence = &v
			}
		}
		out.Items = append(out.Items, pi)
	}
	return connect.NewResponse(out), nil
}

// storedIngredient is a line a write would store, as parse_ingredients
// answers it: the ids of foods and units the write would create are left
// empty, and the display is the line as Mealie's app shows one with those
// parts.
func storedIngredient(w mealie.IngredientLine) *recipesv1.Ingredient {
	out := &recipesv1.Ingredient{Note: w.Note, Title: w.Title, OriginalText: w.OriginalText}
	if w.Quantity != nil && *w.Quantity != 0 {
		q := *w.Quantity
		out.Quantity = &q
	}
	if w.Unit != nil {
		out.Unit, out.UnitId = w.Unit.Name, w.Unit.ID
		if strings.HasPrefix(w.Unit.ID, previewID) {
			out.UnitId = ""
		}
	}
	if w.Food != nil {
		out.Food, out.FoodId = cleanFood(w.Food.Name), w.Food.ID
		if strings.HasPrefix(w.Food.ID, previewID) {
			out.FoodId = ""
		}
	}
	out.Display = amount.Line(out.GetQuantity(), out.Unit, out.Food, "", out.Note)
	return out
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
