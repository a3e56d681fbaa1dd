package mealplan

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// Every malformed request is refused before Mealie hears of it.
func TestInvalidBeforeAnyRequest(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name  string
		call  func(s *Service) error
		parts []string
	}{
		{"non-ISO start", func(s *Service) error {
			_, err := s.GetMealPlan(ctx, connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "30/11/2026", EndDate: "2026-12-01"}))
			return err
		}, []string{"start_date", "YYYY-MM-DD"}},
		{"datetime is not a date", func(s *Service) error {
			_, err := s.GetMealPlan(ctx, connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2026-11-30T00:00:00Z", EndDate: "2026-12-01"}))
			return err
		}, []string{"start_date"}},
		{"missing end", func(s *Service) error {
			_, err := s.GetMealPlan(ctx, connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2026-11-30"}))
			return err
		}, []string{"end_date is required"}},
		{"end before start", func(s *Service) error {
			_, err := s.GetMealPlan(ctx, connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2026-12-02", EndDate: "2026-12-01"}))
			return err
		}, []string{"before"}},
		{"unknown entry type", func(s *Service) error {
			_, err := s.AddMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{Date: "2026-11-30", EntryType: 99, Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Soup"}}))
			return err
		}, []string{"entry_type"}},
		{"neither slug nor title", func(s *Service) error {
			_, err := s.AddMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{Date: "2026-11-30"}))
			return err
		}, []string{"exactly one of recipe_slug and title"}},
		{"bad add date", func(s *Service) error {
			_, err := s.AddMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{Date: "tomorrow", Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Soup"}}))
			return err
		}, []string{"date must be an ISO date"}},
		{"entry id not an integer", func(s *Service) error {
			_, err := s.DeleteMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.DeleteMealPlanEntryRequest{EntryId: "5f0c1d0e-8a51-4c7a-9d57-3c0f5e6b1a2b"}))
			return err
		}, []string{"integer id"}},
		{"random over 14 days", func(s *Service) error {
			_, err := s.RandomMealPlan(ctx, connect.NewRequest(&mealplanv1.RandomMealPlanRequest{StartDate: "2026-12-01", EndDate: "2026-12-15"}))
			return err
		}, []string{"15 days", "14"}},
		{"random unknown entry type", func(s *Service) error {
			_, err := s.RandomMealPlan(ctx, connect.NewRequest(&mealplanv1.RandomMealPlanRequest{StartDate: "2026-12-01", EndDate: "2026-12-02", EntryType: 99}))
			return err
		}, []string{"entry_type"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			wantCode(t, tc.call(h.svc), connect.CodeInvalidArgument, tc.parts...)
			if n := len(h.mealie.requests()); n != 0 {
				t.Fatalf("%d Mealie requests before refusing", n)
			}
			if h.recipes.calls != 0 {
				t.Fatal("recipes service called before refusing")
			}
		})
	}
}

func TestGetMealPlanOrdersAndShapes(t *testing.T) {
	h := newHarness(t)
	h.mealie.on("GET", "/api/households/mealplans", "mealplans__list_date_range")
	res, err := h.svc.GetMealPlan(context.Background(), connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2026-11-30", EndDate: "2026-11-30"}))
	if err != nil {
		t.Fatal(err)
	}
	q, _ := url.ParseQuery(h.mealie.requests()[0].Query)
	// snake_case filters: camelCase ones are ignored by Mealie
	// (testdata/mealplans__list_camel_dates.json).
	if q.Get("start_date") != "2026-11-30" || q.Get("end_date") != "2026-11-30" {
		t.Fatalf("query %v", q)
	}
	items := res.Msg.GetItems()
	if len(items) != 3 {
		t.Fatalf("%d items", len(items))
	}
	// Lunch (id 2) before the two dinners, dinners by id.
	if items[0].GetId() != "2" || items[0].GetEntryType() != mealplanv1.EntryType_ENTRY_TYPE_LUNCH || items[0].GetTitle() != "Leftovers" || items[0].GetNote() != "from the fridge" {
		t.Fatalf("first %v", items[0])
	}
	if items[1].GetId() != "1" || items[1].GetRecipeSlug() != "fixture-pancakes-deluxe" || items[1].GetRecipeName() != "Fixture Pancakes Deluxe" {
		t.Fatalf("second %v", items[1])
	}
	// id 3 planned a recipe id that matches nothing: recipe null.
	if items[2].GetId() != "3" || items[2].GetRecipeSlug() != "" {
		t.Fatalf("third %v", items[2])
	}
}

func TestGetTodaysMealsUsesConfiguredZone(t *testing.T) {
	auckland, err := time.LoadLocation("Pacific/Auckland")
	if err != nil {
		t.Skip("no tz database: Pacific/Auckland: run apt-get install tzdata (as root)")
	}
	// 2026-11-30 12:00 UTC is already 2026-12-01 in Auckland.
	h := newHarness(t, func(c *Config) { c.Location = auckland })
	h.mealie.on("GET", "/api/households/mealplans", "mealplans__list_empty")
	res, err := h.svc.GetTodaysMeals(context.Background(), connect.NewRequest(&mealplanv1.GetTodaysMealsRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Msg.GetDate() != "2026-12-01" || res.Msg.GetTimeZone() != "Pacific/Auckland" {
		t.Fatalf("date %q zone %q", res.Msg.GetDate(), res.Msg.GetTimeZone())
	}
	q, _ := url.ParseQuery(h.mealie.requests()[0].Query)
	if q.Get("start_date") != "2026-12-01" || q.Get("end_date") != "2026-12-01" {
		t.Fatalf("read %v, not the echoed date", q)
	}
}

func TestAddMealPlanEntry(t *testing.T) {
	t.Run("slug resolved through the recipes service", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("POST", "/api/households/mealplans", "mealplans__create_recipe")
		res, err := h.svc.AddMealPlanEntry(context.Background(), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2026-11-30", Meal: &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: "fixture-pancakes-deluxe"}}))
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		_ = json.Unmarshal([]byte(h.mealie.requests()[0].Body), &body)
		if body["recipeId"] != pancakesID || body["entryType"] != "dinner" || body["date"] != "2026-11-30" {
			t.Fatalf("body %v", body)
		}
		if _, has := body["title"]; has {
			t.Fatalf("title sent with a recipe: %v", body)
		}
		e := res.Msg.GetEntry()
		if e.GetId() != "1" || e.GetRecipeSlug() != "fixture-pancakes-deluxe" || e.GetEntryType() != mealplanv1.EntryType_ENTRY_TYPE_DINNER {
			t.Fatalf("entry %v", e)
		}
	})
	t.Run("unknown slug is NotFound with nothing written", func(t *testing.T) {
		h := newHarness(t)
		_, err := h.svc.AddMealPlanEntry(context.Background(), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2026-11-30", Meal: &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: "no-such-recipe"}}))
		wantCode(t, err, connect.CodeNotFound, "recipe 'no-such-recipe' not found")
		if n := len(h.mealie.requests()); n != 0 {
			t.Fatalf("%d Mealie requests", n)
		}
	})
	t.Run("title and note", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("POST", "/api/households/mealplans", "mealplans__create_note")
		res, err := h.svc.AddMealPlanEntry(context.Background(), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2026-11-30", EntryType: mealplanv1.EntryType_ENTRY_TYPE_LUNCH, Note: "from the fridge",
			Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Leftovers"}}))
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		_ = json.Unmarshal([]byte(h.mealie.requests()[0].Body), &body)
		if body["title"] != "Leftovers" || body["text"] != "from the fridge" || body["entryType"] != "lunch" || body["recipeId"] != nil {
			t.Fatalf("body %v", body)
		}
		if res.Msg.GetEntry().GetTitle() != "Leftovers" || h.recipes.calls != 0 {
			t.Fatalf("entry %v, recipes calls %d", res.Msg.GetEntry(), h.recipes.calls)
		}
	})
}

func TestDeleteMealPlanEntry(t *testing.T) {
	t.Run("unknown id is NotFound, no delete sent", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/mealplans/9999", "mealplans__get_unknown_int")
		_, err := h.svc.DeleteMealPlanEntry(context.Background(), connect.NewRequest(&mealplanv1.DeleteMealPlanEntryRequest{EntryId: "9999"}))
		wantCode(t, err, connect.CodeNotFound, "meal plan entry 9999 not found")
		if h.mealie.writes() != 0 {
			t.Fatal("a write was sent")
		}
	})
	t.Run("deletes and returns the entry", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/mealplans/2", "mealplans__get_one").
			on("DELETE", "/api/households/mealplans/2", "mealplans__delete")
		res, err := h.svc.DeleteMealPlanEntry(context.Background(), connect.NewRequest(&mealplanv1.DeleteMealPlanEntryRequest{EntryId: "2"}))
		if err != nil {
			t.Fatal(err)
		}
		if res.Msg.GetEntry().GetTitle() != "Leftovers (edited)" || h.mealie.writes() != 1 {
			t.Fatalf("entry %v, writes %d", res.Msg.GetEntry(), h.mealie.writes())
		}
	})
}

func TestRandomMealPlan(t *testing.T) {
	t.Run("seven days are seven calls, a refused day does not stop the rest", func(t *testing.T) {
		h := newHarness(t)
		// Day 3 is refused (the 422 capture); the others are planned.
		h.mealie.on("POST", "/api/households/mealplans/random",
			"mealplans__random", "mealplans__random", "mealplans__random_422", "mealplans__random")
		res, err := h.svc.RandomMealPlan(context.Background(), connect.NewRequest(&mealplanv1.RandomMealPlanRequest{
			StartDate: "2026-12-01", EndDate: "2026-12-07", EntryType: mealplanv1.EntryType_ENTRY_TYPE_LUNCH}))
		if err != nil {
			t.Fatal(err)
		}
		reqs := h.mealie.requests()
		if len(reqs) != 7 {
			t.Fatalf("%d Mealie calls, want 7", len(reqs))
		}
		for i, r := range reqs {
			var body map[string]string
			_ = json.Unmarshal([]byte(r.Body), &body)
			want := time.Date(2026, 12, 1+i, 0, 0, 0, 0, time.UTC).Format(dateLayout)
			if r.Path != "/api/households/mealplans/random" || body["date"] != want || body["entryType"] != "lunch" {
				t.Fatalf("call %d: %s %s", i, r.Path, r.Body)
			}
		}
		m := res.Msg
		if m.GetPlanned() != 6 || m.GetFailed() != 1 || len(m.GetItems()) != 7 {
			t.Fatalf("planned %d failed %d items %d", m.GetPlanned(), m.GetFailed(), len(m.GetItems()))
		}
		d3 := m.GetItems()[2]
		if d3.GetDate() != "2026-12-03" || d3.GetEntry() != nil || d3.GetMessage() == "" {
			t.Fatalf("day 3 %v", d3)
		}
		if m.GetItems()[0].GetEntry().GetRecipeSlug() != "fixture-chocolate-cake" {
			t.Fatalf("day 1 %v", m.GetItems()[0])
		}
	})
	t.Run("fifteen days are refused with nothing written", func(t *testing.T) {
		h := newHarness(t)
		_, err := h.svc.RandomMealPlan(context.Background(), connect.NewRequest(&mealplanv1.RandomMealPlanRequest{StartDate: "2026-12-01", EndDate: "2026-12-15"}))
		wantCode(t, err, connect.CodeInvalidArgument, "15 days")
		if len(h.mealie.requests()) != 0 {
			t.Fatal("Mealie was called")
		}
	})
	t.Run("a refused token stops the fill", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.mealie.mu.Lock()
			h.mealie.log = append(h.mealie.log, seen{Method: r.Method, Path: r.URL.Path})
			h.mealie.mu.Unlock()
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"detail":"Unauthorized"}`))
		})
		res, err := h.svc.RandomMealPlan(context.Background(), connect.NewRequest(&mealplanv1.RandomMealPlanRequest{StartDate: "2026-12-01", EndDate: "2026-12-04"}))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(h.mealie.requests()); n != 1 {
			t.Fatalf("%d calls after a 401", n)
		}
		if res.Msg.GetFailed() != 4 || res.Msg.GetItems()[3].GetMessage() == "" {
			t.Fatalf("%v", res.Msg)
		}
	})
}

// In read-only mode writes are refused by the handler, reads pass.
func TestReadOnlyHandler(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.ReadOnly = true })
	h.mealie.on("GET", "/api/households/mealplans", "mealplans__list_empty")
	path, handler := h.svc.Handler()
	mux := http.NewServeMux()
	mux.Handle(path, handler)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := mealplanv1connect.NewMealPlanServiceClient(srv.Client(), srv.URL)
	ctx := context.Background()
	if _, err := c.GetMealPlan(ctx, connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2026-11-30", EndDate: "2026-11-30"})); err != nil {
		t.Fatal(err)
	}
	_, err := c.RandomMealPlan(ctx, connect.NewRequest(&mealplanv1.RandomMealPlanRequest{StartDate: "2026-11-30", EndDate: "2026-11-30"}))
	wantCode(t, err, connect.CodePermissionDenied, "read-only")
	_, err = c.UpdateShoppingItems(ctx, connect.NewRequest(&mealplanv1.UpdateShoppingItemsRequest{ListId: "x", Check: []string{"y"}}))
	wantCode(t, err, connect.CodePermissionDenied, "read-only")
	if h.mealie.writes() != 0 {
		t.Fatal("a write reached Mealie")
	}
}

func TestGetStatusReportsPantry(t *testing.T) {
	for _, tc := range []struct {
		name      string
		down, nil bool
		avail     bool
	}{{"up", false, false, true}, {"down", true, false, false}, {"not configured", false, true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, func(c *Config) {
				if tc.nil {
					c.Pantry = nil
				}
			})
			h.pantry.down = tc.down
			h.mealie.on("GET", "/api/app/about", "app_about__ok").on("GET", "/api/users/self", "users_self__ok")
			res, err := h.svc.GetStatus(context.Background(), connect.NewRequest(&mealplanv1.GetStatusRequest{}))
			if err != nil {
				t.Fatal(err)
			}
			m := res.Msg
			if m.GetMealieVersion() != "develop" || m.GetPantryAvailable() != tc.avail || (m.GetPantryMessage() == "") != tc.avail {
				t.Fatalf("%v", m)
			}
		})
	}
}

// A recipes service that cannot be reached fails the add, naming it, with
// nothing written to Mealie.
func TestAddMealPlanEntryRecipesDown(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	base := dead.URL
	dead.Close()
	h := newHarness(t, func(c *Config) {
		c.Recipes = recipesv1connect.NewRecipesServiceClient(http.DefaultClient, base)
	})
	_, err := h.svc.AddMealPlanEntry(context.Background(), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
		Date: "2026-11-30", Meal: &mealplanv1.AddMealPlanEntryRequest_RecipeSlug{RecipeSlug: "pancakes"}}))
	wantCode(t, err, connect.CodeUnavailable, "recipes service could not resolve")
	if len(h.mealie.requests()) != 0 {
		t.Fatal("Mealie was called")
	}
}

func TestNewRequiresRecipes(t *testing.T) {
	if _, err := New(Config{MealieURL: "http://127.0.0.1:9", MealieToken: "t"}); err == nil {
		t.Fatal("New accepted a config without a recipes client")
	}
}

func TestUpdateMealPlanEntry(t *testing.T) {
	ctx := context.Background()
	putBody := func(t *testing.T, h *harness) map[string]any {
		t.Helper()
		for _, r := range h.mealie.requests() {
			if r.Method == http.MethodPut {
				var body map[string]any
				if err := json.Unmarshal([]byte(r.Body), &body); err != nil {
					t.Fatal(err)
				}
				return body
			}
		}
		t.Fatal("no PUT sent")
		return nil
	}
	t.Run("a move sends the entry whole with the new date and answers the read-back", func(t *testing.T) {
		h := newHarness(t)
		// entry 1 is a dinner of fixture-pancakes-deluxe on 2026-11-30; the
		// read-back answers what Mealie holds after the write
		h.mealie.on("GET", "/api/households/mealplans/1", "mealplans__get_one", "mealplans__put").
			on("PUT", "/api/households/mealplans/1", "mealplans__get_one")
		res, err := h.svc.UpdateMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.UpdateMealPlanEntryRequest{EntryId: "1", Date: ptr("2026-12-05")}))
		if err != nil {
			t.Fatal(err)
		}
		body := putBody(t, h)
		want := map[string]any{"id": float64(1), "date": "2026-12-05", "entryType": "dinner", "title": "", "text": "",
			"recipeId": "0b920beb-8d7d-4ef1-864f-9e383541adc2", "groupId": "4771d926-dce6-4807-808e-8b2f76d10d59", "userId": "20b702f9-df4f-4d20-afa1-9b520325a681"}
		for k, v := range want {
			if body[k] != v {
				t.Errorf("PUT %s = %v, want %v (body %v)", k, body[k], v, body)
			}
		}
		if len(body) != len(want) {
			t.Errorf("PUT body has %d keys, want %d: %v", len(body), len(want), body)
		}
		if got := res.Msg.GetChanged(); len(got) != 1 || got[0] != "date: '2026-11-30' → '2026-12-05'" {
			t.Errorf("changed = %q", got)
		}
		if e := res.Msg.GetEntry(); e.GetTitle() != "Leftovers (edited)" || e.GetId() != "2" {
			t.Errorf("answer is not the read-back: %v", e)
		}
		if h.mealie.writes() != 1 || h.recipes.calls != 0 {
			t.Errorf("writes %d, recipes calls %d", h.mealie.writes(), h.recipes.calls)
		}
	})
	t.Run("a title replaces the recipe", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/mealplans/1", "mealplans__get_one", "mealplans__put").
			on("PUT", "/api/households/mealplans/1", "mealplans__put")
		res, err := h.svc.UpdateMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.UpdateMealPlanEntryRequest{EntryId: "1", Title: ptr("Takeaway"), Note: ptr("Friday treat")}))
		if err != nil {
			t.Fatal(err)
		}
		body := putBody(t, h)
		if v, has := body["recipeId"]; !has || v != nil || body["title"] != "Takeaway" || body["text"] != "Friday treat" {
			t.Errorf("PUT body %v", body)
		}
		if len(res.Msg.GetChanged()) != 3 {
			t.Errorf("changed = %q", res.Msg.GetChanged())
		}
	})
	t.Run("a recipe replaces the title, the meal type changes", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/mealplans/2", "mealplans__put").
			on("PUT", "/api/households/mealplans/2", "mealplans__get_one")
		_, err := h.svc.UpdateMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.UpdateMealPlanEntryRequest{EntryId: "2", RecipeSlug: ptr("fixture-pancakes-deluxe"), EntryType: mealplanv1.EntryType_ENTRY_TYPE_DINNER}))
		if err != nil {
			t.Fatal(err)
		}
		body := putBody(t, h)
		if body["recipeId"] != pancakesID || body["title"] != "" || body["entryType"] != "dinner" || body["text"] != "from the fridge" {
			t.Errorf("PUT body %v", body)
		}
	})
	t.Run("nothing new writes nothing", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/mealplans/1", "mealplans__get_one")
		res, err := h.svc.UpdateMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.UpdateMealPlanEntryRequest{EntryId: "1", Date: ptr("2026-11-30"), EntryType: mealplanv1.EntryType_ENTRY_TYPE_DINNER}))
		if err != nil {
			t.Fatal(err)
		}
		if h.mealie.writes() != 0 || len(res.Msg.GetChanged()) != 0 || res.Msg.GetEntry().GetRecipeSlug() != "fixture-pancakes-deluxe" {
			t.Errorf("writes %d, answer %v", h.mealie.writes(), res.Msg)
		}
	})
	t.Run("unknown entry is NotFound, nothing written", func(t *testing.T) {
		h := newHarness(t)
		h.mealie.on("GET", "/api/households/mealplans/9999", "mealplans__get_unknown_int")
		_, err := h.svc.UpdateMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.UpdateMealPlanEntryRequest{EntryId: "9999", Note: ptr("x")}))
		wantCode(t, err, connect.CodeNotFound, "meal plan entry 9999 not found")
		if h.mealie.writes() != 0 {
			t.Fatal("a write was sent")
		}
	})
	for _, c := range []struct {
		name  string
		req   *mealplanv1.UpdateMealPlanEntryRequest
		code  connect.Code
		parts []string
	}{
		{"nothing to change", &mealplanv1.UpdateMealPlanEntryRequest{EntryId: "1"}, connect.CodeInvalidArgument, []string{"date, entry_type, recipe_slug, title or note"}},
		{"id not an integer", &mealplanv1.UpdateMealPlanEntryRequest{EntryId: "abc", Note: ptr("x")}, connect.CodeInvalidArgument, []string{"integer id"}},
		{"bad date", &mealplanv1.UpdateMealPlanEntryRequest{EntryId: "1", Date: ptr("Saturday")}, connect.CodeInvalidArgument, []string{"date must be an ISO date"}},
		{"empty title", &mealplanv1.UpdateMealPlanEntryRequest{EntryId: "1", Title: ptr(" ")}, connect.CodeInvalidArgument, []string{"title is empty"}},
		{"unknown entry type", &mealplanv1.UpdateMealPlanEntryRequest{EntryId: "1", EntryType: 99}, connect.CodeInvalidArgument, []string{"entry_type"}},
		{"unknown slug", &mealplanv1.UpdateMealPlanEntryRequest{EntryId: "1", RecipeSlug: ptr("no-such-recipe")}, connect.CodeNotFound, []string{"recipe 'no-such-recipe' not found"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			_, err := h.svc.UpdateMealPlanEntry(ctx, connect.NewRequest(c.req))
			wantCode(t, err, c.code, c.parts...)
			if n := len(h.mealie.requests()); n != 0 {
				t.Fatalf("%d Mealie requests before refusing", n)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
