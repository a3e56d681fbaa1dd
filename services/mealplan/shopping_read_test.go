package mealplan

import (
	"context"
	"slices"
	"testing"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

func TestGetShoppingListOverviewCounts(t *testing.T) {
	h := newHarness(t)
	h.mealie.on("GET", "/api/households/shopping/lists", "shopping_lists__list_after").
		on("GET", "/api/households/shopping/items", "shopping_items__list")
	res, err := h.svc.GetShoppingList(context.Background(), connect.NewRequest(&mealplanv1.GetShoppingListRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	items := res.Msg.GetItems()
	if len(items) != 2 || res.Msg.GetList() != nil {
		t.Fatalf("%v", res.Msg)
	}
	var weekly *mealplanv1.ShoppingListSummary
	for _, it := range items {
		if it.GetId() == weeklyID {
			weekly = it
		}
	}
	// testdata/shopping_items__list.json: four rows, none checked yet.
	if weekly == nil || weekly.GetName() != "Weekly" || weekly.GetUncheckedCount() != 4 || weekly.GetCheckedCount() != 0 {
		t.Fatalf("weekly %v", weekly)
	}
}

func TestGetShoppingListOneList(t *testing.T) {
	h := newHarness(t)
	h.mealie.on("GET", "/api/households/shopping/lists/"+weeklyID, "shopping_lists__get_after_add_recipe")
	res, err := h.svc.GetShoppingList(context.Background(), connect.NewRequest(&mealplanv1.GetShoppingListRequest{ListId: weeklyID}))
	if err != nil {
		t.Fatal(err)
	}
	l := res.Msg.GetList()
	if l.GetName() != "Weekly" || len(l.GetGroups()) != 1 || l.GetGroups()[0].GetLabel() != "" {
		t.Fatalf("%v", l)
	}
	var milk *mealplanv1.ShoppingItem
	for _, it := range l.GetGroups()[0].GetItems() {
		if it.GetId() == milkRow {
			milk = it
		}
	}
	// Mealie's own display for this row is "7 ¹/₂": the food is dropped.
	// A cook writes the half as ½.
	if milk.GetDisplay() != "7½ cup whole milk" || milk.GetFood() != "whole milk" || milk.GetQuantity() != 7.5 ||
		!slices.Equal(milk.GetRecipeSlugs(), []string{"fixture-pancakes-deluxe"}) {
		t.Fatalf("milk %v", milk)
	}
}

func TestShapeListGroupsByLabel(t *testing.T) {
	note := func(s string) *string { return &s }
	l := &mealie.ShoppingList{ID: "l", ListItems: []mealie.ShoppingItem{
		{ID: "a", Note: note("bin bags")},
		{ID: "b", Quantity: 2, Food: &mealie.ShoppingFood{Name: "egg", PluralName: note("eggs")}, Label: &mealie.ShoppingLabel{Name: "Produce"}},
		// A food with no plural name stays as Mealie names it (a real
		// library's "sprigs cilantro" read "sprigs cilantros").
		{ID: "g", Quantity: 12, Food: &mealie.ShoppingFood{Name: "sprigs cilantro"}, Label: &mealie.ShoppingLabel{Name: "Produce"}},
		// Mealie's app groups by the row's own label, not its food's.
		{ID: "f", Quantity: 1, Food: &mealie.ShoppingFood{Name: "kale", Label: &mealie.ShoppingLabel{Name: "Produce"}}},
		{ID: "c", Quantity: 1, Food: &mealie.ShoppingFood{Name: "milk"}, Label: &mealie.ShoppingLabel{Name: "Dairy"}},
		{ID: "d", Note: note("done"), Checked: true},
		{ID: "e", Quantity: 3, Note: note("butter")},
	}}
	l.LabelSettings = []mealie.ShoppingLabelSetting{
		{Position: 1, Label: &mealie.ShoppingLabel{Name: "Dairy"}},
		{Position: 0, Label: &mealie.ShoppingLabel{Name: "Produce"}},
	}
	out := shapeList(l)
	var got []string
	for _, g := range out.GetGroups() {
		s := g.GetLabel() + ":"
		for _, it := range g.GetItems() {
			s += " " + it.GetDisplay()
		}
		got = append(got, s)
	}
	// Counted foods take Mealie's plural: 1 milk, 2 eggs. Sections
	// follow the list's label positions, unlabelled rows first, as in
	// Mealie's app.
	want := []string{": bin bags 1 kale 3 butter", "Produce: 2 eggs 12 sprigs cilantro", "Dairy: 1 milk"}
	if !slices.Equal(got, want) || out.GetCheckedCount() != 1 {
		t.Fatalf("got %q checked %d", got, out.GetCheckedCount())
	}
}

// TestShapeListOrdersTiesAsMade: rows of one position read in the order
// they were made, whichever order Mealie listed them in (PostgreSQL lists
// ties in no fixed order: TestShoppingListRenameKeepsItems in
// integration/contract, recordings/3.20-pg).
func TestShapeListOrdersTiesAsMade(t *testing.T) {
	note := func(s string) *string { return &s }
	for _, rows := range [][]mealie.ShoppingItem{
		{
			{ID: "a", Note: note("oat milk"), CreatedAt: "2026-12-03T10:56:53.100000"},
			{ID: "b", Note: note("bin bags"), CreatedAt: "2026-12-03T10:56:53.200000"},
			{ID: "c", Note: note("eggs"), Position: 1, CreatedAt: "2026-12-03T10:56:52.000000"},
		},
		{
			{ID: "c", Note: note("eggs"), Position: 1, CreatedAt: "2026-12-03T10:56:52.000000"},
			{ID: "b", Note: note("bin bags"), CreatedAt: "2026-12-03T10:56:53.200000"},
			{ID: "a", Note: note("oat milk"), CreatedAt: "2026-12-03T10:56:53.100000"},
		},
	} {
		var got []string
		for _, g := range shapeList(&mealie.ShoppingList{ID: "l", ListItems: rows}).GetGroups() {
			for _, it := range g.GetItems() {
				got = append(got, it.GetDisplay())
			}
		}
		if want := []string{"oat milk", "bin bags", "eggs"}; !slices.Equal(got, want) {
			t.Errorf("listed %q, want %q", got, want)
		}
	}
}
