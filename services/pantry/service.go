// Package pantry implements sous.pantry.v1.PantryService over the Django
// food API: the household's pantry, meta-recipes and cook logs, the seven
// tools of the food pantry spec §5 with the §6 API changes.
//
// The service holds no database of its own; every RPC is one or two calls to
// the food API (client.go) whose answers are shaped into compact messages
// (shape.go); the names a write carries are read with the shared resolver,
// services/internal/names (resolve.go). It may import proto, internal and
// services/internal; nothing in mcpfront.
package pantry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/svcauth"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/names"
)

// Request limits, as the proto states them. Each is far above real use and
// keeps a runaway caller from building huge requests.
const (
	// MaxAdditions caps AddToPantry's items: a big shop is a few dozen.
	MaxAdditions = limits.PantryAdditions
	// MaxServings caps servings in WhatCanICook and LogCook: a household
	// cooks for a few; 50 already covers a party.
	MaxServings = limits.Servings
	// MinRating and MaxRating bound a cook log's rating, 1-5 stars (spec
	// §6.1).
	MinRating, MaxRating = limits.MinRating, limits.MaxRating
	// MaxNotes caps a cook log's notes, in characters.
	MaxNotes = limits.CookNotesChars
	// MaxNameChars caps every name a request carries (ingredients, slots,
	// meta-recipes, recipes), in characters after whitespace is collapsed.
	// It is the food API's NAME_MAX_LENGTH (foodapi
	// kitchen/models.py): its name columns hold 120 characters, plenty for
	// "tinned chopped tomatoes with garlic". Checking here answers before
	// any request instead of after a read and a refused write.
	MaxNameChars = limits.PantryNameChars
	// MaxMethodChars caps a meta-recipe's method, in characters: several
	// printed pages of steps, and no megabyte posted to the food API.
	MaxMethodChars = limits.MethodChars
	// MaxSlots caps a meta-recipe's slots.
	MaxSlots = limits.Slots
	// MaxOptions caps one slot's options.
	MaxOptions = limits.SlotOptions
	// MaxBaseIngredients caps a meta-recipe's base ingredients.
	MaxBaseIngredients = limits.BaseIngredients
)

// Config configures the service.
type Config struct {
	// FoodAPIBase is the food API's /api root (FOOD_API_BASE), such as
	// "http://127.0.0.1:8042/api". Required.
	FoodAPIBase string
	// FoodAPIToken is the service user's DRF token (FOOD_API_TOKEN),
	// sent as "Authorization: Token <token>". Required.
	FoodAPIToken string
	// HTTPClient overrides the transport to the food API (tests); nil for
	// the default. Its Timeout is replaced by Timeout.
	HTTPClient *http.Client
	// ReadOnly refuses every write (MEALIE_READ_ONLY).
	ReadOnly bool
	// Logger receives service logs; nil discards.
	Logger *slog.Logger
}

// Service implements pantryv1connect.PantryServiceHandler.
type Service struct {
	pantryv1connect.UnimplementedPantryServiceHandler
	food     *foodClient
	readOnly bool
	log      *slog.Logger
	// today returns the local calendar date (LogCook's default date).
	today func() string
}

// New returns the service. A missing or malformed FoodAPIBase or a missing
// FoodAPIToken is an error naming the variable to set.
func New(cfg Config) (*Service, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	fc, err := newFoodClient(cfg.FoodAPIBase, cfg.FoodAPIToken, cfg.HTTPClient, logger)
	if err != nil {
		return nil, err
	}
	return &Service{
		food: fc, readOnly: cfg.ReadOnly, log: logger,
		today: func() string { return time.Now().Format(time.DateOnly) },
	}, nil
}

// Handler returns the Connect handler and its mount path. In read-only mode
// it refuses every RPC with side effects (svcauth.ReadOnlyInterceptor).
func (s *Service) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	return pantryv1connect.NewPantryServiceHandler(s, svcauth.HandlerOptions(s.log, s.readOnly, opts...)...)
}

func invalid(format string, args ...any) error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(format, args...))
}

// normName trims and collapses whitespace, as the food API does.
func normName(s string) string { return strings.Join(strings.Fields(s), " ") }

// checkName refuses a name longer than MaxNameChars; field names it in the
// message ("items[2].name").
func checkName(field, name string) error {
	if n := utf8.RuneCountInString(name); n > MaxNameChars {
		return invalid("%s must be at most %d characters, got %d", field, MaxNameChars, n)
	}
	return nil
}

// GetStatus probes the food API: GET /auth/check/ proves the token (the
// health endpoint would answer without one), then GET /pantry/ counts items.
func (s *Service) GetStatus(ctx context.Context, _ *connect.Request[pantryv1.GetStatusRequest]) (*connect.Response[pantryv1.GetStatusResponse], error) {
	var who struct {
		Username string `json:"username"`
	}
	if err := s.food.get(ctx, "/auth/check/", nil, &who); err != nil {
		return nil, connectError(probeError(err), "")
	}
	items, err := s.pantry(ctx, pantryv1.Location_LOCATION_UNSPECIFIED)
	if err != nil {
		return nil, connectError(err, "")
	}
	return connect.NewResponse(&pantryv1.GetStatusResponse{
		ApiBase: s.food.conn.Base, ItemCount: int32(len(items)), ReadOnly: s.readOnly,
	}), nil
}

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
	it := item(res.Item)
	prev := it.State
	if res.Changed {
		prev = pantryv1.ItemState_ITEM_STATE_UNSPECIFIED
		for _, b := range before {
			if b.ID == res.Item.ID {
				prev = states[b.State]
			}
		}
	}
	msg := fmt.Sprintf("%s is now %s", itemLabel(it), res.Item.State)
	if !res.Changed {
		msg = fmt.Sprintf("%s was already %s; nothing changed", itemLabel(it), res.Item.State)
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
	// once per item.
	ix, err := s.ingredientIndex(ctx)
	if err != nil {
		return nil, connectError(err, "")
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
			r = s.addOne(ctx, a, name, send)
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
// it under the name as given.
func (s *Service) addOne(ctx context.Context, a *pantryv1.PantryAddition, name, send string) *pantryv1.AddResult {
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
	res.Item, res.IngredientCreated = item(r.Item), r.IngredientCreated
	res.Outcome = pantryv1.AddOutcome_ADD_OUTCOME_RESTOCKED
	if r.Result == "created" {
		res.Outcome = pantryv1.AddOutcome_ADD_OUTCOME_CREATED
	}
	return res
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

// WhatCanICook matches every meta-recipe against the pantry (GET
// /what-can-i-cook/). The food API's matcher is presence-based (spec §6.3).
func (s *Service) WhatCanICook(ctx context.Context, req *connect.Request[pantryv1.WhatCanICookRequest]) (*connect.Response[pantryv1.WhatCanICookResponse], error) {
	var q url.Values
	if req.Msg.Servings != nil {
		n := req.Msg.GetServings()
		if n < 1 || n > MaxServings {
			return nil, invalid("servings must be between 1 and %d, got %d", MaxServings, n)
		}
		q = url.Values{"servings": {strconv.Itoa(int(n))}}
	}
	var body struct {
		Results []apiMatch `json:"results"`
	}
	if err := s.food.get(ctx, "/what-can-i-cook/", q, &body); err != nil {
		return nil, connectError(err, "")
	}
	items, warnings := matches(body.Results)
	return connect.NewResponse(&pantryv1.WhatCanICookResponse{Items: items, ExpiryWarnings: warnings}), nil
}

// GetMetaRecipes lists every meta-recipe with its slots (GET
// /meta-recipes/), ordered by name.
func (s *Service) GetMetaRecipes(ctx context.Context, _ *connect.Request[pantryv1.GetMetaRecipesRequest]) (*connect.Response[pantryv1.GetMetaRecipesResponse], error) {
	var list []apiMetaRecipe
	if err := s.food.get(ctx, "/meta-recipes/", nil, &list); err != nil {
		return nil, connectError(err, "")
	}
	out := &pantryv1.GetMetaRecipesResponse{}
	for _, mr := range list {
		out.Items = append(out.Items, metaRecipe(mr))
	}
	sortByName(out.Items)
	return connect.NewResponse(out), nil
}

// ref is a recipe reference as the food API takes it: a decimal id becomes
// a JSON integer, anything else a name.
func ref(s string) any {
	if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
		return id
	}
	return s
}

// LogCook records a cook (POST /api/log-cook/). The food API changes no
// pantry state (spec §6.1, §12.2); its used_ingredients come back as a
// suggestion to confirm with the user.
func (s *Service) LogCook(ctx context.Context, req *connect.Request[pantryv1.LogCookRequest]) (*connect.Response[pantryv1.LogCookResponse], error) {
	m := req.Msg
	body := map[string]any{}
	var sent []string // the names the call carries, for a close-match error
	switch c := m.GetCooked().(type) {
	case *pantryv1.LogCookRequest_MetaRecipe:
		v := normName(c.MetaRecipe)
		if v == "" {
			return nil, invalid("meta_recipe must not be empty")
		}
		if err := checkName("meta_recipe", v); err != nil {
			return nil, err
		}
		body["meta_recipe"], sent = ref(v), append(sent, v)
	case *pantryv1.LogCookRequest_Recipe:
		v := normName(c.Recipe)
		if v == "" {
			return nil, invalid("recipe must not be empty")
		}
		if err := checkName("recipe", v); err != nil {
			return nil, err
		}
		body["recipe"], sent = ref(v), append(sent, v)
	default:
		return nil, invalid("one of meta_recipe or recipe is required")
	}
	type pick struct{ slot, ing string }
	var picks []pick
	choices := map[string]string{}
	if len(m.GetSlotChoices()) > 0 {
		if _, ok := body["meta_recipe"]; !ok {
			return nil, invalid("slot_choices apply only to a meta-recipe")
		}
		for i, sc := range m.GetSlotChoices() {
			slot, ing := normName(sc.GetSlot()), normName(sc.GetIngredient())
			if slot == "" || ing == "" {
				return nil, invalid("slot_choices[%d] needs a slot and an ingredient", i)
			}
			if err := checkName(fmt.Sprintf("slot_choices[%d].slot", i), slot); err != nil {
				return nil, err
			}
			if err := checkName(fmt.Sprintf("slot_choices[%d].ingredient", i), ing); err != nil {
				return nil, err
			}
			for k := range choices {
				if strings.EqualFold(k, slot) {
					return nil, invalid("slot_choices: slot %q is chosen twice", slot)
				}
			}
			choices[slot] = ing
			picks = append(picks, pick{slot, ing})
			sent = append(sent, ing)
		}
	}
	if m.Servings != nil {
		if n := m.GetServings(); n < 1 || n > MaxServings {
			return nil, invalid("servings must be between 1 and %d, got %d", MaxServings, n)
		}
		body["servings"] = m.GetServings()
	}
	if m.Rating != nil {
		if r := m.GetRating(); r < MinRating || r > MaxRating {
			return nil, invalid("rating must be between %d and %d, got %d", MinRating, MaxRating, r)
		}
		body["rating"] = m.GetRating()
	}
	if utf8.RuneCountInString(m.GetNotes()) > MaxNotes {
		return nil, invalid("notes must be at most %d characters", MaxNotes)
	}
	if n := strings.TrimSpace(m.GetNotes()); n != "" {
		body["notes"] = n
	}
	date := strings.TrimSpace(m.GetDate())
	if date == "" {
		date = s.today()
	} else if _, err := time.Parse(time.DateOnly, date); err != nil {
		return nil, invalid("date must be YYYY-MM-DD, got %q", m.GetDate())
	}
	body["date"] = date

	// Every argument is checked; the names are read now (resolve.go).
	var resolved map[string]string
	mr, err := s.bindCooked(ctx, body, &resolved)
	if err != nil {
		return nil, err
	}
	if len(picks) > 0 {
		// A choice the template does not list is still what was cooked:
		// the food API logs it, creating it when no ingredient binds.
		ix, err := s.ingredientIndex(ctx)
		if err != nil {
			return nil, connectError(err, "")
		}
		for i, p := range picks {
			send, err := bindChoice(ix, mr, fmt.Sprintf("slot_choices[%d].ingredient", i), p.slot, p.ing, &resolved)
			if err != nil {
				return nil, err
			}
			choices[p.slot] = send
		}
		body["slot_choices"] = choices
	}

	var res struct {
		ID         int64 `json:"id"`
		MetaRecipe *struct {
			Name string `json:"name"`
		} `json:"meta_recipe"`
		Recipe *struct {
			Name string `json:"name"`
		} `json:"recipe"`
		Date         string              `json:"date"`
		Used         []apiAmount         `json:"used_ingredients"`
		OffTemplate  map[string]string   `json:"off_template"`
		Created      []string            `json:"created_ingredients"`
		Resolved     map[string]string   `json:"resolved"`
		CloseMatches map[string][]string `json:"close_matches"`
	}
	if err := s.food.send(ctx, http.MethodPost, "/log-cook/", body, &res); err != nil {
		return nil, connectError(err, nameIn(err, sent))
	}
	for given, stored := range res.Resolved {
		noteResolved(&resolved, given, stored)
	}
	out := &pantryv1.LogCookResponse{
		CookLogId: res.ID, Date: res.Date, OffTemplate: res.OffTemplate, CreatedIngredients: res.Created, Resolved: resolved,
	}
	for _, name := range res.Created {
		if near := res.CloseMatches[name]; len(near) > 0 {
			out.CreatedCloseMatches = append(out.CreatedCloseMatches, &pantryv1.NameMatches{Name: name, CloseMatches: limit(near)})
		}
	}
	switch {
	case res.MetaRecipe != nil:
		out.Cooked = res.MetaRecipe.Name
	case res.Recipe != nil:
		out.Cooked = res.Recipe.Name
	}
	for _, u := range res.Used {
		if !containsFold(out.UsedIngredients, u.Ingredient) {
			out.UsedIngredients = append(out.UsedIngredients, u.Ingredient)
		}
	}
	return connect.NewResponse(out), nil
}

// nameIn picks which of the names a call sent its error sentence is about
// ("No ingredient is called 'basil'."), for the NameMatches detail.
func nameIn(err error, sent []string) string {
	msg := strings.ToLower(err.Error())
	for _, n := range sent {
		if strings.Contains(msg, "'"+strings.ToLower(n)+"'") {
			return n
		}
	}
	if len(sent) > 0 {
		return sent[0]
	}
	return ""
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// CreateMetaRecipe saves a whole meta-recipe: POST /create-meta-recipe/ to
// create, PUT with the id to rebuild an existing one in place (same id).
func (s *Service) CreateMetaRecipe(ctx context.Context, req *connect.Request[pantryv1.CreateMetaRecipeRequest]) (*connect.Response[pantryv1.CreateMetaRecipeResponse], error) {
	m := req.Msg
	name := normName(m.GetName())
	if n := utf8.RuneCountInString(name); n == 0 || n > MaxNameChars {
		return nil, invalid("name must be 1 to %d characters", MaxNameChars)
	}
	if n := utf8.RuneCountInString(m.GetMethod()); n > MaxMethodChars {
		return nil, invalid("method: at most %d characters, got %d", MaxMethodChars, n)
	}
	if len(m.GetSlots()) > MaxSlots {
		return nil, invalid("a meta-recipe has at most %d slots, got %d", MaxSlots, len(m.GetSlots()))
	}
	if len(m.GetBaseIngredients()) > MaxBaseIngredients {
		return nil, invalid("a meta-recipe has at most %d base ingredients, got %d", MaxBaseIngredients, len(m.GetBaseIngredients()))
	}
	slots := make([]map[string]any, 0, len(m.GetSlots()))
	for i, sl := range m.GetSlots() {
		sname := normName(sl.GetName())
		if sname == "" {
			return nil, invalid("slots[%d].name is required", i)
		}
		if err := checkName(fmt.Sprintf("slots[%d].name", i), sname); err != nil {
			return nil, err
		}
		if n := len(sl.GetOptions()); n == 0 || n > MaxOptions {
			return nil, invalid("slots[%d] (%s) needs 1 to %d options, got %d", i, sname, MaxOptions, n)
		}
		if err := checkAmounts(fmt.Sprintf("slots[%d].options", i), sl.GetOptions()); err != nil {
			return nil, err
		}
		slots = append(slots, map[string]any{"name": sname})
	}
	if err := checkAmounts("base_ingredients", m.GetBaseIngredients()); err != nil {
		return nil, err
	}
	if m.Id != nil && m.GetId() < 1 {
		return nil, invalid("id must be positive, got %d", m.GetId())
	}
	// Every argument is checked before this first request.
	ix, err := s.ingredientIndex(ctx)
	if err != nil {
		return nil, connectError(err, "")
	}
	var resolved map[string]string
	for i, sl := range m.GetSlots() {
		opts, err := amountInputs(ix, fmt.Sprintf("slots[%d].options", i), sl.GetOptions(), &resolved)
		if err != nil {
			return nil, err
		}
		slots[i]["options"] = opts
	}
	bases, err := amountInputs(ix, "base_ingredients", m.GetBaseIngredients(), &resolved)
	if err != nil {
		return nil, err
	}
	body := map[string]any{"name": name, "method": m.GetMethod(), "slots": slots, "base_ingredients": bases}
	method := http.MethodPost
	if m.Id != nil {
		body["id"], method = m.GetId(), http.MethodPut
	}
	var res struct {
		MetaRecipe         apiMetaRecipe     `json:"meta_recipe"`
		CreatedIngredients []string          `json:"created_ingredients"`
		Resolved           map[string]string `json:"resolved"`
	}
	if err := s.food.send(ctx, method, "/create-meta-recipe/", body, &res); err != nil {
		return nil, connectError(err, "")
	}
	return connect.NewResponse(&pantryv1.CreateMetaRecipeResponse{
		MetaRecipe: metaRecipe(res.MetaRecipe), CreatedIngredients: res.CreatedIngredients, Updated: m.Id != nil, Resolved: mergeResolved(resolved, res.Resolved),
	}), nil
}

// checkAmounts refuses an empty or overlong ingredient name and a negative
// quantity, naming the argument.
func checkAmounts(field string, in []*pantryv1.IngredientAmount) error {
	for i, a := range in {
		ing := normName(a.GetIngredient())
		if ing == "" {
			return invalid("%s[%d].ingredient is required", field, i)
		}
		if err := checkName(fmt.Sprintf("%s[%d].ingredient", field, i), ing); err != nil {
			return err
		}
		if a.Quantity != nil && a.GetQuantity() < 0 {
			return invalid("%s[%d].quantity must not be negative", field, i)
		}
	}
	return nil
}

// amountInputs builds the food API's amounts of checked input, each name
// read with the resolver (bind): a general word is kept as the user's and
// created, never narrowed to a kind it covers.
func amountInputs(ix *names.Index, field string, in []*pantryv1.IngredientAmount, resolved *map[string]string) ([]map[string]any, error) {
	out := make([]map[string]any, 0, len(in))
	for i, a := range in {
		ing, _, err := bind(ix, fmt.Sprintf("%s[%d].ingredient", field, i), normName(a.GetIngredient()), resolved)
		if err != nil {
			return nil, err
		}
		e := map[string]any{"ingredient": ing, "unit": strings.TrimSpace(a.GetUnit())}
		if a.Quantity != nil {
			e["quantity"] = a.GetQuantity()
		}
		out = append(out, e)
	}
	return out, nil
}

// mergeResolved adds the food API's own resolved names to the resolver's.
func mergeResolved(m, more map[string]string) map[string]string {
	for given, stored := range more {
		noteResolved(&m, given, stored)
	}
	return m
}

func sortByName(items []*pantryv1.MetaRecipe) {
	slices.SortStableFunc(items, func(a, b *pantryv1.MetaRecipe) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
}
