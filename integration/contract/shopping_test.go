package contract

import (
	"net/http"
	"testing"
)

// newList creates a uniquely named shopping list, deleted after the test.
func newList(t *testing.T, tg target, prefix string) map[string]any {
	t.Helper()
	code, l := tg.call(t, http.MethodPost, "/api/households/shopping/lists", map[string]any{"name": tg.uniqueName(prefix)})
	if code != 201 {
		t.Fatalf("create list: %d %v", code, l)
	}
	list := asObj(t, l)
	t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/households/shopping/lists/"+list["id"].(string), nil) })
	return list
}

// TestShoppingListRenameKeepsItems: Mealie's PUT of a list replaces the
// whole list. Sent back as read with only the name changed, it keeps every
// item and its checked state; a body without listItems empties the list.
// Label settings are not part of the update. A deleted list reads as 404.
func TestShoppingListRenameKeepsItems(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		list := newList(t, tg, "Contract Rename")
		id := list["id"].(string)
		code, body := tg.call(t, http.MethodPost, "/api/households/shopping/items/create-bulk", []any{
			map[string]any{"shoppingListId": id, "note": "oat milk", "quantity": 0},
			map[string]any{"shoppingListId": id, "note": "bin bags", "quantity": 0, "checked": true},
		})
		if code != 201 {
			t.Fatalf("create-bulk: %d %v", code, body)
		}
		_, got := tg.call(t, http.MethodGet, "/api/households/shopping/lists/"+id, nil)
		read := asObj(t, got)
		read["name"] = tg.uniqueName("Contract Renamed")
		code, body = tg.call(t, http.MethodPut, "/api/households/shopping/lists/"+id, read)
		if code != 200 {
			t.Fatalf("rename: %d %v", code, body)
		}
		_, got = tg.call(t, http.MethodGet, "/api/households/shopping/lists/"+id, nil)
		after := asObj(t, got)
		items, _ := after["listItems"].([]any)
		checked := 0
		for _, it := range items {
			if asObj(t, it)["checked"] == true {
				checked++
			}
		}
		if after["name"] != read["name"] || len(items) != 2 || checked != 1 {
			t.Errorf("after a whole-list rename: name %v, %d items, %d checked; want 2 items, 1 checked", after["name"], len(items), checked)
		}
		// The same PUT without listItems: Mealie's default [] empties it.
		bare := map[string]any{"id": id, "name": read["name"], "groupId": read["groupId"], "userId": read["userId"]}
		if code, body = tg.call(t, http.MethodPut, "/api/households/shopping/lists/"+id, bare); code != 200 {
			t.Fatalf("bare rename: %d %v", code, body)
		}
		_, got = tg.call(t, http.MethodGet, "/api/households/shopping/lists/"+id, nil)
		if items, _ := asObj(t, got)["listItems"].([]any); len(items) != 0 {
			t.Errorf("a PUT without listItems left %d items", len(items))
		}
		if code, body = tg.call(t, http.MethodDelete, "/api/households/shopping/lists/"+id, nil); code != 200 {
			t.Errorf("delete list: %d %v", code, body)
		}
		if code, _ = tg.call(t, http.MethodGet, "/api/households/shopping/lists/"+id, nil); code != 404 {
			t.Errorf("get after delete: %d, want 404", code)
		}
	})
}

// TestShoppingNoteRowDisplay: a note row created without a quantity gets
// Mealie's default of 1, which 3.11 prints ("1 2 onions") and 2.x hides;
// quantity 0 shows the note exactly on every version.
func TestShoppingNoteRowDisplay(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		id := newList(t, tg, "Contract Notes")["id"].(string)
		code, body := tg.call(t, http.MethodPost, "/api/households/shopping/items/create-bulk", []any{
			map[string]any{"shoppingListId": id, "note": "2 onions"},
			map[string]any{"shoppingListId": id, "note": "3 lemons", "quantity": 0, "isFood": false, "disableAmount": true},
		})
		if code != 201 {
			t.Fatalf("create-bulk: %d %v", code, body)
		}
		created, _ := asObj(t, body)["createdItems"].([]any)
		if len(created) != 2 {
			t.Fatalf("createdItems = %v", created)
		}
		def, zero := asObj(t, created[0]), asObj(t, created[1])
		want := "2 onions"
		if mealie3(tg) {
			want = "1 2 onions"
		}
		if def["quantity"] != 1.0 || def["display"] != want {
			t.Errorf("a note row without quantity: quantity %v display %q, want 1 and %q", def["quantity"], def["display"], want)
		}
		if zero["quantity"] != 0.0 || zero["display"] != "3 lemons" {
			t.Errorf("a note row of quantity 0: quantity %v display %q, want 0 and \"3 lemons\"", zero["quantity"], zero["display"])
		}
	})
}

// TestShoppingAddRecipeBody: the add-recipe endpoint takes
// {recipeIncrementQuantity, recipeIngredients} on every version. The
// scale multiplies the recipe's lines; recipeIngredients replaces them
// (the lines sous leaves out are the pantry's); a row already checked is
// not merged into, so a re-add leaves what was bought checked and adds a
// new row; checking a row drops its recipe references; .../delete with
// recipeDecrementQuantity takes the recipe's unchecked rows off.
func TestShoppingAddRecipeBody(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		s, foodID := recipeWithFood(t, tg)
		_, r := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		recipe := asObj(t, r)
		recipeID := recipe["id"].(string)
		id := newList(t, tg, "Contract Add")["id"].(string)
		path := "/api/households/shopping/lists/" + id + "/recipe/" + recipeID
		code, body := tg.call(t, http.MethodPost, path, map[string]any{"recipeIncrementQuantity": 3})
		if code != 200 {
			t.Fatalf("add at scale 3: %d %v", code, body)
		}
		items, _ := asObj(t, body)["listItems"].([]any)
		if len(items) != 1 || asObj(t, items[0])["quantity"] != 6.0 {
			t.Fatalf("listItems = %v, want 6 of the food", items)
		}
		row := asObj(t, items[0])
		row["checked"] = true
		if code, body = tg.call(t, http.MethodPut, "/api/households/shopping/items/"+row["id"].(string), row); code != 200 {
			t.Fatalf("check: %d %v", code, body)
		}
		code, body = tg.call(t, http.MethodPost, path, map[string]any{"recipeIncrementQuantity": 1})
		items, _ = asObj(t, body)["listItems"].([]any)
		bought, toBuy := 0.0, 0.0
		for _, it := range items {
			o := asObj(t, it)
			if f, _ := o["food"].(map[string]any); f["id"] != foodID {
				continue
			}
			if o["checked"] == true {
				bought += o["quantity"].(float64)
			} else {
				toBuy += o["quantity"].(float64)
			}
		}
		if code != 200 || len(items) != 2 || bought != 6 || toBuy != 2 {
			t.Errorf("re-add after checking: %d, %d rows, %v bought, %v to buy; want 2 rows, 6 bought, 2 to buy", code, len(items), bought, toBuy)
		}
		// Checking a row drops its recipe references, and the list's
		// reference to a recipe no row carries goes with them
		// (bulk_update_items: "checked items should not have recipe
		// references"): the re-add counts the recipe once.
		refs, _ := asObj(t, body)["recipeReferences"].([]any)
		if len(refs) != 1 || asObj(t, refs[0])["recipeQuantity"] != 1.0 {
			t.Errorf("list recipe references %v, want one of quantity 1", refs)
		}
		for _, it := range items {
			if o := asObj(t, it); o["checked"] == true {
				if rr, _ := o["recipeReferences"].([]any); len(rr) != 0 {
					t.Errorf("a checked row keeps recipe references %v", rr)
				}
			}
		}
		// An override of no lines adds nothing but still counts the recipe.
		code, body = tg.call(t, http.MethodPost, path, map[string]any{"recipeIncrementQuantity": 1, "recipeIngredients": []any{}})
		items, _ = asObj(t, body)["listItems"].([]any)
		refs, _ = asObj(t, body)["recipeReferences"].([]any)
		if code != 200 || len(items) != 2 || len(refs) != 1 || asObj(t, refs[0])["recipeQuantity"] != 2.0 {
			t.Errorf("empty override: %d items %v references %v", code, items, refs)
		}
		// Taking the recipe off removes the row it put there; the bought
		// row, which no longer refers to it, stays.
		code, body = tg.call(t, http.MethodPost, path+"/delete", map[string]any{"recipeDecrementQuantity": 2})
		if code != 200 {
			t.Fatalf("remove recipe: %d %v", code, body)
		}
		left, _ := asObj(t, body)["listItems"].([]any)
		refs, _ = asObj(t, body)["recipeReferences"].([]any)
		if len(left) != 1 || asObj(t, left[0])["checked"] != true || len(refs) != 0 {
			t.Errorf("after removing the recipe: items %v, references %v", left, refs)
		}
	})
}

// TestShoppingSubRecipeExpands: a recipe line that uses another recipe
// (referencedRecipe, Mealie 3.5 and later) comes back with the whole
// sub-recipe and a display of its quantity alone, and Mealie's add-recipe
// endpoint expands it into the sub-recipe's lines, scaled by the line's
// quantity, the rows referring to the sub-recipe and the list counting
// only the recipe added. 2.x has no such field and keeps nothing of it.
func TestShoppingSubRecipeExpands(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		crust, _ := recipeWithFood(t, tg)
		_, r := tg.call(t, http.MethodGet, "/api/recipes/"+crust, nil)
		sub := asObj(t, r)
		pie := newRecipe(t, tg, tg.uniqueName("Contract Pie"))
		line := map[string]any{"quantity": 2, "note": "", "referencedRecipe": map[string]any{"id": sub["id"], "name": sub["name"], "slug": sub["slug"]},
			"referenceId": "4a0d9e7c-6b1f-4c55-8f0e-2f3c0b7d9a11"}
		if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+pie, map[string]any{"recipeIngredient": []any{line}}); code != 200 {
			t.Fatalf("patch: %d %v", code, body)
		}
		_, r = tg.call(t, http.MethodGet, "/api/recipes/"+pie, nil)
		parent := asObj(t, r)
		ing := asObj(t, parent["recipeIngredient"].([]any)[0])
		ref, has := ing["referencedRecipe"].(map[string]any)
		if !mealie3(tg) {
			if _, present := ing["referencedRecipe"]; present {
				t.Errorf("2.x line carries referencedRecipe %v", ing["referencedRecipe"])
			}
			return
		}
		if !has || ref["slug"] != sub["slug"] || ing["display"] != "2" {
			t.Fatalf("line = %v, want the sub-recipe whole and display \"2\"", ing)
		}
		if lines, _ := ref["recipeIngredient"].([]any); len(lines) != 1 {
			t.Errorf("the sub-recipe comes with %d lines", len(lines))
		}
		id := newList(t, tg, "Contract Pie List")["id"].(string)
		code, body := tg.call(t, http.MethodPost, "/api/households/shopping/lists/"+id+"/recipe/"+parent["id"].(string), map[string]any{"recipeIncrementQuantity": 1})
		if code != 200 {
			t.Fatalf("add: %d %v", code, body)
		}
		items, _ := asObj(t, body)["listItems"].([]any)
		if len(items) != 1 || asObj(t, items[0])["quantity"] != 4.0 {
			t.Fatalf("listItems = %v, want the crust's 2 twice", items)
		}
		refs, _ := asObj(t, items[0])["recipeReferences"].([]any)
		if len(refs) != 1 || asObj(t, refs[0])["recipeId"] != sub["id"] || asObj(t, refs[0])["recipeScale"] != 2.0 {
			t.Errorf("row references %v, want the sub-recipe at scale 2", refs)
		}
		listRefs, _ := asObj(t, body)["recipeReferences"].([]any)
		if len(listRefs) != 1 || asObj(t, listRefs[0])["recipeId"] != parent["id"] {
			t.Errorf("list references %v, want the pie alone", listRefs)
		}
	})
}

// TestShoppingItemExtrasMarkWrites: a row PUT whole with extras and an
// added recipe reference stores both; Mealie's own merge (a create of the
// same food) writes back the row it read, extras included; the add-recipe
// endpoint with no lines counts the recipe on the list, and taking the
// recipe off subtracts its reference's part from the row; a PUT of the row
// as read before (a stale save, as Mealie's app makes) takes the marker
// away. sous sums into rows this way and finds a lost write by the marker.
func TestShoppingItemExtrasMarkWrites(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		s, foodID := recipeWithFood(t, tg)
		_, r := tg.call(t, http.MethodGet, "/api/recipes/"+s, nil)
		recipeID := asObj(t, r)["id"].(string)
		id := newList(t, tg, "Contract Marker")["id"].(string)
		code, body := tg.call(t, http.MethodPost, "/api/households/shopping/items/create-bulk", []any{
			map[string]any{"shoppingListId": id, "foodId": foodID, "quantity": 1, "isFood": true, "note": ""}})
		created, _ := asObj(t, body)["createdItems"].([]any)
		if code != 201 || len(created) != 1 {
			t.Fatalf("create-bulk: %d %v", code, body)
		}
		itemID := asObj(t, created[0])["id"].(string)
		path := "/api/households/shopping/items/" + itemID
		_, got := tg.call(t, http.MethodGet, path, nil)
		stale := asObj(t, got)
		_, got = tg.call(t, http.MethodGet, path, nil)
		row := asObj(t, got)
		row["quantity"] = 3
		row["extras"] = map[string]any{"sous_write": "contract-marker-1"}
		row["recipeReferences"] = []any{map[string]any{"recipeId": recipeID, "recipeQuantity": 2, "recipeScale": 1}}
		if code, body = tg.call(t, http.MethodPut, path, row); code != 200 {
			t.Fatalf("put with extras: %d %v", code, body)
		}
		_, got = tg.call(t, http.MethodGet, path, nil)
		back := asObj(t, got)
		refs, _ := back["recipeReferences"].([]any)
		if back["quantity"] != 3.0 || asObj(t, back["extras"])["sous_write"] != "contract-marker-1" || len(refs) != 1 ||
			asObj(t, refs[0])["recipeQuantity"] != 2.0 || asObj(t, refs[0])["recipeScale"] != 1.0 {
			t.Fatalf("after the put: quantity %v extras %v references %v", back["quantity"], back["extras"], refs)
		}
		// The recipe counted on the list without adding a row.
		code, body = tg.call(t, http.MethodPost, "/api/households/shopping/lists/"+id+"/recipe/"+recipeID,
			map[string]any{"recipeIncrementQuantity": 1, "recipeIngredients": []any{}})
		items, _ := asObj(t, body)["listItems"].([]any)
		lrefs, _ := asObj(t, body)["recipeReferences"].([]any)
		if code != 200 || len(items) != 1 || len(lrefs) != 1 || asObj(t, lrefs[0])["recipeQuantity"] != 1.0 {
			t.Fatalf("count the recipe: %d items %v references %v", code, items, lrefs)
		}
		// Mealie's merge keeps the row's extras.
		code, body = tg.call(t, http.MethodPost, "/api/households/shopping/items/create-bulk", []any{
			map[string]any{"shoppingListId": id, "foodId": foodID, "quantity": 1, "isFood": true, "note": ""}})
		updated, _ := asObj(t, body)["updatedItems"].([]any)
		if code != 201 || len(updated) != 1 || asObj(t, updated[0])["quantity"] != 4.0 ||
			asObj(t, asObj(t, updated[0])["extras"])["sous_write"] != "contract-marker-1" {
			t.Fatalf("merge by create: %d %v", code, body)
		}
		// Taking the recipe off takes its reference's part: 4 - 2.
		code, body = tg.call(t, http.MethodPost, "/api/households/shopping/lists/"+id+"/recipe/"+recipeID+"/delete",
			map[string]any{"recipeDecrementQuantity": 1})
		items, _ = asObj(t, body)["listItems"].([]any)
		lrefs, _ = asObj(t, body)["recipeReferences"].([]any)
		if code != 200 || len(items) != 1 || asObj(t, items[0])["quantity"] != 2.0 || len(lrefs) != 0 {
			t.Fatalf("take the recipe off: %d items %v references %v", code, items, lrefs)
		}
		// A stale save takes the marker away.
		if code, body = tg.call(t, http.MethodPut, path, stale); code != 200 {
			t.Fatalf("stale put: %d %v", code, body)
		}
		_, got = tg.call(t, http.MethodGet, path, nil)
		back = asObj(t, got)
		if back["quantity"] != 1.0 || asObj(t, back["extras"])["sous_write"] != nil {
			t.Fatalf("after a stale save: quantity %v extras %v", back["quantity"], back["extras"])
		}
	})
}
