package mealplan_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/services/mealplan"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
)

const day = "2006-01-02"

func TestGetStatus(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v, func(c *mealplan.Config) { c.Pantry = deadPantry(t) })
		res, err := s.client.GetStatus(ctx(t), connect.NewRequest(&mealplanv1.GetStatusRequest{}))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Msg
		if m.GetUser() == "" || m.GetMealieVersion() != aboutVersion[v] || m.GetPantryAvailable() || m.GetPantryMessage() == "" {
			t.Fatalf("%v", m)
		}
	})
}

func TestMealPlanReadAddDelete(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		mon := thisMonday()
		week := &mealplanv1.GetMealPlanRequest{StartDate: mon.Format(day), EndDate: mon.AddDate(0, 0, 6).Format(day)}
		res, err := s.client.GetMealPlan(ctx(t), connect.NewRequest(week))
		if err != nil {
			t.Fatal(err)
		}
		items := res.Msg.GetItems()
		// The demo seed's week: nine entries, one a title ("Pizza night out").
		if len(items) != 9 {
			t.Fatalf("%d entries this week: %v", len(items), items)
		}
		if items[0].GetDate() != mon.Format(day) || items[0].GetRecipeSlug() != "lentil-dal" {
			t.Fatalf("first %v", items[0])
		}
		// Wednesday: lunch before dinner.
		if items[2].GetEntryType() != mealplanv1.EntryType_ENTRY_TYPE_LUNCH || items[3].GetRecipeSlug() != "weeknight-chili" {
			t.Fatalf("wednesday %v %v", items[2], items[3])
		}

		today, err := s.client.GetTodaysMeals(ctx(t), connect.NewRequest(&mealplanv1.GetTodaysMealsRequest{}))
		if err != nil {
			t.Fatal(err)
		}
		if today.Msg.GetDate() != time.Now().UTC().Format(day) || today.Msg.GetTimeZone() != "UTC" || len(today.Msg.GetItems()) == 0 {
			t.Fatalf("today %v", today.Msg)
		}

		add, err := s.client.AddMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2030-01-07", EntryType: mealplanv1.EntryType_ENTRY_TYPE_BREAKFAST, Note: "double batch",
			Meal: &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: "pancakes"}}))
		if err != nil {
			t.Fatal(err)
		}
		e := add.Msg.GetEntry()
		if e.GetId() == "" || e.GetRecipeSlug() != "pancakes" || e.GetRecipeName() != "Pancakes" || e.GetNote() != "double batch" {
			t.Fatalf("added %v", e)
		}
		title, err := s.client.AddMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2030-01-07", Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Takeaway"}}))
		if err != nil {
			t.Fatal(err)
		}
		if title.Msg.GetEntry().GetTitle() != "Takeaway" || title.Msg.GetEntry().GetEntryType() != mealplanv1.EntryType_ENTRY_TYPE_DINNER {
			t.Fatalf("title entry %v", title.Msg.GetEntry())
		}

		s.mealie.ResetRequests()
		_, err = s.client.AddMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2030-01-07", Meal: &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: "no-such-recipe"}}))
		wantCode(t, err, connect.CodeNotFound, "no-such-recipe")
		_, err = s.client.AddMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "07/01/2030", Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "x"}}))
		wantCode(t, err, connect.CodeInvalidArgument, "YYYY-MM-DD")
		if writes(s.mealie) != 0 {
			t.Fatal("a refused add wrote to Mealie")
		}

		del, err := s.client.DeleteMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.DeleteMealPlanEntryRequest{EntryId: e.GetId()}))
		if err != nil {
			t.Fatal(err)
		}
		if del.Msg.GetEntry().GetRecipeSlug() != "pancakes" {
			t.Fatalf("deleted %v", del.Msg.GetEntry())
		}
		_, err = s.client.DeleteMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.DeleteMealPlanEntryRequest{EntryId: e.GetId()}))
		wantCode(t, err, connect.CodeNotFound, "meal plan entry "+e.GetId()+" not found")
		left, err := s.client.GetMealPlan(ctx(t), connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2030-01-07", EndDate: "2030-01-07"}))
		if err != nil {
			t.Fatal(err)
		}
		if len(left.Msg.GetItems()) != 1 || left.Msg.GetItems()[0].GetTitle() != "Takeaway" {
			t.Fatalf("left %v", left.Msg.GetItems())
		}
	})
}

func TestRandomWeekIsSevenCalls(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		s.mealie.ResetRequests()
		res, err := s.client.RandomMealPlan(ctx(t), connect.NewRequest(&mealplanv1.RandomMealPlanRequest{StartDate: "2030-02-04", EndDate: "2030-02-10"}))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(s.mealie.Requests()); n != 7 {
			t.Fatalf("%d Mealie requests for a 7-day fill, want 7", n)
		}
		if n := calls(s.mealie, http.MethodPost, "/api/households/mealplans/random"); n != 7 {
			t.Fatalf("%d random calls", n)
		}
		if res.Msg.GetPlanned() != 7 || res.Msg.GetFailed() != 0 {
			t.Fatalf("%v", res.Msg)
		}
		for i, d := range res.Msg.GetItems() {
			if want := time.Date(2030, 2, 4+i, 0, 0, 0, 0, time.UTC).Format(day); d.GetDate() != want || d.GetEntry().GetRecipeSlug() == "" || d.GetEntry().GetDate() != want {
				t.Fatalf("day %d: %v", i, d)
			}
		}
		got, err := s.client.GetMealPlan(ctx(t), connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2030-02-04", EndDate: "2030-02-10"}))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Msg.GetItems()) != 7 {
			t.Fatalf("%d entries stored", len(got.Msg.GetItems()))
		}
	})
}

func TestRandomFifteenDaysWritesNothing(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		s.mealie.ResetRequests()
		_, err := s.client.RandomMealPlan(ctx(t), connect.NewRequest(&mealplanv1.RandomMealPlanRequest{StartDate: "2030-02-01", EndDate: "2030-02-15"}))
		wantCode(t, err, connect.CodeInvalidArgument, "15 days", "14")
		if n := len(s.mealie.Requests()); n != 0 {
			t.Fatalf("%d Mealie requests for a refused range", n)
		}
		_, err = s.client.RandomMealPlan(ctx(t), connect.NewRequest(&mealplanv1.RandomMealPlanRequest{StartDate: "2030-02-01", EndDate: "2030-02-14", EntryType: 42}))
		wantCode(t, err, connect.CodeInvalidArgument, "entry_type")
		if n := len(s.mealie.Requests()); n != 0 {
			t.Fatalf("%d Mealie requests for an unknown entry type", n)
		}
	})
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v, func(c *mealplan.Config) { c.ReadOnly = true })
		s.mealie.ResetRequests()
		_, err := s.client.RandomMealPlan(ctx(t), connect.NewRequest(&mealplanv1.RandomMealPlanRequest{StartDate: "2030-02-04", EndDate: "2030-02-04"}))
		wantCode(t, err, connect.CodePermissionDenied, "read-only")
		_, err = s.client.AddToShoppingList(ctx(t), connect.NewRequest(&mealplanv1.AddToShoppingListRequest{Items: []string{"milk"}}))
		wantCode(t, err, connect.CodePermissionDenied, "read-only")
		if len(s.mealie.Requests()) != 0 {
			t.Fatal("a refused write reached Mealie")
		}
		if _, err := s.client.GetShoppingList(ctx(t), connect.NewRequest(&mealplanv1.GetShoppingListRequest{})); err != nil {
			t.Fatal(err)
		}
	})
}

// TestNewerEntryTypeReadBack plans a snack straight in Mealie, as its own
// web app would. Mealie 3.x accepts snack, drink and dessert (profile.go,
// extraEntryTypes; Mealie PR #6149); 2.x refuses them with 422
// (services/mealplan/testdata/mealplans__create_422_bad_entry_type.json). Where Mealie stores one, sous
// must still read the day's plan, with the entry in it.
func TestNewerEntryTypeReadBack(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		body := strings.NewReader(`{"date":"2030-04-01","entryType":"snack","title":"Apple slices"}`)
		req, _ := http.NewRequestWithContext(ctx(t), http.MethodPost, s.mealie.URL+"/api/households/mealplans", body)
		req.Header.Set("Authorization", "Bearer "+s.mealie.Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if v != "3.11" {
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("Mealie %s stored a snack: %d", v, resp.StatusCode)
			}
			return
		}
		if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
			t.Fatalf("Mealie 3 refused a snack: %d", resp.StatusCode)
		}
		if _, err := s.client.AddMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2030-04-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_LUNCH, Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Soup"}})); err != nil {
			t.Fatal(err)
		}
		res, err := s.client.GetMealPlan(ctx(t), connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2030-04-01", EndDate: "2030-04-01"}))
		if err != nil {
			t.Fatal(err)
		}
		var snack *mealplanv1.MealPlanEntry
		for _, e := range res.Msg.GetItems() {
			if e.GetTitle() == "Apple slices" {
				snack = e
			}
		}
		if len(res.Msg.GetItems()) != 2 || snack == nil {
			t.Fatalf("day read back as %v", res.Msg.GetItems())
		}
		if snack.GetEntryType() != mealplanv1.EntryType_ENTRY_TYPE_SNACK {
			t.Fatalf("Mealie 3's snack read back as %v", snack.GetEntryType())
		}
	})
}

// TestNewerEntryTypeThroughSous plans a dessert through sous: Mealie 3
// stores it and it reads back as a dessert; 2.x refuses it, and sous says
// which Mealie it needs, quoting Mealie's 422, with nothing stored.
func TestNewerEntryTypeThroughSous(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := setup(t, v)
		_, err := s.client.AddMealPlanEntry(ctx(t), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2030-04-02", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DESSERT, Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Tart"}}))
		res, rerr := s.client.GetMealPlan(ctx(t), connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2030-04-02", EndDate: "2030-04-02"}))
		if rerr != nil {
			t.Fatal(rerr)
		}
		items := res.Msg.GetItems()
		if v != "3.11" {
			if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), "needs Mealie 3") || !strings.Contains(err.Error(), "Input should be") {
				t.Fatalf("Mealie %s: dessert answered %v", v, err)
			}
			if len(items) != 0 {
				t.Fatalf("Mealie %s stored %v", v, items)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(items) != 1 || items[0].GetEntryType() != mealplanv1.EntryType_ENTRY_TYPE_DESSERT {
			t.Fatalf("day read back as %v", items)
		}
	})
}
