package mealplan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
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
}

// stock answers "is this ingredient in stock?" from one GetPantry read.
// Only state "in" counts: "low" is worth buying (issue text and pantry.proto,
// ItemState). Names and aliases match after normalisation (see nameKey).
type stock struct {
	byKey map[string]stockItem
	keys  [][]string // tokens of every key, for matching inside free text
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
	st := &stock{byKey: map[string]stockItem{}}
	for _, g := range res.Msg.GetGroups() {
		for _, it := range g.GetItems() {
			if it.GetState() != pantryv1.ItemState_ITEM_STATE_IN {
				continue
			}
			loc := locationName(it.GetLocation())
			if loc == "" {
				loc = locationName(g.GetLocation())
			}
			si := stockItem{name: it.GetName(), location: loc}
			for _, n := range append([]string{it.GetName()}, it.GetAliases()...) {
				k := nameKey(n)
				if k == "" {
					continue
				}
				if _, dup := st.byKey[k]; !dup {
					st.byKey[k] = si
					st.keys = append(st.keys, strings.Fields(k))
				}
			}
		}
	}
	return st, nil
}

// match reports the pantry item a food matches exactly (name or alias), or,
// for a line with no food, the pantry item whose whole name appears as
// words in the text ("2 eggs, beaten" matches "egg"; "unsalted butter" does
// not match "salt").
func (st *stock) match(food, text string) (stockItem, bool) {
	if st == nil {
		return stockItem{}, false
	}
	if food != "" {
		it, ok := st.byKey[nameKey(food)]
		return it, ok
	}
	words := strings.Fields(nameKey(text))
	for _, k := range st.keys {
		if containsRun(words, k) {
			return st.byKey[strings.Join(k, " ")], true
		}
	}
	return stockItem{}, false
}

// containsRun reports whether needle occurs as consecutive words of hay.
func containsRun(hay, needle []string) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		ok := true
		for j := range needle {
			if hay[i+j] != needle[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// nameKey normalises a name for matching: lower case, punctuation as
// spaces, each word singular, so "Eggs" matches "egg" and "Egg-Noodles"
// matches "egg noodles".
func nameKey(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return ' '
	}, s)
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = singular(w)
	}
	return strings.Join(words, " ")
}

// singular strips the common English plural endings. It is deliberately
// plain: names in a household pantry are few and short, and a missed
// irregular plural only means an item is added rather than skipped.
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "oes") || strings.HasSuffix(w, "ches") ||
		strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "sses")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

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
		if food == "" && note == "" {
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
			report(display(q, unit, food, note), it)
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
