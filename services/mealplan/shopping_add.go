package mealplan

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

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
	if err := s.createUnits(ctx, merged, out); err != nil {
		return nil, err
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
