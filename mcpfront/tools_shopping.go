package mcpfront

import (
	"context"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/limits"
)

func hasShopping(b Backends, _ Options) bool { return b.MealPlan != nil }

func shoppingTools() []Tool {
	return []Tool{
		getShoppingListTool(),
		addToShoppingListTool(),
		updateShoppingItemsTool(),
	}
}

// shoppingItem is a shopping list row as a model reads it: the display line
// says quantity, unit and food already.
type shoppingItem struct {
	ID      string   `json:"item_id"`
	Item    string   `json:"item"`
	Checked bool     `json:"checked,omitempty"`
	For     []string `json:"for,omitempty"`
}

func shapeShoppingItem(it *mealplanv1.ShoppingItem) shoppingItem {
	return shoppingItem{ID: it.GetId(), Item: it.GetDisplay(), Checked: it.GetChecked(), For: it.GetRecipeSlugs()}
}

type getShoppingListIn struct {
	ListID string `json:"list_id,omitempty" jsonschema:"List id or exact name; omit for all lists."`
}

// getShoppingListTool declares get_shopping_list.
func getShoppingListTool() Tool {
	return newTool(ToolsetShopping, &mcp.Tool{
		Name:        "get_shopping_list",
		Description: "Call when asked what to buy. Without list_id lists the lists; with it, its items and ids.",
		Annotations: readAnn(),
	}, hasShopping, props{"list_id": maxLen(100)}, getShoppingList)
}

func getShoppingList(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in getShoppingListIn) (any, error) {
	id, err := resolveList(ctx, b, in.ListID)
	if err != nil {
		return nil, err
	}
	res, err := b.MealPlan.GetShoppingList(ctx, connect.NewRequest(&mealplanv1.GetShoppingListRequest{ListId: id}))
	if err != nil {
		return nil, onListMiss(ctx, b, in.ListID, err)
	}
	if in.ListID == "" {
		type list struct {
			ID        string `json:"list_id"`
			Name      string `json:"name"`
			ToBuy     int32  `json:"to_buy"`
			CheckedOf int32  `json:"checked,omitempty"`
		}
		out := struct {
			Items []list `json:"items"`
			Hint  string `json:"hint,omitempty"`
		}{Items: []list{}}
		for _, l := range res.Msg.GetItems() {
			out.Items = append(out.Items, list{ID: l.GetId(), Name: l.GetName(), ToBuy: l.GetUncheckedCount(), CheckedOf: l.GetCheckedCount()})
		}
		if len(out.Items) == 0 {
			out.Hint = "the household has no shopping lists"
		} else {
			out.Hint = "pass list_id to see a list's items"
		}
		return out, nil
	}
	l := res.Msg.GetList()
	sections := map[string][]shoppingItem{}
	n := 0
	for _, g := range l.GetGroups() {
		label := g.GetLabel()
		if label == "" {
			label = "other"
		}
		for _, it := range g.GetItems() {
			sections[label] = append(sections[label], shapeShoppingItem(it))
			n++
		}
	}
	out := struct {
		ID       string                    `json:"list_id"`
		Name     string                    `json:"name,omitempty"`
		Sections map[string][]shoppingItem `json:"sections"`
		Checked  int32                     `json:"checked,omitempty"`
		Hint     string                    `json:"hint,omitempty"`
	}{ID: l.GetId(), Name: l.GetName(), Sections: sections, Checked: l.GetCheckedCount()}
	if n == 0 {
		out.Hint = "nothing left to buy"
	}
	return out, nil
}

type addToShoppingListIn struct {
	ListID        string       `json:"list_id,omitempty" jsonschema:"List id or exact name; optional if only one."`
	Items         []string     `json:"items,omitempty" jsonschema:"Free-text items, e.g. \"2 onions\"."`
	RecipeSlugs   []string     `json:"recipe_slugs,omitempty" jsonschema:"Recipes to shop for."`
	MealPlanRange *dateRangeIn `json:"meal_plan_range,omitempty" jsonschema:"Add the plan for these days (YYYY-MM-DD, up to 31)."`
	SkipInStock   *bool        `json:"skip_in_stock,omitempty" jsonschema:"Skip what the pantry has in stock (default when one is set up)."`
}

// addToShoppingListTool declares add_to_shopping_list.
func addToShoppingListTool() Tool {
	return newTool(ToolsetShopping, &mcp.Tool{
		Name:        "add_to_shopping_list",
		Description: "Call to put items, a recipe's ingredients or the plan's on a list. Skips what is in stock.",
		Annotations: writeAnn(false, false, false),
	}, hasShopping, props{
		"list_id": maxLen(100), "items": both(maxItems(limits.ShoppingItems), func(s *mcpSchema) { s.Items.MaxLength = ptr(limits.ShoppingItemChars) }),
		"recipe_slugs": maxItems(limits.ShoppingRecipes),
		"meal_plan_range": func(s *mcpSchema) {
			// Described by the parameter; get_meal_plan's wording
			// would be paid for twice.
			for _, d := range s.Properties {
				d.Pattern, d.Description = isoDatePattern, ""
			}
		},
	}, addToShoppingList)
}

func addToShoppingList(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in addToShoppingListIn) (any, error) {
	if len(in.Items) == 0 && len(in.RecipeSlugs) == 0 && in.MealPlanRange == nil {
		return nil, errorf("give items, recipe_slugs or meal_plan_range")
	}
	id, err := resolveList(ctx, b, in.ListID)
	if err != nil {
		return nil, err
	}
	req := &mealplanv1.AddToShoppingListRequest{ListId: id, Items: in.Items, RecipeSlugs: in.RecipeSlugs, SkipInStock: in.SkipInStock}
	if r := in.MealPlanRange; r != nil {
		req.MealPlanRange = &mealplanv1.DateRange{StartDate: r.StartDate, EndDate: r.EndDate}
	}
	res, err := b.MealPlan.AddToShoppingList(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, onListMiss(ctx, b, in.ListID, err)
	}
	type merged struct {
		Name string `json:"name"`
		Into string `json:"now"`
	}
	type skipped struct {
		Name     string `json:"name"`
		Have     string `json:"have,omitempty"`
		Location string `json:"location,omitempty"`
	}
	out := struct {
		ListID   string         `json:"list_id"`
		Added    []shoppingItem `json:"added"`
		Merged   []merged       `json:"merged,omitempty"`
		Skipped  []skipped      `json:"skipped_in_stock,omitempty"`
		Unparsed []string       `json:"unparsed,omitempty"`
		NotFound []string       `json:"not_found,omitempty"`
		Note     string         `json:"note,omitempty"`
	}{ListID: res.Msg.GetListId(), Added: []shoppingItem{}, Unparsed: res.Msg.GetUnparsed(), NotFound: res.Msg.GetNotFound(), Note: res.Msg.GetNote()}
	for _, it := range res.Msg.GetAdded() {
		out.Added = append(out.Added, shapeShoppingItem(it))
	}
	for _, m := range res.Msg.GetMerged() {
		out.Merged = append(out.Merged, merged{Name: m.GetName(), Into: m.GetItem().GetDisplay()})
	}
	for _, s := range res.Msg.GetSkippedInStock() {
		out.Skipped = append(out.Skipped, skipped{Name: s.GetName(), Have: s.GetPantryItem(), Location: s.GetLocation()})
	}
	return out, nil
}

type updateShoppingItemsIn struct {
	ListID  string   `json:"list_id" jsonschema:"List id or exact name."`
	Check   []string `json:"check,omitempty" jsonschema:"Item ids bought."`
	Uncheck []string `json:"uncheck,omitempty" jsonschema:"Item ids to buy again."`
	Remove  []string `json:"remove,omitempty" jsonschema:"Item ids to delete."`
}

// updateShoppingItemsTool declares update_shopping_items.
func updateShoppingItemsTool() Tool {
	return newTool(ToolsetShopping, &mcp.Tool{
		Name:        "update_shopping_items",
		Description: "Call when the user bought something or wants an item unchecked or gone. Updates items by id.",
		Annotations: writeAnn(true, true, false),
	}, hasShopping, props{"list_id": maxLen(100), "check": maxItems(limits.ShoppingItemOps), "uncheck": maxItems(limits.ShoppingItemOps), "remove": maxItems(limits.ShoppingItemOps)}, updateShoppingItems)
}

func updateShoppingItems(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in updateShoppingItemsIn) (any, error) {
	if len(in.Check)+len(in.Uncheck)+len(in.Remove) == 0 {
		return nil, errorf("give item ids to check, uncheck or remove")
	}
	id, err := resolveList(ctx, b, in.ListID)
	if err != nil {
		return nil, err
	}
	res, err := b.MealPlan.UpdateShoppingItems(ctx, connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
		ListId: id, Check: in.Check, Uncheck: in.Uncheck, Remove: in.Remove,
	}))
	if err != nil {
		return nil, onListMiss(ctx, b, in.ListID, err)
	}
	var errs []string
	for _, e := range res.Msg.GetErrors() {
		errs = append(errs, e.GetItem()+": "+e.GetMessage())
	}
	return struct {
		Checked   []string `json:"checked,omitempty"`
		Unchecked []string `json:"unchecked,omitempty"`
		Removed   []string `json:"removed,omitempty"`
		Errors    []string `json:"errors,omitempty"`
	}{res.Msg.GetChecked(), res.Msg.GetUnchecked(), res.Msg.GetRemoved(), errs}, nil
}
