package mealplan

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/amount"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// GetShoppingList lists the household's lists with item counts, or one
// list's unchecked items grouped by label.
func (s *Service) GetShoppingList(ctx context.Context, req *connect.Request[mealplanv1.GetShoppingListRequest]) (*connect.Response[mealplanv1.GetShoppingListResponse], error) {
	id, err := checkListID(req.Msg.GetListId())
	if err != nil {
		return nil, err
	}
	if id == "" {
		lists, err := s.mealie.ListShoppingLists(ctx)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		if len(lists) == 1 {
			// The household's one list is the list meant: read whole, it
			// is both the overview's counts and the list shown.
			l, err := s.mealie.GetShoppingList(ctx, lists[0].ID)
			if err != nil {
				return nil, mealie.ConnectError(err)
			}
			return connect.NewResponse(&mealplanv1.GetShoppingListResponse{Items: []*mealplanv1.ShoppingListSummary{summarize(l.ID, deref(l.Name), l.ListItems)}, List: shapeList(l)}), nil
		}
		// The overview has no items (testdata/shopping_lists__list_after.json), so
		// counts come from one read of every item rather than one GET per list.
		items, err := s.mealie.ListShoppingItems(ctx)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		byList := map[string][]mealie.ShoppingItem{}
		for _, it := range items {
			byList[it.ShoppingListID] = append(byList[it.ShoppingListID], it)
		}
		out := &mealplanv1.GetShoppingListResponse{}
		for _, l := range lists {
			out.Items = append(out.Items, summarize(l.ID, deref(l.Name), byList[l.ID]))
		}
		return connect.NewResponse(out), nil
	}
	l, err := s.mealie.GetShoppingList(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.GetShoppingListResponse{List: shapeList(l)}), nil
}

// summarize is a list's summary: its items to buy and checked off.
func summarize(id, name string, items []mealie.ShoppingItem) *mealplanv1.ShoppingListSummary {
	sum := &mealplanv1.ShoppingListSummary{Id: id, Name: name}
	for _, it := range items {
		if it.Checked {
			sum.CheckedCount++
		} else {
			sum.UncheckedCount++
		}
	}
	return sum
}

// shapeList groups a list's unchecked items by label as Mealie's app
// does (updateItemsByLabel: frontend pages/shopping-lists/_id.vue on 2.0,
// composables/shopping-list-page/sub-composables/use-shopping-list-sorting.ts
// on 3.11): by the item's own label, sections in the order of the list's
// labelSettings, items in position order, and the rows without a label
// first, where the app shows its "No Label" section.
func shapeList(l *mealie.ShoppingList) *mealplanv1.ShoppingList {
	slugs := recipeSlugs(l)
	out := &mealplanv1.ShoppingList{Id: l.ID, Name: deref(l.Name)}
	for _, r := range l.RecipeReferences {
		if r.Recipe != nil && r.RecipeQuantity > 0 {
			out.Recipes = append(out.Recipes, &mealplanv1.ShoppingListRecipe{Slug: r.Recipe.Slug, Name: r.Recipe.Name, Times: r.RecipeQuantity})
		}
	}
	rank := map[string]int{}
	settings := slices.Clone(l.LabelSettings)
	slices.SortStableFunc(settings, func(a, b mealie.ShoppingLabelSetting) int { return cmp.Compare(a.Position, b.Position) })
	for i, ls := range settings {
		if ls.Label != nil {
			if _, dup := rank[ls.Label.Name]; !dup {
				rank[ls.Label.Name] = i
			}
		}
	}
	groups := map[string]*mealplanv1.ShoppingLabelGroup{}
	items := slices.Clone(l.ListItems)
	// by position, and rows of one position as they were made, which is
	// how SQLite returns them and PostgreSQL need not (ShoppingItem.CreatedAt)
	slices.SortStableFunc(items, func(a, b mealie.ShoppingItem) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.CreatedAt, b.CreatedAt))
	})
	for i := range items {
		it := &items[i]
		if it.Checked {
			out.CheckedCount++
			continue
		}
		label := labelOf(it)
		g := groups[label]
		if g == nil {
			g = &mealplanv1.ShoppingLabelGroup{Label: label}
			groups[label] = g
			out.Groups = append(out.Groups, g)
		}
		g.Items = append(g.Items, shapeItem(it, slugs))
	}
	at := func(label string) int {
		if label == "" {
			return -1
		}
		if r, ok := rank[label]; ok {
			return r
		}
		return len(rank)
	}
	slices.SortStableFunc(out.Groups, func(a, b *mealplanv1.ShoppingLabelGroup) int {
		if c := cmp.Compare(at(a.Label), at(b.Label)); c != 0 {
			return c
		}
		return cmp.Compare(strings.ToLower(a.Label), strings.ToLower(b.Label))
	})
	return out
}

// labelOf is the item's own label, the one Mealie's app groups by. Mealie
// gives a new row its food's label (find_matching_label in
// services/household_services/shopping_lists.py), so a food's label shows
// without sous copying it.
func labelOf(it *mealie.ShoppingItem) string {
	if it.Label != nil {
		return it.Label.Name
	}
	return ""
}

// recipeSlugs maps the recipe ids recorded on a list to their slugs.
func recipeSlugs(l *mealie.ShoppingList) map[string]string {
	m := map[string]string{}
	for _, r := range l.RecipeReferences {
		if r.Recipe != nil {
			m[r.RecipeID] = r.Recipe.Slug
		}
	}
	return m
}

// shapeItem converts one row. The display is composed here: Mealie's own
// display drops the food of a row whose isFood is false ("2" for two cups of
// milk: testdata/shopping_items__create_food_unit.json).
func shapeItem(it *mealie.ShoppingItem, slugs map[string]string) *mealplanv1.ShoppingItem {
	out := &mealplanv1.ShoppingItem{Id: it.ID, Note: strings.TrimSpace(deref(it.Note)), Checked: it.Checked, MealieDisplay: it.Display}
	if it.Unit != nil {
		out.Unit = it.Unit.Name
	}
	if it.Food != nil {
		// a name's import debris ("tomato ($0.45)") is not what to buy
		out.Food = names.Clean(it.Food.Name)
	}
	if it.Quantity > 0 {
		q := it.Quantity
		out.Quantity = &q
	}
	foodPlural := ""
	if it.Food != nil {
		if p := deref(it.Food.PluralName); p != "" {
			foodPlural = names.Clean(p)
		}
	}
	out.Display = displayWith(it.Quantity, unitShown(it), out.Food, foodPlural, out.Note)
	for _, r := range it.RecipeReferences {
		if slug := slugs[r.RecipeID]; slug != "" && !slices.Contains(out.RecipeSlugs, slug) {
			out.RecipeSlugs = append(out.RecipeSlugs, slug)
		}
	}
	return out
}

// display writes a row as a person would: "2 cup flour, sifted", "¾ cup
// milk", "4 avocados" (package amount). A note-only row shows its quantity
// only when it is not Mealie's default of 1.
func display(q float64, unit, food, note string) string {
	return displayWith(q, unit, food, "", note)
}

// displayWith is display with the food's plural name, when Mealie has one.
func displayWith(q float64, unit, food, foodPlural, note string) string {
	if food == "" && q == 1 {
		q = 0
	}
	return amount.Line(q, unit, food, foodPlural, note)
}

// unitShown names a row's unit as Mealie's own display of a recipe line
// does, so get_recipe and the shopping list agree: the abbreviation when
// the unit is set to use it, the plural name for more than one, else the
// name.
func unitShown(it *mealie.ShoppingItem) string {
	u := it.Unit
	if u == nil {
		return ""
	}
	raw, _ := it.Raw["unit"].(map[string]any)
	if use, _ := raw["useAbbreviation"].(bool); use && u.Abbreviation != "" {
		if pa, _ := raw["pluralAbbreviation"].(string); it.Quantity > 1 && pa != "" {
			return pa
		}
		return u.Abbreviation
	}
	if it.Quantity > 1 && deref(u.PluralName) != "" {
		return deref(u.PluralName)
	}
	return u.Name
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
