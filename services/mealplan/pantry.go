package mealplan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// pantryNotConfigured says no pantry service is wired in, naming the
// setting that turns it on for the command the user runs.
func (s *Service) pantryNotConfigured() string {
	return "no pantry is configured (set " + s.pantrySetting + ")"
}

// stockItem is a pantry item in stock, as a skipped ingredient names it.
type stockItem struct {
	name     string
	location string
	// how says how the ingredient's name was read as this item: "exact",
	// "alias", "plural" or "general" (names.How).
	how string
}

// stock answers "is this ingredient in stock?" from one GetPantry read.
// Only state "in" counts: "low" is worth buying (pantry.proto, ItemState).
// Names are read by the shared rule of services/internal/names
// (names.Supplies), as a cook means them: the pantry's name itself, an
// alias, singular or plural, another English, or a more specific kind of
// the ingredient, never a more general one.
type stock struct {
	items []stockItem
	// names holds each item's name and aliases, by index into items.
	names [][]string
	ix    *names.Index
}

// pantryUnavailable builds the refusal when skip_in_stock cannot be honoured:
// it says so, says nothing was added, and names the way out. Adding
// everything silently would defeat the point of asking.
func pantryUnavailable(cause string) error {
	return connect.NewError(connect.CodeUnavailable, errors.New(
		"cannot check the pantry ("+cause+"), so nothing was added; retry when the pantry service is back, or pass skip_in_stock=false to add everything without checking"))
}

// inStock reads the pantry once (items that are out are not listed).
func (s *Service) inStock(ctx context.Context) (*stock, error) {
	if s.pantry == nil {
		return nil, pantryUnavailable(s.pantryNotConfigured())
	}
	res, err := s.pantry.GetPantry(ctx, connect.NewRequest(&pantryv1.GetPantryRequest{}))
	if err != nil {
		return nil, pantryUnavailable("pantry service unreachable: " + connectMessage(err))
	}
	st := &stock{}
	var entries []names.Entry
	for _, g := range res.Msg.GetGroups() {
		for _, it := range g.GetItems() {
			if it.GetState() != pantryv1.ItemState_ITEM_STATE_IN {
				continue
			}
			loc := locationName(it.GetLocation())
			if loc == "" {
				loc = locationName(g.GetLocation())
			}
			entries = append(entries, names.Entry{ID: strconv.Itoa(len(st.items)), Name: it.GetName(), Others: it.GetAliases()})
			st.items = append(st.items, stockItem{name: it.GetName(), location: loc})
			st.names = append(st.names, append([]string{it.GetName()}, it.GetAliases()...))
		}
	}
	st.ix = names.NewIndex(entries)
	return st, nil
}

// match reports the pantry item that supplies an ingredient, by its food's
// name or, for a line with no food, its text. A pantry name or alias equal
// to it (ignoring case and spacing) is taken first; otherwise an item
// supplies it only as names.Supplies reads it, the same thing or a more
// specific kind ("jasmine rice" for "rice", "prawns" for "shrimp"), never a
// more general one: a wrong skip leaves off the list what the cook lacks,
// so "sugar" in stock does not skip "light brown sugar", nor tinned
// "chopped tomatoes" fresh ones. Of several items, the closest reading
// wins (exact, plural, synonym, then kind).
func (st *stock) match(food, text string) (stockItem, bool) {
	if st == nil {
		return stockItem{}, false
	}
	name := food
	if name == "" {
		name = text
	}
	if r := st.ix.Resolve(name); r.Found() && (r.How == names.Exact || r.How == names.Alias) {
		i, _ := strconv.Atoi(r.Matches[0].ID)
		it := st.items[i]
		it.how = r.How.String()
		return it, true
	}
	best, bestHow := -1, names.None
	for i, ns := range st.names {
		for _, n := range ns {
			if how, ok := names.Supplies(n, name); ok && (best < 0 || how < bestHow) {
				best, bestHow = i, how
			}
		}
	}
	if best < 0 {
		return stockItem{}, false
	}
	it := st.items[best]
	it.how = bestHow.String()
	return it, true
}

// nameKey normalises a name for matching shopping rows to one another and
// to what a caller names: the shared resolver's key (lower case, accents
// and punctuation aside, each word singular), so "Eggs" finds "egg".
func nameKey(s string) string { return names.Key(s) }

// locationName is a pantry location as a skipped item reports it.
func locationName(l pantryv1.Location) string {
	switch l {
	case pantryv1.Location_LOCATION_FRIDGE:
		return "fridge"
	case pantryv1.Location_LOCATION_CUPBOARD:
		return "cupboard"
	case pantryv1.Location_LOCATION_FREEZER:
		return "freezer"
	}
	return ""
}

// withoutStock returns a recipe's ingredient lines, as Mealie sent them in
// raw, minus those the pantry has, for Mealie's recipeIngredients override;
// nil when nothing is in stock, so Mealie reads the recipe itself. Each
// skipped line is reported scaled by times, as it would have been added.
// A line naming a sub-recipe (referencedRecipe, Mealie 3.5 and later) is
// kept whole: Mealie expands it.
func (st *stock) withoutStock(r *mealie.Recipe, raw json.RawMessage, times float64, report func(string, stockItem)) ([]json.RawMessage, error) {
	var body struct {
		Ingredients []json.RawMessage `json:"recipeIngredient"`
	}
	if err := json.Unmarshal(raw, &body); err != nil || len(body.Ingredients) != len(r.Ingredients) {
		return nil, fmt.Errorf("recipe %s: Mealie's ingredient lines could not be read for the pantry check", r.Slug)
	}
	var keep []json.RawMessage
	dropped := false
	for i, ing := range r.Ingredients {
		food, note := "", strings.TrimSpace(deref(ing.Note))
		if ing.Food != nil {
			food = ing.Food.Name
		}
		if (food == "" && note == "") || ing.ReferencedRecipe != nil {
			keep = append(keep, body.Ingredients[i])
			continue
		}
		if it, ok := st.match(food, note); ok {
			q := 0.0
			if ing.Quantity != nil {
				q = *ing.Quantity * times
			}
			unit := ""
			if ing.Unit != nil {
				unit = ing.Unit.Name
			}
			report(display(q, unit, names.Clean(food), note), it)
			dropped = true
			continue
		}
		keep = append(keep, body.Ingredients[i])
	}
	if !dropped {
		return nil, nil
	}
	if keep == nil {
		keep = []json.RawMessage{}
	}
	return keep, nil
}
