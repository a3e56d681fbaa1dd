package mealieemu

import (
	"net/http"
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
		{"extras", map[string]any{}}, {"id", it.ID}, {"groupId", st.user.GroupID}, {"householdId", st.user.HouseholdID},
		{"label", labelJSON}, {"recipeReferences", refs}, {"createdAt", stamp(it.CreatedAt)}, {"updatedAt", stamp(it.UpdatedAt)}}...)
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
	return object{{"name", optString(l.Name)}, {"extras", map[string]any{}}, {"createdAt", stamp(l.CreatedAt)},
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
	l.Name = b.optStr("name")
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
	if x, merged := st.addItem(l, it); merged {
		updated = append(updated, st.renderItem(l, x))
	} else {
		created = append(created, st.renderItem(l, x))
	}
	writeJSON(w, http.StatusCreated, itemsResult(created, updated, nil))
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
		if x, merged := st.addItem(l, it); merged {
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
	next.ID, next.CreatedAt, next.RecipeRefs = it.ID, it.CreatedAt, it.RecipeRefs
	*it = *next
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
// recipeIncrementQuantity, merging into existing items, and answers the whole
// list (services/mealplan/testdata/shopping_lists__add_recipe.json). An unknown recipe fails unhandled
// (services/mealplan/testdata/shopping_lists__add_unknown_recipe.json).
func (s *Server) addRecipeToList(w http.ResponseWriter, r *http.Request) {
	s.changeRecipeOnList(w, r, 1)
}

// removeRecipeFromList subtracts one scaled portion of the recipe's
// ingredients (services/mealplan/testdata/shopping_lists__remove_recipe.json).
func (s *Server) removeRecipeFromList(w http.ResponseWriter, r *http.Request) {
	s.changeRecipeOnList(w, r, -1)
}

func (s *Server) changeRecipeOnList(w http.ResponseWriter, r *http.Request, sign float64) {
	lid, ok := itemUUID(w, r)
	if !ok {
		return
	}
	rid, ok := pathUUID(w, "recipe_id", r.PathValue("recipeId"))
	if !ok {
		return
	}
	scale := 1.0
	if r.ContentLength != 0 {
		b, ok := decodeBody(w, r)
		if !ok {
			return
		}
		if q, ok := b.num("recipeIncrementQuantity"); ok {
			scale = q
		} else if q, ok := b.num("recipeDecrementQuantity"); ok {
			scale = q
		}
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
	now := st.now().UTC()
	var ref *listRecipeRef
	for _, x := range l.RecipeRefs {
		if x.RecipeID == rid {
			ref = x
		}
	}
	if ref == nil && sign > 0 {
		ref = &listRecipeRef{ID: newID(), RecipeID: rid}
		l.RecipeRefs = append(l.RecipeRefs, ref)
	}
	if ref != nil {
		ref.RecipeQuantity += sign * scale
	}
	for _, in := range rc.Ingredients {
		q := 1.0
		if in.Quantity != nil {
			q = *in.Quantity
		}
		if sign > 0 {
			it := &shoppingItem{ID: newID(), Quantity: q * scale, UnitID: in.UnitID, FoodID: in.FoodID, Note: in.Note,
				Extras: map[string]any{}, CreatedAt: now, UpdatedAt: now,
				RecipeRefs: []*itemRecipeRef{{ID: newID(), RecipeID: rid, RecipeQuantity: q * scale, RecipeScale: scale, RecipeNote: strp(in.Note)}}}
			if in.FoodID != nil {
				if f := st.foodByID(*in.FoodID); f != nil {
					it.LabelID = f.LabelID
					it.IsFood = true
				}
			}
			st.addItem(l, it)
			continue
		}
		for i, x := range l.Items {
			if sameIngredient(x, in) {
				x.Quantity -= q * scale
				if x.Quantity <= 0 {
					l.Items = append(l.Items[:i], l.Items[i+1:]...)
				}
				break
			}
		}
	}
	if ref != nil && ref.RecipeQuantity <= 0 {
		l.RecipeRefs = removeRef(l.RecipeRefs, ref)
	}
	l.UpdatedAt = now
	writeJSON(w, http.StatusOK, st.renderList(l))
}

func sameIngredient(x *shoppingItem, in ingredient) bool {
	eq := func(a, b *string) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }
	if in.FoodID != nil {
		return eq(x.FoodID, in.FoodID) && eq(x.UnitID, in.UnitID)
	}
	return x.FoodID == nil && x.Note == in.Note && eq(x.UnitID, in.UnitID)
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
