// One row a food, and merges that lose nothing: how an addition finds the
// row it belongs to, and how sous writes into that row while other cooks
// write to the list.

package mealplan

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// listKey and nameKeyLock are the keys of Service.writes for a list and for
// a list name about to be created: every write to a list that reads it
// first holds its key from the read to the last write (keylock).
func listKey(id string) string       { return "list:" + id }
func listNameKey(name string) string { return "list-name:" + names.Key(name) }

// lockList takes the list's key and reads the list as it stands; when the
// list is to be created (createName), it takes the name's key first, so two
// calls naming the same new list make one list, and reads the lists again
// under it. It returns the list, whether it was created, and the function
// that frees the key.
func (s *Service) lockList(ctx context.Context, listID, createName string) (list *mealie.ShoppingList, created bool, unlock func(), err error) {
	if createName != "" {
		unlockName, err := s.writes.Lock(ctx, listNameKey(createName))
		if err != nil {
			return nil, false, nil, connect.NewError(connect.CodeCanceled, err)
		}
		defer unlockName()
		lists, err := s.mealie.ListShoppingLists(ctx)
		if err != nil {
			return nil, false, nil, mealie.ConnectError(err)
		}
		if l := listNamed(lists, createName); l != nil {
			listID = l.ID
		} else {
			l, err := s.mealie.CreateShoppingList(ctx, createName)
			if err != nil {
				return nil, false, nil, mealie.ConnectError(err)
			}
			listID, created = l.ID, true
		}
	}
	unlock, err = s.writes.Lock(ctx, listKey(listID))
	if err != nil {
		return nil, false, nil, connect.NewError(connect.CodeCanceled, err)
	}
	list, err = s.mealie.GetShoppingList(ctx, listID)
	if err != nil {
		unlock()
		return nil, false, nil, mealie.ConnectError(err)
	}
	return list, created, unlock, nil
}

// sameFood reports whether a row's food and a line's are one thing: the
// same Mealie food, or two foods of the library whose names read the same
// (a price, a mark, case or plural aside: "coconut milk ($1.99)" and
// "Coconut milk"), by the shared name reader.
func sameFood(rowID, rowName, id, name string) bool {
	if rowID != "" && rowID == id {
		return true
	}
	k := names.Key(name)
	return k != "" && k == names.Key(rowName)
}

// sameUnit reports whether a row's unit and a line's agree: both none, the
// same Mealie unit, or two units whose names read the same.
func sameUnit(rowID, rowName, id, name string) bool {
	if rowID == id {
		return true
	}
	if rowID == "" || id == "" {
		return false
	}
	k := names.Key(name)
	return k != "" && k == names.Key(rowName)
}

// rowOf finds the row still to buy that an addition of a food in a unit
// merges into: one row a food, where the units agree. A checked row is
// never merged into, as Mealie never merges into one (what was bought stays
// bought: testdata/recordings/<version>/TestShoppingAddRecipeBody.json in
// the contract package).
func rowOf(list *mealie.ShoppingList, foodID, food, unitID, unit string) *mealie.ShoppingItem {
	for i := range list.ListItems {
		it := &list.ListItems[i]
		if it.Checked || it.Food == nil {
			continue
		}
		rowUnitID, rowUnit := deref(it.UnitID), ""
		if it.Unit != nil {
			rowUnit = it.Unit.Name
		}
		if sameFood(deref(it.FoodID), it.Food.Name, foodID, food) && sameUnit(rowUnitID, rowUnit, unitID, unit) {
			return it
		}
	}
	return nil
}

// merge is an amount sous adds to a row already on the list.
type merge struct {
	// name is the addition as the caller would recognise it ("1 cup milk").
	name string
	// add is the amount added.
	add float64
	// countOne counts a row or an addition without an amount as one, as
	// free-text lines do (mergedQuantity); a recipe line without one adds
	// nothing, as Mealie's add-recipe adds it.
	countOne bool
	// note joins the row's note as Mealie's merge joins notes.
	note string
	// refs are the recipe references the addition brings.
	refs []mealie.ShoppingRecipeRef
}

// sum is the row's quantity with m added.
func (m merge) sum(have float64) float64 {
	if m.countOne {
		return mergedQuantity(have, m.add)
	}
	return have + m.add
}

// newMarker is a write's id, kept in the row's extras: 16 base32
// characters, 80 random bits.
func newMarker() string { return rand.Text()[:16] }

// mergeInto adds m to row, as read under the list's key: one PUT of the
// row with the summed amount (not Mealie's own merge, which reads and
// writes in two steps: two adds arriving together lose one), then a read
// of the row. sous's key keeps its own writes apart; a writer outside
// this process (Mealie's app saving the row as it had read it, Mealie's
// merge for someone's add, another sous) may still save over sous's write
// before the read. A row read back without this write's id
// (mealie.WriteMarkerKey) was, and gets m once more: added to the row as
// it now stands, or, when the other writer checked it off, as a new row,
// since what was bought stays bought. The answer says so. A row deleted
// meanwhile is not made again (someone took it off the list). Mealie has
// no conditional write, so a save that lands between sous's read of the
// list and this PUT is written over unseen: sous reads the list under the
// key just before its writes, keeping that window to a few requests.
func (s *Service) mergeInto(ctx context.Context, listID string, row *mealie.ShoppingItem, m merge, known map[string]string) (*mealie.ShoppingItem, *mealplanv1.Reapplied, error) {
	marker := newMarker()
	ch, err := s.mealie.MergeIntoShoppingItem(ctx, row, mealie.ShoppingItemMerge{Quantity: m.sum(row.Quantity), Note: m.note, Refs: m.refs, Marker: marker})
	if err != nil {
		return nil, nil, err
	}
	written := row
	if len(ch.UpdatedItems) > 0 {
		written = &ch.UpdatedItems[0]
	}
	back, err := s.mealie.GetShoppingItem(ctx, row.ID)
	switch {
	case mealie.StatusOf(err) == http.StatusNotFound:
		return written, &mealplanv1.Reapplied{Name: m.name, Message: fmt.Sprintf(
			"%s was added, then someone deleted the row in Mealie before sous read it back; it was not added again", m.name)}, nil
	case err != nil:
		// The write landed; only its check could not be made.
		s.log.Warn("reading a merged shopping row back failed", "item", row.ID, "err", err)
		return written, nil, nil
	case back.HasWrite(marker):
		return back, nil, nil
	}
	// Another writer saved the row as it had read it before sous's write.
	if back.Checked {
		c := mealie.ShoppingItemCreate{ShoppingListID: listID, Quantity: m.add, FoodID: deref(back.FoodID), UnitID: deref(back.UnitID),
			Note: m.note, IsFood: back.FoodID != nil, RecipeReferences: m.refs}
		if m.countOne && c.Quantity <= 0 {
			c.Quantity = 1
		}
		ch, err := s.mealie.CreateShoppingItems(ctx, []mealie.ShoppingItemCreate{c})
		if err != nil {
			return nil, nil, fmt.Errorf("someone checked off the row in Mealie as sous added %s to it, and adding it as a new row failed: %w", m.name, err)
		}
		var now *mealie.ShoppingItem
		if len(ch.CreatedItems) > 0 {
			now = &ch.CreatedItems[0]
		} else if len(ch.UpdatedItems) > 0 {
			now = &ch.UpdatedItems[0]
		}
		r := &mealplanv1.Reapplied{Name: m.name, Message: fmt.Sprintf(
			"someone checked off the row in Mealie as sous added %s to it; what was bought stays checked and %s is a new row", m.name, m.name)}
		if now != nil {
			r.Item = shapeItem(now, known)
		}
		return back, r, nil
	}
	again, err := s.mealie.MergeIntoShoppingItem(ctx, back, mealie.ShoppingItemMerge{Quantity: m.sum(back.Quantity), Note: m.note, Refs: m.refs, Marker: newMarker()})
	if err != nil {
		return nil, nil, fmt.Errorf("another writer saved the row over sous's addition of %s, and adding it once more failed: %w", m.name, err)
	}
	now := back
	if len(again.UpdatedItems) > 0 {
		now = &again.UpdatedItems[0]
	}
	return now, &mealplanv1.Reapplied{Name: m.name, Item: shapeItem(now, known), Message: fmt.Sprintf(
		"another writer saved the row in Mealie over sous's addition of %s before sous read it back; sous added it once more", m.name)}, nil
}

// lineNotes is the notes of a recipe's lines that merge into one row,
// each once.
func lineNotes(ls []recipeLine) string {
	var out []string
	for _, l := range ls {
		if n := strings.TrimSpace(deref(l.ing.Note)); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return strings.Join(out, " | ")
}
