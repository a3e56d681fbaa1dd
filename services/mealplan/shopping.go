package mealplan

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/amount"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
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
	// MaxListNameChars caps a shopping list's name.
	MaxListNameChars = limits.ShoppingListNameChars
	// MinRecipeScale and MaxRecipeScale bound recipe_scale: a tenth of a
	// recipe to twenty times it.
	MinRecipeScale = limits.MinShoppingScale
	MaxRecipeScale = limits.MaxShoppingScale
	// MaxListIDChars caps a list_id: Mealie's are 36-character UUIDs.
	MaxListIDChars = limits.ShoppingListIDChars
)

// checkListID trims a list_id and refuses it when longer than
// MaxListIDChars, naming the length but never quoting the value: the id
// goes into a Mealie request path. Empty is returned as is, for the caller
// to decide what it means.
func checkListID(id string) (string, error) {
	id = strings.TrimSpace(id)
	if n := utf8.RuneCountInString(id); n > MaxListIDChars {
		return "", invalid("list_id: at most %d characters, got %d", MaxListIDChars, n)
	}
	return id, nil
}

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
// pantry before the first write, so a refusal adds nothing. Recipes go
// through Mealie's own add-recipe endpoint, one call per recipe, so their
// rows are the rows Mealie's app would make.
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
	listID, createName, err := s.pickList(ctx, m.GetListId(), m.GetListName())
	if err != nil {
		return nil, err
	}
	list := &mealie.ShoppingList{}
	if listID != "" {
		if list, err = s.mealie.GetShoppingList(ctx, listID); err != nil {
			return nil, mealie.ConnectError(err)
		}
	}
	out := &mealplanv1.AddToShoppingListResponse{ListId: listID, ListName: deref(list.Name), Note: note}

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
	times := map[string]float64{}
	scale := 1.0
	if m.RecipeScale != nil {
		scale = m.GetRecipeScale()
	}
	want := func(slug string, n float64) {
		if times[slug] == 0 {
			order = append(order, slug)
		}
		times[slug] += n
	}
	for _, slug := range slugs {
		want(slug, scale)
	}
	if r := m.GetMealPlanRange(); r != nil {
		entries, err := s.mealie.ListMealPlans(ctx, r.GetStartDate(), r.GetEndDate())
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		for _, e := range entries {
			if e.Recipe != nil && e.Recipe.Slug != "" {
				want(e.Recipe.Slug, 1)
			}
		}
	}
	if len(order) > MaxRecipesPerAdd {
		return nil, invalid("%d recipes to add; at most %d per call — narrow the range or the list", len(order), MaxRecipesPerAdd)
	}
	onList := map[string]bool{}
	for _, r := range list.RecipeReferences {
		if r.RecipeQuantity > 0 {
			onList[r.RecipeID] = true
		}
	}
	again := m.GetAddAgain() || m.RecipeScale != nil
	known := recipeSlugs(list)
	var adds []recipeAdd
	skipped := map[string]bool{}
	report := func(name string, it stockItem) {
		if !skipped[name] {
			skipped[name] = true
			out.SkippedInStock = append(out.SkippedInStock, &mealplanv1.SkippedItem{Name: name, PantryItem: it.name, Location: it.location, How: it.how})
		}
	}
	for _, slug := range order {
		r, raw, err := s.mealie.GetRecipe(ctx, slug)
		if err != nil {
			if mealie.StatusOf(err) == http.StatusNotFound {
				out.NotFound = append(out.NotFound, slug)
				continue
			}
			return nil, mealie.ConnectError(err)
		}
		known[r.ID] = r.Slug
		if onList[r.ID] && !again {
			out.AlreadyOnList = append(out.AlreadyOnList, r.Slug)
			continue
		}
		add := recipeAdd{slug: r.Slug, id: r.ID, scale: times[slug]}
		if st != nil {
			if add.ingredients, err = st.withoutStock(r, raw, times[slug], report); err != nil {
				return nil, connect.NewError(connect.CodeInternal, err)
			}
		}
		adds = append(adds, add)
	}

	// Free-text lines that are the same row fold into one, then what the
	// pantry has is dropped.
	var merged []line
	for _, l := range fold(lines) {
		if it, ok := st.match(l.food, l.note); ok {
			report(l.name, it)
			continue
		}
		if l.unparsed {
			out.Unparsed = append(out.Unparsed, l.name)
		}
		merged = append(merged, l)
	}

	// The first write: a list named but missing is made now, when nothing
	// can be refused any more.
	if createName != "" {
		created, err := s.mealie.CreateShoppingList(ctx, createName)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		list, listID = created, created.ID
		out.ListId, out.ListName, out.CreatedList = created.ID, deref(created.Name), true
	}
	reported := map[string]bool{}
	if err := s.addLines(ctx, list, merged, known, out, reported); err != nil {
		return nil, err
	}
	if len(adds) == 0 {
		return connect.NewResponse(out), nil
	}
	before := map[string]float64{}
	for _, it := range list.ListItems {
		before[it.ID] = it.Quantity
	}
	var after *mealie.ShoppingList
	for _, a := range adds {
		if a.ingredients != nil && len(a.ingredients) == 0 {
			// Everything is in stock: nothing to add, and the recipe is
			// not put on the list empty.
			continue
		}
		l, err := s.mealie.AddRecipeToShoppingList(ctx, listID, a.id, a.scale, a.ingredients)
		if err != nil {
			done := "nothing was added for it"
			if len(out.RecipesAdded) > 0 {
				done = "added before it: " + strings.Join(out.RecipesAdded, ", ")
			}
			return nil, connect.NewError(connect.CodeOf(mealie.ConnectError(err)), fmt.Errorf("adding recipe %s to the list failed (%s): %v", a.slug, done, err))
		}
		after = l
		out.RecipesAdded = append(out.RecipesAdded, a.slug)
	}
	if after == nil {
		return connect.NewResponse(out), nil
	}
	// Each answer is the whole list; the last one says what the recipes
	// changed: rows that are new, and rows whose quantity grew.
	maps.Copy(known, recipeSlugs(after))
	for i := range after.ListItems {
		it := &after.ListItems[i]
		if reported[it.ID] {
			continue
		}
		q, had := before[it.ID]
		switch {
		case !had:
			out.Added = append(out.Added, shapeItem(it, known))
		case q != it.Quantity:
			row := shapeItem(it, known)
			out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: row.GetDisplay(), Item: row})
		}
	}
	return connect.NewResponse(out), nil
}

// recipeAdd is one call of Mealie's add-recipe endpoint.
type recipeAdd struct {
	slug, id string
	scale    float64
	// ingredients replaces the recipe's own lines when the pantry skip
	// left some out; nil sends none, and Mealie uses the recipe's.
	ingredients []json.RawMessage
}

// addLines writes free-text lines: those matching an unchecked row merge
// into it, the rest are created in one call.
func (s *Service) addLines(ctx context.Context, list *mealie.ShoppingList, lines []line, known map[string]string, out *mealplanv1.AddToShoppingListResponse, reported map[string]bool) error {
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
	for _, l := range lines {
		if it := existing[l.key()]; it != nil {
			updates = append(updates, update{l, it})
			continue
		}
		creates = append(creates, l.create(list.ID))
	}
	if len(creates) > 0 {
		ch, err := s.mealie.CreateShoppingItems(ctx, creates)
		if err != nil {
			return mealie.ConnectError(err)
		}
		for i := range ch.CreatedItems {
			reported[ch.CreatedItems[i].ID] = true
			out.Added = append(out.Added, shapeItem(&ch.CreatedItems[i], known))
		}
		// Mealie merges a new row into one with the same food and unit by
		// itself; such rows come back as updated.
		for i := range ch.UpdatedItems {
			reported[ch.UpdatedItems[i].ID] = true
			it := shapeItem(&ch.UpdatedItems[i], known)
			out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: it.GetDisplay(), Item: it})
		}
	}
	for _, u := range updates {
		reported[u.it.ID] = true
		if u.l.foodID == "" {
			// The same text is already to buy: a second "2 onions" row,
			// or "2 onions" made "2 2 onions", is not what a cook meant.
			out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: u.l.name, Item: shapeItem(u.it, known)})
			continue
		}
		ch, err := s.mealie.UpdateShoppingItem(ctx, u.it, map[string]any{"quantity": mergedQuantity(u.it.Quantity, u.l.quantity)})
		if err != nil {
			return connect.NewError(connect.CodeOf(mealie.ConnectError(err)), fmt.Errorf(
				"added %d new rows, then merging %q into the row already on the list failed: %v", len(out.Added), u.l.name, err))
		}
		item := u.it
		if len(ch.UpdatedItems) > 0 {
			item = &ch.UpdatedItems[0]
		}
		out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: u.l.name, Item: shapeItem(item, known)})
	}
	return nil
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
	c := mealie.ShoppingItemCreate{ShoppingListID: listID, Quantity: l.quantity, Note: l.note}
	if l.foodID != "" {
		// isFood true makes Mealie's own display show the food.
		c.FoodID, c.UnitID, c.IsFood = l.foodID, l.unitID, true
	} else {
		// A note row's amount, if any, is in its text: quantity 0 (sent,
		// not left to Mealie's default of 1) shows the text exactly.
		c.Quantity, c.DisableAmount = 0, true
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
			o.name = display(o.quantity, o.unit, o.food, o.note)
			continue
		}
		at[k] = len(out)
		out = append(out, l)
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
	if _, err := checkListID(m.GetListId()); err != nil {
		return nil, nil, err
	}
	if utf8.RuneCountInString(m.GetListName()) > MaxListNameChars {
		return nil, nil, invalid("list_name is longer than %d characters", MaxListNameChars)
	}
	if m.RecipeScale != nil {
		if sc := m.GetRecipeScale(); !(sc >= MinRecipeScale && sc <= MaxRecipeScale) {
			return nil, nil, invalid("recipe_scale: %v is out of range; give a number from %v to %v, such as 2 for twice the servings", sc, MinRecipeScale, MaxRecipeScale)
		}
		if len(slugs) == 0 {
			return nil, nil, invalid("recipe_scale applies to recipe_slugs, and none were given")
		}
	}
	if len(texts) == 0 && len(slugs) == 0 && m.GetMealPlanRange() == nil {
		return nil, nil, invalid("nothing to add: give items, recipe_slugs or meal_plan_range")
	}
	return texts, slugs, nil
}

// pickList returns the list id to write to, or the name of a list to
// create. A name matches a list exactly, case and outer spaces aside; no
// match means the list is to be made. Without id or name, a household with
// exactly one list uses it; otherwise the caller must choose, and the error
// names the lists.
func (s *Service) pickList(ctx context.Context, id, name string) (string, string, error) {
	if id = strings.TrimSpace(id); id != "" {
		return id, "", nil
	}
	lists, err := s.mealie.ListShoppingLists(ctx)
	if err != nil {
		return "", "", mealie.ConnectError(err)
	}
	if name = strings.TrimSpace(name); name != "" {
		if l := listNamed(lists, name); l != nil {
			return l.ID, "", nil
		}
		return "", name, nil
	}
	switch len(lists) {
	case 0:
		return "", "", invalid("the household has no shopping list yet: name the list to add to and it is created")
	case 1:
		return lists[0].ID, "", nil
	}
	return "", "", invalid("list_id is required: the household has %d shopping lists: %s", len(lists), listNames(lists))
}

// listNamed is the list called name (case-insensitive), or nil.
func listNamed(lists []mealie.ShoppingList, name string) *mealie.ShoppingList {
	for i := range lists {
		if strings.EqualFold(strings.TrimSpace(deref(lists[i].Name)), strings.TrimSpace(name)) {
			return &lists[i]
		}
	}
	return nil
}

// listNames names lists with their ids, for an error.
func listNames(lists []mealie.ShoppingList) string {
	names := make([]string, 0, len(lists))
	for _, l := range lists {
		n := deref(l.Name)
		if n == "" {
			n = "(unnamed)"
		}
		names = append(names, fmt.Sprintf("%s (%s)", n, l.ID))
	}
	return strings.Join(names, ", ")
}

// UpdateShoppingItems checks, unchecks and removes items of one list, by
// id or name, removes checked items and takes recipes off. The list is read
// once; each item is then written alone (PUT of the whole object, or
// DELETE), and a failure is reported without stopping the rest. The answer
// carries the list read back.
func (s *Service) UpdateShoppingItems(ctx context.Context, req *connect.Request[mealplanv1.UpdateShoppingItemsRequest]) (*connect.Response[mealplanv1.UpdateShoppingItemsResponse], error) {
	m := req.Msg
	listID, err := checkListID(m.GetListId())
	if err != nil {
		return nil, err
	}
	if listID == "" {
		return nil, invalid("list_id is required")
	}
	ops := []struct {
		name string
		refs []string
	}{{"check", m.GetCheck()}, {"uncheck", m.GetUncheck()}, {"remove", m.GetRemove()}}
	total := 0
	given := map[string]string{}
	for _, op := range ops {
		if len(op.refs) > MaxItemOps {
			return nil, invalid("%s: at most %d items per call, got %d", op.name, MaxItemOps, len(op.refs))
		}
		for _, ref := range op.refs {
			if strings.TrimSpace(ref) == "" {
				return nil, invalid("%s: an item is empty; give an item id or name", op.name)
			}
			if utf8.RuneCountInString(ref) > MaxItemChars {
				return nil, invalid("%s: an item is longer than %d characters", op.name, MaxItemChars)
			}
			k := strings.ToLower(strings.TrimSpace(ref))
			if prev, dup := given[k]; dup && prev != op.name {
				return nil, invalid("item %s is in both %s and %s", strings.TrimSpace(ref), prev, op.name)
			}
			given[k] = op.name
			total++
		}
	}
	if len(m.GetRemoveRecipes()) > MaxRecipesPerAdd {
		return nil, invalid("remove_recipes: at most %d per call, got %d", MaxRecipesPerAdd, len(m.GetRemoveRecipes()))
	}
	for i, sl := range m.GetRemoveRecipes() {
		if strings.TrimSpace(sl) == "" {
			return nil, invalid("remove_recipes[%d] is empty", i)
		}
	}
	if total == 0 && !m.GetRemoveChecked() && len(m.GetRemoveRecipes()) == 0 {
		return nil, invalid("nothing to do: give check, uncheck, remove, remove_checked or remove_recipes")
	}
	list, err := s.mealie.GetShoppingList(ctx, listID)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	// Every name and id is resolved before the first write, so a clash is
	// refused with nothing changed.
	type target struct {
		op, given string
		it        *mealie.ShoppingItem
	}
	var targets []target
	seen := map[string]string{}
	out := &mealplanv1.UpdateShoppingItemsResponse{}
	fail := func(ref string, err error) {
		out.Errors = append(out.Errors, &mealplanv1.ItemError{Item: ref, Message: err.Error()})
	}
	for _, op := range ops {
		for _, ref := range op.refs {
			ref = strings.TrimSpace(ref)
			found, err := findItems(list, ref, op.name)
			if err != nil {
				fail(ref, err)
				continue
			}
			for _, it := range found {
				if prev, dup := seen[it.ID]; dup {
					if prev != op.name {
						return nil, invalid("item %q (%s) is in both %s and %s", shapeItem(it, nil).GetDisplay(), it.ID, prev, op.name)
					}
					continue
				}
				seen[it.ID] = op.name
				targets = append(targets, target{op.name, ref, it})
			}
		}
	}
	if m.GetRemoveChecked() {
		// Checked means checked once this call's check and uncheck are
		// done: a row unchecked now stays, a row checked now goes.
		for i := range targets {
			if targets[i].op == "check" {
				targets[i].op = "remove"
			}
		}
		for i := range list.ListItems {
			it := &list.ListItems[i]
			if _, dup := seen[it.ID]; dup || !it.Checked {
				continue
			}
			seen[it.ID] = "remove"
			targets = append(targets, target{"remove", it.ID, it})
		}
	}
	recipeIDs, err := s.recipesOnList(ctx, list, m.GetRemoveRecipes(), fail)
	if err != nil {
		return nil, err
	}
	for _, t := range targets {
		it := t.it
		switch t.op {
		case "check", "uncheck":
			want := t.op == "check"
			if it.Checked != want {
				if _, err := s.mealie.UpdateShoppingItem(ctx, it, map[string]any{"checked": want}); err != nil {
					fail(t.given, err)
					continue
				}
			}
			if want {
				out.Checked = append(out.Checked, it.ID)
			} else {
				out.Unchecked = append(out.Unchecked, it.ID)
			}
		case "remove":
			if err := s.mealie.DeleteShoppingItem(ctx, it.ID); err != nil {
				fail(t.given, err)
				continue
			}
			out.Removed = append(out.Removed, it.ID)
		}
	}
	for _, r := range recipeIDs {
		if _, err := s.mealie.RemoveRecipeFromShoppingList(ctx, listID, r.id, r.times); err != nil {
			fail(r.slug, err)
			continue
		}
		if !r.sub {
			out.RecipesRemoved = append(out.RecipesRemoved, r.slug)
		}
	}
	after, err := s.mealie.GetShoppingList(ctx, listID)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out.List = shapeList(after)
	return connect.NewResponse(out), nil
}

// onListRecipe is a recipe to take off a list, all the times it is on it.
type onListRecipe struct {
	slug, id string
	times    float64
	// sub marks a sub-recipe's rows taken off with the recipe named.
	sub bool
}

// recipesOnList finds the recipes of slugs among the list's; one that is
// not on it fails alone.
func (s *Service) recipesOnList(ctx context.Context, list *mealie.ShoppingList, slugs []string, fail func(string, error)) ([]onListRecipe, error) {
	var out []onListRecipe
	for _, slug := range slugs {
		slug = strings.TrimSpace(slug)
		var hit *mealie.ShoppingListRecipeRef
		for i := range list.RecipeReferences {
			r := &list.RecipeReferences[i]
			if r.Recipe != nil && r.Recipe.Slug == slug && r.RecipeQuantity > 0 {
				hit = r
			}
		}
		if hit == nil {
			var on []string
			for _, r := range list.RecipeReferences {
				if r.Recipe != nil && r.RecipeQuantity > 0 {
					on = append(on, r.Recipe.Slug)
				}
			}
			if len(on) == 0 {
				fail(slug, errors.New("no recipe is on this list"))
			} else {
				fail(slug, fmt.Errorf("recipe not on this list; on it: %s", strings.Join(on, ", ")))
			}
			continue
		}
		out = append(out, onListRecipe{slug: slug, id: hit.RecipeID, times: hit.RecipeQuantity})
		// Mealie expands a line that uses another recipe (3.5 and later)
		// into rows that refer to the sub-recipe, not to this one, so its
		// removal would leave them: they are taken off too, as many
		// portions as the line asked for (seen on 3.11: two of a
		// sub-recipe add rows of recipeScale 2 referring to it).
		r, _, err := s.mealie.GetRecipe(ctx, slug)
		if err != nil {
			if mealie.StatusOf(err) == http.StatusNotFound {
				continue
			}
			return nil, mealie.ConnectError(err)
		}
		for _, ing := range r.Ingredients {
			if sub := ing.ReferencedRecipe; sub != nil && sub.ID != "" {
				q := 1.0
				if ing.Quantity != nil && *ing.Quantity > 0 {
					q = *ing.Quantity
				}
				out = append(out, onListRecipe{slug: slug, id: sub.ID, times: q * hit.RecipeQuantity, sub: true})
			}
		}
	}
	return out, nil
}

// findItems resolves an item given by id or by name. A name matches every
// row whose food, note or display it covers, read by the shared name
// resolver (names.Covers: singular/plural, and a general name covers its
// kinds): "eggs" finds "3 eggs" and "8 SimplyNature Organic Cage Free
// Eggs", "limes" the free-text row "Juice of half a lime". All of them are
// written, and the answer names each row, so a wider match than meant is
// seen. Check looks only at unchecked rows and uncheck only at checked ones,
// so "check milk" with one milk bought and one to buy means the one to buy.
// A name that finds nothing is answered with the rows closest to it.
func findItems(list *mealie.ShoppingList, ref, op string) ([]*mealie.ShoppingItem, error) {
	for i := range list.ListItems {
		if list.ListItems[i].ID == ref {
			return []*mealie.ShoppingItem{&list.ListItems[i]}, nil
		}
	}
	if uuidText.MatchString(ref) {
		return nil, errors.New("item not on this list")
	}
	var hits, all []*mealie.ShoppingItem
	entries := make([]names.Entry, 0, len(list.ListItems))
	for i := range list.ListItems {
		it := &list.ListItems[i]
		shown := shapeItem(it, nil).GetDisplay()
		rowNames := []string{deref(it.Note), it.Display, shown}
		if it.Food != nil {
			rowNames = append(rowNames, it.Food.Name, deref(it.Food.PluralName))
		}
		entries = append(entries, names.Entry{ID: it.ID, Name: shown, Others: rowNames})
		match := false
		for _, n := range rowNames {
			if n != "" && names.Covers(ref, n) {
				match = true
				break
			}
		}
		if !match {
			continue
		}
		all = append(all, it)
		if (op == "check" && !it.Checked) || (op == "uncheck" && it.Checked) || op == "remove" {
			hits = append(hits, it)
		}
	}
	if len(hits) > 0 {
		return hits, nil
	}
	if len(all) > 0 {
		// Already as asked: checking what is checked is done.
		return all, nil
	}
	if len(list.ListItems) == 0 {
		return nil, errors.New("no item of that id or name: the list is empty")
	}
	closest := names.NewIndex(entries).Closest(ref, 5)
	return nil, fmt.Errorf("no item of that id or name on this list; closest of its %d rows: %s", len(list.ListItems), strings.Join(closest, "; "))
}

// uuidText is an item id: such a reference is never read as a name.
var uuidText = regexp.MustCompile(`^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$`)

// CreateShoppingList makes an empty list; a name in use is refused.
func (s *Service) CreateShoppingList(ctx context.Context, req *connect.Request[mealplanv1.CreateShoppingListRequest]) (*connect.Response[mealplanv1.CreateShoppingListResponse], error) {
	name, err := listName("name", req.Msg.GetName())
	if err != nil {
		return nil, err
	}
	lists, err := s.mealie.ListShoppingLists(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if l := listNamed(lists, name); l != nil {
		return nil, connect.NewError(connect.CodeAlreadyExists, fmt.Errorf("the household already has a shopping list named %q (%s); use it, or give another name", deref(l.Name), l.ID))
	}
	l, err := s.mealie.CreateShoppingList(ctx, name)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.CreateShoppingListResponse{List: &mealplanv1.ShoppingListSummary{Id: l.ID, Name: deref(l.Name)}}), nil
}

// RenameShoppingList renames a list, sending it back whole, and reads it
// back to make sure every item stayed.
func (s *Service) RenameShoppingList(ctx context.Context, req *connect.Request[mealplanv1.RenameShoppingListRequest]) (*connect.Response[mealplanv1.RenameShoppingListResponse], error) {
	id, err := checkListID(req.Msg.GetListId())
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, invalid("list_id is required")
	}
	name, err := listName("name", req.Msg.GetName())
	if err != nil {
		return nil, err
	}
	lists, err := s.mealie.ListShoppingLists(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if l := listNamed(lists, name); l != nil && l.ID != id {
		return nil, connect.NewError(connect.CodeAlreadyExists, fmt.Errorf("another shopping list is already named %q (%s)", deref(l.Name), l.ID))
	}
	list, err := s.mealie.GetShoppingList(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if deref(list.Name) != name {
		if _, err := s.mealie.RenameShoppingList(ctx, list, name); err != nil {
			return nil, mealie.ConnectError(err)
		}
	}
	after, err := s.mealie.GetShoppingList(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if len(after.ListItems) != len(list.ListItems) {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("the list was renamed but Mealie now holds %d items where it held %d", len(after.ListItems), len(list.ListItems)))
	}
	return connect.NewResponse(&mealplanv1.RenameShoppingListResponse{List: shapeList(after)}), nil
}

// DeleteShoppingList deletes a list once its name is repeated.
func (s *Service) DeleteShoppingList(ctx context.Context, req *connect.Request[mealplanv1.DeleteShoppingListRequest]) (*connect.Response[mealplanv1.DeleteShoppingListResponse], error) {
	id, err := checkListID(req.Msg.GetListId())
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, invalid("list_id is required")
	}
	confirm := strings.TrimSpace(req.Msg.GetConfirmName())
	if confirm == "" {
		return nil, invalid("confirm_name is required: repeat the list's name to delete it")
	}
	list, err := s.mealie.GetShoppingList(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if !strings.EqualFold(strings.TrimSpace(deref(list.Name)), confirm) {
		return nil, invalid("confirm_name %q does not match the list's name %q; nothing was deleted", confirm, deref(list.Name))
	}
	if err := s.mealie.DeleteShoppingList(ctx, id); err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.DeleteShoppingListResponse{ListId: id, Name: deref(list.Name), ItemCount: int32(len(list.ListItems))}), nil
}

// listName checks a list name argument.
func listName(arg, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", invalid("%s is required: the shopping list's name", arg)
	}
	if utf8.RuneCountInString(name) > MaxListNameChars {
		return "", invalid("%s is longer than %d characters", arg, MaxListNameChars)
	}
	return name, nil
}
