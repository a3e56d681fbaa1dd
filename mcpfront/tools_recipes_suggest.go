package mcpfront

import (
	"context"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
)

type suggestRecipesIn struct {
	Foods           []string `json:"foods,omitempty" jsonschema:"Foods on hand."`
	Tools           []string `json:"tools,omitempty" jsonschema:"Tools on hand."`
	MaxMissingFoods *int     `json:"max_missing_foods,omitempty" jsonschema:"Most missing foods allowed."`
	Limit           int      `json:"limit,omitempty" jsonschema:"Suggestions to return."`
	FromPantry      bool     `json:"from_pantry,omitempty" jsonschema:"Use the pantry's in-stock items."`
}

// suggestions is the answer of suggest_recipes.
type suggestions struct {
	Items []suggestion `json:"items"`
	Hint  string       `json:"hint,omitempty"`
	// UnknownFoods and UnknownTools are the names nothing knows, each
	// with the library's closest names by meaning.
	UnknownFoods    map[string][]string `json:"unknown_foods,omitempty"`
	UnknownTools    map[string][]string `json:"unknown_tools,omitempty"`
	UnmatchedPantry []string            `json:"unmatched_pantry_items,omitempty"`
	// Resolved says how names were read other than exactly: "rice"
	// as the library's rices, "lime" as the lines that name it.
	Resolved map[string][]string `json:"resolved,omitempty"`
	// AssumedOnHand are the staples never counted missing.
	AssumedOnHand []string `json:"assumed_on_hand,omitempty"`
	Note          string   `json:"note,omitempty"`
	// Capped says what the call was forgiven (see noted).
	Capped string `json:"capped,omitempty"`
}

func (s suggestions) withCapped(note string) any { s.Capped = note; return s }

// suggestion is one recipe suggest_recipes offers, with what it lacks.
type suggestion struct {
	Slug string `json:"slug"`
	Name string `json:"name,omitempty"`
	// Uses are the foods on hand it uses, as they were named.
	Uses         []string `json:"uses,omitempty"`
	MissingFoods []string `json:"missing_foods,omitempty"`
	MissingTools []string `json:"missing_tools,omitempty"`
	// Unparsed says the recipe's lines are text: it matched by their
	// words, and what it lacks is not counted.
	Unparsed bool `json:"unparsed,omitempty"`
}

// suggestRecipesTool declares suggest_recipes.
func suggestRecipesTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "suggest_recipes",
		Description: "Call when asked what to make from some foods or the pantry. Ranks by most foods on hand used, then fewest missing.",
		Annotations: readAnn(),
	}, hasRecipes, props{
		"foods":             toolschema.Both(toolschema.GuardCount(limits.SuggestFoods), toolschema.GuardItems(limits.TaxonomyNameChars)),
		"tools":             toolschema.Both(toolschema.GuardCount(limits.SuggestTools), toolschema.GuardItems(limits.TaxonomyNameChars)),
		"max_missing_foods": toolschema.IntRange(0, limits.MissingFoods, limits.DefaultMissingFoods),
		"limit":             toolschema.Capped(1, limits.SuggestLimit, limits.DefaultSuggestLimit),
	}, suggestRecipes)
}

func suggestRecipes(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in suggestRecipesIn) (any, error) {
	req := &recipesv1.SuggestRecipesRequest{Foods: in.Foods, Tools: in.Tools, Limit: int32(in.Limit), FromPantry: in.FromPantry}
	if in.MaxMissingFoods != nil {
		req.MaxMissingFoods = ptr(int32(*in.MaxMissingFoods))
	}
	res, err := b.Recipes.SuggestRecipes(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	out := suggestions{Items: []suggestion{}, UnmatchedPantry: res.Msg.GetUnmatchedPantryItems(), Resolved: resolvedMap(res.Msg.GetResolved()), AssumedOnHand: res.Msg.GetAssumedOnHand(), Note: res.Msg.GetNote()}
	for _, u := range res.Msg.GetUnknown() {
		dst := &out.UnknownFoods
		if u.GetField() == "tools" {
			dst = &out.UnknownTools
		}
		if *dst == nil {
			*dst = map[string][]string{}
		}
		(*dst)[u.GetName()] = orEmpty(u.GetClosest())
	}
	for _, s := range res.Msg.GetItems() {
		out.Items = append(out.Items, suggestion{Slug: s.GetRecipe().GetSlug(), Name: s.GetRecipe().GetName(), Uses: s.GetUses(), MissingFoods: s.GetMissingFoods(), MissingTools: s.GetMissingTools(), Unparsed: s.GetUnparsed()})
	}
	if len(out.Items) == 0 {
		out.Hint = "no recipe fits; raise max_missing_foods or name more foods"
	}
	return out, nil
}
