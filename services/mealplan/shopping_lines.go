// Lines to buy: read from free text, folded together and merged into the rows already on a list.

package mealplan

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

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

// key identifies lines of one call that fold into one: the same food in
// the same unit, or the same note text. Mealie's own merge uses food and
// unit too (testdata/shopping_items__create_same_food_merges.json).
func (l *line) key() string {
	if l.foodID != "" {
		return "food:" + l.foodID + "|" + l.unitID
	}
	return "note:" + nameKey(l.note)
}

// noteRow is the unchecked row of no food whose text reads as note's.
func noteRow(list *mealie.ShoppingList, note string) *mealie.ShoppingItem {
	k := nameKey(note)
	for i := range list.ListItems {
		it := &list.ListItems[i]
		if !it.Checked && (it.FoodID == nil || *it.FoodID == "") && k != "" && nameKey(deref(it.Note)) == k {
			return it
		}
	}
	return nil
}

// addLines writes free-text lines into list, as read under its key: a line
// of a food already to buy in the same unit is summed into that row
// (mergeInto), a line whose text is already to buy is left at that row,
// and the rest are created in one call.
func (s *Service) addLines(ctx context.Context, list *mealie.ShoppingList, lines []line, known map[string]string, out *mealplanv1.AddToShoppingListResponse, reported map[string]bool) error {
	var creates []mealie.ShoppingItemCreate
	merged := 0
	for _, l := range lines {
		if l.foodID == "" {
			if row := noteRow(list, l.note); row != nil {
				// The same text is already to buy: a second "2 onions" row,
				// or "2 onions" made "2 2 onions", is not what a cook meant.
				reported[row.ID] = true
				out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: l.name, Item: shapeItem(row, known)})
				continue
			}
			creates = append(creates, l.create(list.ID))
			continue
		}
		row := rowOf(list, l.foodID, l.food, l.unitID, l.unit)
		if row == nil {
			creates = append(creates, l.create(list.ID))
			continue
		}
		now, again, err := s.mergeInto(ctx, list.ID, row, merge{name: l.name, add: l.quantity, countOne: true}, known)
		if err != nil {
			return connect.NewError(connect.CodeOf(mealie.ConnectError(err)), fmt.Errorf(
				"merged %d lines into rows already on the list, then merging %q failed (nothing else was added): %v", merged, l.name, err))
		}
		merged++
		// A later line of this call that reads as the same row merges
		// into it as it now stands.
		*row = *now
		reported[row.ID] = true
		out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: l.name, Item: shapeItem(now, known)})
		if again != nil {
			out.Reapplied = append(out.Reapplied, again)
			if again.Item != nil {
				reported[again.Item.GetId()] = true
			}
		}
	}
	if len(creates) == 0 {
		return nil
	}
	ch, err := s.mealie.CreateShoppingItems(ctx, creates)
	if err != nil {
		if merged > 0 {
			return connect.NewError(connect.CodeOf(mealie.ConnectError(err)), fmt.Errorf(
				"merged %d lines into rows already on the list, then adding the other %d failed: %v", merged, len(creates), err))
		}
		return mealie.ConnectError(err)
	}
	for i := range ch.CreatedItems {
		reported[ch.CreatedItems[i].ID] = true
		out.Added = append(out.Added, shapeItem(&ch.CreatedItems[i], known))
	}
	// Mealie merges a new row into one with the same food and unit by
	// itself (a row another writer made since sous read the list); such
	// rows come back as updated.
	for i := range ch.UpdatedItems {
		reported[ch.UpdatedItems[i].ID] = true
		it := shapeItem(&ch.UpdatedItems[i], known)
		out.Merged = append(out.Merged, &mealplanv1.MergedItem{Name: it.GetDisplay(), Item: it})
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
