package mcpfront

import (
	"context"
	"encoding/json"
	"strings"

	"connectrpc.com/connect"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/souskitchen/sous/internal/amount"
	"github.com/souskitchen/sous/mcpfront/internal/toolschema"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
)

// amountText renders an ingredient amount as one short string, such as
// "200 g pork mince" or "¾ cup stock" (package amount): a model reads it as
// well as three fields, and a cook reads it as written. The pantry keeps no
// plural names, so a counted one is the English plural ("2 eggs").
func amountText(a *pantryv1.IngredientAmount) string {
	return amount.Line(a.GetQuantity(), a.GetUnit(), a.GetIngredient(), amount.Plural(a.GetIngredient()), "")
}

// metaRecipeView is a meta-recipe as a model reads it.
type metaRecipeView struct {
	ID     int64               `json:"id"`
	Name   string              `json:"name"`
	Method string              `json:"method,omitempty"`
	Slots  map[string][]string `json:"slots,omitempty"`
	Base   []string            `json:"base_ingredients,omitempty"`
}

func shapeMetaRecipe(m *pantryv1.MetaRecipe) metaRecipeView {
	v := metaRecipeView{ID: m.GetId(), Name: m.GetName(), Method: m.GetMethod()}
	for _, s := range m.GetSlots() {
		if v.Slots == nil {
			v.Slots = map[string][]string{}
		}
		for _, o := range s.GetOptions() {
			v.Slots[s.GetName()] = append(v.Slots[s.GetName()], amountText(o))
		}
	}
	for _, a := range m.GetBaseIngredients() {
		v.Base = append(v.Base, amountText(a))
	}
	return v
}

// getMetaRecipesTool declares get_meta_recipes.
func getMetaRecipesTool() Tool {
	return newTool(ToolsetPantry, &mcp.Tool{
		Name:        "get_meta_recipes",
		Description: "Call for a substitute, or before log_cook or create_meta_recipe. Lists meta-recipes (templates).",
		Annotations: readAnn(),
	}, hasPantry, nil, getMetaRecipes)
}

func getMetaRecipes(ctx context.Context, _ *mcp.CallToolRequest, b Backends, _ noInput) (any, error) {
	res, err := b.Pantry.GetMetaRecipes(ctx, connect.NewRequest(&pantryv1.GetMetaRecipesRequest{}))
	if err != nil {
		return nil, err
	}
	return listOf(res.Msg.GetItems(), shapeMetaRecipe, "no meta-recipes yet"), nil
}

type logCookIn struct {
	MetaRecipe  string         `json:"meta_recipe,omitempty" jsonschema:"Meta-recipe name or id."`
	Recipe      string         `json:"recipe,omitempty" jsonschema:"Pantry recipe name or id."`
	SlotChoices []slotChoiceIn `json:"slot_choices,omitempty" jsonschema:"What was used per slot, option or not."`
	Servings    *int           `json:"servings,omitempty" jsonschema:"Servings cooked."`
	Rating      *int           `json:"rating,omitempty" jsonschema:"Rating."`
	Notes       string         `json:"notes,omitempty" jsonschema:"Notes."`
	Date        string         `json:"date,omitempty" jsonschema:"Day; omit for today."`
}

// logCookTool declares log_cook.
func logCookTool() Tool {
	return newTool(ToolsetPantry, &mcp.Tool{
		Name:        "log_cook",
		Description: "Call when the user cooked a pantry (meta-)recipe. Returns what was used, to ask what is now low.",
		Annotations: writeAnn(false, false, false),
	}, hasPantry, props{
		"rating": toolschema.IntBounds(limits.MinRating, limits.MaxRating), "servings": toolschema.IntBounds(1, limits.Servings), "notes": toolschema.MaxLen(limits.CookNotesChars), "date": toolschema.Date, "slot_choices": toolschema.MaxItems(limits.Slots),
		"recipe": toolschema.GuardLen(limits.PantryNameChars), "meta_recipe": toolschema.GuardLen(limits.PantryNameChars),
	}, logCook)
}

func logCook(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in logCookIn) (any, error) {
	req := &pantryv1.LogCookRequest{Notes: in.Notes, Date: in.Date}
	switch {
	case in.MetaRecipe != "" && in.Recipe != "":
		return nil, errorf("give meta_recipe or recipe, not both")
	case in.MetaRecipe != "":
		req.Cooked = &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: in.MetaRecipe}
	case in.Recipe != "":
		req.Cooked = &pantryv1.LogCookRequest_Recipe{Recipe: in.Recipe}
	default:
		return nil, errorf("give meta_recipe (a template from get_meta_recipes) or recipe")
	}
	for _, c := range in.SlotChoices {
		req.SlotChoices = append(req.SlotChoices, &pantryv1.SlotChoice{Slot: c.Slot, Ingredient: c.Ingredient})
	}
	if in.Servings != nil {
		req.Servings = ptr(int32(*in.Servings))
	}
	if in.Rating != nil {
		req.Rating = ptr(int32(*in.Rating))
	}
	res, err := b.Pantry.LogCook(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, mealieRecipeHint(ctx, b, in.MetaRecipe+in.Recipe, err)
	}
	out := struct {
		ID          int64               `json:"cook_log_id"`
		What        string              `json:"cooked"`
		Date        string              `json:"date,omitempty"`
		Used        []string            `json:"used_ingredients,omitempty"`
		OffTemplate map[string]string   `json:"off_template,omitempty"`
		Created     []string            `json:"created_ingredients,omitempty"`
		Resolved    map[string]string   `json:"resolved,omitempty"`
		Close       map[string][]string `json:"close_to_created,omitempty"`
		Hint        string              `json:"hint,omitempty"`
	}{
		ID: res.Msg.GetCookLogId(), What: res.Msg.GetCooked(), Date: res.Msg.GetDate(), Used: res.Msg.GetUsedIngredients(),
		OffTemplate: res.Msg.GetOffTemplate(), Created: res.Msg.GetCreatedIngredients(), Resolved: res.Msg.GetResolved(),
	}
	for _, nm := range res.Msg.GetCreatedCloseMatches() {
		if out.Close == nil {
			out.Close = map[string][]string{}
		}
		out.Close[nm.GetName()] = nm.GetCloseMatches()
	}
	var hints []string
	if len(out.OffTemplate) > 0 {
		// What was cooked is logged even when the template does not list
		// it; saying so lets the model offer to add it as an option.
		hints = append(hints, "off_template choices are not options of their slot: logged as cooked, template unchanged")
	}
	if len(out.Close) > 0 {
		hints = append(hints, "a created ingredient is close to a known one (close_to_created): ask if it was a typo")
	}
	if len(out.Used) > 0 {
		// A cook log never changes pantry state (pantry spec §6.1).
		hints = append(hints, "pantry unchanged: ask the user which of used_ingredients are now low or out, then call set_item_state")
	}
	out.Hint = strings.Join(hints, "; ")
	return out, nil
}

// mealieRecipeHint turns the pantry's "no such recipe" into the tool to
// call when what was cooked is a Mealie recipe: log_cook records the
// pantry's meta-recipes and recipes, mark_recipe_made Mealie's.
func mealieRecipeHint(ctx context.Context, b Backends, given string, err error) error {
	if !isNotFound(err) || b.Recipes == nil {
		return err
	}
	slug, rerr := resolveRecipe(ctx, b, given)
	if rerr != nil {
		return err
	}
	if _, gerr := b.Recipes.GetRecipe(ctx, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: slug, Fields: []string{"name"}})); gerr != nil {
		return err
	}
	return errorf("%s is a Mealie recipe, not a pantry one: call mark_recipe_made with slug %s to record that it was made", toolschema.Quote(given), toolschema.Quote(slug))
}

func amounts(in []amountIn) []*pantryv1.IngredientAmount {
	var out []*pantryv1.IngredientAmount
	for _, a := range in {
		out = append(out, &pantryv1.IngredientAmount{Ingredient: a.Ingredient, Quantity: a.Quantity, Unit: a.Unit})
	}
	return out
}

// baseItems lets base_ingredients be plain names, as the pantry spec's
// base_ingredients:[] is usually written, or {ingredient, qty, unit}
// objects as slot options are.
func baseItems(s *mcpSchema) {
	s.MaxItems = ptr(limits.BaseIngredients)
	opt, err := jsonschema.For[amountIn](nil)
	if err != nil {
		panic(err)
	}
	toolschema.DropNullTypes(opt)
	opt.Properties["qty"].Minimum = ptr(0.0)
	s.Items = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, opt}}
}

// baseAmounts reads base_ingredients, whose items the argument checker has already
// held to a name or an amount object.
func baseAmounts(items []any) ([]*pantryv1.IngredientAmount, error) {
	var out []*pantryv1.IngredientAmount
	for i, it := range items {
		switch v := it.(type) {
		case string:
			out = append(out, &pantryv1.IngredientAmount{Ingredient: v})
		case map[string]any:
			raw, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			var a amountIn
			if err := json.Unmarshal(raw, &a); err != nil {
				return nil, errorf("base_ingredients[%d]: %v", i, err)
			}
			out = append(out, amounts([]amountIn{a})...)
		default:
			return nil, errorf("base_ingredients[%d] must be a name or an object with ingredient, qty, unit", i)
		}
	}
	return out, nil
}

type createMetaRecipeIn struct {
	ID              *int64   `json:"id,omitempty" jsonschema:"Meta-recipe to rebuild; omit to create."`
	Name            string   `json:"name" jsonschema:"Name."`
	Method          string   `json:"method,omitempty" jsonschema:"How to cook it."`
	Slots           []slotIn `json:"slots,omitempty" jsonschema:"Slots, each with interchangeable options."`
	BaseIngredients []any    `json:"base_ingredients,omitempty" jsonschema:"Ingredients every version needs: names, or objects as in options."`
}

// createMetaRecipeTool declares create_meta_recipe.
func createMetaRecipeTool() Tool {
	return newTool(ToolsetPantry, &mcp.Tool{
		Name:        "create_meta_recipe",
		Description: "Call to keep a template worked out with the user. Saves (or, with id, rebuilds) a meta-recipe.",
		Annotations: writeAnn(true, false, false),
	}, hasPantry, props{"name": toolschema.GuardLen(limits.PantryNameChars), "slots": toolschema.MaxItems(limits.Slots), "base_ingredients": baseItems}, createMetaRecipe)
}

func createMetaRecipe(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in createMetaRecipeIn) (any, error) {
	base, err := baseAmounts(in.BaseIngredients)
	if err != nil {
		return nil, err
	}
	req := &pantryv1.CreateMetaRecipeRequest{Id: in.ID, Name: in.Name, Method: in.Method, BaseIngredients: base}
	for _, s := range in.Slots {
		req.Slots = append(req.Slots, &pantryv1.SlotInput{Name: s.Name, Options: amounts(s.Options)})
	}
	res, err := b.Pantry.CreateMetaRecipe(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	return struct {
		MetaRecipe         metaRecipeView    `json:"meta_recipe"`
		Updated            bool              `json:"updated,omitempty"`
		CreatedIngredients []string          `json:"created_ingredients,omitempty"`
		Resolved           map[string]string `json:"resolved,omitempty"`
	}{shapeMetaRecipe(res.Msg.GetMetaRecipe()), res.Msg.GetUpdated(), res.Msg.GetCreatedIngredients(), res.Msg.GetResolved()}, nil
}
