package mealplan_test

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/services/mealplan"
)

// weeklyList reads the demo seed's only shopping list.
func weeklyList(t *testing.T, s *stack) *mealplanv1.ShoppingList {
	t.Helper()
	over, err := s.client.GetShoppingList(ctx(t), connect.NewRequest(&mealplanv1.GetShoppingListRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(over.Msg.GetItems()) != 1 {
		t.Fatalf("lists %v", over.Msg.GetItems())
	}
	res, err := s.client.GetShoppingList(ctx(t), connect.NewRequest(&mealplanv1.GetShoppingListRequest{ListId: over.Msg.GetItems()[0].GetId()}))
	if err != nil {
		t.Fatal(err)
	}
	return res.Msg.GetList()
}

// unchecked flattens a list's groups into "label: display" lines.
func unchecked(l *mealplanv1.ShoppingList) []string {
	var out []string
	for _, g := range l.GetGroups() {
		for _, it := range g.GetItems() {
			out = append(out, g.GetLabel()+": "+it.GetDisplay())
		}
	}
	return out
}

func TestShoppingListOverviewAndGroups(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		over, err := s.client.GetShoppingList(ctx(t), connect.NewRequest(&mealplanv1.GetShoppingListRequest{}))
		if err != nil {
			t.Fatal(err)
		}
		sum := over.Msg.GetItems()[0]
		if sum.GetName() != "Weekly Groceries" || sum.GetUncheckedCount() != 5 || sum.GetCheckedCount() != 1 {
			t.Fatalf("summary %v", sum)
		}
		l := weeklyList(t, s)
		got := unchecked(l)
		// As a cook reads them, and as get_recipe shows the same units
		// (Mealie's abbreviation where the unit uses one): 6 eggs, 500 g.
		// Sections in the list's label order, unlabelled rows first, as
		// Mealie's app shows them.
		want := []string{": paper towels", "Produce: 2 onions", "Dairy: 6 eggs, free range", "Pantry: 1 can coconut milk", "Pantry: 500 g red lentils"}
		if !slices.Equal(got, want) || l.GetCheckedCount() != 1 {
			t.Fatalf("got %q checked %d", got, l.GetCheckedCount())
		}
	})
}

func TestAddFreeTextAndUpdateItems(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		// No pantry configured: asking to skip what is in stock is
		// refused before Mealie is asked.
		s := setup(t, v)
		s.mealie.ResetRequests()
		_, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{Items: []string{"2 onions"}, SkipInStock: proto.Bool(true)}))
		wantCode(t, err, connect.CodeUnavailable, "no pantry is configured (set SOUS_PANTRY_URL)", "nothing was added", "skip_in_stock=false")
		if len(s.mealie.Requests()) != 0 {
			t.Fatal("Mealie was called before the pantry refusal")
		}

		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			Items: []string{"2 onions", "1 cup milk", "kitchen roll"}, SkipInStock: proto.Bool(false)}))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Msg
		// Onions merge into the seeded onion row; milk and kitchen roll are new.
		if len(m.GetMerged()) != 1 || m.GetMerged()[0].GetItem().GetQuantity() != 4 || m.GetMerged()[0].GetName() != "2 onions" {
			t.Fatalf("merged %v", m.GetMerged())
		}
		if len(m.GetAdded()) != 2 || !slices.Equal(m.GetUnparsed(), []string{"kitchen roll"}) {
			t.Fatalf("added %v unparsed %q", m.GetAdded(), m.GetUnparsed())
		}
		l := weeklyList(t, s)
		got := unchecked(l)
		for _, w := range []string{"Produce: 4 onions", "Dairy: 1 c milk", ": kitchen roll"} {
			if !slices.Contains(got, w) {
				t.Fatalf("%q not in %q", w, got)
			}
		}

		ids := map[string]string{}
		for _, g := range l.GetGroups() {
			for _, it := range g.GetItems() {
				ids[it.GetDisplay()] = it.GetId()
			}
		}
		up, err := s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: l.GetId(), Check: []string{ids["paper towels"]}, Remove: []string{ids["kitchen roll"], "5f0c1d0e-8a51-4c7a-9d57-3c0f5e6b1a2b"}}))
		if err != nil {
			t.Fatal(err)
		}
		if len(up.Msg.GetChecked()) != 1 || len(up.Msg.GetRemoved()) != 1 || len(up.Msg.GetErrors()) != 1 ||
			up.Msg.GetErrors()[0].GetMessage() != "item not on this list" {
			t.Fatalf("%v", up.Msg)
		}
		after := weeklyList(t, s)
		if slices.Contains(unchecked(after), ": paper towels") || slices.Contains(unchecked(after), ": kitchen roll") || after.GetCheckedCount() != 2 {
			t.Fatalf("after %q checked %d", unchecked(after), after.GetCheckedCount())
		}
		_, err = s.client.UpdateShoppingItems(ctx(t), connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{
			ListId: l.GetId(), Uncheck: []string{ids["paper towels"]}}))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(unchecked(weeklyList(t, s)), ": paper towels") {
			t.Fatal("uncheck did not put paper towels back")
		}
	})
}

// The pantry service is down: shopping works without the check and refuses,
// saying so and adding nothing, with it.
func TestPantryUnreachable(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v, func(c *mealplan.Config) { c.Pantry = deadPantry(t) })
		s.mealie.ResetRequests()
		for _, skip := range []*bool{nil, proto.Bool(true)} {
			_, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
				RecipeSlugs: []string{"lentil-dal"}, SkipInStock: skip}))
			wantCode(t, err, connect.CodeUnavailable, "pantry service unreachable", "nothing was added", "skip_in_stock=false")
		}
		if n := writes(s.mealie); n != 0 {
			t.Fatalf("%d writes while the pantry was down", n)
		}
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			RecipeSlugs: []string{"lentil-dal"}, SkipInStock: proto.Bool(false)}))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Msg.GetAdded())+len(res.Msg.GetMerged()) != 8 || len(res.Msg.GetSkippedInStock()) != 0 {
			t.Fatalf("added %d merged %d", len(res.Msg.GetAdded()), len(res.Msg.GetMerged()))
		}
	})
}

// The shopping flow end to end: three recipes planned for a week, two of
// their ingredients in stock in the pantry (the Django food API), and one
// AddToShoppingList over the week that adds the rest once each and names
// the two it skipped.
func TestShoppingFlowSkipsPantryStock(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		pc := startPantry(t)
		s := setup(t, v, func(c *mealplan.Config) { c.Pantry = pc })

		for i, slug := range []string{"lentil-dal", "chicken-curry", "fish-tacos"} {
			date := []string{"2030-03-04", "2030-03-06", "2030-03-08"}[i]
			if _, err := s.client.AddMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
				Date: date, Meal: &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: slug}})); err != nil {
				t.Fatalf("planning %s: %v", slug, err)
			}
		}
		// Garlic and turmeric are in stock; lime is only low, so still bought.
		add, err := pc.AddToPantry(ctx(t), connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{
			{Name: "garlic", Location: pantryv1.Location_LOCATION_CUPBOARD},
			{Name: "turmeric", Location: pantryv1.Location_LOCATION_CUPBOARD},
			{Name: "lime", Location: pantryv1.Location_LOCATION_FRIDGE},
		}}))
		if err != nil {
			t.Fatalf("AddToPantry: %v", err)
		}
		for _, r := range add.Msg.GetItems() {
			if r.GetOutcome() == pantryv1.AddOutcome_ADD_OUTCOME_FAILED {
				t.Fatalf("pantry add %s: %s", r.GetName(), r.GetMessage())
			}
		}
		if _, err := pc.SetItemState(ctx(t), connect.NewRequest(&pantryv1.SetItemStateRequest{Ingredient: "lime", State: pantryv1.ItemState_ITEM_STATE_LOW})); err != nil {
			t.Fatalf("SetItemState: %v", err)
		}

		s.mealie.ResetRequests()
		res, err := s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{
			MealPlanRange: &mealplanv1.DateRange{StartDate: "2030-03-02", EndDate: "2030-03-08"}}))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Msg
		var skipped []string
		for _, sk := range m.GetSkippedInStock() {
			skipped = append(skipped, sk.GetPantryItem()+"@"+sk.GetLocation())
			if !strings.Contains(sk.GetName(), sk.GetPantryItem()) {
				t.Errorf("skipped %q names pantry item %q", sk.GetName(), sk.GetPantryItem())
			}
		}
		sort.Strings(skipped)
		// One skip a recipe line: two planned recipes use garlic, and each
		// is added through Mealie's add-recipe endpoint with its own lines.
		if !slices.Equal(skipped, []string{"garlic@cupboard", "garlic@cupboard", "turmeric@cupboard"}) {
			t.Fatalf("skipped %q", skipped)
		}
		// One call of Mealie's add-recipe endpoint per recipe, no item
		// writes of sous's own.
		if n := calls(s.mealie, http.MethodPost, "/api/households/shopping/items"); n != 0 {
			t.Fatalf("%d item writes", n)
		}
		if n := calls(s.mealie, http.MethodPost, "/api/households/shopping/lists/"); n != 3 {
			t.Fatalf("%d add-recipe calls, want 3", n)
		}

		l := weeklyList(t, s)
		seen := map[string]int{}
		for _, g := range l.GetGroups() {
			for _, it := range g.GetItems() {
				if it.GetFood() != "" {
					seen[it.GetFood()]++
				}
			}
		}
		for food, n := range seen {
			if n != 1 {
				t.Errorf("%s is on the list %d times", food, n)
			}
		}
		for _, food := range []string{"garlic", "turmeric"} {
			if seen[food] != 0 {
				t.Errorf("%s is in stock but was added", food)
			}
		}
		// Everything else of the three recipes is there, once.
		for _, food := range []string{"red lentils", "onion", "ginger", "garam masala", "coconut milk", "chicken thigh",
			"curry powder", "canned tomatoes", "basmati rice", "white fish", "chili powder", "tortilla", "cabbage", "lime",
			"avocado", "cilantro"} {
			if seen[food] != 1 {
				t.Errorf("%s: %d rows, want 1", food, seen[food])
			}
		}
		// Coconut milk from two recipes merged into the seeded can: 1 + 1 + 1.
		for _, g := range l.GetGroups() {
			for _, it := range g.GetItems() {
				if it.GetFood() == "coconut milk" && it.GetQuantity() != 3 {
					t.Errorf("coconut milk %v", it)
				}
				if it.GetFood() == "red lentils" && it.GetQuantity() != 750 {
					t.Errorf("red lentils %v", it)
				}
			}
		}
	})
}
