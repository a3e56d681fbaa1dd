package pantry_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/integration/harness/foodapidocker"
	"github.com/souskitchen/sous/internal/foodapiproc"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/services/pantry"
)

const (
	fridge   = pantryv1.Location_LOCATION_FRIDGE
	cupboard = pantryv1.Location_LOCATION_CUPBOARD
	freezer  = pantryv1.Location_LOCATION_FREEZER
	in       = pantryv1.ItemState_ITEM_STATE_IN
	low      = pantryv1.ItemState_ITEM_STATE_LOW
	out      = pantryv1.ItemState_ITEM_STATE_OUT
)

// The demo kitchen (foodapi kitchen/demo.py): 42 pantry items,
// 3 out (eggs, firm tofu, coconut milk) and 7 low (milk, spring onions, egg
// noodles, sesame oil, curry paste, brown sugar, vanilla extract).
const (
	demoItems = 42
	demoOut   = 3
	demoLow   = 7
)

func TestGetStatusProbesTheToken(t *testing.T) {
	t.Parallel()
	c, fa := setup(t)
	res, err := c.GetStatus(ctx(t), connect.NewRequest(&pantryv1.GetStatusRequest{}))
	if err != nil {
		t.Fatalf("GetStatus: %v", err)
	}
	if res.Msg.GetApiBase() != fa.BaseURL || res.Msg.GetItemCount() != demoItems || res.Msg.GetReadOnly() {
		t.Errorf("GetStatus = %v; want api_base %s, %d items, not read-only", res.Msg, fa.BaseURL, demoItems)
	}

	bad := serve(t, pantry.Config{FoodAPIBase: fa.BaseURL, FoodAPIToken: "not-the-token-at-all-0000"})
	_, err = bad.GetStatus(ctx(t), connect.NewRequest(&pantryv1.GetStatusRequest{}))
	ce := wantCode(t, err, connect.CodeUnauthenticated)
	if !strings.Contains(ce.Message(), "check FOOD_API_TOKEN") {
		t.Errorf("message %q does not say to check FOOD_API_TOKEN", ce.Message())
	}
}

func TestGetPantryHidesOutItemsUnlessAsked(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	res, err := c.GetPantry(ctx(t), connect.NewRequest(&pantryv1.GetPantryRequest{}))
	if err != nil {
		t.Fatalf("GetPantry: %v", err)
	}
	counts := res.Msg.GetCounts()
	if counts.GetOut() != demoOut || counts.GetLow() != demoLow || counts.GetInStock() != demoItems-demoOut-demoLow {
		t.Errorf("counts = %v; want %d in, %d low, %d out", counts, demoItems-demoOut-demoLow, demoLow, demoOut)
	}
	var listed int
	var order []pantryv1.Location
	for _, g := range res.Msg.GetGroups() {
		order = append(order, g.GetLocation())
		names := make([]string, 0, len(g.GetItems()))
		for _, it := range g.GetItems() {
			listed++
			names = append(names, it.GetName())
			if it.GetState() == out {
				t.Errorf("%s is out but listed without include_out", it.GetName())
			}
		}
		if !slices.IsSorted(names) {
			t.Errorf("%v items not ordered by name: %v", g.GetLocation(), names)
		}
	}
	if listed != demoItems-demoOut {
		t.Errorf("listed %d items, want %d", listed, demoItems-demoOut)
	}
	if !slices.Equal(order, []pantryv1.Location{fridge, cupboard, freezer}) {
		t.Errorf("group order = %v, want fridge, cupboard, freezer", order)
	}
	if noodles := find(res.Msg, "egg noodles", cupboard); noodles == nil || noodles.GetState() != low ||
		!slices.Contains(noodles.GetAliases(), "noodles") || noodles.GetUnit() != "nest" || noodles.GetQuantity() != 1 {
		t.Errorf("egg noodles = %v; want low, alias noodles, 1 nest", noodles)
	}

	all := allPantry(t, c)
	if eggs := find(all, "eggs", fridge); eggs == nil || eggs.GetState() != out || !eggs.GetIsStaple() {
		t.Errorf("include_out: eggs = %v, want an out staple", eggs)
	}

	fr, err := c.GetPantry(ctx(t), connect.NewRequest(&pantryv1.GetPantryRequest{Location: freezer}))
	if err != nil {
		t.Fatalf("GetPantry(freezer): %v", err)
	}
	if len(fr.Msg.GetGroups()) != 1 || fr.Msg.GetGroups()[0].GetLocation() != freezer || len(fr.Msg.GetGroups()[0].GetItems()) != 3 {
		t.Errorf("freezer = %v, want one group of 3 items", fr.Msg.GetGroups())
	}
}

// "I used the last of the noodles": the alias resolves to egg noodles, and
// saying it twice changes nothing the second time.
func TestSetItemStateByAliasIsIdempotent(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	res, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "noodles", State: out}))
	if err != nil {
		t.Fatalf("SetItemState(noodles, out): %v", err)
	}
	m := res.Msg
	if m.GetItem().GetName() != "egg noodles" || m.GetItem().GetLocation() != cupboard || m.GetItem().GetState() != out ||
		!m.GetChanged() || m.GetPreviousState() != low || m.GetMessage() != "egg noodles (cupboard) is now out" {
		t.Errorf("first call = %v", m)
	}
	if got := find(allPantry(t, c), "egg noodles", cupboard); got.GetState() != out {
		t.Errorf("pantry after the write: egg noodles is %v, want out", got.GetState())
	}

	again, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "Noodles", State: out}))
	if err != nil {
		t.Fatalf("second SetItemState: %v", err)
	}
	if again.Msg.GetChanged() || again.Msg.GetPreviousState() != out ||
		again.Msg.GetMessage() != "egg noodles (cupboard) was already out; nothing changed" {
		t.Errorf("second call = %v, want unchanged", again.Msg)
	}
	if again.Msg.GetItem().GetId() != m.GetItem().GetId() {
		t.Errorf("second call touched item %d, first %d", again.Msg.GetItem().GetId(), m.GetItem().GetId())
	}
}

func TestSetItemStateNameErrors(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)

	_, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "nooodles", State: out}))
	ce := wantCode(t, err, connect.CodeNotFound)
	if !strings.Contains(ce.Message(), "did you mean ") || !strings.Contains(ce.Message(), "egg noodles") {
		t.Errorf("unknown name: message %q lists no close matches", ce.Message())
	}
	nm := nameMatches(t, ce)
	if nm == nil || nm.GetName() != "nooodles" || nm.GetAmbiguous() || !slices.Contains(nm.GetCloseMatches(), "egg noodles") {
		t.Errorf("unknown name: NameMatches = %v", nm)
	}

	// A name near nothing offers nothing: the food API's matcher once
	// answered "unicorn" with "onions".
	_, err = c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "unicorn", State: out}))
	ce = wantCode(t, err, connect.CodeNotFound)
	if strings.Contains(ce.Message(), "did you mean") || strings.Contains(ce.Message(), "onion") {
		t.Errorf("unicorn: %q offers matches that are not near", ce.Message())
	}

	// Pork mince is kept in the fridge and the freezer.
	_, err = c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "pork mince", State: low}))
	ce = wantCode(t, err, connect.CodeInvalidArgument)
	if !strings.Contains(ce.Message(), "fridge") || !strings.Contains(ce.Message(), "freezer") {
		t.Errorf("two locations: message %q does not name them", ce.Message())
	}
	res, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "minced pork", State: low, Location: freezer}))
	if err != nil || res.Msg.GetItem().GetLocation() != freezer || res.Msg.GetItem().GetState() != low {
		t.Errorf("with a location: %v, %v", res, err)
	}

	_, err = c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "noodles"}))
	wantCode(t, err, connect.CodeInvalidArgument)
}

// Adding eggs that are marked out restocks their row; nothing is
// duplicated, an item already in stock is restocked on its row, and one bad
// item does not stop the others.
func TestAddToPantryRestocksInsteadOfDuplicating(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	before := find(allPantry(t, c), "eggs", fridge)
	if before.GetState() != out {
		t.Fatalf("demo eggs are %v, want out", before.GetState())
	}
	res, err := c.AddToPantry(ctx(t), connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{
		{Name: "eggs", Quantity: proto.Float64(12)},
		{Name: "pork mince", Location: fridge},
		{Name: "tahini"},
		{Name: "pork mince"},
	}}))
	if err != nil {
		t.Fatalf("AddToPantry: %v", err)
	}
	items := res.Msg.GetItems()
	if len(items) != 4 {
		t.Fatalf("got %d results, want 4: %v", len(items), items)
	}
	if eggs := items[0]; eggs.GetOutcome() != pantryv1.AddOutcome_ADD_OUTCOME_RESTOCKED || eggs.GetItem().GetId() != before.GetId() ||
		eggs.GetItem().GetState() != in || eggs.GetItem().GetQuantity() != 12 || eggs.GetIngredientCreated() {
		t.Errorf("eggs = %v; want restocked on row %d, in, 12", eggs, before.GetId())
	}
	if pm := items[1]; pm.GetOutcome() != pantryv1.AddOutcome_ADD_OUTCOME_RESTOCKED || pm.GetItem().Quantity != nil || pm.GetItem().GetExpiry() != "" ||
		pm.GetNote() != "cleared the old pack's 500 g and use-by 2026-12-04" {
		t.Errorf("pork mince (fridge) = %v, want restocked with the old pack's 500 g and use-by cleared, and said", pm)
	}
	if th := items[2]; th.GetOutcome() != pantryv1.AddOutcome_ADD_OUTCOME_CREATED || !th.GetIngredientCreated() ||
		th.GetItem().GetLocation() != cupboard || th.GetItem().GetState() != in {
		t.Errorf("tahini = %v, want a new ingredient in the cupboard", th)
	}
	if pm := items[3]; pm.GetOutcome() != pantryv1.AddOutcome_ADD_OUTCOME_FAILED || !strings.Contains(pm.GetMessage(), "more than one location") ||
		strings.HasPrefix(pm.GetMessage(), "items[") {
		t.Errorf("pork mince without a location = %v, want failed naming the locations", pm)
	}

	after := allPantry(t, c)
	c2 := after.GetCounts()
	if total := c2.GetInStock() + c2.GetLow() + c2.GetOut(); total != demoItems+1 {
		t.Errorf("pantry holds %d items, want %d (only tahini added)", total, demoItems+1)
	}
	var eggRows int
	for _, g := range after.GetGroups() {
		for _, it := range g.GetItems() {
			if it.GetName() == "eggs" {
				eggRows++
			}
		}
	}
	if eggRows != 1 {
		t.Errorf("eggs have %d rows, want 1", eggRows)
	}

	_, err = c.AddToPantry(ctx(t), connect.NewRequest(&pantryv1.AddToPantryRequest{}))
	wantCode(t, err, connect.CodeInvalidArgument)
}

// Restocking without saying how much drops the old amount and use-by date
// (they described the old pack), whether the item had run out or was
// still in, and says so; an amount or a date given is set; pantry.proto's
// PantryAddition.quantity says so. Every write is read back.
func TestAddToPantryAfterOutForgetsTheOldAmount(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	add := func(a *pantryv1.PantryAddition) *pantryv1.AddResult {
		t.Helper()
		res, err := c.AddToPantry(ctx(t), connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{a}}))
		if err != nil {
			t.Fatalf("AddToPantry(%s): %v", a.GetName(), err)
		}
		return res.Msg.GetItems()[0]
	}
	first := add(&pantryv1.PantryAddition{Name: "tofu", Location: fridge, Quantity: proto.Float64(300), Unit: "g"})
	if first.GetItem().GetQuantity() != 300 || first.GetItem().GetState() != in {
		t.Fatalf("tofu restocked with 300 g = %v", first)
	}
	if _, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "tofu", State: out})); err != nil {
		t.Fatalf("SetItemState(tofu, out): %v", err)
	}
	again := add(&pantryv1.PantryAddition{Name: "tofu", Location: fridge})
	if again.GetOutcome() != pantryv1.AddOutcome_ADD_OUTCOME_RESTOCKED || again.GetItem().GetId() != first.GetItem().GetId() ||
		again.GetItem().GetState() != in || again.GetItem().Quantity != nil {
		t.Errorf("tofu restocked after out = %v; want row %d, in, no amount", again, first.GetItem().GetId())
	}
	// "I just bought pork mince": still in, with last week's 500 g and
	// its use-by date; both go, and the answer says which.
	bought := add(&pantryv1.PantryAddition{Name: "pork mince", Location: fridge})
	if bought.GetItem().Quantity != nil || bought.GetItem().GetExpiry() != "" || bought.GetItem().GetUnit() != "" ||
		bought.GetNote() != "cleared the old pack's 500 g and use-by 2026-12-04" {
		t.Errorf("pork mince bought again = %v, want the old pack's amount and date cleared, and said", bought)
	}
	if pm := find(allPantry(t, c), "pork mince", fridge); pm.Quantity != nil || pm.GetExpiry() != "" || pm.GetState() != in {
		t.Errorf("stored pork mince = %v", pm)
	}
	// With a date and no amount: the date is set, the old amount goes.
	dated := add(&pantryv1.PantryAddition{Name: "tofu", Location: fridge, Quantity: proto.Float64(400), Unit: "g", Expiry: "2030-01-09"})
	again = add(&pantryv1.PantryAddition{Name: "tofu", Location: fridge, Expiry: "2030-01-20"})
	if dated.GetItem().GetQuantity() != 400 || again.GetItem().Quantity != nil || again.GetItem().GetExpiry() != "2030-01-20" ||
		again.GetNote() != "cleared the old pack's 400 g" {
		t.Errorf("tofu dated = %v then %v", dated, again)
	}
	if tf := find(allPantry(t, c), again.GetItem().GetName(), fridge); tf == nil || tf.Quantity != nil || tf.GetExpiry() != "2030-01-20" {
		t.Errorf("stored tofu = %v", tf)
	}
}

// "I just bought X" said as set_item_state(in) of an item marked low or
// out is a restock too: the old pack's amount and use-by date are cleared,
// the message says so, and the pantry read back holds none.
// Setting in what is in changes nothing.
func TestSetItemStateInClearsTheOldPack(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	if _, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "pork mince", State: pantryv1.ItemState_ITEM_STATE_LOW, Location: fridge})); err != nil {
		t.Fatal(err)
	}
	res, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "pork mince", State: in, Location: fridge}))
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Msg; !m.GetChanged() || m.GetItem().Quantity != nil || m.GetItem().GetExpiry() != "" ||
		!strings.Contains(m.GetMessage(), "is now in; cleared the old pack's 500 g and use-by 2026-12-04") {
		t.Errorf("set in from low = %v", m)
	}
	if pm := find(allPantry(t, c), "pork mince", fridge); pm.Quantity != nil || pm.GetExpiry() != "" || pm.GetState() != in {
		t.Errorf("stored pork mince = %v", pm)
	}
	again, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "pork mince", State: in, Location: fridge}))
	if err != nil || again.Msg.GetChanged() || strings.Contains(again.Msg.GetMessage(), "cleared") {
		t.Errorf("set in again = %v %v", again, err)
	}
}

// set_item_state reads the name with the shared resolver: a singular of
// a stocked item binds and is answered in resolved, and a general word that
// covers several stocked items is refused naming them, with nothing
// changed.
func TestSetItemStateReadsNamesWithTheResolver(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	res, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "Spring Onion", State: out}))
	if err != nil {
		t.Fatalf("SetItemState(Spring Onion): %v", err)
	}
	if res.Msg.GetItem().GetName() != "spring onions" || res.Msg.GetResolved()["Spring Onion"] != "spring onions" {
		t.Errorf("SetItemState = %v; want spring onions, resolved", res.Msg)
	}
	if got := find(allPantry(t, c), "spring onions", fridge); got.GetState() != out {
		t.Errorf("stored spring onions = %v, want out", got)
	}

	before := allPantry(t, c)
	_, err = c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "oil", State: out}))
	ce := wantCode(t, err, connect.CodeInvalidArgument)
	for _, want := range []string{`"olive oil"`, `"sesame oil"`, `"vegetable oil"`} {
		if !strings.Contains(ce.Message(), want) {
			t.Errorf("oil: message %q lacks %s", ce.Message(), want)
		}
	}
	if !proto.Equal(before, allPantry(t, c)) {
		t.Error("a refused set_item_state changed the pantry")
	}
}

// A restock of an item still in stock takes the quantity and use-by date
// it is given and answers restocked, where it used to answer "unchanged"
// and keep the old ones; the pantry read back holds the new values. An
// alias is answered in resolved, and a date that is not YYYY-MM-DD is
// refused before any write.
func TestAddToPantryRestockTakesQuantityAndExpiry(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	before := find(allPantry(t, c), "vegetable oil", cupboard)
	if before.GetState() != in {
		t.Fatalf("demo vegetable oil is %v, want in", before.GetState())
	}
	res, err := c.AddToPantry(ctx(t), connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{
		{Name: "neutral oil", Quantity: proto.Float64(2), Unit: "l", Expiry: "2027-03-01"},
	}}))
	if err != nil {
		t.Fatalf("AddToPantry: %v", err)
	}
	r := res.Msg.GetItems()[0]
	if r.GetOutcome() != pantryv1.AddOutcome_ADD_OUTCOME_RESTOCKED || r.GetItem().GetId() != before.GetId() ||
		r.GetItem().GetQuantity() != 2 || r.GetItem().GetExpiry() != "2027-03-01" {
		t.Errorf("restock = %v; want row %d restocked with 2 l to 2027-03-01", r, before.GetId())
	}
	if got := res.Msg.GetResolved(); got["neutral oil"] != "vegetable oil" || len(got) != 1 {
		t.Errorf("resolved = %v, want neutral oil read as vegetable oil", got)
	}
	after := find(allPantry(t, c), "vegetable oil", cupboard)
	if after.GetQuantity() != 2 || after.GetUnit() != "l" || after.GetExpiry() != "2027-03-01" || after.GetState() != in {
		t.Errorf("stored = %v; want 2 l, 2027-03-01, in", after)
	}

	_, err = c.AddToPantry(ctx(t), connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{
		{Name: "vegetable oil", Expiry: "1/3/2027"},
	}}))
	ce := wantCode(t, err, connect.CodeInvalidArgument)
	if !strings.Contains(ce.Message(), "items[0].expiry") || !strings.Contains(ce.Message(), "YYYY-MM-DD") {
		t.Errorf("bad expiry: message %q", ce.Message())
	}
	if kept := find(allPantry(t, c), "vegetable oil", cupboard); kept.GetExpiry() != "2027-03-01" {
		t.Errorf("a refused call changed the item: %v", kept)
	}
}

// Names longer than the food API stores are refused by the service before
// any write; a name at the limit is stored whole.
func TestNameLimitMatchesTheFoodAPI(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	atLimit := strings.Repeat("x", pantry.MaxNameChars)
	res, err := c.AddToPantry(ctx(t), connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{{Name: atLimit}}}))
	if err != nil {
		t.Fatalf("AddToPantry(%d characters): %v", pantry.MaxNameChars, err)
	}
	if r := res.Msg.GetItems()[0]; r.GetOutcome() != pantryv1.AddOutcome_ADD_OUTCOME_CREATED || r.GetItem().GetName() != atLimit {
		t.Errorf("name at the limit = %v, want created under the whole name", r)
	}
	_, err = c.AddToPantry(ctx(t), connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{{Name: atLimit + "y"}}}))
	wantCode(t, err, connect.CodeInvalidArgument)
	_, err = c.CreateMetaRecipe(ctx(t), connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{Name: atLimit + "y"}))
	wantCode(t, err, connect.CodeInvalidArgument)
	if got := allPantry(t, c).GetCounts(); got.GetInStock()+got.GetLow()+got.GetOut() != demoItems+1 {
		t.Errorf("pantry counts %v, want the demo plus one", got)
	}
}

// What can I cook is presence-based: restocked eggs with no amount recorded
// make the frittata ready.
func TestWhatCanICook(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	status := func() map[string]*pantryv1.MetaRecipeMatch {
		res, err := c.WhatCanICook(ctx(t), connect.NewRequest(&pantryv1.WhatCanICookRequest{Servings: proto.Int32(4)}))
		if err != nil {
			t.Fatalf("WhatCanICook: %v", err)
		}
		out := map[string]*pantryv1.MetaRecipeMatch{}
		for i, m := range res.Msg.GetItems() {
			if i > 0 && m.GetStatus() < res.Msg.GetItems()[i-1].GetStatus() {
				t.Errorf("%s (%v) after %v: not ordered ready, partial, missing", m.GetName(), m.GetStatus(), res.Msg.GetItems()[i-1].GetStatus())
			}
			out[m.GetName()] = m
		}
		if len(res.Msg.GetExpiryWarnings()) == 0 {
			t.Error("no expiry warnings, though the demo has items expiring tomorrow")
		}
		for i, w := range res.Msg.GetExpiryWarnings() {
			if i > 0 && w.GetDaysLeft() < res.Msg.GetExpiryWarnings()[i-1].GetDaysLeft() {
				t.Errorf("expiry warnings not soonest first: %v", res.Msg.GetExpiryWarnings())
			}
			if len(w.GetUsedBy()) == 0 {
				t.Errorf("warning %v names no meta-recipe", w)
			}
		}
		return out
	}
	first := status()
	fr := first["Frittata"]
	if fr.GetStatus() != pantryv1.MatchStatus_MATCH_STATUS_PARTIAL || !slices.Equal(fr.GetMissingBase(), []string{"eggs"}) {
		t.Fatalf("Frittata = %v, want partial missing eggs", fr)
	}
	for _, s := range first["Weeknight stir-fry"].GetSlots() {
		if s.GetSlot() == "carb" && (!slices.Contains(s.GetLow(), "egg noodles") || !slices.Contains(s.GetAvailable(), "jasmine rice")) {
			t.Errorf("stir-fry carb slot = %v, want egg noodles low and rice available", s)
		}
		if s.GetSlot() == "protein" && !slices.Contains(s.GetMissing(), "firm tofu") {
			t.Errorf("stir-fry protein slot = %v, want firm tofu missing (out)", s)
		}
	}

	if _, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "egg", State: in})); err != nil {
		t.Fatalf("SetItemState(egg, in): %v", err)
	}
	if got := status()["Frittata"]; got.GetStatus() != pantryv1.MatchStatus_MATCH_STATUS_READY {
		t.Errorf("Frittata with eggs in = %v, want ready", got)
	}

	_, err := c.WhatCanICook(ctx(t), connect.NewRequest(&pantryv1.WhatCanICookRequest{Servings: proto.Int32(0)}))
	wantCode(t, err, connect.CodeInvalidArgument)
}

func TestGetMetaRecipes(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	res, err := c.GetMetaRecipes(ctx(t), connect.NewRequest(&pantryv1.GetMetaRecipesRequest{}))
	if err != nil {
		t.Fatalf("GetMetaRecipes: %v", err)
	}
	var names []string
	var stirFry *pantryv1.MetaRecipe
	for _, mr := range res.Msg.GetItems() {
		names = append(names, mr.GetName())
		if mr.GetName() == "Weeknight stir-fry" {
			stirFry = mr
		}
	}
	if want := []string{"Chickpea curry", "Egg fried rice", "Frittata", "Weeknight stir-fry"}; !slices.Equal(names, want) {
		t.Fatalf("names = %v, want %v", names, want)
	}
	protein := stirFry.GetSlots()[0]
	if protein.GetName() != "protein" || len(protein.GetOptions()) != 4 || protein.GetOptions()[0].GetIngredient() != "pork mince" ||
		protein.GetOptions()[0].GetQuantity() != 300 || protein.GetOptions()[0].GetUnit() != "g" {
		t.Errorf("stir-fry protein slot = %v", protein)
	}
	if len(stirFry.GetBaseIngredients()) != 5 || stirFry.GetMethod() == "" {
		t.Errorf("stir-fry = %v, want 5 base ingredients and a method", stirFry)
	}
}

// LogCook with a rating stores it and leaves every pantry state as it was.
func TestLogCookStoresRatingAndLeavesThePantryAlone(t *testing.T) {
	t.Parallel()
	c, fa := setup(t)
	before := allPantry(t, c)
	res, err := c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked: &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "weeknight stir-fry"},
		SlotChoices: []*pantryv1.SlotChoice{
			{Slot: "protein", Ingredient: "minced pork"},
			{Slot: "carb", Ingredient: "noodles"},
		},
		Servings: proto.Int32(2),
		Rating:   proto.Int32(4),
		Notes:    "more ginger next time",
		Date:     "2026-06-20",
	}))
	if err != nil {
		t.Fatalf("LogCook: %v", err)
	}
	m := res.Msg
	if m.GetCookLogId() == 0 || m.GetCooked() != "Weeknight stir-fry" || m.GetDate() != "2026-06-20" {
		t.Errorf("LogCook = %v", m)
	}
	for _, want := range []string{"soy sauce", "sesame oil", "pork mince", "egg noodles"} {
		if !slices.Contains(m.GetUsedIngredients(), want) {
			t.Errorf("used_ingredients %v lacks %s", m.GetUsedIngredients(), want)
		}
	}
	if !proto.Equal(before, allPantry(t, c)) {
		t.Error("the pantry changed after LogCook")
	}
	stored, err := fa.Shell(ctx(t), "from kitchen.models import CookLog; l = CookLog.objects.get(pk="+
		strconv.FormatInt(m.GetCookLogId(), 10)+"); print(l.rating, l.servings, l.meta_recipe.name, sorted(l.slot_choices.items()))")
	if err != nil {
		t.Fatalf("reading the cook log: %v", err)
	}
	if want := "4 2 Weeknight stir-fry [('carb', 'egg noodles'), ('protein', 'pork mince')]"; stored != want {
		t.Errorf("stored cook log = %q, want %q", stored, want)
	}

	// A fixed recipe by name; the date defaults to today.
	fixed, err := c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked: &pantryv1.LogCookRequest_Recipe{Recipe: "Cheddar omelette"},
	}))
	if err != nil || fixed.Msg.GetCooked() != "Cheddar omelette" || fixed.Msg.GetDate() == "" ||
		!slices.Contains(fixed.Msg.GetUsedIngredients(), "eggs") {
		t.Errorf("LogCook(recipe) = %v, %v", fixed, err)
	}

	_, err = c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked: &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "weeknight stirfry"},
	}))
	ce := wantCode(t, err, connect.CodeNotFound)
	if !strings.Contains(ce.Message(), "Weeknight stir-fry") {
		t.Errorf("unknown meta-recipe: message %q has no close match", ce.Message())
	}
	if nm := nameMatches(t, ce); nm == nil || nm.GetName() != "weeknight stirfry" {
		t.Errorf("unknown meta-recipe: NameMatches = %v", nm)
	}

	if m.GetOffTemplate() != nil || m.GetCreatedIngredients() != nil {
		t.Errorf("template options answered as off-template: %v", m)
	}
	if got := m.GetResolved(); got["minced pork"] != "pork mince" || got["noodles"] != "egg noodles" || len(got) != 2 {
		t.Errorf("resolved = %v, want the two aliases", got)
	}

	_, err = c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked: &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "Frittata"}, Rating: proto.Int32(6),
	}))
	wantCode(t, err, connect.CodeInvalidArgument)
	_, err = c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked:      &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "Frittata"},
		SlotChoices: []*pantryv1.SlotChoice{{Slot: "sauce", Ingredient: "soy sauce"}},
	}))
	ce = wantCode(t, err, connect.CodeInvalidArgument)
	if !strings.Contains(ce.Message(), "'sauce' is not a slot") {
		t.Errorf("unknown slot: message %q", ce.Message())
	}
}

// A slot choice the template does not list is what was cooked: it is
// logged (a new ingredient is created), the answer says it was
// off-template, and the template is left as it was. A new name close to a
// known one is created too, with that name beside it, and an unknown
// meta-recipe is still refused.
func TestLogCookOffTemplateIsLoggedAsCooked(t *testing.T) {
	t.Parallel()
	c, fa := setup(t)
	res, err := c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked: &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "Weeknight stir-fry"},
		SlotChoices: []*pantryv1.SlotChoice{
			{Slot: "veg", Ingredient: "broccoli"},
			{Slot: "protein", Ingredient: "onion"},
			{Slot: "carb", Ingredient: "jasmine rice"},
		},
	}))
	if err != nil {
		t.Fatalf("LogCook: %v", err)
	}
	m := res.Msg
	wantOff := map[string]string{"veg": "broccoli", "protein": "onions"}
	if len(m.GetOffTemplate()) != 2 || m.GetOffTemplate()["veg"] != "broccoli" || m.GetOffTemplate()["protein"] != "onions" {
		t.Errorf("off_template = %v, want %v", m.GetOffTemplate(), wantOff)
	}
	if !slices.Equal(m.GetCreatedIngredients(), []string{"broccoli"}) || m.GetResolved()["onion"] != "onions" {
		t.Errorf("created %v, resolved %v; want broccoli created, onion read as onions", m.GetCreatedIngredients(), m.GetResolved())
	}
	if !slices.Contains(m.GetUsedIngredients(), "broccoli") {
		t.Errorf("used_ingredients %v lacks broccoli", m.GetUsedIngredients())
	}
	stored, err := fa.Shell(ctx(t), "from kitchen.models import CookLog, SlotOption; l = CookLog.objects.get(pk="+
		strconv.FormatInt(m.GetCookLogId(), 10)+"); print(sorted(l.slot_choices.items()), SlotOption.objects.filter(ingredient__name='broccoli').count())")
	if err != nil {
		t.Fatalf("reading the cook log: %v", err)
	}
	if want := "[('carb', 'jasmine rice'), ('protein', 'onions'), ('veg', 'broccoli')] 0"; stored != want {
		t.Errorf("stored cook log = %q, want %q (and the template unchanged)", stored, want)
	}

	typo, err := c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked:      &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "Weeknight stir-fry"},
		SlotChoices: []*pantryv1.SlotChoice{{Slot: "protein", Ingredient: "pork minse"}},
	}))
	if err != nil {
		t.Fatalf("LogCook(pork minse): %v", err)
	}
	if cm := typo.Msg.GetCreatedCloseMatches(); len(cm) != 1 || cm[0].GetName() != "pork minse" || !slices.Contains(cm[0].GetCloseMatches(), "pork mince") {
		t.Errorf("created close matches = %v, want pork minse beside pork mince", cm)
	}

	// A general word that covers one of the slot's options is that option
	// ("mince" is the stir-fry's "pork mince"), said in resolved, not a
	// new ingredient.
	mince, err := c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked:      &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "Weeknight stir-fry"},
		SlotChoices: []*pantryv1.SlotChoice{{Slot: "protein", Ingredient: "mince"}},
	}))
	if err != nil || mince.Msg.GetResolved()["mince"] != "pork mince" || mince.Msg.GetOffTemplate() != nil || mince.Msg.GetCreatedIngredients() != nil {
		t.Errorf("LogCook(protein: mince) = %v, %v; want pork mince, resolved, on-template", mince, err)
	}

	// The meta-recipe's name is read with the resolver too.
	spaced, err := c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked: &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "Weeknight Stir Fry"},
	}))
	if err != nil || spaced.Msg.GetCooked() != "Weeknight stir-fry" || spaced.Msg.GetResolved()["Weeknight Stir Fry"] != "Weeknight stir-fry" {
		t.Errorf("LogCook(Weeknight Stir Fry) = %v, %v; want the stir-fry, resolved", spaced, err)
	}

	_, err = c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{
		Cooked:      &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: "weeknight stirfry"},
		SlotChoices: []*pantryv1.SlotChoice{{Slot: "veg", Ingredient: "kohlrabi"}},
	}))
	ce := wantCode(t, err, connect.CodeNotFound)
	if !strings.Contains(ce.Message(), "Weeknight stir-fry") {
		t.Errorf("unknown meta-recipe: message %q has no close match", ce.Message())
	}
	if n, err := fa.Shell(ctx(t), "from kitchen.models import Ingredient; print(Ingredient.objects.filter(name='kohlrabi').count())"); err != nil || n != "0" {
		t.Errorf("a refused log created its choice: %q, %v", n, err)
	}
}

// CreateMetaRecipe keeps a general word the user said ("oil", beside olive,
// sesame and vegetable oil) as a new ingredient, binds an alias ("chicken"
// is one of chicken thighs in the demo) and says so in resolved, and binds
// one thing stored twice as one, saying so.
func TestCreateMetaRecipeNeverNarrowsSilently(t *testing.T) {
	t.Parallel()
	c, fa := setup(t)
	res, err := c.CreateMetaRecipe(ctx(t), connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{
		Name: "Traybake",
		Slots: []*pantryv1.SlotInput{{Name: "protein", Options: []*pantryv1.IngredientAmount{
			{Ingredient: "chicken", Quantity: proto.Float64(500), Unit: "g"}, {Ingredient: "Firm tofu"},
		}}},
		BaseIngredients: []*pantryv1.IngredientAmount{{Ingredient: "oil"}, {Ingredient: "carrot"}},
	}))
	if err != nil {
		t.Fatalf("CreateMetaRecipe: %v", err)
	}
	if got := res.Msg.GetCreatedIngredients(); !slices.Equal(got, []string{"oil"}) {
		t.Errorf("created = %v, want oil kept as the user's word", got)
	}
	want := map[string]string{"chicken": "chicken thighs", "carrot": "carrots"}
	if got := res.Msg.GetResolved(); len(got) != len(want) || got["chicken"] != want["chicken"] || got["carrot"] != want["carrot"] {
		t.Errorf("resolved = %v, want %v (Firm tofu is exact)", got, want)
	}
	if base := res.Msg.GetMetaRecipe().GetBaseIngredients(); len(base) != 2 || base[0].GetIngredient() != "oil" {
		t.Errorf("base = %v, want oil first", base)
	}

	// "tomato" and "tomatoes" are one thing the pantry grew twice: "fresh
	// tomatoes" (fresh a cook's word) binds the shorter, says so in
	// resolved, and creates nothing; the demo's tinned "chopped tomatoes"
	// is another product and is not it.
	if _, err := fa.Shell(ctx(t), "from kitchen.models import Ingredient; Ingredient.objects.create(name='tomato'); Ingredient.objects.create(name='tomatoes'); print('ok')"); err != nil {
		t.Fatalf("adding two tomatoes: %v", err)
	}
	hot, err := c.CreateMetaRecipe(ctx(t), connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{
		Name: "Hot pot", BaseIngredients: []*pantryv1.IngredientAmount{{Ingredient: "stock"}, {Ingredient: "fresh tomatoes"}},
	}))
	if err != nil {
		t.Fatalf("CreateMetaRecipe Hot pot: %v", err)
	}
	if got := hot.Msg.GetResolved()["fresh tomatoes"]; got != "tomato" {
		t.Errorf("resolved = %v, want fresh tomatoes read as tomato", hot.Msg.GetResolved())
	}
	if n, err := fa.Shell(ctx(t), "from kitchen.models import Ingredient, MetaRecipe; r = MetaRecipe.objects.get(name='Hot pot'); print(sorted(i.ingredient.name for i in r.base_ingredients.all()), Ingredient.objects.filter(name__icontains='fresh').count())"); err != nil || n != "['stock', 'tomato'] 0" {
		t.Errorf("Hot pot's base ingredients and fresh ingredients %q, %v; want ['stock', 'tomato'] 0", n, err)
	}
}

// CreateMetaRecipe creates, then an update by id rebuilds the same recipe.
func TestCreateMetaRecipeThenUpdateKeepsTheID(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	created, err := c.CreateMetaRecipe(ctx(t), connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{
		Name:   "Pasta e ceci",
		Method: "Soften garlic in oil, add chickpeas and tomatoes, then the pasta.",
		Slots: []*pantryv1.SlotInput{{Name: "pasta", Options: []*pantryv1.IngredientAmount{
			{Ingredient: "ditalini", Quantity: proto.Float64(200), Unit: "g"},
			{Ingredient: "spaghetti", Quantity: proto.Float64(200), Unit: "g"},
		}}},
		BaseIngredients: []*pantryv1.IngredientAmount{
			{Ingredient: "chickpeas", Quantity: proto.Float64(1), Unit: "tin"},
			{Ingredient: "garlic"},
		},
	}))
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	id := created.Msg.GetMetaRecipe().GetId()
	if id == 0 || created.Msg.GetUpdated() || !slices.Equal(created.Msg.GetCreatedIngredients(), []string{"ditalini"}) {
		t.Errorf("create = %v; want a new id and ditalini created", created.Msg)
	}

	updated, err := c.CreateMetaRecipe(ctx(t), connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{
		Id:     proto.Int64(id),
		Name:   "Pasta e ceci",
		Method: "As before, with rosemary.",
		Slots: []*pantryv1.SlotInput{
			{Name: "pasta", Options: []*pantryv1.IngredientAmount{{Ingredient: "pasta", Quantity: proto.Float64(180), Unit: "g"}}},
			{Name: "greens", Options: []*pantryv1.IngredientAmount{{Ingredient: "bok choy"}}},
		},
		BaseIngredients: []*pantryv1.IngredientAmount{{Ingredient: "chickpeas"}, {Ingredient: "rosemary"}},
	}))
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	mr := updated.Msg.GetMetaRecipe()
	if mr.GetId() != id || !updated.Msg.GetUpdated() || mr.GetMethod() != "As before, with rosemary." ||
		!slices.Equal(updated.Msg.GetCreatedIngredients(), []string{"rosemary"}) {
		t.Errorf("update = %v; want id %d kept and rosemary created", updated.Msg, id)
	}
	if len(mr.GetSlots()) != 2 || len(mr.GetSlots()[0].GetOptions()) != 1 || mr.GetSlots()[0].GetOptions()[0].GetIngredient() != "spaghetti" {
		t.Errorf("slots after update = %v; want pasta (spaghetti by alias) and greens", mr.GetSlots())
	}

	list, err := c.GetMetaRecipes(ctx(t), connect.NewRequest(&pantryv1.GetMetaRecipesRequest{}))
	if err != nil {
		t.Fatalf("GetMetaRecipes: %v", err)
	}
	var n int
	for _, m := range list.Msg.GetItems() {
		if m.GetName() == "Pasta e ceci" {
			n++
			if !proto.Equal(m, mr) {
				t.Errorf("listed %v, saved %v", m, mr)
			}
		}
	}
	if n != 1 || len(list.Msg.GetItems()) != 5 {
		t.Errorf("%d copies among %d meta-recipes, want 1 among 5", n, len(list.Msg.GetItems()))
	}

	_, err = c.CreateMetaRecipe(ctx(t), connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{Id: proto.Int64(9999), Name: "Ghost"}))
	wantCode(t, err, connect.CodeNotFound)
	_, err = c.CreateMetaRecipe(ctx(t), connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{Name: "frittata"}))
	ce := wantCode(t, err, connect.CodeInvalidArgument)
	if !strings.Contains(ce.Message(), "already exists") {
		t.Errorf("duplicate name: message %q", ce.Message())
	}
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	t.Parallel()
	fa := harness.StartFoodAPI(t, foodapidocker.Launch, foodapiproc.Options{})
	c := serve(t, pantry.Config{FoodAPIBase: fa.BaseURL, FoodAPIToken: fa.Token, ReadOnly: true})
	if _, err := c.GetPantry(ctx(t), connect.NewRequest(&pantryv1.GetPantryRequest{})); err != nil {
		t.Errorf("GetPantry in read-only mode: %v", err)
	}
	_, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "noodles", State: out}))
	wantCode(t, err, connect.CodePermissionDenied)
	if got := find(allPantry(t, c), "egg noodles", cupboard); got.GetState() != low {
		t.Errorf("egg noodles is %v after a refused write, want low", got.GetState())
	}
}

// With the food API down, reads and writes fail with one sentence naming
// where sous looked.
func TestFoodAPIDownIsOneSentence(t *testing.T) {
	t.Parallel()
	c, fa := setup(t)
	fa.Stop()
	calls := map[string]func() error{
		"GetPantry": func() error {
			_, err := c.GetPantry(ctx(t), connect.NewRequest(&pantryv1.GetPantryRequest{}))
			return err
		},
		"SetItemState": func() error {
			_, err := c.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "noodles", State: out}))
			return err
		},
		"LogCook": func() error {
			_, err := c.LogCook(ctx(t), connect.NewRequest(&pantryv1.LogCookRequest{Cooked: &pantryv1.LogCookRequest_Recipe{Recipe: "1"}}))
			return err
		},
	}
	for name, call := range calls {
		ce := wantCode(t, call(), connect.CodeUnavailable)
		msg := ce.Message()
		if !strings.HasPrefix(msg, "food API unreachable at "+fa.BaseURL) || strings.ContainsAny(msg, "\n{") {
			t.Errorf("%s: message %q, want one sentence naming %s", name, msg, fa.BaseURL)
		}
	}
}
