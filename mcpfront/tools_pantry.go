package mcpfront

import (
	"context"
	"strings"

	"connectrpc.com/connect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/souskitchen/sous/mcpfront/internal/toolschema"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
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
		Description: "Call when the user bought something. Restocks items already there with the quantity and expiry given (the old pack's cleared); unknown names are created.",
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
			NewIngredient: r.GetIngredientCreated(), Message: joinSentences(r.GetMessage(), r.GetNote()), CloseMatches: r.GetCloseMatches(),
		})
	}
	return out, nil
}

// joinSentences joins the non-empty parts with "; ".
func joinSentences(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
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
