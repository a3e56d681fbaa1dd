package mealplan

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// UpdateShoppingItems checks, unchecks and removes items of one list, by
// id or name, checks all but some, removes checked items and takes recipes
// off. The list is read once under its key; each item is then written
// alone (PUT of the whole object, or DELETE), and a failure is reported
// without stopping the rest. The answer carries the list read back.
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
	except := m.GetCheckAllExcept()
	if except != nil {
		if len(m.GetCheck())+len(m.GetUncheck()) > 0 {
			return nil, invalid("check_all_except checks every other item still to buy: leave check and uncheck empty (items bought later can be checked in a second call)")
		}
		if len(except.GetItems()) > MaxItemOps {
			return nil, invalid("check_all_except: at most %d items, got %d", MaxItemOps, len(except.GetItems()))
		}
		for _, ref := range except.GetItems() {
			if strings.TrimSpace(ref) == "" {
				return nil, invalid("check_all_except: an item is empty; give an item id or name, or no items to check everything")
			}
			if utf8.RuneCountInString(ref) > MaxItemChars {
				return nil, invalid("check_all_except: an item is longer than %d characters", MaxItemChars)
			}
		}
	}
	if total == 0 && !m.GetRemoveChecked() && len(m.GetRemoveRecipes()) == 0 && except == nil {
		return nil, invalid("nothing to do: give check, uncheck, remove, remove_checked, remove_recipes or check_all_except")
	}
	// Each row is written whole as read (Mealie's PUT needs the whole
	// item), so the list's key is held from the read to the last write.
	unlock, err := s.writes.Lock(ctx, listKey(listID))
	if err != nil {
		return nil, connect.NewError(connect.CodeCanceled, err)
	}
	defer unlock()
	list, err := s.mealie.GetShoppingList(ctx, listID)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	// The items to leave are found before anything is written: one that
	// is not on the list refuses the call whole.
	leave := map[string]bool{}
	for _, ref := range except.GetItems() {
		ref = strings.TrimSpace(ref)
		found, err := findItems(list, ref, "remove")
		if err != nil {
			return nil, invalid("check_all_except: %q: %v; nothing was checked", ref, err)
		}
		for _, it := range found {
			leave[it.ID] = true
		}
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
	if except != nil {
		for i := range list.ListItems {
			it := &list.ListItems[i]
			if _, dup := seen[it.ID]; dup || it.Checked || leave[it.ID] {
				continue
			}
			seen[it.ID] = "check"
			targets = append(targets, target{"check", it.ID, it})
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
