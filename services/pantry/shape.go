package pantry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
)

// The food API's payloads, as its views and shapes write them
// (foodapi kitchen/serializers.py, shapes.py, matcher.py), and
// the pure functions that turn them into the compact messages of the API
// (spec §10: "structured, compact results (names + states), not raw API JSON
// dumps").

// number is a quantity: the API sends JSON numbers (COERCE_DECIMAL_TO_STRING
// is off), but a decimal string is read too, so a food API with DRF's
// default setting still works.
type number struct {
	v   float64
	set bool
}

func (n *number) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*n = number{}
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if strings.TrimSpace(s) == "" {
			*n = number{}
			return nil
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return fmt.Errorf("quantity %q is not a number", s)
		}
		*n = number{v: v, set: true}
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*n = number{v: v, set: true}
	return nil
}

func (n number) ptr() *float64 {
	if !n.set {
		return nil
	}
	v := n.v
	return &v
}

// apiItem is a pantry row (PantryItemSerializer).
type apiItem struct {
	ID         int64    `json:"id"`
	Ingredient string   `json:"ingredient"`
	Aliases    []string `json:"aliases"`
	Location   string   `json:"location"`
	State      string   `json:"state"`
	Quantity   number   `json:"quantity"`
	Unit       string   `json:"unit"`
	Expiry     *string  `json:"expiry"`
	IsStaple   bool     `json:"is_staple"`
}

// apiAmount is {ingredient, quantity, unit} of a slot option, base
// ingredient or recipe line (shapes.amount).
type apiAmount struct {
	Ingredient string `json:"ingredient"`
	Quantity   number `json:"quantity"`
	Unit       string `json:"unit"`
}

// apiMetaRecipe is shapes.meta_recipe_data.
type apiMetaRecipe struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Method string `json:"method"`
	Slots  []struct {
		Name    string      `json:"name"`
		Options []apiAmount `json:"options"`
	} `json:"slots"`
	BaseIngredients []apiAmount `json:"base_ingredients"`
}

// apiMatch is one result of what-can-i-cook (matcher.match_meta_recipe).
type apiMatch struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	Slots  []struct {
		Name           string `json:"name"`
		PresentOptions []struct {
			Ingredient string `json:"ingredient"`
			Pantry     []struct {
				State string `json:"state"`
			} `json:"pantry"`
		} `json:"present_options"`
		MissingOptions []string `json:"missing_options"`
	} `json:"slots"`
	MissingBase    []string `json:"missing_base_ingredients"`
	ExpiryWarnings []struct {
		Ingredient   string `json:"ingredient"`
		PantryItemID int64  `json:"pantry_item_id"`
		Location     string `json:"location"`
		Expiry       string `json:"expiry"`
		DaysLeft     int32  `json:"days_left"`
	} `json:"expiry_warnings"`
}

var locations = map[string]pantryv1.Location{
	"fridge":   pantryv1.Location_LOCATION_FRIDGE,
	"cupboard": pantryv1.Location_LOCATION_CUPBOARD,
	"freezer":  pantryv1.Location_LOCATION_FREEZER,
}

var states = map[string]pantryv1.ItemState{
	"in":  pantryv1.ItemState_ITEM_STATE_IN,
	"low": pantryv1.ItemState_ITEM_STATE_LOW,
	"out": pantryv1.ItemState_ITEM_STATE_OUT,
}

// locationOrder is the order of GetPantry's groups, as the proto states it.
var locationOrder = []pantryv1.Location{
	pantryv1.Location_LOCATION_FRIDGE, pantryv1.Location_LOCATION_CUPBOARD, pantryv1.Location_LOCATION_FREEZER,
}

// locationName is the API's word for l ("fridge"), or "" for unspecified.
func locationName(l pantryv1.Location) string {
	for k, v := range locations {
		if v == l {
			return k
		}
	}
	return ""
}

// stateName is the API's word for s ("out"), or "" for unspecified.
func stateName(s pantryv1.ItemState) string {
	for k, v := range states {
		if v == s {
			return k
		}
	}
	return ""
}

func item(a apiItem) *pantryv1.PantryItem {
	out := &pantryv1.PantryItem{
		Id:       a.ID,
		Name:     a.Ingredient,
		Aliases:  a.Aliases,
		State:    states[a.State],
		Location: locations[a.Location],
		Quantity: a.Quantity.ptr(),
		Unit:     a.Unit,
		IsStaple: a.IsStaple,
	}
	if a.Expiry != nil {
		out.Expiry = *a.Expiry
	}
	return out
}

// groupPantry groups items by location (fridge, cupboard, freezer), each
// ordered by name, leaving out items that are out unless includeOut; the
// counts cover every item given.
func groupPantry(items []apiItem, includeOut bool) ([]*pantryv1.LocationGroup, *pantryv1.StateCounts) {
	counts := &pantryv1.StateCounts{}
	byLoc := map[pantryv1.Location][]*pantryv1.PantryItem{}
	for _, a := range items {
		p := item(a)
		switch p.State {
		case pantryv1.ItemState_ITEM_STATE_IN:
			counts.InStock++
		case pantryv1.ItemState_ITEM_STATE_LOW:
			counts.Low++
		case pantryv1.ItemState_ITEM_STATE_OUT:
			counts.Out++
			if !includeOut {
				continue
			}
		}
		byLoc[p.Location] = append(byLoc[p.Location], p)
	}
	var groups []*pantryv1.LocationGroup
	for _, l := range locationOrder {
		list := byLoc[l]
		if len(list) == 0 {
			continue
		}
		slices.SortStableFunc(list, func(a, b *pantryv1.PantryItem) int {
			return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		})
		groups = append(groups, &pantryv1.LocationGroup{Location: l, Items: list})
	}
	return groups, counts
}

func amounts(in []apiAmount) []*pantryv1.IngredientAmount {
	out := make([]*pantryv1.IngredientAmount, 0, len(in))
	for _, a := range in {
		out = append(out, &pantryv1.IngredientAmount{Ingredient: a.Ingredient, Quantity: a.Quantity.ptr(), Unit: a.Unit})
	}
	return out
}

func metaRecipe(a apiMetaRecipe) *pantryv1.MetaRecipe {
	out := &pantryv1.MetaRecipe{Id: a.ID, Name: a.Name, Method: a.Method, BaseIngredients: amounts(a.BaseIngredients)}
	for _, s := range a.Slots {
		out.Slots = append(out.Slots, &pantryv1.Slot{Name: s.Name, Options: amounts(s.Options)})
	}
	return out
}

var matchStatuses = map[string]pantryv1.MatchStatus{
	"ready":   pantryv1.MatchStatus_MATCH_STATUS_READY,
	"partial": pantryv1.MatchStatus_MATCH_STATUS_PARTIAL,
	"missing": pantryv1.MatchStatus_MATCH_STATUS_MISSING,
}

// matches turns what-can-i-cook's results into matches ordered ready,
// partial, missing, then by name, and gathers the per-recipe expiry
// warnings into one list, one warning per pantry item naming every recipe
// that could use it, soonest first.
func matches(results []apiMatch) ([]*pantryv1.MetaRecipeMatch, []*pantryv1.ExpiryWarning) {
	out := make([]*pantryv1.MetaRecipeMatch, 0, len(results))
	warnings := map[int64]*pantryv1.ExpiryWarning{}
	for _, r := range results {
		m := &pantryv1.MetaRecipeMatch{Id: r.ID, Name: r.Name, Status: matchStatuses[r.Status], MissingBase: r.MissingBase}
		for _, s := range r.Slots {
			sa := &pantryv1.SlotAvailability{Slot: s.Name, Missing: s.MissingOptions}
			for _, o := range s.PresentOptions {
				sa.Available = append(sa.Available, o.Ingredient)
				low := len(o.Pantry) > 0
				for _, p := range o.Pantry {
					low = low && p.State == "low"
				}
				if low {
					sa.Low = append(sa.Low, o.Ingredient)
				}
			}
			m.Slots = append(m.Slots, sa)
		}
		out = append(out, m)
		for _, w := range r.ExpiryWarnings {
			ew, ok := warnings[w.PantryItemID]
			if !ok {
				ew = &pantryv1.ExpiryWarning{Ingredient: w.Ingredient, Location: locations[w.Location], Expiry: w.Expiry, DaysLeft: w.DaysLeft}
				warnings[w.PantryItemID] = ew
			}
			if !slices.Contains(ew.UsedBy, r.Name) {
				ew.UsedBy = append(ew.UsedBy, r.Name)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *pantryv1.MetaRecipeMatch) int {
		if c := int(a.Status) - int(b.Status); c != 0 {
			return c
		}
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	ws := make([]*pantryv1.ExpiryWarning, 0, len(warnings))
	for _, w := range warnings {
		slices.Sort(w.UsedBy)
		ws = append(ws, w)
	}
	slices.SortFunc(ws, func(a, b *pantryv1.ExpiryWarning) int {
		if a.DaysLeft != b.DaysLeft {
			return int(a.DaysLeft - b.DaysLeft)
		}
		if c := strings.Compare(a.Ingredient, b.Ingredient); c != 0 {
			return c
		}
		return int(a.Location - b.Location)
	})
	return out, ws
}

// itemLabel is how a message names an item: "egg noodles (cupboard)".
func itemLabel(p *pantryv1.PantryItem) string {
	return fmt.Sprintf("%s (%s)", p.GetName(), locationName(p.GetLocation()))
}
