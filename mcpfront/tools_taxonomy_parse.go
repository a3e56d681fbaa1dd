package mcpfront

import (
	"context"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
)

var parsers = map[string]recipesv1.Parser{
	"nlp": recipesv1.Parser_PARSER_NLP, "brute": recipesv1.Parser_PARSER_BRUTE, "openai": recipesv1.Parser_PARSER_OPENAI,
}

type parseIngredientsIn struct {
	Lines  []string `json:"lines" jsonschema:"Ingredient lines."`
	Parser string   `json:"parser,omitempty" jsonschema:"openai only if Mealie has it."`
}

// parseIngredientsTool declares parse_ingredients.
func parseIngredientsTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "parse_ingredients",
		Description: "Call to preview lines as create_recipe stores them: linked food, unit, note; new is what a write creates, check what to look at.",
		Annotations: readAnn(),
	}, hasRecipes, props{
		"lines":  toolschema.Both(toolschema.ItemsRange(1, limits.ParseLines), func(s *mcpSchema) { s.Items.MaxLength = ptr(limits.IngredientLineChars) }),
		"parser": toolschema.Both(toolschema.Enum("nlp", "brute", "openai"), func(s *mcpSchema) { s.Default = []byte(`"nlp"`) }),
	}, parseIngredients)
}

func parseIngredients(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in parseIngredientsIn) (any, error) {
	res, err := b.Recipes.ParseIngredients(ctx, connect.NewRequest(&recipesv1.ParseIngredientsRequest{Lines: in.Lines, Parser: parsers[in.Parser]}))
	if err != nil {
		return nil, err
	}
	type parsed struct {
		Input    string   `json:"input"`
		Quantity *float64 `json:"quantity,omitempty"`
		Unit     string   `json:"unit,omitempty"`
		Food     string   `json:"food,omitempty"`
		Note     string   `json:"note,omitempty"`
		// New names the parts a write creates ("food", "unit").
		New []string `json:"new,omitempty"`
		// Check says why sous is unsure of the line.
		Check      string   `json:"check,omitempty"`
		Confidence *float64 `json:"confidence,omitempty"`
	}
	out := struct {
		Items []parsed `json:"items"`
		// Resolved are names the parser gave that sous read as an
		// existing food or unit ("tomatoes" -> "tomato").
		Resolved map[string][]string `json:"resolved,omitempty"`
	}{Items: []parsed{}, Resolved: resolvedMap(res.Msg.GetResolved())}
	for _, p := range res.Msg.GetItems() {
		ing := p.GetIngredient()
		it := parsed{Input: p.GetInput(), Quantity: ing.Quantity, Unit: ing.GetUnit(), Food: ing.GetFood(), Note: ing.GetNote(), Check: p.GetCheck(), Confidence: p.Confidence}
		// The line is what create_recipe stores: a food or unit without
		// an id is one the write creates.
		if it.Food != "" && ing.GetFoodId() == "" {
			it.New = append(it.New, "food")
		}
		if it.Unit != "" && ing.GetUnitId() == "" {
			it.New = append(it.New, "unit")
		}
		out.Items = append(out.Items, it)
	}
	return out, nil
}
