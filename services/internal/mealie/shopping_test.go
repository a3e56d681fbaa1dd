package mealie

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestMergeIntoShoppingItem: a merge PUTs the row whole as read, with the
// summed quantity, the note joined as Mealie joins notes, a reference to a
// recipe already on the row adding its scale, a new recipe's reference
// added, and the write's id appended to the ids the row keeps (at most
// MaxWriteMarks, other extras kept).
func TestMergeIntoShoppingItem(t *testing.T) {
	row := `{"id":"i1","shoppingListId":"l1","quantity":2,"note":"full fat","checked":false,"foodId":"f1",
		"extras":{"app":"x","sous_write":"a b c d e f g h"},
		"recipeReferences":[{"id":"r0","recipeId":"dal","recipeQuantity":1,"recipeScale":1,"shoppingListItemId":"i1"}]}`
	for _, tc := range []struct {
		name      string
		merge     ShoppingItemMerge
		wantNote  string
		wantRefs  string
		wantMarks string
	}{
		{"a new recipe", ShoppingItemMerge{Quantity: 3, Note: "light", Refs: []ShoppingRecipeRef{{RecipeID: "curry", RecipeQuantity: 1, RecipeScale: new(1.0)}}, Marker: "m1"},
			"full fat | light", "dal:1:1 curry:1:1", "b c d e f g h m1"},
		{"the same recipe again", ShoppingItemMerge{Quantity: 4, Note: "full fat", Refs: []ShoppingRecipeRef{{RecipeID: "dal", RecipeQuantity: 1, RecipeScale: new(2.0)}}, Marker: "m2"},
			"full fat", "dal:1:3", "b c d e f g h m2"},
		{"free text", ShoppingItemMerge{Quantity: 3, Marker: "m3"}, "full fat", "dal:1:1", "b c d e f g h m3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent map[string]any
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				_ = json.Unmarshal(b, &sent)
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"createdItems":[],"updatedItems":[` + string(b) + `],"deletedItems":[]}`))
			}))
			var it ShoppingItem
			if err := json.Unmarshal([]byte(row), &it); err != nil {
				t.Fatal(err)
			}
			ch, err := c.MergeIntoShoppingItem(context.Background(), &it, tc.merge)
			if err != nil {
				t.Fatal(err)
			}
			var refs []string
			for _, r := range sent["recipeReferences"].([]any) {
				o := r.(map[string]any)
				refs = append(refs, strings.Join([]string{o["recipeId"].(string), fmtNum(o["recipeQuantity"]), fmtNum(o["recipeScale"])}, ":"))
			}
			extras := sent["extras"].(map[string]any)
			if sent["quantity"] != tc.merge.Quantity || sent["note"] != tc.wantNote || strings.Join(refs, " ") != tc.wantRefs ||
				extras["sous_write"] != tc.wantMarks || extras["app"] != "x" || sent["shoppingListId"] != "l1" {
				t.Fatalf("sent %v", sent)
			}
			if got := ch.UpdatedItems[0]; !got.HasWrite(tc.merge.Marker) || got.HasWrite("a") || !slices.Contains(got.WriteMarks(), "h") {
				t.Fatalf("marks read back %v", got.WriteMarks())
			}
		})
	}
}

func fmtNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
