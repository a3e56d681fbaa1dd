package mealplan

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// AddToShoppingList adds free-text items, recipes' ingredients and the
// recipes planned in a range. Everything is read and checked against the
// pantry (and the caller's have) before the first write, so a refusal adds
// nothing. The writes to the list then hold its key (Service.writes) from
// a fresh read of the list to the last write: an addition of a food
// already on the list, in the same unit, is summed into its row by sous
// (mergeInto), and the rest of a recipe goes through Mealie's own
// add-recipe endpoint, so its rows are the rows Mealie's app would make.
func (s *Service) AddToShoppingList(ctx context.Context, req *connect.Request[mealplanv1.AddToShoppingListRequest]) (*connect.Response[mealplanv1.AddToShoppingListResponse], error) {
	m := req.Msg
	texts, slugs, have, err := validateAdd(m)
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
	out := &mealplanv1.AddToShoppingListResponse{Note: note}
	sv := &sieve{have: haveStock(have), pantry: st, out: out}
	if len(have) > 0 {
		offerFrom := st
		if offerFrom == nil && s.pantry != nil {
			// The pantry was not asked to skip anything, but what it says
			// of the names given is still worth offering; it is only
			// read, and a pantry that does not answer offers nothing.
			offerFrom, _ = s.inStock(ctx)
		}
		out.PantryOffers = offerFrom.pantryOffers(have)
	}
	listID, createName, err := s.pickList(ctx, m.GetListId(), m.GetListName())
	if err != nil {
		return nil, err
	}

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
	var recipes []*mealie.Recipe
	for _, slug := range order {
		r, _, err := s.mealie.GetRecipe(ctx, slug)
		if err != nil {
			if mealie.StatusOf(err) == http.StatusNotFound {
				out.NotFound = append(out.NotFound, slug)
				continue
			}
			return nil, mealie.ConnectError(err)
		}
		recipes = append(recipes, r)
		times[r.Slug] = times[slug]
	}

	// Free-text lines that are the same row fold into one, then what the
	// caller or the pantry has is dropped.
	var kept []line
	for _, l := range fold(lines) {
		keep := sv.keep
		if m.SkipInStock == nil {
			keep = sv.keepNamed
		}
		if !keep(l.name, l.food, l.note) {
			continue
		}
		if l.unparsed {
			out.Unparsed = append(out.Unparsed, l.name)
		}
		kept = append(kept, l)
	}

	// The writes: a list named but missing is made now, when nothing can
	// be refused any more, and the list is read afresh under its key.
	list, created, unlock, err := s.lockList(ctx, listID, createName)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out.ListId, out.ListName, out.CreatedList = list.ID, deref(list.Name), created
	known := recipeSlugs(list)
	onList := map[string]bool{}
	for _, r := range list.RecipeReferences {
		if r.RecipeQuantity > 0 {
			onList[r.RecipeID] = true
		}
	}
	again := m.GetAddAgain() || m.RecipeScale != nil
	var adds []recipeAdd
	for _, r := range recipes {
		known[r.ID] = r.Slug
		if onList[r.ID] && !again {
			out.AlreadyOnList = append(out.AlreadyOnList, r.Slug)
			continue
		}
		ls, dropped, err := recipeLines(r, times[r.Slug], sv)
		if err != nil {
			return nil, connect.NewError(connect.CodeInternal, err)
		}
		adds = append(adds, recipeAdd{slug: r.Slug, id: r.ID, scale: times[r.Slug], lines: ls, dropped: dropped})
	}
	if err := s.createUnits(ctx, kept, out); err != nil {
		return nil, err
	}
	reported := map[string]bool{}
	if err := s.addLines(ctx, list, kept, known, out, reported); err != nil {
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
		l, err := s.addRecipe(ctx, list, a, known, out, reported)
		if err != nil {
			done := "nothing was added for it"
			if len(out.RecipesAdded) > 0 {
				done = "added before it: " + strings.Join(out.RecipesAdded, ", ")
			}
			return nil, connect.NewError(connect.CodeOf(mealie.ConnectError(err)), fmt.Errorf("adding recipe %s to the list failed (%s): %v", a.slug, done, err))
		}
		if l != nil {
			list, after = l, l
		}
		out.RecipesAdded = append(out.RecipesAdded, a.slug)
	}
	if after == nil {
		return connect.NewResponse(out), nil
	}
	// Each answer of the add-recipe endpoint is the whole list; the last
	// one says what Mealie made of the rest: rows that are new, and rows
	// whose quantity grew (a row another writer put there meanwhile).
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

// recipeAdd is one recipe to put on the list.
type recipeAdd struct {
	slug, id string
	scale    float64
	// lines are the recipe's lines left to buy.
	lines []recipeLine
	// dropped says the sieve left lines out, so Mealie must be sent the
	// lines rather than read the recipe itself.
	dropped bool
}

// addRecipe puts one recipe on the list as it stands (held under its
// key): each line of a food already to buy in the same unit is summed
// into that row by sous, the lines of one recipe that fall on one row
// together, and the rest go through Mealie's add-recipe endpoint (with
// recipeIngredients when any line was merged or skipped; an empty list
// still counts the recipe on the list:
// testdata/recordings/<version>/TestShoppingAddRecipeBody.json in the
// contract package). The row writes come first, since Mealie's item
// writes forget a list's recipe that no row refers to. It answers the list
// after the add-recipe call, or nil when nothing was sent to it.
func (s *Service) addRecipe(ctx context.Context, list *mealie.ShoppingList, a recipeAdd, known map[string]string, out *mealplanv1.AddToShoppingListResponse, reported map[string]bool) (*mealie.ShoppingList, error) {
	if a.dropped && len(a.lines) == 0 {
		// Everything is had: nothing to add, and the recipe is not put
		// on the list empty.
		return nil, nil
	}
	type onRow struct {
		row   *mealie.ShoppingItem
		lines []recipeLine
	}
	var rows []*onRow
	byRow := map[string]*onRow{}
	var rest []json.RawMessage
	for _, l := range a.lines {
		foodID, food := l.food()
		unitID, unit := l.unit()
		var row *mealie.ShoppingItem
		if food != "" && l.ing.ReferencedRecipe == nil {
			row = rowOf(list, foodID, food, unitID, unit)
		}
		if row == nil {
			rest = append(rest, l.raw)
			continue
		}
		if byRow[row.ID] == nil {
			byRow[row.ID] = &onRow{row: row}
			rows = append(rows, byRow[row.ID])
		}
		byRow[row.ID].lines = append(byRow[row.ID].lines, l)
	}
	for _, r := range rows {
		q := 0.0
		for _, l := range r.lines {
			q += l.quantity()
		}
		scale := a.scale
		_, food := r.lines[0].food()
		_, unit := r.lines[0].unit()
		mg := merge{name: display(q*a.scale, unit, food, ""), add: q * a.scale, note: lineNotes(r.lines),
			refs: []mealie.ShoppingRecipeRef{{RecipeID: a.id, RecipeQuantity: q, RecipeScale: &scale}}}
		now, again, err := s.mergeInto(ctx, list.ID, r.row, mg, known)
		if err != nil {
			return nil, err
		}
		reported[r.row.ID] = true
		item := shapeItem(now, known)
		if !slices.Contains(item.RecipeSlugs, a.slug) {
			item.RecipeSlugs = append(item.RecipeSlugs, a.slug)
		}
		out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: mg.name, Item: item})
		if again != nil {
			out.Reapplied = append(out.Reapplied, again)
			if again.Item != nil {
				reported[again.Item.GetId()] = true
			}
		}
	}
	var send []json.RawMessage
	if a.dropped || len(rows) > 0 {
		send = rest
		if send == nil {
			send = []json.RawMessage{}
		}
	}
	return s.mealie.AddRecipeToShoppingList(ctx, list.ID, a.id, a.scale, send)
}

// validateAdd checks an AddToShoppingList request before any call and
// returns its trimmed free-text lines, slugs and names had.
func validateAdd(m *mealplanv1.AddToShoppingListRequest) (texts, slugs, have []string, err error) {
	texts, slugs, err = validateAddItems(m)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(m.GetHave()) > MaxFreeTextItems {
		return nil, nil, nil, invalid("have: at most %d names per call, got %d", MaxFreeTextItems, len(m.GetHave()))
	}
	for i, h := range m.GetHave() {
		h = strings.TrimSpace(h)
		if h == "" {
			return nil, nil, nil, invalid("have[%d] is empty; give the name of something the user has, such as \"butter\"", i)
		}
		if utf8.RuneCountInString(h) > MaxItemChars {
			return nil, nil, nil, invalid("have[%d] is longer than %d characters", i, MaxItemChars)
		}
		have = append(have, h)
	}
	return texts, slugs, have, nil
}

// validateAddItems checks what an AddToShoppingList request adds.
func validateAddItems(m *mealplanv1.AddToShoppingListRequest) ([]string, []string, error) {
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
