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

func hasPantry(b Backends, _ Options) bool { return b.Pantry != nil }

var locations = map[string]pantryv1.Location{
	"fridge": pantryv1.Location_LOCATION_FRIDGE, "cupboard": pantryv1.Location_LOCATION_CUPBOARD, "freezer": pantryv1.Location_LOCATION_FREEZER,
}

var locationNames = []string{"fridge", "cupboard", "freezer"}

var itemStates = map[string]pantryv1.ItemState{
	"in": pantryv1.ItemState_ITEM_STATE_IN, "low": pantryv1.ItemState_ITEM_STATE_LOW, "out": pantryv1.ItemState_ITEM_STATE_OUT,
}

func locationName(l pantryv1.Location) string {
	if l == pantryv1.Location_LOCATION_UNSPECIFIED {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(l.String(), "LOCATION_"))
}

func stateName(s pantryv1.ItemState) string {
	if s == pantryv1.ItemState_ITEM_STATE_UNSPECIFIED {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(s.String(), "ITEM_STATE_"))
}

type pantryAdditionIn struct {
	Name     string   `json:"name"`
	Location string   `json:"location,omitempty"`
	Quantity *float64 `json:"quantity,omitempty"`
	Unit     string   `json:"unit,omitempty"`
	Expiry   string   `json:"expiry,omitempty" jsonschema:"Use-by date."`
}

// amountIn is one option or base ingredient as the pantry spec writes it:
// {ingredient, qty, unit}.
type amountIn struct {
	Ingredient string   `json:"ingredient"`
	Quantity   *float64 `json:"qty,omitempty"`
	Unit       string   `json:"unit,omitempty"`
}

type slotIn struct {
	Name    string     `json:"name"`
	Options []amountIn `json:"options"`
}

type slotChoiceIn struct {
	Slot       string `json:"slot"`
	Ingredient string `json:"ingredient"`
}

func pantryTools() []Tool {
	return []Tool{
		getPantryTool(),
		setItemStateTool(),
		addToPantryTool(),
		whatCanICookTool(),
		getMetaRecipesTool(),
		logCookTool(),
		createMetaRecipeTool(),
	}
}

// pantryItem is a pantry item as a model reads it; the location is the
// group's.
type pantryItem struct {
	Name     string   `json:"name"`
	State    string   `json:"state"`
	Quantity *float64 `json:"quantity,omitempty"`
	Unit     string   `json:"unit,omitempty"`
	Expiry   string   `json:"expiry,omitempty"`
	Staple   bool     `json:"staple,omitempty"`
	Location string   `json:"location,omitempty"`
}

func shapePantryItem(p *pantryv1.PantryItem) pantryItem {
	return pantryItem{Name: p.GetName(), State: stateName(p.GetState()), Quantity: p.Quantity, Unit: p.GetUnit(), Expiry: p.GetExpiry(), Staple: p.GetIsStaple()}
}

type getPantryIn struct {
	Location   string `json:"location,omitempty" jsonschema:"Only this location."`
	IncludeOut bool   `json:"include_out,omitempty" jsonschema:"Include used-up items."`
}

// getPantryTool declares get_pantry.
func getPantryTool() Tool {
	return newTool(ToolsetPantry, &mcp.Tool{
		Name:        "get_pantry",
		Description: "Call when asked what is in stock, or to plan a meal. Lists items with state and expiry.",
		Annotations: readAnn(),
	}, hasPantry, props{"location": toolschema.Enum(locationNames...), "include_out": toolschema.BoolDefault(false)}, getPantry)
}

func getPantry(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in getPantryIn) (any, error) {
	res, err := b.Pantry.GetPantry(ctx, connect.NewRequest(&pantryv1.GetPantryRequest{Location: locations[in.Location], IncludeOut: in.IncludeOut}))
	if err != nil {
		return nil, err
	}
	// Grouped by location, as the pantry spec's get_pantry returns them.
	groups := map[string][]pantryItem{}
	var order []string
	for _, g := range res.Msg.GetGroups() {
		loc := locationName(g.GetLocation())
		if _, seen := groups[loc]; !seen {
			order = append(order, loc)
		}
		for _, it := range g.GetItems() {
			groups[loc] = append(groups[loc], shapePantryItem(it))
		}
	}
	c := res.Msg.GetCounts()
	out := struct {
		Locations map[string][]pantryItem `json:"locations"`
		Counts    map[string]int32        `json:"counts"`
		Hint      string                  `json:"hint,omitempty"`
	}{Locations: groups, Counts: map[string]int32{"in": c.GetInStock(), "low": c.GetLow(), "out": c.GetOut()}}
	if len(order) == 0 {
		out.Hint = "nothing listed"
		if !in.IncludeOut && c.GetOut() > 0 {
			out.Hint = "nothing in stock; pass include_out=true to see used-up items"
		}
	}
	return out, nil
}

type setItemStateIn struct {
	Ingredient string `json:"ingredient" jsonschema:"Name or alias as said."`
	State      string `json:"state" jsonschema:"New state."`
	Location   string `json:"location,omitempty" jsonschema:"Location, if kept in several."`
}

// setItemStateTool declares set_item_state.
func setItemStateTool() Tool {
	return newTool(ToolsetPantry, &mcp.Tool{
		Name:        "set_item_state",
		Description: "Call when the user used up, ran low on or restocked something. Sets its state by name.",
		Annotations: writeAnn(false, true, false),
	}, hasPantry, props{"ingredient": toolschema.GuardLen(limits.PantryNameChars), "state": toolschema.Enum("in", "low", "out"), "location": toolschema.Enum(locationNames...)}, setItemState)
}

func setItemState(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in setItemStateIn) (any, error) {
	res, err := b.Pantry.SetItemState(ctx, connect.NewRequest(&pantryv1.SetItemStateRequest{
		Ingredient: in.Ingredient, State: itemStates[in.State], Location: locations[in.Location],
	}))
	if err != nil {
		return nil, err
	}
	it := shapePantryItem(res.Msg.GetItem())
	it.Location = locationName(res.Msg.GetItem().GetLocation())
	if it.State == "out" {
		// What was there before it ran out is no longer there: a
		// quantity beside "out" reads as stock.
		it.Quantity, it.Unit = nil, ""
	}
	return struct {
		Message  string            `json:"message,omitempty"`
		Changed  bool              `json:"changed"`
		Item     pantryItem        `json:"item"`
		Resolved map[string]string `json:"resolved,omitempty"`
	}{res.Msg.GetMessage(), res.Msg.GetChanged(), it, res.Msg.GetResolved()}, nil
}

type addToPantryIn struct {
	Items []pantryAdditionIn `json:"items" jsonschema:"Items bought."`
}

// addToPantryTool declares add_to_pantry.
func addToPantryTool() Tool {
	return newTool(ToolsetPantry, &mcp.Tool{
		Name:        "add_to_pantry",
		Description: "Call when the user bought something. Restocks items already there, with the quantity and expiry given; unknown names are created.",
		Annotations: writeAnn(false, true, false),
	}, hasPantry, props{"items": toolschema.Both(toolschema.ItemsRange(1, limits.PantryAdditions), func(s *mcpSchema) {
		item := s.Item()
		toolschema.Both(toolschema.NonEmpty, toolschema.GuardLen(limits.PantryNameChars))(item.Prop("name"))
		toolschema.Enum(locationNames...)(item.Prop("location"))
		toolschema.Date(item.Prop("expiry"))
	})}, addToPantry)
}

func addToPantry(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in addToPantryIn) (any, error) {
	req := &pantryv1.AddToPantryRequest{}
	for _, it := range in.Items {
		req.Items = append(req.Items, &pantryv1.PantryAddition{Name: it.Name, Location: locations[it.Location], Quantity: it.Quantity, Unit: it.Unit, Expiry: it.Expiry})
	}
	res, err := b.Pantry.AddToPantry(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	type result struct {
		Name          string   `json:"name"`
		Outcome       string   `json:"outcome"`
		Location      string   `json:"location,omitempty"`
		Quantity      *float64 `json:"quantity,omitempty"`
		Unit          string   `json:"unit,omitempty"`
		Expiry        string   `json:"expiry,omitempty"`
		NewIngredient bool     `json:"new_ingredient,omitempty"`
		Message       string   `json:"message,omitempty"`
		CloseMatches  []string `json:"close_matches,omitempty"`
	}
	out := struct {
		Items    []result          `json:"items"`
		Resolved map[string]string `json:"resolved,omitempty"`
	}{Items: []result{}, Resolved: res.Msg.GetResolved()}
	for _, r := range res.Msg.GetItems() {
		// What is now stored is answered, so a restock shows the amount
		// and use-by date it took.
		it := r.GetItem()
		out.Items = append(out.Items, result{
			Name: r.GetName(), Outcome: strings.ToLower(strings.TrimPrefix(r.GetOutcome().String(), "ADD_OUTCOME_")),
			Location: locationName(it.GetLocation()), Quantity: it.Quantity, Unit: it.GetUnit(), Expiry: it.GetExpiry(),
			NewIngredient: r.GetIngredientCreated(), Message: r.GetMessage(), CloseMatches: r.GetCloseMatches(),
		})
	}
	return out, nil
}

type whatCanICookIn struct {
	Servings *int `json:"servings,omitempty" jsonschema:"Servings to scale to."`
}

// whatCanICookTool declares what_can_i_cook.
func whatCanICookTool() Tool {
	return newTool(ToolsetPantry, &mcp.Tool{
		Name:        "what_can_i_cook",
		Description: "Call when asked what can be made now. Matches meta-recipes to the pantry.",
		Annotations: readAnn(),
	}, hasPantry, props{"servings": toolschema.IntBounds(1, limits.Servings)}, whatCanICook)
}

func whatCanICook(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in whatCanICookIn) (any, error) {
	req := &pantryv1.WhatCanICookRequest{}
	if in.Servings != nil {
		req.Servings = ptr(int32(*in.Servings))
	}
	res, err := b.Pantry.WhatCanICook(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	type slot struct {
		Slot      string   `json:"slot"`
		Available []string `json:"have,omitempty"`
		Low       []string `json:"low,omitempty"`
		Missing   []string `json:"missing,omitempty"`
	}
	type match struct {
		ID          int64    `json:"id"`
		Name        string   `json:"name"`
		Status      string   `json:"status"`
		Slots       []slot   `json:"slots,omitempty"`
		MissingBase []string `json:"missing_base,omitempty"`
	}
	type expiry struct {
		Ingredient string   `json:"ingredient"`
		Location   string   `json:"location,omitempty"`
		Expiry     string   `json:"expiry"`
		DaysLeft   int32    `json:"days_left"`
		UsedBy     []string `json:"used_by,omitempty"`
	}
	out := struct {
		Items  []match  `json:"items"`
		Expiry []expiry `json:"expiring,omitempty"`
		Hint   string   `json:"hint,omitempty"`
	}{Items: []match{}}
	for _, m := range res.Msg.GetItems() {
		it := match{ID: m.GetId(), Name: m.GetName(), Status: strings.ToLower(strings.TrimPrefix(m.GetStatus().String(), "MATCH_STATUS_")), MissingBase: m.GetMissingBase()}
		for _, s := range m.GetSlots() {
			it.Slots = append(it.Slots, slot{Slot: s.GetSlot(), Available: s.GetAvailable(), Low: s.GetLow(), Missing: s.GetMissing()})
		}
		out.Items = append(out.Items, it)
	}
	for _, e := range res.Msg.GetExpiryWarnings() {
		out.Expiry = append(out.Expiry, expiry{Ingredient: e.GetIngredient(), Location: locationName(e.GetLocation()), Expiry: e.GetExpiry(), DaysLeft: e.GetDaysLeft(), UsedBy: e.GetUsedBy()})
	}
	if len(out.Items) == 0 {
		out.Hint = "no meta-recipes yet; create_meta_recipe saves one"
	}
	return out, nil
}

// amountText renders an ingredient amount as one short string, such as
// "200 g pork mince" or "¾ cup stock" (package amount): a model reads it as
// well as three fields, and a cook reads it as written.
func amountText(a *pantryv1.IngredientAmount) string {
	return amount.Line(a.GetQuantity(), a.GetUnit(), a.GetIngredient(), "", "")
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
	out := struct {
		Items []metaRecipeView `json:"items"`
		Hint  string           `json:"hint,omitempty"`
	}{Items: []metaRecipeView{}}
	for _, m := range res.Msg.GetItems() {
		out.Items = append(out.Items, shapeMetaRecipe(m))
	}
	if len(out.Items) == 0 {
		out.Hint = "no meta-recipes yet"
	}
	return out, nil
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
