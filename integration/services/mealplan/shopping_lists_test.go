package mealplan_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/services/mealplan"
)

// rawList reads a list straight from Mealie (the emulator), as Mealie's
// app would, to check what sous wrote.
func rawList(t *testing.T, s *stack, id string) map[string]any {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx(t), http.MethodGet, s.mealie.URL+"/api/households/shopping/lists/"+id, nil)
	req.Header.Set("Authorization", "Bearer "+s.mealie.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return map[string]any{"status": resp.StatusCode}
	}
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// rows are a raw list's items as "display|checked|recipe-ref-count".
func rows(l map[string]any) []string {
	var out []string
	items, _ := l["listItems"].([]any)
	for _, it := range items {
		m := it.(map[string]any)
		refs, _ := m["recipeReferences"].([]any)
		out = append(out, fmt.Sprintf("%v|%v|%d", m["display"], m["checked"], len(refs)))
	}
	slices.Sort(out)
	return out
}

// rowsBy maps a raw list's items by food name (or note) to the item.
func rowsBy(l map[string]any) map[string][]map[string]any {
	out := map[string][]map[string]any{}
	items, _ := l["listItems"].([]any)
	for _, it := range items {
		m := it.(map[string]any)
		k, _ := m["note"].(string)
		if f, ok := m["food"].(map[string]any); ok && f != nil {
			k = f["name"].(string)
		}
		out[k] = append(out[k], m)
	}
	return out
}

// The one-sentence job: a household plans a week and shops for it on a
// list that does not exist yet. The list is created by name, the planned
// recipes go through Mealie's own add-recipe endpoint (every row carries
// its recipe), the same call twice changes nothing, and a recipe already
// on the list is named rather than doubled.
func TestShopForAWeekOnANewList(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		for i, slug := range []string{"lentil-dal", "chicken-curry", "lentil-dal"} {
			if _, err := s.client.AddMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
				Date: fmt.Sprintf("2030-12-0%d", 7+i), Meal: &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: slug}})); err != nil {
				t.Fatal(err)
			}
		}
		week := &mealplanv1.DateRange{StartDate: "2030-12-07", EndDate: "2030-12-13"}
		s.mealie.ResetRequests()
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListName: "Week of Dec 7", MealPlanRange: week, SkipInStock: proto.Bool(false)}))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Msg
		if !m.GetCreatedList() || m.GetListName() != "Week of Dec 7" || !slices.Equal(m.GetRecipesAdded(), []string{"lentil-dal", "chicken-curry"}) {
			t.Fatalf("created %v name %q recipes %q", m.GetCreatedList(), m.GetListName(), m.GetRecipesAdded())
		}
		if n := calls(s.mealie, http.MethodPost, "/api/households/shopping/lists/"+m.GetListId()+"/recipe/"); n != 2 {
			t.Fatalf("%d add-recipe calls, want one per recipe", n)
		}
		if n := calls(s.mealie, http.MethodPost, "/api/households/shopping/items"); n != 0 {
			t.Fatalf("%d item writes: recipes must go through Mealie's endpoint", n)
		}
		l := rawList(t, s, m.GetListId())
		by := rowsBy(l)
		// Planned twice: the dal's lentils are bought twice (250 g a time),
		// and coconut milk from both recipes is one row.
		if r := by["red lentils"]; len(r) != 1 || r[0]["quantity"] != 500.0 {
			t.Fatalf("red lentils %v", r)
		}
		if r := by["coconut milk"]; len(r) != 1 || len(r[0]["recipeReferences"].([]any)) != 2 {
			t.Fatalf("coconut milk %v", r)
		}
		for k, rs := range by {
			for _, r := range rs {
				if len(r["recipeReferences"].([]any)) == 0 {
					t.Errorf("%s carries no recipe reference", k)
				}
			}
		}
		refs := map[string]float64{}
		for _, r := range l["recipeReferences"].([]any) {
			rr := r.(map[string]any)
			refs[rr["recipe"].(map[string]any)["slug"].(string)] = rr["recipeQuantity"].(float64)
		}
		if refs["lentil-dal"] != 2 || refs["chicken-curry"] != 1 {
			t.Fatalf("list recipe references %v", refs)
		}

		// The same sentence again, the name in other case: the same list,
		// nothing added, both recipes named.
		before := rows(l)
		again, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListName: "week of dec 7", MealPlanRange: week, SkipInStock: proto.Bool(false)}))
		if err != nil {
			t.Fatal(err)
		}
		if again.Msg.GetCreatedList() || again.Msg.GetListId() != m.GetListId() || len(again.Msg.GetAdded())+len(again.Msg.GetMerged()) != 0 ||
			!slices.Equal(again.Msg.GetAlreadyOnList(), []string{"lentil-dal", "chicken-curry"}) {
			t.Fatalf("second call %v", again.Msg)
		}
		if after := rows(rawList(t, s, m.GetListId())); !slices.Equal(after, before) {
			t.Fatalf("the second call changed the list:\n%q\n%q", before, after)
		}
		over, err := s.client.GetShoppingList(ctx(t), connect.NewRequest(&mealplanv1.GetShoppingListRequest{}))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(over.Msg.GetItems()); n != 2 {
			t.Fatalf("%d lists, want the seeded one and the new one", n)
		}
	})
}

// A re-add never un-checks: bought rows stay bought and the recipe's
// second portion is a new row, as Mealie merges only unchecked rows; a
// scale multiplies the recipe's lines.
func TestReAddKeepsCheckedAndScales(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListName: "Bake sale", RecipeSlugs: []string{"banana-bread"}, RecipeScale: proto.Float64(2), SkipInStock: proto.Bool(false)}))
		if err != nil {
			t.Fatal(err)
		}
		id := res.Msg.GetListId()
		by := rowsBy(rawList(t, s, id))
		if r := by["butter"]; len(r) != 1 || r[0]["quantity"] != 150.0 {
			t.Fatalf("butter at scale 2: %v", r)
		}
		if _, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: id, Check: []string{"Butter"}})); err != nil {
			t.Fatal(err)
		}
		// Asked again without add_again: nothing.
		same, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListId: id, RecipeSlugs: []string{"banana-bread"}, SkipInStock: proto.Bool(false)}))
		if err != nil || !slices.Equal(same.Msg.GetAlreadyOnList(), []string{"banana-bread"}) {
			t.Fatalf("%v %v", same, err)
		}
		if _, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListId: id, RecipeSlugs: []string{"banana-bread"}, AddAgain: true, SkipInStock: proto.Bool(false)})); err != nil {
			t.Fatal(err)
		}
		by = rowsBy(rawList(t, s, id))
		var states []string
		for _, r := range by["butter"] {
			states = append(states, fmt.Sprintf("%v:%v", r["quantity"], r["checked"]))
		}
		slices.Sort(states)
		if !slices.Equal(states, []string{"150:true", "75:false"}) {
			t.Fatalf("butter rows %q, want the bought 150 g kept and 75 g more to buy", states)
		}
		if r := by["brown sugar"]; len(r) != 1 || r[0]["quantity"] != 450.0 {
			t.Fatalf("brown sugar %v", r)
		}
	})
}

// Lists by name: create (a taken name refused), rename keeping every item,
// its checked state and the label order, delete only with the name
// repeated. Every write is read back from Mealie.
func TestShoppingListLifecycle(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		_, err := s.client.CreateShoppingList(ctx(t), connect.NewRequest(&mealplanv1.CreateShoppingListRequest{Name: "weekly groceries"}))
		wantCode(t, err, connect.CodeAlreadyExists, "Weekly Groceries")
		c, err := s.client.CreateShoppingList(ctx(t), connect.NewRequest(&mealplanv1.CreateShoppingListRequest{Name: "Party"}))
		if err != nil {
			t.Fatal(err)
		}
		id := c.Msg.GetList().GetId()
		if got := rawList(t, s, id); got["name"] != "Party" || len(got["listItems"].([]any)) != 0 {
			t.Fatalf("created %v", got)
		}
		if _, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListId: id, Items: []string{"2 onions", "crisps", "ice"}, RecipeSlugs: []string{"guacamole"}, SkipInStock: proto.Bool(false)})); err != nil {
			t.Fatal(err)
		}
		if _, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: id, Check: []string{"ice"}})); err != nil {
			t.Fatal(err)
		}
		before := rawList(t, s, id)
		r, err := s.client.RenameShoppingList(ctx(t), connect.NewRequest(&mealplanv1.RenameShoppingListRequest{ListId: id, Name: "Garden party"}))
		if err != nil {
			t.Fatal(err)
		}
		after := rawList(t, s, id)
		if after["name"] != "Garden party" || r.Msg.GetList().GetName() != "Garden party" {
			t.Fatalf("renamed %v", after["name"])
		}
		if !slices.Equal(rows(after), rows(before)) || r.Msg.GetList().GetCheckedCount() != 1 {
			t.Fatalf("rename changed the items:\n%q\n%q", rows(before), rows(after))
		}
		labels := func(l map[string]any) string { b, _ := json.Marshal(l["labelSettings"]); return string(b) }
		if labels(after) != labels(before) {
			t.Fatalf("label settings %s, were %s", labels(after), labels(before))
		}

		_, err = s.client.DeleteShoppingList(ctx(t), connect.NewRequest(&mealplanv1.DeleteShoppingListRequest{ListId: id, ConfirmName: "Party"}))
		wantCode(t, err, connect.CodeInvalidArgument, `does not match the list's name "Garden party"`, "nothing was deleted")
		if got := rawList(t, s, id); got["name"] != "Garden party" {
			t.Fatalf("after a refused delete %v", got)
		}
		d, err := s.client.DeleteShoppingList(ctx(t), connect.NewRequest(&mealplanv1.DeleteShoppingListRequest{ListId: id, ConfirmName: "garden PARTY"}))
		if err != nil {
			t.Fatal(err)
		}
		if d.Msg.GetItemCount() != int32(len(before["listItems"].([]any))) {
			t.Fatalf("deleted %v", d.Msg)
		}
		if got := rawList(t, s, id); got["status"] == nil {
			t.Fatalf("list still there: %v", got)
		}
	})
}

// Check off and tidy: by name, checked rows removed, one recipe's rows
// taken off through Mealie's endpoint while a row another recipe shares
// keeps that recipe's part; and a free-text row shows in Mealie exactly as
// written on every version (3.11 shows a row of quantity 1 as "1 2 ...").
func TestCheckOffAndTidy(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListName: "Tidy", Items: []string{"3 bin bags", "kitchen roll"}, RecipeSlugs: []string{"lentil-dal", "chicken-curry"}, SkipInStock: proto.Bool(false)}))
		if err != nil {
			t.Fatal(err)
		}
		id := res.Msg.GetListId()
		by := rowsBy(rawList(t, s, id))
		for _, text := range []string{"3 bin bags", "kitchen roll"} {
			if r := by[text]; len(r) != 1 || r[0]["display"] != text {
				t.Errorf("Mealie shows %q as %v", text, r)
			}
		}
		up, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: id, Check: []string{"bin bags", "Kitchen Roll", "ginger"}}))
		if err != nil || len(up.Msg.GetChecked()) != 3 || len(up.Msg.GetErrors()) != 0 {
			t.Fatalf("%v %v", up, err)
		}
		_, err = s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: id, Check: []string{"caviar"}}))
		if err != nil {
			t.Fatal(err)
		}
		up, err = s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: id, Uncheck: []string{"ginger"}, RemoveChecked: true, RemoveRecipes: []string{"lentil-dal", "fish-tacos"}}))
		if err != nil {
			t.Fatal(err)
		}
		if len(up.Msg.GetRemoved()) != 2 || !slices.Equal(up.Msg.GetRecipesRemoved(), []string{"lentil-dal"}) ||
			len(up.Msg.GetErrors()) != 1 || !strings.Contains(up.Msg.GetErrors()[0].GetMessage(), "on it: lentil-dal, chicken-curry") {
			t.Fatalf("%v", up.Msg)
		}
		by = rowsBy(rawList(t, s, id))
		if len(by["bin bags"])+len(by["3 bin bags"])+len(by["kitchen roll"])+len(by["red lentils"])+len(by["turmeric"]) != 0 {
			t.Fatalf("still on the list: %v", rows(rawList(t, s, id)))
		}
		// Coconut milk is the curry's too: its row stays with the curry's can.
		if r := by["coconut milk"]; len(r) != 1 || r[0]["quantity"] != 1.0 || len(r[0]["recipeReferences"].([]any)) != 1 {
			t.Fatalf("coconut milk %v", r)
		}
		if r := by["chicken thigh"]; len(r) != 1 {
			t.Fatalf("the curry's chicken went too: %v", r)
		}
		if len(up.Msg.GetList().GetRecipes()) != 1 || up.Msg.GetList().GetRecipes()[0].GetSlug() != "chicken-curry" {
			t.Fatalf("recipes left %v", up.Msg.GetList().GetRecipes())
		}
	})
}

// namedPantry is a pantry service holding fixed in-stock items.
type namedPantry struct {
	pantryv1connect.UnimplementedPantryServiceHandler
	items []*pantryv1.PantryItem
}

func (p *namedPantry) GetPantry(context.Context, *connect.Request[pantryv1.GetPantryRequest]) (*connect.Response[pantryv1.GetPantryResponse], error) {
	return connect.NewResponse(&pantryv1.GetPantryResponse{Groups: []*pantryv1.LocationGroup{{Location: pantryv1.Location_LOCATION_CUPBOARD, Items: p.items}}}), nil
}

// The pantry skip reads names as a cook means them (names.Supplies):
// "eggs" is the recipe's "egg", while the pantry's "sugar" does not
// supply the recipe's "brown sugar" (a general item never stands in for a
// kind); what is skipped is named with why, and the rest of the recipe
// still goes through Mealie's endpoint, carrying its reference.
func TestPantrySkipReadsNames(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		in := func(n string) *pantryv1.PantryItem {
			return &pantryv1.PantryItem{Name: n, State: pantryv1.ItemState_ITEM_STATE_IN, Location: pantryv1.Location_LOCATION_CUPBOARD}
		}
		p := &namedPantry{items: []*pantryv1.PantryItem{in("sugar"), in("Eggs"), in("salt"), {Name: "butter", State: pantryv1.ItemState_ITEM_STATE_LOW}}}
		path, h := pantryv1connect.NewPantryServiceHandler(p)
		pc := pantryv1connect.NewPantryServiceClient(serveHandler(t, path, h))
		s := setup(t, v, func(c *mealplan.Config) { c.Pantry = pc })
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListName: "Baking", RecipeSlugs: []string{"banana-bread"}}))
		if err != nil {
			t.Fatal(err)
		}
		var skipped []string
		for _, sk := range res.Msg.GetSkippedInStock() {
			skipped = append(skipped, sk.GetName()+"="+sk.GetPantryItem()+"/"+sk.GetHow())
		}
		want := []string{"1 egg=Eggs/plural", "1 pinch salt=salt/exact"}
		if !slices.Equal(skipped, want) {
			t.Fatalf("skipped %q, want %q", skipped, want)
		}
		by := rowsBy(rawList(t, s, res.Msg.GetListId()))
		for _, gone := range []string{"egg", "salt"} {
			if len(by[gone]) != 0 {
				t.Errorf("%s is in stock but was added", gone)
			}
		}
		if len(by["brown sugar"]) != 1 {
			t.Errorf("brown sugar is not on the list although only sugar is in stock: %v", rows(rawList(t, s, res.Msg.GetListId())))
		}
		// Butter is only low: bought.
		if r := by["butter"]; len(r) != 1 || len(r[0]["recipeReferences"].([]any)) != 1 {
			t.Fatalf("butter %v", r)
		}
		if !slices.Equal(res.Msg.GetRecipesAdded(), []string{"banana-bread"}) {
			t.Fatalf("recipes added %q", res.Msg.GetRecipesAdded())
		}
	})
}

// mealieCall sends one request to the emulator's Mealie API.
func mealieCall(t *testing.T, s *stack, method, path string, body any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx(t), method, s.mealie.URL+path, strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer "+s.mealie.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, out)
	}
	return out
}

// A recipe that uses another (referencedRecipe, 3.11): Mealie's endpoint
// expands it, scaled, into the sub-recipe's rows, and taking the recipe
// off the list takes those rows too, though they refer to the sub-recipe.
func TestSubRecipeOnAList(t *testing.T) {
	s := setup(t, "3.11")
	dal := mealieCall(t, s, http.MethodGet, "/api/recipes/lentil-dal", nil)
	mealieCall(t, s, http.MethodPost, "/api/recipes", map[string]any{"name": "Dal Night"})
	mealieCall(t, s, http.MethodPatch, "/api/recipes/dal-night", map[string]any{"recipeIngredient": []any{
		map[string]any{"quantity": 2, "note": "", "referenceId": "0b6f3c52-2f0e-4d7e-9a53-6d8e2f1c4a10",
			"referencedRecipe": map[string]any{"id": dal["id"], "name": dal["name"], "slug": dal["slug"]}},
		map[string]any{"quantity": 0, "note": "poppadoms", "referenceId": "6a1d0c3e-8b2f-4f4a-b7c9-1e5d3a9f2b64"},
	}})
	res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
		ListName: "Dal night", RecipeSlugs: []string{"dal-night"}, SkipInStock: proto.Bool(false)}))
	if err != nil {
		t.Fatal(err)
	}
	id := res.Msg.GetListId()
	by := rowsBy(rawList(t, s, id))
	// The dal's 250 g of lentils, twice.
	if r := by["red lentils"]; len(r) != 1 || r[0]["quantity"] != 500.0 {
		t.Fatalf("red lentils %v", r)
	}
	if len(by["poppadoms"]) != 1 {
		t.Fatalf("poppadoms %v", rows(rawList(t, s, id)))
	}
	up, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: id, RemoveRecipes: []string{"dal-night"}}))
	if err != nil {
		t.Fatal(err)
	}
	if left := rows(rawList(t, s, id)); len(left) != 0 || !slices.Equal(up.Msg.GetRecipesRemoved(), []string{"dal-night"}) {
		t.Fatalf("after taking dal night off: %q (%v)", left, up.Msg)
	}
}

// A name given to check means every row it covers, singular or plural,
// free-text rows included: "eggs" is both egg rows, "limes" the juice of
// one; the eggplant stays. A name that covers no row is answered with the
// closest rows.
func TestCheckByNameCoversEveryRow(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			ListName: "Eggs", Items: []string{"3 eggs", "8 SimplyNature Organic Cage Free Eggs", "Juice of half a lime", "1 eggplant"}, SkipInStock: proto.Bool(false)}))
		if err != nil {
			t.Fatal(err)
		}
		id := res.Msg.GetListId()
		up, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: id, Check: []string{"eggs", "limes"}}))
		if err != nil || len(up.Msg.GetChecked()) != 3 || len(up.Msg.GetErrors()) != 0 {
			t.Fatalf("%v %v", up, err)
		}
		checked := map[string]bool{}
		for _, r := range rawList(t, s, id)["listItems"].([]any) {
			row := r.(map[string]any)
			checked[fmt.Sprint(row["display"])] = row["checked"] == true
		}
		if len(checked) != 4 || checked["1 eggplant"] {
			t.Fatalf("after check: %v", checked)
		}
		for d, c := range checked {
			if d != "1 eggplant" && !c {
				t.Errorf("%q left unchecked", d)
			}
		}
		up, err = s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: id, Check: []string{"eggplants please"}}))
		if err != nil || len(up.Msg.GetErrors()) != 1 || !strings.Contains(up.Msg.GetErrors()[0].GetMessage(), "closest of its 4 rows: 1 eggplant") {
			t.Fatalf("%v %v", up, err)
		}
	})
}

// A free-text line keeps its amount and unit as Mealie's app shows it, on
// a library whose units Mealie's seeder made and on one with none: the
// parser's reading is mended by the line's own words, a standard unit the
// library lacks is created as the seeder makes it, and "tsp." is a unit.
func TestFreeTextKeepsAmountAndUnit(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		for _, seeded := range []bool{true, false} {
			t.Run(map[bool]string{true: "units seeded", false: "no units"}[seeded], func(t *testing.T) {
				s := setup(t, v)
				if !seeded {
					units := mealieCall(t, s, http.MethodGet, "/api/units?perPage=-1", nil)["items"].([]any)
					for _, u := range units {
						mealieCall(t, s, http.MethodDelete, "/api/units/"+u.(map[string]any)["id"].(string), nil)
					}
				}
				mealieCall(t, s, http.MethodPost, "/api/foods", map[string]any{"name": "light brown sugar"})
				mealieCall(t, s, http.MethodPost, "/api/foods", map[string]any{"name": "red pepper flakes"})
				res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
					ListName: "Groceries", SkipInStock: proto.Bool(false),
					Items: []string{"2 cups light brown sugar, packed", "2 tsp. red pepper flakes", "1 Tbsp. sumac"}}))
				if err != nil {
					t.Fatal(err)
				}
				by := rowsBy(rawList(t, s, res.Msg.GetListId()))
				// the demo's seeded units show their abbreviations; units
				// made as Mealie's seeder makes them, their names
				shows := map[string]string{"light brown sugar": "2 cups light brown sugar packed", "red pepper flakes": "2 teaspoons red pepper flakes"}
				if seeded {
					shows = map[string]string{"light brown sugar": "2 c light brown sugar packed", "red pepper flakes": "2 tsp red pepper flakes"}
				}
				for food, want := range shows {
					r := by[food]
					if len(r) != 1 || r[0]["display"] != want {
						t.Errorf("%s shows %v in Mealie's app, want %q", food, r, want)
					}
				}
				// sumac is not in the library: the line is kept as
				// written, amount and unit included
				if r := by["1 Tbsp. sumac"]; len(r) != 1 || r[0]["display"] != "1 Tbsp. sumac" {
					t.Errorf("the unknown food's line shows %v", r)
				}
				wantUnits := []string{"cup", "teaspoon"}
				if seeded {
					wantUnits = nil
				}
				if !slices.Equal(res.Msg.GetCreatedUnits(), wantUnits) {
					t.Errorf("created_units = %q, want %q", res.Msg.GetCreatedUnits(), wantUnits)
				}
				if !seeded {
					u := mealieCall(t, s, http.MethodGet, "/api/units?perPage=-1", nil)["items"].([]any)
					for _, it := range u {
						m := it.(map[string]any)
						if m["name"] == "teaspoon" && (m["abbreviation"] != "tsp" || m["pluralName"] != "teaspoons") {
							t.Errorf("teaspoon was not made as Mealie's seeder makes it: %v", m)
						}
					}
				}
			})
		}
	})
}
