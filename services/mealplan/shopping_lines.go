// Lines to buy: read from free text, folded together and merged into the rows already on a list.

package mealplan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
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
	// newUnit is a standard unit the library lacks, created before the
	// line is written (createUnits).
	newUnit *names.Unit
}

// key identifies lines of one call that fold into one: the same food in
// the same unit, or the same note text. Mealie's own merge uses food and
// unit too (testdata/shopping_items__create_same_food_merges.json).
func (l *line) key() string {
	if l.foodID != "" && l.newUnit != nil {
		return "food:" + l.foodID + "|new:" + l.newUnit.Name
	}
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
// and the rest are created in one call. list is brought up to date with
// every row written.
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
	// The list as it now stands, for the recipes' lines that follow to
	// merge into: the rows written are what Mealie answered, so the list
	// needs no second read.
	for _, it := range append(ch.UpdatedItems, ch.CreatedItems...) {
		if i := slices.IndexFunc(list.ListItems, func(r mealie.ShoppingItem) bool { return r.ID == it.ID }); i >= 0 {
			list.ListItems[i] = it
		} else {
			list.ListItems = append(list.ListItems, it)
		}
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
// installs: testdata/parser_ingredients__nlp.json) "brute" is tried. Each
// reading is mended where the line's own words contradict it
// (names.CleanParse: "2 cups light brown sugar, packed" keeps its cup when
// the parser drops it, "tsp." is not left in the note), and its food and
// unit are bound as every other name is (the shared resolver: "brown
// sugars" is the library's "brown sugar", "aubergine" its "eggplant",
// "tsp" its teaspoon). A standard unit the library lacks is marked to be
// created as Mealie's seeder makes it (see createUnits), so the row shows
// its unit in Mealie's app. A line whose food the library does not have is
// added as a note and reported as unparsed, as is every line when no
// parser answers: its text, amount and unit included, is what the app
// shows.
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
	if parsed == nil {
		out := make([]line, len(texts))
		for i, t := range texts {
			out[i] = line{name: t, note: t, unparsed: true}
		}
		return out, nil
	}
	// The library's foods and units, for the names Mealie's parser did
	// not match; a Mealie that cannot list them leaves its own matches.
	foods, err := s.mealie.Taxonomy(ctx, mealie.Foods)
	if err != nil {
		s.log.Warn("reading foods to match shopping lines failed", "err", err)
	}
	units, err := s.mealie.Taxonomy(ctx, mealie.Units)
	if err != nil {
		s.log.Warn("reading units to match shopping lines failed", "err", err)
	}
	fx, ux := taxonomyIndex(foods), taxonomyIndex(units)
	var out []line
	for i, t := range texts {
		ing := parsed[i].Ingredient
		pr := names.Parsed{Quantity: ing.Quantity, Note: strings.TrimSpace(ing.Note)}
		if ing.Unit != nil {
			pr.Unit = strings.TrimSpace(ing.Unit.Name)
			if deref(ing.Unit.ID) != "" && !names.InLine(pr.Unit, t) {
				// Mealie's parser matches the library's units loosely: one
				// the line does not name is not the line's
				ing.Unit, pr.Unit = nil, ""
			}
		}
		if ing.Food != nil {
			pr.Food = strings.TrimSpace(ing.Food.Name)
			if deref(ing.Food.ID) != "" {
				// nor a food (names.MatchedFood)
				if f, kept := names.MatchedFood(t, pr.Food); !kept {
					ing.Food, pr.Food = nil, f
				}
			}
		}
		c := names.CleanParse(t, pr)
		l := line{name: t, note: c.Note}
		if c.Quantity != nil {
			l.quantity = *c.Quantity
		}
		if ing.Food != nil && deref(ing.Food.ID) != "" && c.Food == pr.Food {
			l.foodID, l.food = *ing.Food.ID, names.Clean(ing.Food.Name)
		} else if e, _, err := fx.Bind(c.Food); err == nil && e.ID != "" {
			l.foodID, l.food = e.ID, names.Clean(e.Name)
		}
		if l.foodID == "" {
			out = append(out, line{name: t, note: t, unparsed: true})
			continue
		}
		switch {
		case c.Unit == "":
		case ing.Unit != nil && deref(ing.Unit.ID) != "" && c.Unit == pr.Unit:
			l.unitID, l.unit = *ing.Unit.ID, ing.Unit.Name
		default:
			if e, ok := bindUnit(ux, c.Unit); ok {
				l.unitID, l.unit = e.ID, e.Name
			} else if std, ok := names.StandardUnit(c.Unit); ok {
				u := std
				l.newUnit, l.unit = &u, std.Name
			} else {
				// A unit Mealie does not know ("3 large eggs") stays as text.
				l.note = strings.TrimSpace(c.Unit + " " + l.note)
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// taxonomyIndex is the shared resolver over foods or units, each answering
// to its plural, abbreviations and aliases as well as its name.
func taxonomyIndex(items []mealie.TaxonomyItem) *names.Index {
	es := make([]names.Entry, 0, len(items))
	for _, it := range items {
		var others []string
		for _, p := range []*string{it.PluralName, it.Abbreviation} {
			if p != nil && strings.TrimSpace(*p) != "" {
				others = append(others, *p)
			}
		}
		if pa, ok := it.Raw["pluralAbbreviation"].(string); ok && strings.TrimSpace(pa) != "" {
			others = append(others, pa)
		}
		for _, a := range it.Aliases {
			others = append(others, a.Name)
		}
		es = append(es, names.Entry{ID: it.ID, Name: it.Name, Others: others})
	}
	return names.NewIndex(es)
}

// bindUnit is the library's unit a unit name binds to; a standard unit
// kept under another of its names ("tsp" where the library has
// "teaspoon" without an abbreviation) is found by those.
func bindUnit(ux *names.Index, name string) (names.Entry, bool) {
	if e, _, err := ux.Bind(name); err == nil && e.ID != "" {
		return e, true
	}
	if std, ok := names.StandardUnit(name); ok {
		for _, n := range std.Names() {
			if e, _, err := ux.Bind(n); err == nil && e.ID != "" {
				return e, true
			}
		}
	}
	return names.Entry{}, false
}

// createUnits creates the standard units the lines need and the library
// lacks, as Mealie's units seeder makes them (name, plural, abbreviations),
// once each, and names them in the answer's created_units. It runs once
// nothing can be refused any more: a unit made for a call that then fails
// is still a unit Mealie's own seeder would have made.
func (s *Service) createUnits(ctx context.Context, lines []line, out *mealplanv1.AddToShoppingListResponse) error {
	made := map[string]string{}
	for i := range lines {
		u := lines[i].newUnit
		if u == nil {
			continue
		}
		id, ok := made[u.Name]
		if !ok {
			ch := mealie.TaxonomyChange{Name: &u.Name, PluralName: &u.PluralName}
			if u.Abbreviation != "" {
				ch.Abbreviation = &u.Abbreviation
			}
			if u.PluralAbbreviation != "" {
				ch.PluralAbbreviation = &u.PluralAbbreviation
			}
			it, err := s.mealie.CreateTaxonomy(ctx, mealie.Units, ch)
			if err != nil {
				return connect.NewError(mealie.ConnectCode(err), fmt.Errorf("creating the unit %q for %q failed, so nothing was added: %v", u.Name, lines[i].name, err))
			}
			s.mealie.AddTaxonomy(mealie.Units, *it)
			id = it.ID
			made[u.Name] = id
			out.CreatedUnits = append(out.CreatedUnits, it.Name)
		}
		lines[i].unitID, lines[i].newUnit = id, nil
	}
	return nil
}
