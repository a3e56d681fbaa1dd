package mealplan_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/souskitchen/sous/internal/mealieemu"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/services/mealplan"
)

// milkRows are a raw list's rows of the food milk.
func milkRows(t *testing.T, s *stack, listID string) []map[string]any {
	t.Helper()
	return rowsBy(rawList(t, s, listID))["milk"]
}

// Two cooks adding the same food at once, fifteen times each, while a
// third checks something off: sous's adds to one list go one at a time,
// so the row ends with the exact sum, every distinct line is there once,
// and the check-off stays.
func TestConcurrentAddsSumExactly(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		listID := weeklyList(t, s).GetId()
		const rounds = 15
		var wg sync.WaitGroup
		for _, cook := range []string{"a", "b"} {
			wg.Go(func() {
				for i := range rounds {
					_, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
						ListId: listID, Items: []string{"1 cup milk", fmt.Sprintf("note %s%02d", cook, i)}, SkipInStock: proto.Bool(false)}))
					if err != nil {
						t.Errorf("cook %s add %d: %v", cook, i, err)
						return
					}
				}
			})
		}
		wg.Go(func() {
			if _, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: listID, Check: []string{"onions"}})); err != nil {
				t.Errorf("check onions: %v", err)
			}
		})
		wg.Wait()
		l := rawList(t, s, listID)
		by := rowsBy(l)
		if r := by["milk"]; len(r) != 1 || r[0]["quantity"] != float64(2*rounds) || r[0]["checked"] != false {
			t.Fatalf("milk rows %v, want one of %d", r, 2*rounds)
		}
		for _, cook := range []string{"a", "b"} {
			for i := range rounds {
				if n := len(by[fmt.Sprintf("note %s%02d", cook, i)]); n != 1 {
					t.Errorf("note %s%02d: %d rows", cook, i, n)
				}
			}
		}
		if r := by["onion"]; len(r) != 1 || r[0]["checked"] != true {
			t.Errorf("onions %v, want checked", r)
		}
	})
}

// A third writer on Mealie's own API whose save straddles sous's merge:
// it read the row before sous wrote and saves it after (Mealie's app
// saving what it showed). sous's read-back finds its marker gone and adds
// its amount once more: to the row as it now stands, or, when the other
// writer checked the row off, as a new row, what was bought staying
// bought. A writer that read after sous's write carries the marker and is
// left alone.
func TestThirdWriterBetweenReadAndWrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		// save changes the row the third writer read (before sous's
		// write), or reads it afresh (after) when fresh.
		save  func(row map[string]any)
		fresh bool
		// want is the milk rows after, as "quantity/checked", sorted.
		want      []string
		reapplied bool
	}{
		{"a stale save of an added amount", func(r map[string]any) { r["quantity"] = r["quantity"].(float64) + 2 }, false, []string{"4/false"}, true},
		{"a stale check-off", func(r map[string]any) { r["checked"] = true }, false, []string{"1/false", "1/true"}, true},
		{"a save that read sous's write", func(r map[string]any) { r["quantity"] = r["quantity"].(float64) + 2 }, true, []string{"4/false"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			each(t, func(t *testing.T, v string) {
				s := setup(t, v)
				listID := weeklyList(t, s).GetId()
				add := func() *mealplanv1.AddToShoppingListResponse {
					res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
						ListId: listID, Items: []string{"1 cup milk"}, SkipInStock: proto.Bool(false)}))
					if err != nil {
						t.Fatal(err)
					}
					return res.Msg
				}
				add()
				rows := milkRows(t, s, listID)
				if len(rows) != 1 {
					t.Fatalf("milk %v", rows)
				}
				stale := rows[0]
				path := "/api/households/shopping/items/" + stale["id"].(string)
				ran := false
				s.mealie.Interleave(http.MethodPut, path, mealieemu.AfterHandled, func() {
					ran = true
					row := stale
					if tc.fresh {
						row = mealieCall(t, s, http.MethodGet, path, nil)
					}
					tc.save(row)
					mealieCall(t, s, http.MethodPut, path, row)
				})
				m := add()
				if !ran {
					t.Fatal("the third writer never ran: sous did not write the row")
				}
				var got []string
				for _, r := range milkRows(t, s, listID) {
					got = append(got, fmt.Sprintf("%v/%v", r["quantity"], r["checked"]))
				}
				slices.Sort(got)
				if !slices.Equal(got, tc.want) {
					t.Fatalf("milk rows %q, want %q", got, tc.want)
				}
				if tc.reapplied != (len(m.GetReapplied()) == 1) {
					t.Fatalf("reapplied %v, want one: %v", m.GetReapplied(), tc.reapplied)
				}
				if tc.reapplied && !strings.Contains(m.GetReapplied()[0].GetMessage(), "1 cup milk") {
					t.Fatalf("reapplied says %q", m.GetReapplied()[0].GetMessage())
				}
			})
		})
	}
}

// One row a food: a recipe whose food is already to buy, in the same
// unit, is summed into that row, though the library holds the food twice
// (a price left in one name by an import); both recipes are named on the
// row, and taking one recipe off leaves the other's part.
func TestOneRowAFood(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		twin := mealieCall(t, s, http.MethodPost, "/api/foods", map[string]any{"name": "Coconut Milk ($1.99)"})
		cans := mealieCall(t, s, http.MethodGet, "/api/units?search=can", nil)
		var canID string
		for _, u := range cans["items"].([]any) {
			if u.(map[string]any)["name"] == "can" {
				canID = u.(map[string]any)["id"].(string)
			}
		}
		mealieCall(t, s, http.MethodPost, "/api/recipes", map[string]any{"name": "Thai Curry"})
		mealieCall(t, s, http.MethodPatch, "/api/recipes/thai-curry", map[string]any{"recipeIngredient": []any{
			map[string]any{"quantity": 2, "note": "full fat", "unit": map[string]any{"id": canID, "name": "can"},
				"food": map[string]any{"id": twin["id"], "name": twin["name"]}, "referenceId": "2b1c6a0e-7f3d-4e55-9c1a-5d8e0f2a4b61"},
			map[string]any{"quantity": 1, "note": "lemongrass stalk", "referenceId": "8c4e2d1f-0a6b-4c3e-b5d7-9e1f2a3b4c5d"},
		}})
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListName: "Curries", RecipeSlugs: []string{"lentil-dal", "thai-curry"}, SkipInStock: proto.Bool(false)}))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Msg
		id := m.GetListId()
		by := rowsBy(rawList(t, s, id))
		rows := append(by["coconut milk"], by["Coconut Milk ($1.99)"]...)
		if len(rows) != 1 || rows[0]["quantity"] != 3.0 || len(rows[0]["recipeReferences"].([]any)) != 2 {
			t.Fatalf("coconut milk rows %v", rows)
		}
		var merged []string
		for _, mg := range m.GetMerged() {
			merged = append(merged, mg.GetName()+" → "+mg.GetItem().GetDisplay()+" for "+strings.Join(mg.GetItem().GetRecipeSlugs(), "+"))
		}
		if !slices.Equal(merged, []string{"2 can Coconut Milk ($1.99) → 3 cans coconut milk, full fat for lentil-dal+thai-curry"}) {
			t.Fatalf("merged %q", merged)
		}
		if !slices.Equal(m.GetRecipesAdded(), []string{"lentil-dal", "thai-curry"}) {
			t.Fatalf("recipes added %q", m.GetRecipesAdded())
		}
		l, err := s.client.GetShoppingList(ctx(t), connect.NewRequest(&mealplanv1.GetShoppingListRequest{ListId: id}))
		if err != nil {
			t.Fatal(err)
		}
		if rs := l.Msg.GetList().GetRecipes(); len(rs) != 2 {
			t.Fatalf("recipes on the list %v", rs)
		}
		if _, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: id, RemoveRecipes: []string{"thai-curry"}})); err != nil {
			t.Fatal(err)
		}
		by = rowsBy(rawList(t, s, id))
		if r := by["coconut milk"]; len(r) != 1 || r[0]["quantity"] != 1.0 {
			t.Fatalf("after taking the thai curry off: %v", r)
		}
		if len(by["lemongrass stalk"]) != 0 {
			t.Fatalf("the thai curry's lemongrass stayed")
		}
	})
}

// A low pantry item is bought and named; a name the user says they have
// is skipped whatever the pantry says, and the pantry is not written: the
// answer offers the change.
func TestLowAndHave(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		item := func(n string, st pantryv1.ItemState) *pantryv1.PantryItem {
			return &pantryv1.PantryItem{Name: n, State: st, Location: pantryv1.Location_LOCATION_CUPBOARD}
		}
		p := &namedPantry{items: []*pantryv1.PantryItem{
			item("red lentils", pantryv1.ItemState_ITEM_STATE_LOW), item("coconut milk", pantryv1.ItemState_ITEM_STATE_IN),
			item("ginger", pantryv1.ItemState_ITEM_STATE_OUT), item("onions", pantryv1.ItemState_ITEM_STATE_LOW)}}
		path, h := pantryv1connect.NewPantryServiceHandler(p)
		pc := pantryv1connect.NewPantryServiceClient(serveHandler(t, path, h))
		s := setup(t, v, func(c *mealplan.Config) { c.Pantry = pc })
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListName: "Dal", RecipeSlugs: []string{"lentil-dal"}, Have: []string{"Ginger", "onion", "cardamom"}}))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Msg
		var low, skipped, offers []string
		for _, l := range m.GetLowInPantry() {
			low = append(low, l.GetName()+"="+l.GetPantryItem())
		}
		for _, sk := range m.GetSkippedInStock() {
			skipped = append(skipped, fmt.Sprintf("%s=%s/%v", sk.GetName(), sk.GetPantryItem(), sk.GetHave()))
		}
		for _, o := range m.GetPantryOffers() {
			offers = append(offers, o.GetName()+"="+o.GetPantryItem()+"/"+o.GetState())
		}
		if !slices.Equal(low, []string{"250 gram red lentils, rinsed=red lentils"}) {
			t.Errorf("low %q", low)
		}
		if !slices.Equal(skipped, []string{"1 onion, chopped=onion/true", "1 tablespoon ginger, grated=Ginger/true", "1 can coconut milk=coconut milk/false"}) {
			t.Errorf("skipped %q", skipped)
		}
		if !slices.Equal(offers, []string{"Ginger=ginger/out", "onion=onions/low", "cardamom=/"}) {
			t.Errorf("offers %q", offers)
		}
		by := rowsBy(rawList(t, s, m.GetListId()))
		if len(by["red lentils"]) != 1 || len(by["onion"])+len(by["ginger"])+len(by["coconut milk"]) != 0 {
			t.Fatalf("rows %q", rows(rawList(t, s, m.GetListId())))
		}
	})
}

// check_all_except checks every item still to buy but the named ones, by
// name as everywhere else; a name that matches nothing refuses the call
// and nothing is written; no names checks everything.
func TestCheckAllExcept(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		if _, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			Items: []string{"1 cup milk", "feta", "200 g spinach", "bin bags"}, SkipInStock: proto.Bool(false)})); err != nil {
			t.Fatal(err)
		}
		listID := weeklyList(t, s).GetId()
		s.mealie.ResetRequests()
		_, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: listID, CheckAllExcept: &mealplanv1.ItemRefs{Items: []string{"feta", "halloumi"}}}))
		wantCode(t, err, connect.CodeInvalidArgument, `check_all_except: "halloumi"`, "nothing was checked")
		if n := writes(s.mealie); n != 0 {
			t.Fatalf("%d writes after a refused check_all_except", n)
		}
		up, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: listID, CheckAllExcept: &mealplanv1.ItemRefs{Items: []string{"feta", "spinach"}}}))
		if err != nil {
			t.Fatal(err)
		}
		var left []string
		for _, r := range rawList(t, s, listID)["listItems"].([]any) {
			row := r.(map[string]any)
			if row["checked"] != true {
				left = append(left, fmt.Sprint(row["display"]))
			}
		}
		slices.Sort(left)
		if len(left) != 2 || !strings.Contains(left[0]+left[1], "feta") || !strings.Contains(left[0]+left[1], "spinach") {
			t.Fatalf("left unchecked %q", left)
		}
		if len(up.Msg.GetChecked()) < 5 || len(up.Msg.GetErrors()) != 0 {
			t.Fatalf("checked %d errors %v", len(up.Msg.GetChecked()), up.Msg.GetErrors())
		}
		if _, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: listID, CheckAllExcept: &mealplanv1.ItemRefs{}})); err != nil {
			t.Fatal(err)
		}
		for _, r := range rawList(t, s, listID)["listItems"].([]any) {
			if row := r.(map[string]any); row["checked"] != true {
				t.Errorf("%v left unchecked by an empty check_all_except", row["display"])
			}
		}
		_, err = s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: listID, Check: []string{"milk"}, CheckAllExcept: &mealplanv1.ItemRefs{}}))
		wantCode(t, err, connect.CodeInvalidArgument, "leave check and uncheck empty")
	})
}

// TestFreeTextAndRecipeOneRow: a free-text item and a recipe's line of
// the same food and unit, added in one call, are one row: the recipe's
// line merges into the row the free text just made.
func TestFreeTextAndRecipeOneRow(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListName: "Dal night", Items: []string{"1 can coconut milk"}, RecipeSlugs: []string{"lentil-dal"}, SkipInStock: proto.Bool(false)}))
		if err != nil {
			t.Fatal(err)
		}
		by := rowsBy(rawList(t, s, res.Msg.GetListId()))
		if rows := by["coconut milk"]; len(rows) != 1 || rows[0]["quantity"] != 2.0 {
			t.Fatalf("coconut milk rows %v (answer %v)", rows, res.Msg)
		}
		// sous summed the recipe's can into the row (under the list's
		// key), and the answer says the row as Mealie now holds it
		var merged []string
		for _, mg := range res.Msg.GetMerged() {
			merged = append(merged, mg.GetItem().GetDisplay()+" for "+strings.Join(mg.GetItem().GetRecipeSlugs(), "+"))
		}
		if !slices.Equal(merged, []string{"2 cans coconut milk for lentil-dal"}) {
			t.Fatalf("merged %q, want the recipe's can summed into the free-text row", merged)
		}
	})
}
