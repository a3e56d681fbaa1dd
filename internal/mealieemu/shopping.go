package mealieemu

import (
	"maps"
	"net/http"
	"time"
)

func (s *Server) shoppingRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/households/shopping/lists", s.listShoppingLists)
	mux.HandleFunc("POST /api/households/shopping/lists", s.createShoppingList)
	mux.HandleFunc("GET /api/households/shopping/lists/{id}", s.getShoppingList)
	mux.HandleFunc("PUT /api/households/shopping/lists/{id}", s.updateShoppingList)
	mux.HandleFunc("DELETE /api/households/shopping/lists/{id}", s.deleteShoppingList)
	mux.HandleFunc("POST /api/households/shopping/lists/{id}/recipe/{recipeId}", s.addRecipeToList)
	mux.HandleFunc("POST /api/households/shopping/lists/{id}/recipe/{recipeId}/delete", s.removeRecipeFromList)
	mux.HandleFunc("GET /api/households/shopping/items", s.listShoppingItems)
	mux.HandleFunc("POST /api/households/shopping/items", s.createShoppingItem)
	mux.HandleFunc("POST /api/households/shopping/items/create-bulk", s.createShoppingItems)
	mux.HandleFunc("GET /api/households/shopping/items/{id}", s.getShoppingItem)
	mux.HandleFunc("PUT /api/households/shopping/items/{id}", s.updateShoppingItem)
	mux.HandleFunc("DELETE /api/households/shopping/items/{id}", s.deleteShoppingItem)
}

// renderItem is ShoppingListItemOut (services/mealplan/testdata/shopping_items__create_note.json).
func (st *store) renderItem(l *shoppingList, it *shoppingItem) object {
	var u *unit
	var f *food
	var unitJSON, foodJSON, labelJSON any
	if it.UnitID != nil {
		if u = st.unitByID(*it.UnitID); u != nil {
			unitJSON = st.renderUnit(u)
		}
	}
	if it.FoodID != nil {
		if f = st.foodByID(*it.FoodID); f != nil {
			foodJSON = st.renderFood(f)
		}
	}
	if it.LabelID != nil {
		if lb := st.labelByID(*it.LabelID); lb != nil {
			labelJSON = st.renderLabel(lb)
		}
	}
	refs := []any{}
	for _, rr := range it.RecipeRefs {
		refs = append(refs, object{{"recipeId", rr.RecipeID}, {"recipeQuantity", rr.RecipeQuantity},
			{"recipeScale", rr.RecipeScale}, {"recipeNote", optString(rr.RecipeNote)}, {"id", rr.ID}, {"shoppingListItemId", it.ID}})
	}
	q := it.Quantity
	o := object{{"quantity", q}, {"unit", unitJSON}, {"food", foodJSON}, {"note", it.Note}}
	// 2.x items carry isFood and show their food only with it; 3.11 items
	// have neither flag, a referencedRecipe, and always show unit and food
	// (testdata/recordings/<version>/TestShoppingListAddRecipeIngredients.json
	// and TestShoppingItemsFlow.json in the contract package).
	useFood := true
	if st.profile.ingredientFlags {
		useFood = it.IsFood
		o = append(o, field{"isFood", it.IsFood}, field{"disableAmount", !it.IsFood})
	} else {
		o = append(o, field{"referencedRecipe", nil})
	}
	return append(o, object{{"display", st.ingredientDisplay(&q, u, f, it.Note, useFood)},
		{"shoppingListId", l.ID}, {"checked", it.Checked}, {"position", it.Position},
		{"foodId", optString(it.FoodID)}, {"labelId", optString(it.LabelID)}, {"unitId", optString(it.UnitID)},
		{"extras", extrasOf(it)}, {"id", it.ID}, {"groupId", st.user.GroupID}, {"householdId", st.user.HouseholdID},
		{"label", labelJSON}, {"recipeReferences", refs}, {"createdAt", stamp(it.CreatedAt)}, {"updatedAt", stamp(it.UpdatedAt)}}...)
}

// extrasOf is an item's extras as Mealie answers them: a dict, empty when
// none.
func extrasOf(it *shoppingItem) map[string]any {
	if it.Extras == nil {
		return map[string]any{}
	}
	return it.Extras
}

func (st *store) listHeader(l *shoppingList) object {
	refs := []any{}
	for _, rr := range l.RecipeRefs {
		var rec any
		if rc := st.recipeByID(rr.RecipeID); rc != nil {
			rec = st.renderEmbeddedSummary(rc)
		}
		refs = append(refs, object{{"id", rr.ID}, {"shoppingListId", l.ID}, {"recipeId", rr.RecipeID},
			{"recipeQuantity", rr.RecipeQuantity}, {"recipe", rec}})
	}
	settings := []any{}
	for i, lb := range st.labels {
		settings = append(settings, object{{"shoppingListId", l.ID}, {"labelId", lb.ID}, {"position", i},
			{"id", seedID("label-setting", l.ID+lb.ID)}, {"label", st.renderLabel(lb)}})
	}
	var created any = stamp(l.CreatedAt)
	if l.CreatedLost {
		created = nil
	}
	return object{{"name", optString(l.Name)}, {"extras", map[string]any{}}, {"createdAt", created},
		{"updatedAt", stamp(l.UpdatedAt)}, {"groupId", st.user.GroupID}, {"userId", st.user.ID}, {"id", l.ID},
		{"householdId", st.user.HouseholdID}, {"recipeReferences", refs}, {"labelSettings", settings}}
}

// renderList is ShoppingListOut: the summary plus listItems, placed where
// Mealie puts them (services/mealplan/testdata/shopping_lists__create_ok.json).
func (st *store) renderList(l *shoppingList) object {
	h := st.listHeader(l)
	items := []any{}
	for _, it := range l.Items {
		items = append(items, st.renderItem(l, it))
	}
	out := object{}
	for _, f := range h {
		if f.k == "householdId" {
			out = append(out, field{"listItems", items})
		}
		out = append(out, f)
	}
	return out
}

func (s *Server) listShoppingLists(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(st, w, r, st.shoppingLists, listSpec[*shoppingList]{route: "/households/shopping/lists",
		attrs: map[string]attrDef[*shoppingList]{
			"id":   {kindUUID, func(l *shoppingList) []any { return one(l.ID) }},
			"name": {kindString, func(l *shoppingList) []any { return optOne(l.Name) }},
		},
		render: func(l *shoppingList) any { return st.listHeader(l) }})
}

// createShoppingList answers 201; a list without a name has name null
// (services/mealplan/testdata/shopping_lists__create_no_name.json).
func (s *Server) createShoppingList(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.now().UTC()
	l := &shoppingList{ID: newID(), Name: b.optStr("name"), CreatedAt: now, UpdatedAt: now}
	st.shoppingLists = append(st.shoppingLists, l)
	writeJSON(w, http.StatusCreated, st.renderList(l))
}

func (s *Server) getShoppingList(w http.ResponseWriter, r *http.Request) {
	getByID(s, w, r, (*store).shoppingListByID, (*store).renderList)
}

// updateShoppingList needs groupId, userId and id (services/mealplan/testdata/shopping_lists__put.json).
func (s *Server) updateShoppingList(w http.ResponseWriter, r *http.Request) {
	id, b, ok := readPut(w, r, "groupId", "userId", "id")
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	l := st.shoppingListByID(id)
	if l == nil {
		st.writeNoRow(w)
		return
	}
	// ShoppingListUpdate's listItems defaults to [] and Mealie writes the
	// list whole, so the items are the ones the body lists, as the body
	// has them; the rest are deleted. Label settings are not part of the
	// update and stay
	// (testdata/recordings/<version>/TestShoppingListRenameKeepsItems.json
	// in the contract package).
	sent, _ := b["listItems"].([]any)
	var items []*shoppingItem
	for _, raw := range sent {
		ib, ok := asBody(raw)
		if !ok {
			continue
		}
		id, _ := ib.str("id")
		var old *shoppingItem
		for _, x := range l.Items {
			if x.ID == id {
				old = x
			}
		}
		if old == nil {
			continue
		}
		if c, ok := ib.boolean("checked"); ok {
			old.Checked = c
		}
		if q, ok := ib.num("quantity"); ok {
			old.Quantity = q
		}
		if n, ok := ib.str("note"); ok {
			old.Note = n
		}
		if p, ok := ib.num("position"); ok {
			old.Position = int(p)
		}
		items = append(items, old)
	}
	l.Items = items
	l.Name = b.optStr("name")
	if _, ok := b.str("createdAt"); !ok {
		l.CreatedLost = true
	}
	l.UpdatedAt = st.now().UTC()
	writeJSON(w, http.StatusOK, st.renderList(l))
}

func (s *Server) deleteShoppingList(w http.ResponseWriter, r *http.Request) {
	rowDelete[shoppingList, string]{parse: itemUUID,
		rows:   func(st *store) *[]*shoppingList { return &st.shoppingLists },
		key:    func(l *shoppingList) string { return l.ID },
		render: (*store).renderList,
	}.serve(s, w, r)
}

// addItem merges into an unchecked item with the same food and unit (or, for
// free text, the same note), summing quantities, as Mealie does
// (services/mealplan/testdata/shopping_items__create_same_food_merges.json). It reports whether the item
// was merged and which item holds the quantity.
func (st *store) addItem(l *shoppingList, it *shoppingItem) (*shoppingItem, bool) {
	for _, x := range l.Items {
		if x.Checked {
			continue
		}
		sameFood := it.FoodID != nil && x.FoodID != nil && *it.FoodID == *x.FoodID
		sameText := it.FoodID == nil && x.FoodID == nil && it.Note != "" && it.Note == x.Note
		sameUnit := (it.UnitID == nil && x.UnitID == nil) || (it.UnitID != nil && x.UnitID != nil && *it.UnitID == *x.UnitID)
		if (sameFood || sameText) && sameUnit {
			mergeItem(it, x)
			x.UpdatedAt = st.now().UTC()
			return x, true
		}
	}
	l.Items = append(l.Items, it)
	return it, false
}

// mergeItem folds a new item into an equal one already on the list, as
// Mealie's ShoppingListService.merge_items does: quantities add, differing
// notes join with " | ", and the new item's reference to a recipe replaces
// the old one with the two scales added
// (testdata/recordings/<version>/TestShoppingListAddRecipeIngredients.json
// in the contract package: adding a recipe twice leaves one reference of
// scale 2).
func mergeItem(from, to *shoppingItem) {
	to.Quantity += from.Quantity
	// The row kept is the one read: its extras stay, updated by the new
	// item's when both have some (merge_items).
	if len(to.Extras) > 0 && len(from.Extras) > 0 {
		maps.Copy(to.Extras, from.Extras)
	}
	if from.Note != "" && to.Note != from.Note {
		if to.Note == "" {
			to.Note = from.Note
		} else {
			to.Note += " | " + from.Note
		}
	}
	refs := append([]*itemRecipeRef(nil), from.RecipeRefs...)
	for _, old := range to.RecipeRefs {
		merged := false
		for _, ref := range refs {
			if ref.RecipeID == old.RecipeID {
				ref.RecipeScale += old.RecipeScale
				merged = true
				break
			}
		}
		if !merged {
			refs = append(refs, old)
		}
	}
	to.RecipeRefs = refs
}

// parseItem reads a ShoppingListItemCreate; shoppingListId is required
// (services/mealplan/testdata/shopping_items__create_422.json).
func (st *store) parseItem(b jsonBody, loc ...any) (*shoppingItem, *shoppingList, []valErr) {
	lid, ok := b.str("shoppingListId")
	if !ok {
		return nil, nil, []valErr{missing(b.raw(), append(loc, "shoppingListId")...)}
	}
	now := st.now().UTC()
	it := &shoppingItem{ID: newID(), Quantity: 1, Extras: map[string]any{}, CreatedAt: now, UpdatedAt: now}
	if q, ok := b.num("quantity"); ok {
		it.Quantity = q
	}
	it.Note, _ = b.str("note")
	it.IsFood, _ = b.boolean("isFood")
	it.Checked, _ = b.boolean("checked")
	if p, ok := b.num("position"); ok {
		it.Position = int(p)
	}
	if id, ok := b.str("foodId"); ok && st.foodByID(id) != nil {
		it.FoodID = strp(id)
		it.LabelID = st.foodByID(id).LabelID
	}
	if id, ok := b.str("unitId"); ok && st.unitByID(id) != nil {
		it.UnitID = strp(id)
	}
	if id, ok := b.str("labelId"); ok && st.labelByID(id) != nil {
		it.LabelID = strp(id)
	}
	// extras and recipeReferences are stored as sent, a missing one as
	// Mealie's default (an empty dict, an empty list): Mealie's item
	// models take both on create and update, and a PUT replaces them
	// (ShoppingListItemUpdate.recipe_references defaults to [];
	// TestShoppingItemExtrasMarkWrites in the contract package).
	if ex, ok := b.obj("extras"); ok {
		for k, v := range ex {
			if s, ok := v.(string); ok {
				it.Extras[k] = s
			}
		}
	}
	refs, _ := b.list("recipeReferences")
	for _, raw := range refs {
		rb, ok := asBody(raw)
		if !ok {
			continue
		}
		rid, ok := rb.str("recipeId")
		if !ok {
			continue
		}
		ref := &itemRecipeRef{ID: newID(), RecipeID: rid, RecipeScale: 1, RecipeNote: rb.optStr("recipeNote")}
		if q, ok := rb.num("recipeQuantity"); ok {
			ref.RecipeQuantity = q
		}
		if sc, ok := rb.num("recipeScale"); ok {
			ref.RecipeScale = sc
		}
		if id, ok := rb.str("id"); ok && id != "" {
			ref.ID = id
		}
		it.RecipeRefs = append(it.RecipeRefs, ref)
	}
	return it, st.shoppingListByID(lid), nil
}

// itemsResult is the create/update answer: {"createdItems","updatedItems",
// "deletedItems"}, not the item (services/mealplan/testdata/shopping_items__create_note.json).
func itemsResult(created, updated, deleted []any) object {
	nz := func(v []any) []any {
		if v == nil {
			return []any{}
		}
		return v
	}
	return object{{"createdItems", nz(created)}, {"updatedItems", nz(updated)}, {"deletedItems", nz(deleted)}}
}

func (s *Server) createShoppingItem(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	it, l, verrs := st.parseItem(b)
	if len(verrs) > 0 {
		writeValidation(w, verrs...)
		return
	}
	if l == nil {
		writeInternal(w)
		return
	}
	var created, updated []any
	x, merged := st.addItem(l, it)
	dropCheckedRefs(l)
	if merged {
		updated = append(updated, st.renderItem(l, x))
	} else {
		created = append(created, st.renderItem(l, x))
	}
	writeJSON(w, http.StatusCreated, itemsResult(created, updated, nil))
}

// dropCheckedRefs is Mealie's rule that a checked row carries no recipe
// references, applied on every item create and update, and its
// remove_unused_recipe_references: the list forgets a recipe no row refers
// to any more (bulk_create_items and bulk_update_items in
// services/household_services/shopping_lists.py of 2.0, 2.8 and 3.11;
// testdata/recordings/<version>/TestShoppingAddRecipeBody.json in the
// contract package: after a check, a re-add counts the recipe once).
func dropCheckedRefs(l *shoppingList) {
	used := map[string]bool{}
	for _, it := range l.Items {
		if it.Checked {
			it.RecipeRefs = nil
		}
		for _, r := range it.RecipeRefs {
			used[r.RecipeID] = true
		}
	}
	var keep []*listRecipeRef
	for _, r := range l.RecipeRefs {
		if used[r.RecipeID] {
			keep = append(keep, r)
		}
	}
	l.RecipeRefs = keep
}

func (s *Server) createShoppingItems(w http.ResponseWriter, r *http.Request) {
	var raw []map[string]any
	if err := decodeList(r, &raw); err != nil {
		writeValidation(w, valErr{typ: "list_type", loc: []any{"body"}, msg: "Input should be a valid list", input: nil})
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	var created, updated []any
	for i, m := range raw {
		it, l, verrs := st.parseItem(jsonBody(m), i)
		if len(verrs) > 0 {
			writeValidation(w, verrs...)
			return
		}
		if l == nil {
			writeInternal(w)
			return
		}
		x, merged := st.addItem(l, it)
		dropCheckedRefs(l)
		if merged {
			updated = append(updated, st.renderItem(l, x))
		} else {
			created = append(created, st.renderItem(l, x))
		}
	}
	writeJSON(w, http.StatusCreated, itemsResult(created, updated, nil))
}

type listItem struct {
	l  *shoppingList
	it *shoppingItem
}

func (st *store) allItems() []listItem {
	var out []listItem
	for _, l := range st.shoppingLists {
		for _, it := range l.Items {
			out = append(out, listItem{l, it})
		}
	}
	return out
}

func (s *Server) listShoppingItems(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	listRows(st, w, r, st.allItems(), listSpec[listItem]{route: "/households/shopping/items",
		attrs: map[string]attrDef[listItem]{
			"id":               {kindUUID, func(x listItem) []any { return one(x.it.ID) }},
			"shopping_list_id": {kindUUID, func(x listItem) []any { return one(x.l.ID) }},
			"checked":          {kindBool, func(x listItem) []any { return one(x.it.Checked) }},
			"note":             {kindString, func(x listItem) []any { return one(x.it.Note) }},
			"position":         {kindNumber, func(x listItem) []any { return one(float64(x.it.Position)) }},
			"food_id":          {kindUUID, func(x listItem) []any { return optOne(x.it.FoodID) }},
		},
		render: func(x listItem) any { return st.renderItem(x.l, x.it) }})
}

func (st *store) findItem(id string) (*shoppingList, *shoppingItem, int) {
	for _, l := range st.shoppingLists {
		for i, it := range l.Items {
			if it.ID == id {
				return l, it, i
			}
		}
	}
	return nil, nil, -1
}

func (s *Server) getShoppingItem(w http.ResponseWriter, r *http.Request) {
	id, ok := itemUUID(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	l, it, _ := st.findItem(id)
	if it == nil {
		writeNotFoundMixin(w)
		return
	}
	writeJSON(w, http.StatusOK, st.renderItem(l, it))
}

// updateShoppingItem needs the full item, shoppingListId included
// (services/mealplan/testdata/shopping_items__put_partial.json).
func (s *Server) updateShoppingItem(w http.ResponseWriter, r *http.Request) {
	id, ok := itemUUID(w, r)
	if !ok {
		return
	}
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	next, nl, verrs := st.parseItem(b)
	if len(verrs) > 0 {
		writeValidation(w, verrs...)
		return
	}
	l, it, _ := st.findItem(id)
	if it == nil || nl == nil {
		st.writeNoRow(w)
		return
	}
	next.ID, next.CreatedAt = it.ID, it.CreatedAt
	*it = *next
	dropCheckedRefs(l)
	writeJSON(w, http.StatusOK, itemsResult(nil, []any{st.renderItem(l, it)}, nil))
}

// deleteShoppingItem answers {"message":"","error":false} (services/mealplan/testdata/shopping_items__delete.json).
func (s *Server) deleteShoppingItem(w http.ResponseWriter, r *http.Request) {
	id, ok := itemUUID(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	l, it, i := st.findItem(id)
	if it == nil {
		st.writeNoRow(w)
		return
	}
	l.Items = append(l.Items[:i], l.Items[i+1:]...)
	writeJSON(w, http.StatusOK, object{{"message", ""}, {"error", false}})
}

// addRecipeToList adds a recipe's ingredients, scaled by
// recipeIncrementQuantity, merging into existing unchecked items, and answers
// the whole list (services/mealplan/testdata/shopping_lists__add_recipe.json;
// testdata/recordings/<version>/TestShoppingListAddRecipeIngredients.json in
// the contract package). As in Mealie's
// ShoppingListService.get_shopping_list_items_from_recipe (2.0, 2.8, 3.11):
// recipeIngredients, when sent, replaces the recipe's own lines; a line
// without a quantity adds quantity 0; each row's reference holds the line's
// own quantity and the scale; two lines of one recipe that merge add their
// quantities, not their scales. An unknown recipe fails unhandled
// (services/mealplan/testdata/shopping_lists__add_unknown_recipe.json).
func (s *Server) addRecipeToList(w http.ResponseWriter, r *http.Request) {
	lid, rid, b, ok := recipeOnListArgs(w, r)
	if !ok {
		return
	}
	scale := 1.0
	if q, ok := b.num("recipeIncrementQuantity"); ok {
		scale = q
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	l := st.shoppingListByID(lid)
	rc := st.recipeByID(rid)
	if l == nil || rc == nil {
		writeInternal(w)
		return
	}
	lines := rc.Ingredients
	if raw, present := b["recipeIngredients"]; present && raw != nil {
		list, _ := raw.([]any)
		lines = nil
		for i, it := range list {
			in, verrs, _ := st.parseIngredient(it, i)
			if len(verrs) > 0 {
				writeValidation(w, verrs...)
				return
			}
			lines = append(lines, in)
		}
	}
	now := st.now().UTC()
	var ref *listRecipeRef
	for _, x := range l.RecipeRefs {
		if x.RecipeID == rid {
			ref = x
		}
	}
	if ref == nil {
		ref = &listRecipeRef{ID: newID(), RecipeID: rid}
		l.RecipeRefs = append(l.RecipeRefs, ref)
	}
	ref.RecipeQuantity += scale
	var made []*shoppingItem
	st.recipeRows(&made, rid, lines, scale, now, 0)
	for _, it := range made {
		st.addItem(l, it)
	}
	l.UpdatedAt = now
	writeJSON(w, http.StatusOK, st.renderList(l))
}

// recipeRows turns a recipe's lines into rows. A line that uses another
// recipe is that recipe's lines at the line's quantity (1 when unset)
// times the scale, referring to the sub-recipe, as on 3.11 (two of a
// sub-recipe whose line is 200 g of flour add 400 g, with a reference to
// the sub-recipe of scale 2; the list counts only the recipe added).
func (st *store) recipeRows(made *[]*shoppingItem, rid string, lines []ingredient, scale float64, now time.Time, depth int) {
	for _, in := range lines {
		q := 0.0
		if in.Quantity != nil {
			q = *in.Quantity
		}
		if in.RecipeID != nil {
			if sub := st.recipeByID(*in.RecipeID); sub != nil && depth < 10 {
				subScale := scale
				if q != 0 {
					subScale = q * scale
				}
				st.recipeRows(made, sub.ID, sub.Ingredients, subScale, now, depth+1)
			}
			continue
		}
		it := &shoppingItem{ID: newID(), Quantity: q * scale, UnitID: in.UnitID, FoodID: in.FoodID, Note: in.Note,
			Extras: map[string]any{}, CreatedAt: now, UpdatedAt: now,
			RecipeRefs: []*itemRecipeRef{{ID: newID(), RecipeID: rid, RecipeQuantity: q, RecipeScale: scale, RecipeNote: optNote(in.Note)}}}
		if in.FoodID != nil {
			if f := st.foodByID(*in.FoodID); f != nil {
				it.LabelID = f.LabelID
				it.IsFood = true
			}
		}
		merged := false
		for _, x := range *made {
			if sameRow(x, it) && x.RecipeRefs[0].RecipeID == rid {
				x.Quantity += it.Quantity
				x.RecipeRefs[0].RecipeQuantity += q
				merged = true
				break
			}
		}
		if !merged {
			*made = append(*made, it)
		}
	}
}

// optNote is a reference's recipeNote: null for an empty note.
func optNote(n string) *string {
	if n == "" {
		return nil
	}
	return strp(n)
}

// sameRow is Mealie's can_merge: both unchecked, the same food and unit,
// and for rows without a food the same note.
func sameRow(a, b *shoppingItem) bool {
	eq := func(x, y *string) bool { return (x == nil && y == nil) || (x != nil && y != nil && *x == *y) }
	if a.Checked || b.Checked || !eq(a.FoodID, b.FoodID) || !eq(a.UnitID, b.UnitID) {
		return false
	}
	return a.FoodID != nil || a.Note == b.Note
}

// removeRecipeFromList takes recipeDecrementQuantity portions of a recipe
// off a list by each row's reference, as Mealie's
// remove_recipe_ingredients_from_list does (2.0, 2.8, 3.11): a row loses
// decrement times its reference's quantity (all that is left when the
// reference's scale is smaller), the reference goes when its scale reaches
// 0, and a row whose quantity falls below 0, or to 0 with no reference
// left, is deleted; the list's count of the recipe drops by the decrement
// (services/mealplan/testdata/shopping_lists__remove_recipe.json).
func (s *Server) removeRecipeFromList(w http.ResponseWriter, r *http.Request) {
	lid, rid, b, ok := recipeOnListArgs(w, r)
	if !ok {
		return
	}
	dec := 1.0
	if q, ok := b.num("recipeDecrementQuantity"); ok {
		dec = q
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	l := st.shoppingListByID(lid)
	if l == nil {
		writeInternal(w)
		return
	}
	now := st.now().UTC()
	var keep []*shoppingItem
	for _, it := range l.Items {
		found := false
		for j, ref := range it.RecipeRefs {
			if ref.RecipeID != rid {
				continue
			}
			if ref.RecipeScale > dec {
				it.Quantity -= dec * ref.RecipeQuantity
			} else {
				it.Quantity -= ref.RecipeScale * ref.RecipeQuantity
			}
			ref.RecipeScale -= dec
			if ref.RecipeScale <= 0 {
				it.RecipeRefs = append(it.RecipeRefs[:j:j], it.RecipeRefs[j+1:]...)
			}
			found = true
			break
		}
		if found {
			it.UpdatedAt = now
			if it.Quantity < 0 || (it.Quantity == 0 && len(it.RecipeRefs) == 0) {
				continue
			}
		}
		keep = append(keep, it)
	}
	l.Items = keep
	for _, ref := range l.RecipeRefs {
		if ref.RecipeID == rid {
			ref.RecipeQuantity -= dec
			if ref.RecipeQuantity <= 0 {
				l.RecipeRefs = removeRef(l.RecipeRefs, ref)
			}
			break
		}
	}
	l.UpdatedAt = now
	writeJSON(w, http.StatusOK, st.renderList(l))
}

// recipeOnListArgs reads the list id, the recipe id and the optional body
// of the add- and remove-recipe endpoints.
func recipeOnListArgs(w http.ResponseWriter, r *http.Request) (string, string, jsonBody, bool) {
	lid, ok := itemUUID(w, r)
	if !ok {
		return "", "", nil, false
	}
	rid, ok := pathUUID(w, "recipe_id", r.PathValue("recipeId"))
	if !ok {
		return "", "", nil, false
	}
	b := jsonBody{}
	if r.ContentLength != 0 {
		if b, ok = decodeBody(w, r); !ok {
			return "", "", nil, false
		}
	}
	return lid, rid, b, true
}

func removeRef(refs []*listRecipeRef, r *listRecipeRef) []*listRecipeRef {
	var out []*listRecipeRef
	for _, x := range refs {
		if x != r {
			out = append(out, x)
		}
	}
	return out
}
