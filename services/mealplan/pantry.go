package mealplan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// pantryNotConfigured says no pantry service is wired in, naming the
// setting that turns it on for the command the user runs.
func (s *Service) pantryNotConfigured() string {
	return "no pantry is configured (set " + s.pantrySetting + ")"
}

// stockItem is a pantry item in stock or low, or a name the caller said
// they have, as a skipped or listed ingredient names it.
type stockItem struct {
	name     string
	location string
	// how says how the ingredient's name was read as this item: "exact",
	// "alias", "plural", "synonym" or "kind" (names.Supplies).
	how string
	// low marks a pantry item marked low: its ingredients are bought, and
	// the answer says so (pantry.proto, ItemState).
	low bool
	// have marks a name the caller said they have (AddToShoppingList's
	// have): skipped whatever the pantry says.
	have bool
}

// stock answers "is this ingredient in stock?" from one GetPantry read, or
// from the names a caller said they have. Items in stock and items marked
// low are held; an ingredient that is a low item is bought, not skipped.
// Names are read by the shared rule of services/internal/names
// (names.Supplies), as a cook means them: the pantry's name itself, an
// alias, singular or plural, another English, or a more specific kind of
// the ingredient, never a more general one.
type stock struct {
	items []stockItem
	// names holds each item's name and aliases, by index into items.
	names [][]string
	ix    *names.Index
	// out holds the pantry's items marked out, read for the offers made
	// for have (pantryOffers); nil for a have stock.
	out map[string]stockItem
}

// pantryUnavailable builds the refusal when skip_in_stock cannot be honoured:
// it says so, says nothing was added, and names the way out. Adding
// everything silently would defeat the point of asking.
func pantryUnavailable(cause string) error {
	return connect.NewError(connect.CodeUnavailable, errors.New(
		"cannot check the pantry ("+cause+"), so nothing was added; retry when the pantry service is back, or pass skip_in_stock=false to add everything without checking"))
}

// inStock reads the pantry once: items in stock and marked low, and, for
// the offers made for have, those marked out.
func (s *Service) inStock(ctx context.Context) (*stock, error) {
	if s.pantry == nil {
		return nil, pantryUnavailable(s.pantryNotConfigured())
	}
	res, err := s.pantry.GetPantry(ctx, connect.NewRequest(&pantryv1.GetPantryRequest{IncludeOut: true}))
	if err != nil {
		return nil, pantryUnavailable("pantry service unreachable: " + connectMessage(err))
	}
	return stockOf(res.Msg.GetGroups()), nil
}

// stockOf indexes a pantry read: items in stock and marked low by name and
// alias, and those marked out for pantryOffers.
func stockOf(groups []*pantryv1.LocationGroup) *stock {
	st := &stock{out: map[string]stockItem{}}
	var entries []names.Entry
	for _, g := range groups {
		for _, it := range g.GetItems() {
			loc := locationName(it.GetLocation())
			if loc == "" {
				loc = locationName(g.GetLocation())
			}
			item := stockItem{name: it.GetName(), location: loc, low: it.GetState() == pantryv1.ItemState_ITEM_STATE_LOW}
			switch it.GetState() {
			case pantryv1.ItemState_ITEM_STATE_IN, pantryv1.ItemState_ITEM_STATE_LOW:
			case pantryv1.ItemState_ITEM_STATE_OUT:
				for _, n := range append([]string{it.GetName()}, it.GetAliases()...) {
					st.out[names.Key(n)] = item
				}
				continue
			default:
				continue
			}
			entries = append(entries, names.Entry{ID: strconv.Itoa(len(st.items)), Name: it.GetName(), Others: it.GetAliases()})
			st.items = append(st.items, item)
			st.names = append(st.names, append([]string{it.GetName()}, it.GetAliases()...))
		}
	}
	st.ix = names.NewIndex(entries)
	return st
}

// haveStock is the names a caller said they have, read as pantry items
// are read; nil for none.
func haveStock(given []string) *stock {
	if len(given) == 0 {
		return nil
	}
	st := &stock{}
	var entries []names.Entry
	for _, n := range given {
		entries = append(entries, names.Entry{ID: strconv.Itoa(len(st.items)), Name: n})
		st.items = append(st.items, stockItem{name: n, have: true})
		st.names = append(st.names, []string{n})
	}
	st.ix = names.NewIndex(entries)
	return st
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

// pantryOffers answers, for each name the caller said they have, the
// pantry's item when the pantry records it low or out, or the name alone
// when the pantry does not hold it: the change to offer, which sous does
// not make (a shopping call never writes the pantry).
func (st *stock) pantryOffers(have []string) []*mealplanv1.PantryOffer {
	if st == nil {
		return nil
	}
	var out []*mealplanv1.PantryOffer
	for _, h := range have {
		if r := st.ix.Resolve(h); r.Found() && r.How != names.General {
			i, _ := strconv.Atoi(r.Matches[0].ID)
			if it := st.items[i]; it.low {
				out = append(out, &mealplanv1.PantryOffer{Name: h, PantryItem: it.name, State: "low", Location: it.location})
			}
			continue
		}
		if it, ok := st.out[names.Key(h)]; ok {
			out = append(out, &mealplanv1.PantryOffer{Name: h, PantryItem: it.name, State: "out", Location: it.location})
			continue
		}
		out = append(out, &mealplanv1.PantryOffer{Name: h})
	}
	return out
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

// sieve decides, for each ingredient about to be bought, whether it is:
// a name the caller said they have skips it whatever the pantry says; a
// pantry item in stock skips it; one marked low lets it through and says
// so. Each ingredient is reported once by the name it would be added as.
type sieve struct {
	have, pantry *stock
	out          *mealplanv1.AddToShoppingListResponse
	reported     map[string]bool
}

// keepNamed reports whether a free-text item the user named is bought
// when skip_in_stock was left unset: the user's own word wins over the
// pantry, so an item in stock is bought and named in in_pantry (the model
// can say "you have rice in the cupboard, added anyway"); a name the caller
// said they have is still skipped, and one marked low is bought and said.
func (sv *sieve) keepNamed(shown, food, text string) bool { return sv.sift(shown, food, text, true) }

// keep reports whether an ingredient shown as shown (food, or the line's
// text when it has none) is bought.
func (sv *sieve) keep(shown, food, text string) bool { return sv.sift(shown, food, text, false) }

// sift is keep and keepNamed: named buys an item the pantry has in stock.
func (sv *sieve) sift(shown, food, text string, named bool) bool {
	if it, ok := sv.have.match(food, text); ok {
		sv.report(&sv.out.SkippedInStock, shown, it)
		return false
	}
	it, ok := sv.pantry.match(food, text)
	switch {
	case !ok:
		return true
	case it.low:
		sv.report(&sv.out.LowInPantry, shown, it)
		return true
	case named:
		sv.report(&sv.out.InPantry, shown, it)
		return true
	}
	sv.report(&sv.out.SkippedInStock, shown, it)
	return false
}

func (sv *sieve) report(to *[]*mealplanv1.SkippedItem, shown string, it stockItem) {
	k := fmt.Sprintf("%p|%s", to, shown)
	if sv.reported[k] {
		return
	}
	if sv.reported == nil {
		sv.reported = map[string]bool{}
	}
	sv.reported[k] = true
	*to = append(*to, &mealplanv1.SkippedItem{Name: shown, PantryItem: it.name, Location: it.location, How: it.how, Have: it.have})
}

// recipeLine is one line of a recipe to buy: Mealie's line as it sent it
// (raw, for the add-recipe endpoint's recipeIngredients override) and what
// sous reads of it.
type recipeLine struct {
	raw json.RawMessage
	ing mealie.RecipeIngredient
}

// food is the line's food name and id; empty for a line of text.
func (l *recipeLine) food() (id, name string) {
	if l.ing.Food == nil {
		return "", ""
	}
	return l.ing.Food.ID, l.ing.Food.Name
}

// unit is the line's unit id and name; empty for none.
func (l *recipeLine) unit() (id, name string) {
	if l.ing.Unit == nil {
		return "", ""
	}
	return l.ing.Unit.ID, l.ing.Unit.Name
}

// quantity is the line's amount, 0 when it has none (Mealie's add-recipe
// adds a line without one as 0: get_shopping_list_items_from_recipe).
func (l *recipeLine) quantity() float64 {
	if l.ing.Quantity == nil {
		return 0
	}
	return *l.ing.Quantity
}

// recipeLines reads a recipe's lines, as Mealie sent them, without
// those the sieve skips (each reported scaled by times, as it would have
// been added); dropped says whether any was. A line naming a sub-recipe
// (referencedRecipe, Mealie 3.5 and later) is kept whole: Mealie expands
// it.
func recipeLines(r *mealie.Recipe, times float64, sv *sieve) (lines []recipeLine, dropped bool, err error) {
	raw, err := r.IngredientsRaw()
	if err != nil || len(raw) != len(r.Ingredients) {
		return nil, false, fmt.Errorf("recipe %s: Mealie's ingredient lines could not be read", r.Slug)
	}
	for i, ing := range r.Ingredients {
		l := recipeLine{raw: raw[i], ing: ing}
		_, food := l.food()
		note := strings.TrimSpace(deref(ing.Note))
		if (food == "" && note == "") || ing.ReferencedRecipe != nil {
			lines = append(lines, l)
			continue
		}
		_, unit := l.unit()
		if food == "" && unit == "" && names.IsHeading(note) {
			// A section heading an import kept as a line ("FOR THE
			// MARINADE"): not bought, and counted so the answer says so.
			sv.out.HeadingsSkipped++
			dropped = true
			continue
		}
		if !sv.keep(display(l.quantity()*times, unit, names.Clean(food), note), food, note) {
			dropped = true
			continue
		}
		lines = append(lines, l)
	}
	return lines, dropped, nil
}
