package pantry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/amount"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/services/internal/names"
)

// pantry reads every pantry item, at one location when l is set.
func (s *Service) pantry(ctx context.Context, l pantryv1.Location) ([]apiItem, error) {
	var q url.Values
	if name := locationName(l); name != "" {
		q = url.Values{"location": {name}}
	}
	var items []apiItem
	err := s.food.get(ctx, "/pantry/", q, &items)
	return items, err
}

// GetPantry lists the pantry by location. Items that are out are read too,
// so the counts cover them, and dropped from the groups unless include_out
// (spec §10: "what do I have" should not list everything missing).
func (s *Service) GetPantry(ctx context.Context, req *connect.Request[pantryv1.GetPantryRequest]) (*connect.Response[pantryv1.GetPantryResponse], error) {
	l := req.Msg.GetLocation()
	if l != pantryv1.Location_LOCATION_UNSPECIFIED && locationName(l) == "" {
		return nil, invalid("location %d is not a known location; use LOCATION_FRIDGE, LOCATION_CUPBOARD or LOCATION_FREEZER", l)
	}
	items, err := s.pantry(ctx, l)
	if err != nil {
		return nil, connectError(err, "")
	}
	groups, counts := groupPantry(items, req.Msg.GetIncludeOut())
	return connect.NewResponse(&pantryv1.GetPantryResponse{Groups: groups, Counts: counts}), nil
}

// SetItemState sets one item's state by ingredient name or alias (POST
// /pantry/set-state/). The pantry is read first to read the name against
// the stocked ingredients (resolve.go) and to report the previous state;
// the food API writes only when the state differs, so a repeated call
// changes nothing and says so. A state is only ever set on a pantry item,
// so a general word ("oil") is read as the one stocked item it covers, and
// refused naming them when it covers several.
func (s *Service) SetItemState(ctx context.Context, req *connect.Request[pantryv1.SetItemStateRequest]) (*connect.Response[pantryv1.SetItemStateResponse], error) {
	m := req.Msg
	name := normName(m.GetIngredient())
	if name == "" {
		return nil, invalid("ingredient is required")
	}
	if err := checkName("ingredient", name); err != nil {
		return nil, err
	}
	state := stateName(m.GetState())
	if state == "" {
		return nil, invalid("state is required: in, low or out")
	}
	loc := ""
	if m.GetLocation() != pantryv1.Location_LOCATION_UNSPECIFIED {
		if loc = locationName(m.GetLocation()); loc == "" {
			return nil, invalid("location %d is not a known location; use LOCATION_FRIDGE, LOCATION_CUPBOARD or LOCATION_FREEZER", m.GetLocation())
		}
	}
	before, err := s.pantry(ctx, pantryv1.Location_LOCATION_UNSPECIFIED)
	if err != nil {
		return nil, connectError(err, "")
	}
	var resolved map[string]string
	ix := pantryIndex(before)
	send, how, err := bind(ix, "ingredient", name, &resolved)
	if err != nil {
		return nil, err
	}
	if how == names.None {
		if r := ix.Resolve(name); r.How == names.General {
			if len(r.Matches) > 1 {
				return nil, ambiguousOf("ingredient", name, r.MatchNames())
			}
			send = r.Matches[0].Name
			noteResolved(&resolved, name, send)
		}
	}
	body := map[string]any{"ingredient": send, "state": state}
	if loc != "" {
		body["location"] = loc
	}
	var res struct {
		Item    apiItem `json:"item"`
		Changed bool    `json:"changed"`
	}
	if err := s.food.send(ctx, http.MethodPost, "/pantry/set-state/", body, &res); err != nil {
		return nil, connectError(err, name)
	}
	prev := states[res.Item.State]
	var old *apiItem
	if res.Changed {
		prev = pantryv1.ItemState_ITEM_STATE_UNSPECIFIED
		for i, b := range before {
			if b.ID == res.Item.ID {
				prev, old = states[b.State], &before[i]
			}
		}
	}
	cleared := ""
	if res.Changed && old != nil && res.Item.State == "in" && prev != pantryv1.ItemState_ITEM_STATE_IN {
		// Back in from low or out is a restock ("I just bought X"): the
		// recorded amount and use-by date were the old pack's.
		if res.Item, cleared, err = s.clearOldPack(ctx, *old, res.Item, false, false); err != nil {
			return nil, connectError(err, name)
		}
	}
	it := item(res.Item)
	msg := fmt.Sprintf("%s is now %s", itemLabel(it), res.Item.State)
	if !res.Changed {
		msg = fmt.Sprintf("%s was already %s; nothing changed", itemLabel(it), res.Item.State)
	}
	if cleared != "" {
		msg += "; " + cleared + " (add_to_pantry records the new pack's)"
	}
	out := &pantryv1.SetItemStateResponse{Item: it, Changed: res.Changed, PreviousState: prev, Message: msg, Resolved: resolved}
	if send == name {
		// Read by the food API's own matching, not the resolver.
		noteResolved(&out.Resolved, name, it.GetName())
	}
	return connect.NewResponse(out), nil
}

// AddToPantry adds items one by one (POST /bulk-pantry-add/ with one item
// each), so one bad name fails only its own item: the food API runs a batch
// in one transaction and would refuse it whole. Every item is created or
// restocked on its existing row by the food API (spec §6.4: never a
// duplicate of an item marked out); an item already in stock is restocked
// too, taking the quantity and expiry given, since buying more of it is
// news the pantry keeps (it used to answer "unchanged" and drop them).
func (s *Service) AddToPantry(ctx context.Context, req *connect.Request[pantryv1.AddToPantryRequest]) (*connect.Response[pantryv1.AddToPantryResponse], error) {
	adds := req.Msg.GetItems()
	if len(adds) == 0 || len(adds) > MaxAdditions {
		return nil, invalid("items must hold 1 to %d items, got %d", MaxAdditions, len(adds))
	}
	for i, a := range adds {
		if l := a.GetLocation(); l != pantryv1.Location_LOCATION_UNSPECIFIED && locationName(l) == "" {
			return nil, invalid("items[%d].location %d is not a known location; use LOCATION_FRIDGE, LOCATION_CUPBOARD or LOCATION_FREEZER", i, l)
		}
		if a.Quantity != nil && a.GetQuantity() < 0 {
			return nil, invalid("items[%d].quantity must not be negative", i)
		}
		if e := strings.TrimSpace(a.GetExpiry()); e != "" {
			if _, err := time.Parse(time.DateOnly, e); err != nil {
				return nil, invalid("items[%d].expiry must be a date YYYY-MM-DD, got %q", i, a.GetExpiry())
			}
		}
		name := normName(a.GetName())
		if name == "" {
			return nil, invalid("items[%d].name is required", i)
		}
		if err := checkName(fmt.Sprintf("items[%d].name", i), name); err != nil {
			return nil, err
		}
	}
	// Reading the ingredients first (resolve.go) also fails the call as a
	// whole when the food API is down or refuses the token, instead of
	// once per item. The pantry as it stands names what a restock clears.
	ix, err := s.ingredientIndex(ctx)
	if err != nil {
		return nil, connectError(err, "")
	}
	before, err := s.pantry(ctx, pantryv1.Location_LOCATION_UNSPECIFIED)
	if err != nil {
		return nil, connectError(err, "")
	}
	stocked := map[int64]apiItem{}
	for _, b := range before {
		stocked[b.ID] = b
	}
	out := &pantryv1.AddToPantryResponse{}
	for i, a := range adds {
		name := normName(a.GetName())
		send, how, err := bind(ix, fmt.Sprintf("items[%d].name", i), name, &out.Resolved)
		var r *pantryv1.AddResult
		if err != nil {
			r = &pantryv1.AddResult{Name: name, Outcome: pantryv1.AddOutcome_ADD_OUTCOME_FAILED, Message: connect.CodeOf(err).String()}
			var ce *connect.Error
			if errors.As(err, &ce) {
				r.Message = ce.Message()
				if nm := detailMatches(ce); nm != nil {
					r.CloseMatches = nm.GetCloseMatches()
				}
			}
		} else {
			r = s.addOne(ctx, a, name, send, stocked)
		}
		out.Items = append(out.Items, r)
		if r.Item != nil && how == names.None {
			// The food API's own matching read a name the resolver left
			// alone (a list from the pantry's rows misses template-only
			// ingredients); say so all the same.
			noteResolved(&out.Resolved, r.GetName(), r.GetItem().GetName())
		}
	}
	return connect.NewResponse(out), nil
}

// detailMatches is the NameMatches detail of err, or nil.
func detailMatches(ce *connect.Error) *pantryv1.NameMatches {
	for _, d := range ce.Details() {
		if v, err := d.Value(); err == nil {
			if nm, ok := v.(*pantryv1.NameMatches); ok {
				return nm
			}
		}
	}
	return nil
}

// addOne adds one item under the name the resolver bound (send), answering
// it under the name as given. A restock of an item stocked before (in
// stocked, by id) clears the old pack's amount and use-by date the
// addition does not give.
func (s *Service) addOne(ctx context.Context, a *pantryv1.PantryAddition, name, send string, stocked map[int64]apiItem) *pantryv1.AddResult {
	res := &pantryv1.AddResult{Name: name}
	entry := map[string]any{"name": send}
	if l := locationName(a.GetLocation()); l != "" {
		entry["location"] = l
	}
	if a.Quantity != nil {
		entry["quantity"] = a.GetQuantity()
	}
	if unit := strings.TrimSpace(a.GetUnit()); unit != "" {
		entry["unit"] = unit
	}
	if e := strings.TrimSpace(a.GetExpiry()); e != "" {
		entry["expiry"] = e
	}
	var body struct {
		Results []struct {
			Result            string  `json:"result"`
			IngredientCreated bool    `json:"ingredient_created"`
			Item              apiItem `json:"item"`
		} `json:"results"`
	}
	err := s.food.send(ctx, http.MethodPost, "/bulk-pantry-add/", map[string]any{"items": []any{entry}}, &body)
	if err == nil && len(body.Results) != 1 {
		err = &apiError{kind: kindProtocol, msg: "the food API answered bulk-pantry-add without a result"}
	}
	if err != nil {
		res.Outcome = pantryv1.AddOutcome_ADD_OUTCOME_FAILED
		res.Message = err.Error()
		var ae *apiError
		if errors.As(err, &ae) {
			// The API names the batch index ("items[0]: ..."); here the
			// result already belongs to its item.
			res.Message = strings.TrimPrefix(ae.message(), "items[0]: ")
			if isName, _ := ae.nameError(); isName {
				res.CloseMatches = limit(ae.matches)
			}
		}
		return res
	}
	r := body.Results[0]
	stored := r.Item
	if old, ok := stocked[r.Item.ID]; ok && r.Result != "created" {
		var err error
		stored, res.Note, err = s.clearOldPack(ctx, old, r.Item, a.Quantity != nil, strings.TrimSpace(a.GetExpiry()) != "")
		if err != nil {
			// The restock landed; only the old pack's values could not be
			// cleared.
			stored = r.Item
			res.Note = "restocked, but clearing the old pack's amount and use-by date failed: " + err.Error()
		}
	}
	res.Item, res.IngredientCreated = item(stored), r.IngredientCreated
	res.Outcome = pantryv1.AddOutcome_ADD_OUTCOME_RESTOCKED
	if r.Result == "created" {
		res.Outcome = pantryv1.AddOutcome_ADD_OUTCOME_CREATED
	}
	return res
}

// clearOldPack clears, on a restocked item, the amount and use-by date the
// old pack had recorded (old, read before the restock) and the restock did
// not give (gaveQty, gaveExpiry): left as they were, "I just bought pork
// mince" would keep last week's 500 g and its use-by date. The food API
// clears both itself for an item that was out (kitchen/views.py,
// BulkPantryAddView), not for one in or low, nor on set-state; what is
// still there is cleared with one PATCH /pantry/<id>/. It answers the item
// as stored and a sentence naming what was cleared, empty when nothing
// was recorded.
func (s *Service) clearOldPack(ctx context.Context, old, now apiItem, gaveQty, gaveExpiry bool) (apiItem, string, error) {
	var gone []string
	patch := map[string]any{}
	if !gaveQty && old.Quantity.set {
		gone = append(gone, strings.TrimSpace(amount.Quantity(old.Quantity.v)+" "+old.Unit))
		if now.Quantity.set {
			patch["quantity"] = nil
			if now.Unit != "" {
				patch["unit"] = ""
			}
		}
	}
	if !gaveExpiry && old.Expiry != nil && *old.Expiry != "" {
		gone = append(gone, "use-by "+*old.Expiry)
		if now.Expiry != nil {
			patch["expiry"] = nil
		}
	}
	if len(gone) == 0 {
		return now, "", nil
	}
	if len(patch) > 0 {
		var stored apiItem
		if err := s.food.send(ctx, http.MethodPatch, fmt.Sprintf("/pantry/%d/", now.ID), patch, &stored); err != nil {
			return now, "", err
		}
		now = stored
	}
	return now, "cleared the old pack's " + strings.Join(gone, " and "), nil
}

// noteResolved records in *m that given was read as stored, when it was
// read other than exactly: the food API matches names ignoring case and
// spacing, so only an alias or a singular/plural variant ("noodles" for
// "egg noodles") is worth saying (pantry.proto, SetItemStateResponse.resolved).
func noteResolved(m *map[string]string, given, stored string) {
	if stored == "" || strings.EqualFold(normName(given), stored) {
		return
	}
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[normName(given)] = stored
}
