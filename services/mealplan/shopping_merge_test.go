package mealplan

import (
	"encoding/json"
	"testing"

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
