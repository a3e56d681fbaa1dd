package mcpfront

import (
	"context"
	"strings"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/amount"
	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/limits"
)

func hasShopping(b Backends, _ Options) bool { return b.MealPlan != nil }

func shoppingTools() []Tool {
	return []Tool{
		getShoppingListTool(),
		addToShoppingListTool(),
		updateShoppingItemsTool(),
		manageShoppingListsTool(),
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
		Description: "Call when asked what to buy. Without list_id lists the lists (shows the only one); with it, its items and ids.",
		Annotations: readAnn(),
	}, hasShopping, props{"list_id": toolschema.MaxLen(limits.ShoppingListIDChars)}, getShoppingList)
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
	if in.ListID == "" && res.Msg.GetList() == nil {
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
	return shapeShoppingList(res.Msg.GetList()), nil
}

// shoppingSection is one store section of a list, in the order Mealie's
// app shows them.
type shoppingSection struct {
	Section string         `json:"section"`
	Items   []shoppingItem `json:"items"`
}

// shoppingListOut is one list as a model reads it.
type shoppingListOut struct {
	ID       string            `json:"list_id"`
	Name     string            `json:"name,omitempty"`
	Sections []shoppingSection `json:"sections"`
	Checked  int32             `json:"checked,omitempty"`
	Recipes  []string          `json:"recipes,omitempty"`
	Hint     string            `json:"hint,omitempty"`
}

func shapeShoppingList(l *mealplanv1.ShoppingList) shoppingListOut {
	out := shoppingListOut{ID: l.GetId(), Name: l.GetName(), Sections: []shoppingSection{}, Checked: l.GetCheckedCount()}
	for _, g := range l.GetGroups() {
		sec := shoppingSection{Section: g.GetLabel()}
		if sec.Section == "" {
			sec.Section = "other"
		}
		for _, it := range g.GetItems() {
			sec.Items = append(sec.Items, shapeShoppingItem(it))
		}
		out.Sections = append(out.Sections, sec)
	}
	for _, r := range l.GetRecipes() {
		name := r.GetSlug()
		if t := r.GetTimes(); t != 1 {
			name += " ×" + amount.Quantity(t)
		}
		out.Recipes = append(out.Recipes, name)
	}
	if len(out.Sections) == 0 {
		out.Hint = "nothing left to buy"
	}
	return out
}

type addToShoppingListIn struct {
	ListID        string       `json:"list_id,omitempty" jsonschema:"List id or exact name (a new name creates it); optional if only one."`
	Items         []string     `json:"items,omitempty" jsonschema:"Free-text items, e.g. \"2 onions\"."`
	RecipeSlugs   []string     `json:"recipe_slugs,omitempty" jsonschema:"Recipes to shop for."`
	RecipeScale   *float64     `json:"recipe_scale,omitempty" jsonschema:"Times each recipe, e.g. 2 for double."`
	AddAgain      bool         `json:"add_again,omitempty" jsonschema:"Add a recipe already on the list again."`
	MealPlanRange *dateRangeIn `json:"meal_plan_range,omitempty" jsonschema:"Add the plan for these days (YYYY-MM-DD, up to 31)."`
	SkipInStock   *bool        `json:"skip_in_stock,omitempty" jsonschema:"Skip what the pantry has in stock (default when one is set up)."`
	Have          []string     `json:"have,omitempty" jsonschema:"What the user says they have: skipped, pantry aside."`
}

// addToShoppingListTool declares add_to_shopping_list.
func addToShoppingListTool() Tool {
	return newTool(ToolsetShopping, &mcp.Tool{
		Name:        "add_to_shopping_list",
		Description: "Call to put items, a recipe's ingredients or the plan's on a list. Skips what is in stock.",
		Annotations: writeAnn(false, false, false),
	}, hasShopping, props{
		"list_id": toolschema.MaxLen(limits.ShoppingListIDChars), "items": toolschema.Both(toolschema.MaxItems(limits.ShoppingItems), func(s *mcpSchema) { s.Items.MaxLength = ptr(limits.ShoppingItemChars) }),
		"recipe_slugs": toolschema.MaxItems(limits.ShoppingRecipes), "recipe_scale": toolschema.NumRange(limits.MinShoppingScale, limits.MaxShoppingScale),
		"have": toolschema.Both(toolschema.GuardCount(limits.ShoppingItems), toolschema.GuardItems(limits.ShoppingItemChars)),
		"meal_plan_range": func(s *mcpSchema) {
			// Described by the parameter; get_meal_plan's wording
			// would be paid for twice.
			for _, d := range s.Properties {
				d.Format, d.Description = "date", ""
			}
		},
	}, addToShoppingList)
}

func addToShoppingList(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in addToShoppingListIn) (any, error) {
	if len(in.Items) == 0 && len(in.RecipeSlugs) == 0 && in.MealPlanRange == nil {
		return nil, errorf("give items, recipe_slugs or meal_plan_range")
	}
	req := &mealplanv1.AddToShoppingListRequest{ListId: in.ListID, Items: in.Items, RecipeSlugs: in.RecipeSlugs, SkipInStock: in.SkipInStock, RecipeScale: in.RecipeScale, AddAgain: in.AddAgain, Have: in.Have}
	if !isUUID(in.ListID) {
		// A name: the service finds it (case-insensitive) or creates it.
		req.ListId, req.ListName = "", in.ListID
	}
	if r := in.MealPlanRange; r != nil {
		req.MealPlanRange = &mealplanv1.DateRange{StartDate: r.StartDate, EndDate: r.EndDate}
	}
	res, err := b.MealPlan.AddToShoppingList(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, onListMiss(ctx, b, in.ListID, err)
	}
	type merged struct {
		Name string   `json:"name"`
		Into string   `json:"now"`
		For  []string `json:"for,omitempty"`
	}
	type skipped struct {
		Name     string `json:"name"`
		Have     string `json:"have,omitempty"`
		Location string `json:"location,omitempty"`
		// Why names a read other than exact: "synonym" for another
		// English, "kind" when the pantry holds a kind of the
		// ingredient ("jasmine rice" for "rice").
		Why string `json:"read_as,omitempty"`
		// Said marks a skip for a name given in have, not the pantry.
		Said bool `json:"you_said,omitempty"`
	}
	type offer struct {
		Name   string `json:"name"`
		Pantry string `json:"pantry"`
	}
	type reapplied struct {
		Name string `json:"name"`
		Now  string `json:"now,omitempty"`
		Why  string `json:"why"`
	}
	out := struct {
		ListID    string         `json:"list_id"`
		Name      string         `json:"list_name,omitempty"`
		Created   bool           `json:"created_list,omitempty"`
		Already   []string       `json:"already_on_list,omitempty"`
		Added     []shoppingItem `json:"added"`
		Merged    []merged       `json:"merged,omitempty"`
		Skipped   []skipped      `json:"skipped_in_stock,omitempty"`
		Low       []skipped      `json:"added_though_low,omitempty"`
		InStock   []skipped      `json:"added_though_in_stock,omitempty"`
		Headings  int32          `json:"headings_skipped,omitempty"`
		Offers    []offer        `json:"pantry_differs,omitempty"`
		Reapplied []reapplied    `json:"reapplied,omitempty"`
		Unparsed  []string       `json:"unparsed,omitempty"`
		NotFound  []string       `json:"not_found,omitempty"`
		Note      string         `json:"note,omitempty"`
	}{ListID: res.Msg.GetListId(), Name: res.Msg.GetListName(), Created: res.Msg.GetCreatedList(), Already: res.Msg.GetAlreadyOnList(), Added: []shoppingItem{}, Unparsed: res.Msg.GetUnparsed(), NotFound: res.Msg.GetNotFound(), Note: res.Msg.GetNote()}
	for _, it := range res.Msg.GetAdded() {
		out.Added = append(out.Added, shapeShoppingItem(it))
	}
	for _, m := range res.Msg.GetMerged() {
		out.Merged = append(out.Merged, merged{Name: m.GetName(), Into: m.GetItem().GetDisplay(), For: m.GetItem().GetRecipeSlugs()})
	}
	toSkipped := func(from []*mealplanv1.SkippedItem) []skipped {
		var to []skipped
		for _, s := range from {
			sk := skipped{Name: s.GetName(), Have: s.GetPantryItem(), Location: s.GetLocation(), Why: readAs(s.GetHow()), Said: s.GetHave()}
			if sk.Said && strings.EqualFold(sk.Have, sk.Name) {
				sk.Have = ""
			}
			to = append(to, sk)
		}
		return to
	}
	out.Skipped, out.Low, out.InStock = toSkipped(res.Msg.GetSkippedInStock()), toSkipped(res.Msg.GetLowInPantry()), toSkipped(res.Msg.GetInPantry())
	out.Headings = res.Msg.GetHeadingsSkipped()
	for _, o := range res.Msg.GetPantryOffers() {
		p := "not in the pantry"
		if o.GetState() != "" {
			p = o.GetPantryItem() + " is " + o.GetState()
		}
		out.Offers = append(out.Offers, offer{Name: o.GetName(), Pantry: p})
	}
	if len(out.Offers) > 0 {
		out.Note = joinSentences(out.Note, "the pantry was not changed: offer set_item_state or add_to_pantry")
	}
	for _, r := range res.Msg.GetReapplied() {
		out.Reapplied = append(out.Reapplied, reapplied{Name: r.GetName(), Now: r.GetItem().GetDisplay(), Why: r.GetMessage()})
	}
	if len(out.Already) > 0 {
		note := strings.Join(out.Already, ", ") + " already on the list: nothing added for them (add_again adds more)"
		out.Note = joinSentences(out.Note, note)
	}
	return out, nil
}

type updateShoppingItemsIn struct {
	ListID        string   `json:"list_id" jsonschema:"List id or exact name."`
	Check         []string `json:"check,omitempty" jsonschema:"Items bought, by id or name."`
	Uncheck       []string `json:"uncheck,omitempty" jsonschema:"Items to buy again."`
	Remove        []string `json:"remove,omitempty" jsonschema:"Items to delete."`
	RemoveChecked bool     `json:"remove_checked,omitempty" jsonschema:"Delete every checked item."`
	RemoveRecipes []string `json:"remove_recipes,omitempty" jsonschema:"Take these recipes' items off, by slug."`
	// CheckAllExcept is a pointer: an empty list (check everything) is
	// not the same as none given.
	CheckAllExcept *[]string `json:"check_all_except,omitempty" jsonschema:"Check everything still to buy but these ([] checks all)."`
}

// updateShoppingItemsTool declares update_shopping_items.
func updateShoppingItemsTool() Tool {
	return newTool(ToolsetShopping, &mcp.Tool{
		Name:        "update_shopping_items",
		Description: "Call when the user bought something or wants items unchecked or gone, or a recipe's items off.",
		Annotations: writeAnn(true, true, false),
	}, hasShopping, props{"list_id": toolschema.MaxLen(limits.ShoppingListIDChars), "check": toolschema.GuardCount(limits.ShoppingItemOps), "uncheck": toolschema.GuardCount(limits.ShoppingItemOps), "remove": toolschema.GuardCount(limits.ShoppingItemOps), "remove_recipes": toolschema.GuardCount(limits.ShoppingRecipes), "check_all_except": toolschema.GuardCount(limits.ShoppingItemOps)}, updateShoppingItems)
}

func updateShoppingItems(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in updateShoppingItemsIn) (any, error) {
	if len(in.Check)+len(in.Uncheck)+len(in.Remove)+len(in.RemoveRecipes) == 0 && !in.RemoveChecked && in.CheckAllExcept == nil {
		return nil, errorf("give items to check, uncheck or remove, remove_checked, remove_recipes or check_all_except")
	}
	id, err := resolveList(ctx, b, in.ListID)
	if err != nil {
		return nil, err
	}
	// The rows as they read before the change: a row checked or removed is
	// not among the unchecked rows read back, and the answer names every
	// row a name matched ("eggs" may be two rows), so a wider match than
	// meant is seen. Best effort: without it the answer gives ids. The
	// rows check_all_except checks are counted, not named, so it reads
	// nothing first.
	shown := map[string]string{}
	if len(in.Check)+len(in.Remove) > 0 {
		if before, err := b.MealPlan.GetShoppingList(ctx, connect.NewRequest(&mealplanv1.GetShoppingListRequest{ListId: id})); err == nil {
			addShown(shown, before.Msg.GetList())
		}
	}
	req := &mealplanv1.UpdateShoppingItemsRequest{
		ListId: id, Check: in.Check, Uncheck: in.Uncheck, Remove: in.Remove, RemoveChecked: in.RemoveChecked, RemoveRecipes: in.RemoveRecipes,
	}
	if in.CheckAllExcept != nil {
		req.CheckAllExcept = &mealplanv1.ItemRefs{Items: *in.CheckAllExcept}
	}
	res, err := b.MealPlan.UpdateShoppingItems(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, onListMiss(ctx, b, in.ListID, err)
	}
	addShown(shown, res.Msg.GetList())
	var errs, changed []string
	for _, e := range res.Msg.GetErrors() {
		errs = append(errs, e.GetItem()+": "+e.GetMessage())
	}
	for _, c := range []struct {
		verb string
		ids  []string
	}{{"checked", res.Msg.GetChecked()}, {"unchecked", res.Msg.GetUnchecked()}, {"removed", res.Msg.GetRemoved()}} {
		for _, id := range c.ids {
			if d := shown[id]; d != "" {
				changed = append(changed, c.verb+": "+d)
			}
		}
	}
	// What changed and the counts, not the whole list again: a long list
	// repeated after every change is most of the answer, and
	// get_shopping_list shows it.
	out := struct {
		Checked        []string      `json:"checked,omitempty"`
		Unchecked      []string      `json:"unchecked,omitempty"`
		Removed        []string      `json:"removed,omitempty"`
		Rows           []string      `json:"rows,omitempty"`
		CheckedCount   int           `json:"checked_now,omitempty"`
		Left           []string      `json:"left_to_buy,omitempty"`
		RecipesRemoved []string      `json:"recipes_removed,omitempty"`
		Errors         []string      `json:"errors,omitempty"`
		List           *listCountOut `json:"list,omitempty"`
		Hint           string        `json:"hint,omitempty"`
	}{res.Msg.GetChecked(), res.Msg.GetUnchecked(), res.Msg.GetRemoved(), changed, 0, nil, res.Msg.GetRecipesRemoved(), errs, listCounts(res.Msg.GetList()), ""}
	if in.CheckAllExcept != nil {
		// Every row but a few: the count and the rows left say it, not
		// each row checked.
		out.CheckedCount, out.Checked = len(out.Checked), nil
		var rows []string
		for _, r := range out.Rows {
			if !strings.HasPrefix(r, "checked: ") {
				rows = append(rows, r)
			}
		}
		out.Rows = rows
		for _, g := range res.Msg.GetList().GetGroups() {
			for _, it := range g.GetItems() {
				out.Left = append(out.Left, it.GetDisplay())
			}
		}
	}
	if out.List != nil {
		out.Hint = "get_shopping_list shows the whole list"
	}
	return out, nil
}

// listCountOut is a list after a change: its counts, as get_shopping_list's
// overview gives them.
type listCountOut struct {
	ID      string `json:"list_id"`
	Name    string `json:"name,omitempty"`
	ToBuy   int32  `json:"to_buy"`
	Checked int32  `json:"checked"`
}

// listCounts counts a list read back after a change, when there is one.
func listCounts(l *mealplanv1.ShoppingList) *listCountOut {
	if l == nil {
		return nil
	}
	out := &listCountOut{ID: l.GetId(), Name: l.GetName(), Checked: l.GetCheckedCount()}
	for _, g := range l.GetGroups() {
		out.ToBuy += int32(len(g.GetItems()))
	}
	return out
}

// addShown notes each unchecked row's display by id.
func addShown(shown map[string]string, l *mealplanv1.ShoppingList) {
	for _, g := range l.GetGroups() {
		for _, it := range g.GetItems() {
			shown[it.GetId()] = it.GetDisplay()
		}
	}
}
