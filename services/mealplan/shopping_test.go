package mealplan

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/limits"
)

// IDs from the captures.
const (
	weeklyID = "0751b2e0-d447-4287-8834-975356f4d75e"
	milkRow  = "37eca4a4-0bd9-49ec-8000-8bb940cda6fb"
	breadRow = "dfd51ee5-9c03-4742-a154-2a010486462f"
	butterRw = "1f18ac06-a876-454c-aae8-b0a996941fde"
	flourID  = "c20613de-050e-4228-9bb6-ec224754ffc0"
	cupID    = "69981471-1dfb-405b-9de5-c9d72f0ca869"
)

// bodies returns the decoded JSON bodies of the requests to method+path.
func bodies(r *replay, method, path string) []any {
	var out []any
	for _, s := range r.requests() {
		if s.Method == method && s.Path == path {
			var v any
			_ = json.Unmarshal([]byte(s.Body), &v)
			out = append(out, v)
		}
	}
	return out
}

// TestBoundsBeforeMealie: list_id, entry_id and recipe_scale past their
// bound in proto/limits are refused with a sentence naming the argument,
// what was given and what is expected, before any request to Mealie or the
// pantry; a value at the bound gets through to Mealie (whose 404 is not the
// point here).
func TestBoundsBeforeMealie(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	id := func(n int) string { return strings.Repeat("i", n) }
	entry := func(n int) string { return strings.Repeat("0", n-1) + "7" }
	overID := fmt.Sprintf("list_id: at most %d characters, got %d", limits.ShoppingListIDChars, limits.ShoppingListIDChars+1)
	for _, tc := range []struct {
		name string
		// call sends the request with the bounded value at its bound
		// (over false) or past it (over true).
		call func(over bool) error
		want string
	}{
		{"get list_id", func(over bool) error {
			_, err := h.svc.GetShoppingList(ctx, connect.NewRequest(&mealplanv1.GetShoppingListRequest{ListId: id(limits.ShoppingListIDChars + b2i(over))}))
			return err
		}, overID},
		{"add list_id", func(over bool) error {
			_, err := h.svc.AddToShoppingList(ctx, connect.NewRequest(&mealplanv1.AddToShoppingListRequest{ListId: id(limits.ShoppingListIDChars + b2i(over)), Items: []string{"bread"}, SkipInStock: proto.Bool(false)}))
			return err
		}, overID},
		{"update list_id", func(over bool) error {
			_, err := h.svc.UpdateShoppingItems(ctx, connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: id(limits.ShoppingListIDChars + b2i(over)), Check: []string{milkRow}}))
			return err
		}, overID},
		{"rename list_id", func(over bool) error {
			_, err := h.svc.RenameShoppingList(ctx, connect.NewRequest(&mealplanv1.RenameShoppingListRequest{ListId: id(limits.ShoppingListIDChars + b2i(over)), Name: "Big shop"}))
			return err
		}, overID},
		{"delete list_id", func(over bool) error {
			_, err := h.svc.DeleteShoppingList(ctx, connect.NewRequest(&mealplanv1.DeleteShoppingListRequest{ListId: id(limits.ShoppingListIDChars + b2i(over)), ConfirmName: "Weekly"}))
			return err
		}, overID},
		{"entry_id", func(over bool) error {
			_, err := h.svc.DeleteMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.DeleteMealPlanEntryRequest{EntryId: entry(limits.EntryIDChars + b2i(over))}))
			return err
		}, fmt.Sprintf("entry_id must be a meal plan entry's integer id, such as \"12\": at most %d characters, got %d", limits.EntryIDChars, limits.EntryIDChars+1)},
		{"recipe_scale", func(over bool) error {
			sc := float64(limits.MaxShoppingScale)
			if over {
				sc += 0.5
			}
			_, err := h.svc.AddToShoppingList(ctx, connect.NewRequest(&mealplanv1.AddToShoppingListRequest{ListId: weeklyID, RecipeSlugs: []string{"pad-thai"}, RecipeScale: &sc, SkipInStock: proto.Bool(false)}))
			return err
		}, fmt.Sprintf("recipe_scale: %v is out of range; give a number from %v to %v", limits.MaxShoppingScale+0.5, limits.MinShoppingScale, limits.MaxShoppingScale)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(h.mealie.requests())
			wantCode(t, tc.call(true), connect.CodeInvalidArgument, tc.want)
			if n := len(h.mealie.requests()); n != before || h.pantry.calls != 0 {
				t.Fatalf("over the bound: %d Mealie requests, %d pantry calls", n-before, h.pantry.calls)
			}
			if err := tc.call(false); err != nil && (strings.Contains(err.Error(), "at most") || strings.Contains(err.Error(), "out of range")) {
				t.Errorf("at the bound: refused with %v", err)
			}
			if len(h.mealie.requests()) == before {
				t.Error("at the bound: nothing reached Mealie")
			}
		})
	}
}

// b2i is 1 for true: one past a bound.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
