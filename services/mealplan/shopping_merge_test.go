package mealplan

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// TestRowOf: an addition merges into the row still to buy of the same
// food in a unit that agrees, one row a food: the same Mealie food, or two
// foods whose names read the same (a price left by an import, case,
// plural); never a checked row, a row of another unit, or a kind of the
// food ("coconut milk" is not "coconut").
func TestRowOf(t *testing.T) {
	var list mealie.ShoppingList
	if err := json.Unmarshal([]byte(`{"id":"l1","listItems":[
		{"id":"bought","checked":true,"foodId":"f1","food":{"id":"f1","name":"coconut milk"},"unitId":"can","unit":{"id":"can","name":"can"}},
		{"id":"cans","foodId":"f1","food":{"id":"f1","name":"coconut milk"},"unitId":"can","unit":{"id":"can","name":"can"}},
		{"id":"ml","foodId":"f1","food":{"id":"f1","name":"coconut milk"},"unitId":"ml","unit":{"id":"ml","name":"milliliter"}},
		{"id":"basil","foodId":"f2","food":{"id":"f2","name":"Basil"}},
		{"id":"note","note":"coconut milk"}]}`), &list); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                 string
		foodID, food, unitID string
		unit, want           string
	}{
		{"the same food and unit", "f1", "coconut milk", "can", "can", "cans"},
		{"a twin food with a price, a twin unit", "f9", "Coconut Milk ($1.99)", "u9", "Cans", "cans"},
		{"another unit", "f1", "coconut milk", "g", "gram", ""},
		{"no unit against a unit", "f1", "coconut milk", "", "", ""},
		{"no unit against none, plural", "f8", "basils", "", "", "basil"},
		{"a kind is not the food", "f7", "coconut", "can", "can", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if row := rowOf(&list, tc.foodID, tc.food, tc.unitID, tc.unit); row != nil {
				got = row.ID
			}
			if got != tc.want {
				t.Fatalf("rowOf = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSieve: a name the caller has skips the ingredient whatever the
// pantry says; an item in stock skips it; one marked low lets it through
// and is named; one marked out lets it through unnamed. pantryOffers names
// the had names the pantry records low or out, or does not hold.
func TestSieve(t *testing.T) {
	pantry := []*pantryv1.PantryItem{
		{Name: "sugar", State: pantryv1.ItemState_ITEM_STATE_IN},
		{Name: "brown sugar", State: pantryv1.ItemState_ITEM_STATE_LOW},
		{Name: "eggs", State: pantryv1.ItemState_ITEM_STATE_OUT},
		{Name: "butter", State: pantryv1.ItemState_ITEM_STATE_IN},
	}
	st := stockOf([]*pantryv1.LocationGroup{{Location: pantryv1.Location_LOCATION_CUPBOARD, Items: pantry}})
	for _, tc := range []struct {
		name, food string
		have       []string
		keep       bool
		skipped    string
		low        string
	}{
		{"in stock", "butter", nil, false, "butter", ""},
		{"low is bought", "brown sugar", nil, true, "", "brown sugar"},
		{"out is bought, quietly", "eggs", nil, true, "", ""},
		{"the user has it though the pantry says out", "egg", []string{"Eggs"}, false, "Eggs", ""},
		{"the user has it though the pantry says low", "brown sugar", []string{"brown sugar"}, false, "brown sugar", ""},
		{"not in the pantry", "saffron", nil, true, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := &mealplanv1.AddToShoppingListResponse{}
			sv := &sieve{have: haveStock(tc.have), pantry: st, out: out}
			if got := sv.keep("1 "+tc.food, tc.food, ""); got != tc.keep {
				t.Fatalf("keep = %v, want %v", got, tc.keep)
			}
			skipped, low := "", ""
			if len(out.GetSkippedInStock()) > 0 {
				skipped = out.GetSkippedInStock()[0].GetPantryItem()
				if out.GetSkippedInStock()[0].GetHave() != (tc.have != nil) {
					t.Errorf("have = %v", out.GetSkippedInStock()[0].GetHave())
				}
			}
			if len(out.GetLowInPantry()) > 0 {
				low = out.GetLowInPantry()[0].GetPantryItem()
			}
			if skipped != tc.skipped || low != tc.low {
				t.Fatalf("skipped %q low %q, want %q and %q", skipped, low, tc.skipped, tc.low)
			}
		})
	}
	offers := st.pantryOffers([]string{"Eggs", "brown sugar", "butter", "saffron"})
	var got []string
	for _, o := range offers {
		got = append(got, o.GetName()+"="+o.GetPantryItem()+"/"+o.GetState())
	}
	want := []string{"Eggs=eggs/out", "brown sugar=brown sugar/low", "saffron=/"}
	if len(got) != len(want) {
		t.Fatalf("offers %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("offers %q, want %q", got, want)
		}
	}
}

// TestHaveAndExceptRefusedBeforeMealie: have and check_all_except are
// checked before any request: an empty name, one too long, too many, or
// check_all_except beside check, each refused in a sentence naming the
// argument.
func TestHaveAndExceptRefusedBeforeMealie(t *testing.T) {
	long := strings.Repeat("x", MaxItemChars+1)
	many := make([]string, MaxItemOps+1)
	for i := range many {
		many[i] = "eggs"
	}
	for _, tc := range []struct {
		name string
		call func(h *harness) error
		want string
	}{
		{"have empty", func(h *harness) error {
			_, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{ListId: weeklyID, Items: []string{"bread"}, Have: []string{"butter", " "}}))
			return err
		}, "have[1] is empty"},
		{"have too long", func(h *harness) error {
			_, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{ListId: weeklyID, Items: []string{"bread"}, Have: []string{long}}))
			return err
		}, "have[0] is longer than 500 characters"},
		{"have too many", func(h *harness) error {
			_, err := h.svc.AddToShoppingList(context.Background(), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{ListId: weeklyID, Items: []string{"bread"}, Have: append(many, "x")}))
			return err
		}, "have: at most 100 names per call, got 102"},
		{"except an empty name", func(h *harness) error {
			_, err := h.svc.UpdateShoppingItems(context.Background(), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: weeklyID, CheckAllExcept: &mealplanv1.ItemRefs{Items: []string{""}}}))
			return err
		}, "check_all_except: an item is empty"},
		{"except too many", func(h *harness) error {
			_, err := h.svc.UpdateShoppingItems(context.Background(), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: weeklyID, CheckAllExcept: &mealplanv1.ItemRefs{Items: many}}))
			return err
		}, "check_all_except: at most 100 items, got 101"},
		{"except beside uncheck", func(h *harness) error {
			_, err := h.svc.UpdateShoppingItems(context.Background(), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: weeklyID, Uncheck: []string{"milk"}, CheckAllExcept: &mealplanv1.ItemRefs{}}))
			return err
		}, "leave check and uncheck empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			wantCode(t, tc.call(h), connect.CodeInvalidArgument, tc.want)
			if n := len(h.mealie.requests()); n != 0 {
				t.Fatalf("%d Mealie requests before the refusal", n)
			}
		})
	}
}
