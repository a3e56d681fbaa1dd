package mealplan

import (
	"context"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

func TestUpdateShoppingItems(t *testing.T) {
	t.Run("per item, failures alone", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/shopping/lists/"+weeklyID, "shopping_lists__get_after_add_recipe").
			on("PUT", "/api/households/shopping/items/"+milkRow, "shopping_items__put_check").
			on("DELETE", "/api/households/shopping/items/"+butterRw, "shopping_items__delete")
		res, err := h.svc.UpdateShoppingItems(context.Background(), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: weeklyID, Check: []string{milkRow, "not-an-item"}, Uncheck: []string{breadRow}, Remove: []string{butterRw}}))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Msg
		if !slices.Equal(m.GetChecked(), []string{milkRow}) || !slices.Equal(m.GetUnchecked(), []string{breadRow}) ||
			!slices.Equal(m.GetRemoved(), []string{butterRw}) || len(m.GetErrors()) != 1 || m.GetErrors()[0].GetItem() != "not-an-item" {
			t.Fatalf("%v", m)
		}
		puts := bodies(h.mealie, "PUT", "/api/households/shopping/items/"+milkRow)
		row := puts[0].(map[string]any)
		// The whole row goes back: Mealie 422s a partial PUT
		// (testdata/shopping_items__put_partial.json).
		if row["checked"] != true || row["shoppingListId"] != weeklyID || row["quantity"] != 7.5 {
			t.Fatalf("PUT %v", row)
		}
		// bread was already unchecked: no write for it.
		if h.mealie.writes() != 2 {
			t.Fatalf("%d writes", h.mealie.writes())
		}
	})
	t.Run("an id in two operations is refused before any request", func(t *testing.T) {
		h := newHarness(t)
		_, err := h.svc.UpdateShoppingItems(context.Background(), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: weeklyID, Check: []string{milkRow}, Remove: []string{milkRow}}))
		wantCode(t, err, connect.CodeInvalidArgument, "both check and remove")
		if len(h.mealie.requests()) != 0 {
			t.Fatal("called Mealie")
		}
	})
}

// TestFindItemsByName: a name given to check, uncheck or remove means every
// row whose food or text it covers, singular or plural, free-text rows
// included; a miss lists the closest rows, not the first ones.
func TestFindItemsByName(t *testing.T) {
	note := func(s string) *string { return &s }
	list := &mealie.ShoppingList{ID: weeklyID, ListItems: []mealie.ShoppingItem{
		{ID: "a", Quantity: 3, Food: &mealie.ShoppingFood{Name: "eggs"}, Display: "3 eggs"},
		{ID: "b", Quantity: 8, Food: &mealie.ShoppingFood{Name: "SimplyNature Organic Cage Free Eggs"}, Display: "8 SimplyNature Organic Cage Free Eggs"},
		{ID: "c", Note: note("Juice of half a lime"), Display: "Juice of half a lime"},
		{ID: "d", Quantity: 1, Food: &mealie.ShoppingFood{Name: "eggplant"}, Display: "1 eggplant"},
		{ID: "e", Quantity: 2, Food: &mealie.ShoppingFood{Name: "onion"}, Display: "2 onion", Checked: true},
		{ID: "f", Note: note("paper towels"), Display: "paper towels"},
		{ID: "g", Note: note("dish soap"), Display: "dish soap"},
	}}
	cases := []struct {
		ref, op string
		want    []string
		err     string
	}{
		{"eggs", "check", []string{"a", "b"}, ""},
		{"Egg", "remove", []string{"a", "b"}, ""},
		{"limes", "check", []string{"c"}, ""},
		{"lime", "check", []string{"c"}, ""},
		// Uncheck reads the checked rows; check of a checked row is done.
		{"onions", "uncheck", []string{"e"}, ""},
		{"onions", "check", []string{"e"}, ""},
		{"a", "check", []string{"a"}, ""},
		// Nothing covered: the closest rows, the eggplant first.
		{"eggplants please", "check", nil, "closest of its 7 rows: 1 eggplant"},
		{"dish soup", "check", nil, "closest of its 7 rows: dish soap"},
	}
	for _, tc := range cases {
		got, err := findItems(list, tc.ref, tc.op)
		var ids []string
		for _, it := range got {
			ids = append(ids, it.ID)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("findItems(%q, %s) = %v, %v; want error with %q", tc.ref, tc.op, ids, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(ids, tc.want) {
			t.Errorf("findItems(%q, %s) = %v, %v; want %v", tc.ref, tc.op, ids, err, tc.want)
		}
	}
	if _, err := findItems(&mealie.ShoppingList{}, "eggs", "check"); err == nil || !strings.Contains(err.Error(), "the list is empty") {
		t.Errorf("empty list: %v", err)
	}
}
