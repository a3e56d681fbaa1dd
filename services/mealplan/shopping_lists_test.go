package mealplan

import (
	"context"
	"strings"
	"testing"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
)

// TestListManagementValidation: bad arguments are refused with a sentence
// before Mealie is asked.
func TestListManagementValidation(t *testing.T) {
	long := strings.Repeat("x", MaxListNameChars+1)
	h := newHarness(t)
	ctx := context.Background()
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"create without a name", func() error {
			_, err := h.svc.CreateShoppingList(ctx, connect.NewRequest(&mealplanv1.CreateShoppingListRequest{Name: "  "}))
			return err
		}, "name is required"},
		{"create with a long name", func() error {
			_, err := h.svc.CreateShoppingList(ctx, connect.NewRequest(&mealplanv1.CreateShoppingListRequest{Name: long}))
			return err
		}, "longer than 100"},
		{"rename without a list", func() error {
			_, err := h.svc.RenameShoppingList(ctx, connect.NewRequest(&mealplanv1.RenameShoppingListRequest{Name: "Big shop"}))
			return err
		}, "list_id is required"},
		{"rename without a name", func() error {
			_, err := h.svc.RenameShoppingList(ctx, connect.NewRequest(&mealplanv1.RenameShoppingListRequest{ListId: weeklyID}))
			return err
		}, "name is required"},
		{"delete without the name repeated", func() error {
			_, err := h.svc.DeleteShoppingList(ctx, connect.NewRequest(&mealplanv1.DeleteShoppingListRequest{ListId: weeklyID}))
			return err
		}, "confirm_name is required"},
		{"update with nothing to do", func() error {
			_, err := h.svc.UpdateShoppingItems(ctx, connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: weeklyID}))
			return err
		}, "remove_recipes"},
		{"the same item checked and removed by name", func() error {
			_, err := h.svc.UpdateShoppingItems(ctx, connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: weeklyID, Check: []string{"Milk"}, Remove: []string{"milk"}}))
			return err
		}, "both check and remove"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, tc.call(), connect.CodeInvalidArgument, tc.want)
		})
	}
	if n := len(h.mealie.requests()); n != 0 {
		t.Fatalf("%d Mealie requests", n)
	}
}
