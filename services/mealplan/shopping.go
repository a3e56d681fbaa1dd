package mealplan

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/amount"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// Shopping limits (mealplan.proto, AddToShoppingListRequest and
// UpdateShoppingItemsRequest): each bounds the Mealie calls one request can
// cause.
const (
	// MaxFreeTextItems caps free-text lines per call.
	MaxFreeTextItems = limits.ShoppingItems
	// MaxItemChars caps one free-text line.
	MaxItemChars = limits.ShoppingItemChars
	// MaxRecipesPerAdd caps distinct recipes per call, named or planned:
	// each is one GET of the recipe.
	MaxRecipesPerAdd = limits.ShoppingRecipes
	// MaxShoppingRangeDays caps meal_plan_range: a month of plans.
	MaxShoppingRangeDays = limits.ShoppingRangeDays
	// MaxItemOps caps each of check, uncheck and remove: one Mealie write
	// per id.
	MaxItemOps = limits.ShoppingItemOps
)

// GetShoppingList lists the household's lists with item counts, or one
// list's unchecked items grouped by label.
func (s *Service) GetShoppingList(ctx context.Context, req *connect.Request[mealplanv1.GetShoppingListRequest]) (*connect.Response[mealplanv1.GetShoppingListResponse], error) {
	id := strings.TrimSpace(req.Msg.GetListId())
	if id == "" {
		lists, err := s.mealie.ListShoppingLists(ctx)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		// The overview has no items (testdata/shopping_lists__list_after.json), so
		// counts come from one read of every item rather than one GET per list.
		items, err := s.mealie.ListShoppingItems(ctx)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		out := &mealplanv1.GetShoppingListResponse{}
		for _, l := range lists {
			sum := &mealplanv1.ShoppingListSummary{Id: l.ID, Name: deref(l.Name)}
			for _, it := range items {
				if it.ShoppingListID != l.ID {
					continue
				}
				if it.Checked {
					sum.CheckedCount++
				} else {
					sum.UncheckedCount++
				}
			}
			out.Items = append(out.Items, sum)
		}
		return connect.NewResponse(out), nil
	}
	l, err := s.mealie.GetShoppingList(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.GetShoppingListResponse{List: shapeList(l)}), nil
}

// shapeList groups a list's unchecked items by label: labels by name,
// unlabelled last; items keep Mealie's position order.
func shapeList(l *mealie.ShoppingList) *mealplanv1.ShoppingList {
	slugs := recipeSlugs(l)
	out := &mealplanv1.ShoppingList{Id: l.ID, Name: deref(l.Name)}
	groups := map[string]*mealplanv1.ShoppingLabelGroup{}
	items := slices.Clone(l.ListItems)
	slices.SortStableFunc(items, func(a, b mealie.ShoppingItem) int { return cmp.Compare(a.Position, b.Position) })
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
	slices.SortStableFunc(out.Groups, func(a, b *mealplanv1.ShoppingLabelGroup) int {
		if (a.Label == "") != (b.Label == "") {
			if a.Label == "" {
				return 1
			}
			return -1
		}
		return cmp.Compare(strings.ToLower(a.Label), strings.ToLower(b.Label))
	})
	return out
}

// labelOf is the item's label, or its food's when the item has none.
func labelOf(it *mealie.ShoppingItem) string {
	if it.Label != nil {
		return it.Label.Name
	}
	if it.Food != nil && it.Food.Label != nil {
		return it.Food.Label.Name
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
	out := &mealplanv1.ShoppingItem{Id: it.ID, Note: strings.TrimSpace(deref(it.Note)), Checked: it.Checked}
	if it.Unit != nil {
		out.Unit = it.Unit.Name
	}
	if it.Food != nil {
		out.Food = it.Food.Name
	}
	if it.Quantity > 0 {
		q := it.Quantity
		out.Quantity = &q
	}
	foodPlural := ""
	if it.Food != nil {
		foodPlural = deref(it.Food.PluralName)
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

// formatQty writes a quantity as a cook does: 1½, ¾, 2, 0.3.
func formatQty(q float64) string { return amount.Quantity(q) }

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// line is one thing to buy before it is written: a parsed free-text line or
// a recipe ingredient.
type line struct {
	// name is the line as the caller would recognise it ("2 eggs"), for the
	// skipped and merged reports.
	name     string
	foodID   string
	food     string
	unitID   string
	unit     string
	quantity float64
	note     string
	// refs are the recipes the line was added for.
	refs []mealie.ShoppingRecipeRef
	// unparsed marks a free-text line the parser could not match to a food.
	unparsed bool
}

// key identifies rows that merge: the same food in the same unit, or the
// same note text. Mealie's own merge uses food and unit too
// (testdata/shopping_items__create_same_food_merges.json).
func (l *line) key() string {
	if l.foodID != "" {
		return "food:" + l.foodID + "|" + l.unitID
	}
	return "note:" + nameKey(l.note)
}

// itemKey is key for a row already on the list.
func itemKey(it *mealie.ShoppingItem) string {
	if it.FoodID != nil && *it.FoodID != "" {
		return "food:" + *it.FoodID + "|" + deref(it.UnitID)
	}
	return "note:" + nameKey(deref(it.Note))
}

// AddToShoppingList adds free-text items, recipes' ingredients and the
// recipes planned in a range. Everything is read and checked against the
// pantry before the first write, so a refusal adds nothing.
func (s *Service) AddToShoppingList(ctx context.Context, req *connect.Request[mealplanv1.AddToShoppingListRequest]) (*connect.Response[mealplanv1.AddToShoppingListResponse], error) {
	m := req.Msg
	texts, slugs, err := validateAdd(m)
	if err != nil {
		return nil, err
	}
	// Unset means "skip what is in stock" when there is a pantry to ask;
	// a Mealie-only household gets its list, told the pantry was not
	// consulted. Asked for explicitly without a pantry, it is refused.
	skip := m.GetSkipInStock() || (m.SkipInStock == nil && s.pantry != nil)
	var note string
	if m.SkipInStock == nil && s.pantry == nil {
		note = s.pantryNotConfigured() + ", so nothing was skipped as in stock"
	}
	var st *stock
	if skip {
		if st, err = s.inStock(ctx); err != nil {
			return nil, err
		}
	}
	listID, err := s.pickList(ctx, m.GetListId())
	if err != nil {
		return nil, err
	}
	list, err := s.mealie.GetShoppingList(ctx, listID)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out := &mealplanv1.AddToShoppingListResponse{ListId: listID, Note: note}

	var lines []line
	if len(texts) > 0 {
		parsed, err := s.parseLines(ctx, texts)
		if err != nil {
			return nil, err
		}
		lines = append(lines, parsed...)
	}

	// Recipes and how many times each is wanted: a recipe planned twice in
	// the range is bought for twice.
	var order []string
	times := map[string]int{}
	want := func(slug string) {
		if times[slug] == 0 {
			order = append(order, slug)
		}
		times[slug]++
	}
	for _, slug := range slugs {
		want(slug)
	}
	if r := m.GetMealPlanRange(); r != nil {
		entries, err := s.mealie.ListMealPlans(ctx, r.GetStartDate(), r.GetEndDate())
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		for _, e := range entries {
			if e.Recipe != nil && e.Recipe.Slug != "" {
				want(e.Recipe.Slug)
			}
		}
	}
	if len(order) > MaxRecipesPerAdd {
		return nil, invalid("%d recipes to add; at most %d per call — narrow the range or the list", len(order), MaxRecipesPerAdd)
	}
	known := recipeSlugs(list)
	for _, slug := range order {
		r, _, err := s.mealie.GetRecipe(ctx, slug)
		if err != nil {
			if mealie.StatusOf(err) == http.StatusNotFound {
				out.NotFound = append(out.NotFound, slug)
				continue
			}
			return nil, mealie.ConnectError(err)
		}
		known[r.ID] = r.Slug
		lines = append(lines, recipeLines(r, float64(times[slug]))...)
	}

	// Fold lines that are the same row (garlic in two recipes is one row,
	// and one skip), then drop what the pantry has.
	var merged []line
	for _, l := range fold(lines) {
		if it, ok := st.match(l.food, l.note); ok {
			out.SkippedInStock = append(out.SkippedInStock, &mealplanv1.SkippedItem{Name: l.name, PantryItem: it.name, Location: it.location})
			continue
		}
		if l.unparsed {
			out.Unparsed = append(out.Unparsed, l.name)
		}
		merged = append(merged, l)
	}

	// Rows already on the list (unchecked) take the quantity; the rest are
	// created in one call.
	existing := map[string]*mealie.ShoppingItem{}
	for i := range list.ListItems {
		it := &list.ListItems[i]
		if !it.Checked {
			if _, dup := existing[itemKey(it)]; !dup {
				existing[itemKey(it)] = it
			}
		}
	}
	var creates []mealie.ShoppingItemCreate
	type update struct {
		l  line
		it *mealie.ShoppingItem
	}
	var updates []update
	for _, l := range merged {
		if it := existing[l.key()]; it != nil {
			updates = append(updates, update{l, it})
			continue
		}
		creates = append(creates, l.create(listID))
	}
	if len(creates) > 0 {
		ch, err := s.mealie.CreateShoppingItems(ctx, creates)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		for i := range ch.CreatedItems {
			out.Added = append(out.Added, shapeItem(&ch.CreatedItems[i], known))
		}
		// Mealie merges a new row into one with the same food and unit by
		// itself; such rows come back as updated.
		for i := range ch.UpdatedItems {
			it := shapeItem(&ch.UpdatedItems[i], known)
			out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: it.GetDisplay(), Item: it})
		}
	}
	for _, u := range updates {
		changes := map[string]any{"quantity": mergedQuantity(u.it.Quantity, u.l.quantity)}
		if len(u.l.refs) > 0 {
			refs := []any{}
			if old, ok := u.it.Raw["recipeReferences"].([]any); ok {
				refs = append(refs, old...)
			}
			for _, r := range u.l.refs {
				refs = append(refs, map[string]any{"recipeId": r.RecipeID, "recipeQuantity": r.RecipeQuantity})
			}
			changes["recipeReferences"] = refs
		}
		ch, err := s.mealie.UpdateShoppingItem(ctx, u.it, changes)
		if err != nil {
			return nil, connect.NewError(connect.CodeOf(mealie.ConnectError(err)), fmt.Errorf(
				"added %d new rows, then merging %q into the row already on the list failed: %v", len(out.Added), u.l.name, err))
		}
		item := u.it
		if len(ch.UpdatedItems) > 0 {
			item = &ch.UpdatedItems[0]
		}
		out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: u.l.name, Item: shapeItem(item, known)})
	}
	return connect.NewResponse(out), nil
}

// mergedQuantity adds a quantity to a row's. A row or a line without an
// amount counts as one, as Mealie's own rows do (its default quantity is 1).
func mergedQuantity(have, add float64) float64 {
	if have <= 0 {
		have = 1
	}
	if add <= 0 {
		add = 1
	}
	return have + add
}

// create is the Mealie body for a new row.
func (l *line) create(listID string) mealie.ShoppingItemCreate {
	c := mealie.ShoppingItemCreate{ShoppingListID: listID, Quantity: l.quantity, Note: l.note, RecipeReferences: l.refs}
	if l.foodID != "" {
		// isFood true makes Mealie's own display show the food.
		c.FoodID, c.UnitID, c.IsFood = l.foodID, l.unitID, true
	} else {
		// A note row's amount, if any, is in its text.
		c.DisableAmount = true
	}
	return c
}

// fold merges lines with the same key, summing quantities and keeping
// every recipe reference, in first-seen order.
func fold(lines []line) []line {
	var out []line
	at := map[string]int{}
	for _, l := range lines {
		k := l.key()
		if i, ok := at[k]; ok {
			o := &out[i]
			if o.foodID == "" {
				// Note rows count: two "bread" lines are two loaves.
				o.quantity = mergedQuantity(o.quantity, l.quantity)
			} else {
				o.quantity += l.quantity
			}
			o.refs = append(o.refs, l.refs...)
			o.name = display(o.quantity, o.unit, o.food, o.note)
			continue
		}
		at[k] = len(out)
		out = append(out, l)
	}
	return out
}

// recipeLines turns a recipe's ingredients into lines, times over. Section
// titles (lines with neither food nor text) add nothing.
func recipeLines(r *mealie.Recipe, times float64) []line {
	var out []line
	ref := []mealie.ShoppingRecipeRef{{RecipeID: r.ID, RecipeQuantity: times}}
	for _, ing := range r.Ingredients {
		note := strings.TrimSpace(deref(ing.Note))
		if ing.Food != nil && ing.Food.ID != "" {
			l := line{foodID: ing.Food.ID, food: ing.Food.Name, note: note, refs: ref}
			if ing.Quantity != nil {
				l.quantity = *ing.Quantity * times
			}
			if ing.Unit != nil && ing.Unit.ID != "" {
				l.unitID, l.unit = ing.Unit.ID, ing.Unit.Name
			}
			l.name = display(l.quantity, l.unit, l.food, l.note)
			out = append(out, l)
			continue
		}
		// A line with no food: its amount and text become the note. Mealie's
		// display is not used, as it drops text for such lines ("2 sifted":
		// testdata/recipes_get__new_slug_after_put_rename.json).
		if note == "" {
			continue
		}
		text := note
		if ing.Quantity != nil && *ing.Quantity > 0 {
			unit := ""
			if ing.Unit != nil {
				unit = ing.Unit.Name
			}
			text = strings.Join(strings.Fields(formatQty(*ing.Quantity*times)+" "+unit+" "+note), " ")
		}
		out = append(out, line{name: text, note: text, refs: ref})
	}
	return out
}

// parseLines runs free-text lines through Mealie's parser. "nlp" is Mealie's
// default; when it fails (it needs the CRF++ model, absent from some
// installs: testdata/parser_ingredients__nlp.json) "brute" is tried. A line whose food
// the parser cannot match to a known food is added as a note and reported
// as unparsed, as is every line when no parser answers.
func (s *Service) parseLines(ctx context.Context, texts []string) ([]line, error) {
	var parsed []mealie.ParsedShoppingLine
	var err error
	for _, p := range []string{"nlp", "brute"} {
		parsed, err = s.mealie.ParseShoppingLines(ctx, p, texts)
		var me *mealie.Error
		if err == nil && len(parsed) == len(texts) {
			break
		}
		if errors.As(err, &me) && me.Kind == mealie.KindAuth {
			return nil, mealie.ConnectError(err)
		}
		s.log.Warn("ingredient parser failed", "parser", p, "err", err)
		parsed = nil
	}
	var out []line
	for i, t := range texts {
		if parsed == nil || parsed[i].Ingredient.Food == nil || deref(parsed[i].Ingredient.Food.ID) == "" {
			out = append(out, line{name: t, note: t, unparsed: true})
			continue
		}
		ing := parsed[i].Ingredient
		l := line{name: t, foodID: *ing.Food.ID, food: ing.Food.Name, note: strings.TrimSpace(ing.Note)}
		if ing.Quantity != nil {
			l.quantity = *ing.Quantity
		}
		if u := ing.Unit; u != nil {
			if id := deref(u.ID); id != "" {
				l.unitID, l.unit = id, u.Name
			} else if n := strings.TrimSpace(u.Name); n != "" {
				// A unit Mealie does not know ("3 large eggs") stays as text.
				l.note = strings.TrimSpace(n + " " + l.note)
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// validateAdd checks an AddToShoppingList request before any call and
// returns its trimmed free-text lines and slugs.
func validateAdd(m *mealplanv1.AddToShoppingListRequest) ([]string, []string, error) {
	if len(m.GetItems()) > MaxFreeTextItems {
		return nil, nil, invalid("items: at most %d lines per call, got %d", MaxFreeTextItems, len(m.GetItems()))
	}
	if len(m.GetRecipeSlugs()) > MaxRecipesPerAdd {
		return nil, nil, invalid("recipe_slugs: at most %d per call, got %d", MaxRecipesPerAdd, len(m.GetRecipeSlugs()))
	}
	var texts, slugs []string
	for i, t := range m.GetItems() {
		t = strings.TrimSpace(t)
		if t == "" {
			return nil, nil, invalid("items[%d] is empty", i)
		}
		if utf8.RuneCountInString(t) > MaxItemChars {
			return nil, nil, invalid("items[%d] is longer than %d characters", i, MaxItemChars)
		}
		texts = append(texts, t)
	}
	for i, sl := range m.GetRecipeSlugs() {
		sl = strings.TrimSpace(sl)
		if sl == "" {
			return nil, nil, invalid("recipe_slugs[%d] is empty", i)
		}
		slugs = append(slugs, sl)
	}
	if r := m.GetMealPlanRange(); r != nil {
		if _, _, _, err := parseRange("meal_plan_range.start_date", r.GetStartDate(), "meal_plan_range.end_date", r.GetEndDate(), MaxShoppingRangeDays, "meal_plan_range"); err != nil {
			return nil, nil, err
		}
	}
	if len(texts) == 0 && len(slugs) == 0 && m.GetMealPlanRange() == nil {
		return nil, nil, invalid("nothing to add: give items, recipe_slugs or meal_plan_range")
	}
	return texts, slugs, nil
}

// pickList returns the list id to write to. Without one, a household with
// exactly one list uses it; otherwise the caller must choose, and the error
// names the lists.
func (s *Service) pickList(ctx context.Context, id string) (string, error) {
	if id = strings.TrimSpace(id); id != "" {
		return id, nil
	}
	lists, err := s.mealie.ListShoppingLists(ctx)
	if err != nil {
		return "", mealie.ConnectError(err)
	}
	switch len(lists) {
	case 0:
		return "", connect.NewError(connect.CodeFailedPrecondition, errors.New("the household has no shopping list: create one in Mealie first"))
	case 1:
		return lists[0].ID, nil
	}
	names := make([]string, 0, len(lists))
	for _, l := range lists {
		n := deref(l.Name)
		if n == "" {
			n = "(unnamed)"
		}
		names = append(names, fmt.Sprintf("%s (%s)", n, l.ID))
	}
	return "", invalid("list_id is required: the household has %d shopping lists: %s", len(lists), strings.Join(names, ", "))
}

// UpdateShoppingItems checks, unchecks and removes items of one list. The
// list is read once; each item is then written alone (PUT of the whole
// object, or DELETE), and a failure is reported without stopping the rest.
func (s *Service) UpdateShoppingItems(ctx context.Context, req *connect.Request[mealplanv1.UpdateShoppingItemsRequest]) (*connect.Response[mealplanv1.UpdateShoppingItemsResponse], error) {
	m := req.Msg
	listID := strings.TrimSpace(m.GetListId())
	if listID == "" {
		return nil, invalid("list_id is required")
	}
	ops := []struct {
		name string
		ids  []string
	}{{"check", m.GetCheck()}, {"uncheck", m.GetUncheck()}, {"remove", m.GetRemove()}}
	seen := map[string]string{}
	total := 0
	for _, op := range ops {
		if len(op.ids) > MaxItemOps {
			return nil, invalid("%s: at most %d ids per call, got %d", op.name, MaxItemOps, len(op.ids))
		}
		for _, id := range op.ids {
			id = strings.TrimSpace(id)
			if id == "" {
				return nil, invalid("%s: an item id is empty", op.name)
			}
			if prev, dup := seen[id]; dup && prev != op.name {
				return nil, invalid("item %s is in both %s and %s", id, prev, op.name)
			}
			seen[id] = op.name
			total++
		}
	}
	if total == 0 {
		return nil, invalid("nothing to do: give check, uncheck or remove")
	}
	list, err := s.mealie.GetShoppingList(ctx, listID)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	byID := map[string]*mealie.ShoppingItem{}
	for i := range list.ListItems {
		byID[list.ListItems[i].ID] = &list.ListItems[i]
	}
	out := &mealplanv1.UpdateShoppingItemsResponse{}
	fail := func(id string, err error) {
		out.Errors = append(out.Errors, &mealplanv1.ItemError{Item: id, Message: err.Error()})
	}
	done := map[string]bool{}
	for _, op := range ops {
		for _, id := range op.ids {
			id = strings.TrimSpace(id)
			if done[op.name+id] {
				continue
			}
			done[op.name+id] = true
			it := byID[id]
			if it == nil {
				fail(id, errors.New("item not on this list"))
				continue
			}
			switch op.name {
			case "check", "uncheck":
				want := op.name == "check"
				if it.Checked != want {
					if _, err := s.mealie.UpdateShoppingItem(ctx, it, map[string]any{"checked": want}); err != nil {
						fail(id, err)
						continue
					}
				}
				if want {
					out.Checked = append(out.Checked, id)
				} else {
					out.Unchecked = append(out.Unchecked, id)
				}
			case "remove":
				if err := s.mealie.DeleteShoppingItem(ctx, id); err != nil {
					fail(id, err)
					continue
				}
				out.Removed = append(out.Removed, id)
			}
		}
	}
	return connect.NewResponse(out), nil
}
