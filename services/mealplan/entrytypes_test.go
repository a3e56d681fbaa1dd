package mealplan

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
)

// mealie3 makes the harness's Mealie accept every 3.x PlanEntryType: a
// create echoes the body back as the stored entry (shaped as
// testdata/mealplans__create_note.json), and a list answers the given entries.
func mealie3(h *harness, list []map[string]any) {
	h.mealie.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mealie.mu.Lock()
		h.mealie.log = append(h.mealie.log, seen{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: string(body)})
		h.mealie.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.Method {
		case http.MethodPost:
			var e map[string]any
			_ = json.Unmarshal(body, &e)
			e["id"], e["recipe"] = 40, nil
			w.WriteHeader(http.StatusCreated)
			_ = json.NewEncoder(w).Encode(e)
		default:
			_ = json.NewEncoder(w).Encode(map[string]any{"page": 1, "per_page": 200, "total": len(list), "total_pages": 1, "items": list})
		}
	})
}

// Every enum value is sent as Mealie's string and read back as itself.
func TestEntryTypesBothWays(t *testing.T) {
	cases := []struct {
		t    mealplanv1.EntryType
		name string
	}{
		{mealplanv1.EntryType_ENTRY_TYPE_BREAKFAST, "breakfast"},
		{mealplanv1.EntryType_ENTRY_TYPE_LUNCH, "lunch"},
		{mealplanv1.EntryType_ENTRY_TYPE_DINNER, "dinner"},
		{mealplanv1.EntryType_ENTRY_TYPE_SIDE, "side"},
		{mealplanv1.EntryType_ENTRY_TYPE_SNACK, "snack"},
		{mealplanv1.EntryType_ENTRY_TYPE_DRINK, "drink"},
		{mealplanv1.EntryType_ENTRY_TYPE_DESSERT, "dessert"},
	}
	if len(cases) != len(mealplanv1.EntryType_name)-1 {
		t.Fatalf("%d cases for %d enum values", len(cases), len(mealplanv1.EntryType_name)-1)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			mealie3(h, nil)
			res, err := h.svc.AddMealPlanEntry(context.Background(), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
				Date: "2030-04-01", EntryType: c.t, Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "Apple slices"}}))
			if err != nil {
				t.Fatal(err)
			}
			var body map[string]any
			_ = json.Unmarshal([]byte(h.mealie.requests()[0].Body), &body)
			if body["entryType"] != c.name {
				t.Fatalf("sent entryType %v, want %q", body["entryType"], c.name)
			}
			if got := res.Msg.GetEntry().GetEntryType(); got != c.t {
				t.Fatalf("read back %v, want %v", got, c.t)
			}
		})
	}
}

// A Mealie 3 day reads back with every type named, ordered breakfast to
// dessert; a type newer than the enum is unspecified and last, so the day
// is still read whole.
func TestGetMealPlanNewerTypes(t *testing.T) {
	h := newHarness(t)
	entry := func(id int, typ string) map[string]any {
		return map[string]any{"date": "2030-04-01", "entryType": typ, "title": typ, "text": "", "recipeId": nil, "id": id, "recipe": nil}
	}
	mealie3(h, []map[string]any{entry(1, "brunch"), entry(2, "dessert"), entry(3, "drink"), entry(4, "snack"), entry(5, "dinner"), entry(6, "breakfast")})
	res, err := h.svc.GetMealPlan(context.Background(), connect.NewRequest(&mealplanv1.GetMealPlanRequest{StartDate: "2030-04-01", EndDate: "2030-04-01"}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res.Msg.GetItems() {
		got = append(got, fmt.Sprintf("%s=%s", e.GetTitle(), e.GetEntryType()))
	}
	want := []string{"breakfast=ENTRY_TYPE_BREAKFAST", "dinner=ENTRY_TYPE_DINNER", "snack=ENTRY_TYPE_SNACK",
		"drink=ENTRY_TYPE_DRINK", "dessert=ENTRY_TYPE_DESSERT", "brunch=ENTRY_TYPE_UNSPECIFIED"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("day read as %v, want %v", got, want)
	}
}

// A Mealie that refuses the newer types (2.x's 422,
// testdata/mealplans__create_422_bad_entry_type.json) gets one request; after that
// they are refused before any request until NewerTypesRefusalMemory has
// passed, while the older types still go through.
func TestNewerTypeRefusedByOlderMealie(t *testing.T) {
	ctx := context.Background()
	now := fixtureNow
	h := newHarness(t, func(c *Config) { c.Now = func() time.Time { return now } })
	h.mealie.on("POST", "/api/households/mealplans", "mealplans__create_422_bad_entry_type", "mealplans__create_422_bad_entry_type", "mealplans__create_note").
		on("POST", "/api/households/mealplans/random", "mealplans__random")
	add := func(typ mealplanv1.EntryType) error {
		_, err := h.svc.AddMealPlanEntry(ctx, connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2026-11-30", EntryType: typ, Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "x"}}))
		return err
	}

	wantCode(t, add(mealplanv1.EntryType_ENTRY_TYPE_SNACK), connect.CodeInvalidArgument,
		"entry_type snack needs Mealie 3", "Input should be 'breakfast', 'lunch', 'dinner' or 'side'")
	if n := len(h.mealie.requests()); n != 1 {
		t.Fatalf("%d requests for the first snack", n)
	}

	wantCode(t, add(mealplanv1.EntryType_ENTRY_TYPE_DESSERT), connect.CodeInvalidArgument, "entry_type dessert needs Mealie 3", "Mealie said")
	_, err := h.svc.RandomMealPlan(ctx, connect.NewRequest(&mealplanv1.RandomMealPlanRequest{
		StartDate: "2026-12-01", EndDate: "2026-12-07", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DRINK}))
	wantCode(t, err, connect.CodeInvalidArgument, "entry_type drink needs Mealie 3")
	if n := len(h.mealie.requests()); n != 1 {
		t.Fatalf("%d requests after the refusal was learned, want none past the first", n)
	}

	if _, err := h.svc.RandomMealPlan(ctx, connect.NewRequest(&mealplanv1.RandomMealPlanRequest{
		StartDate: "2026-12-01", EndDate: "2026-12-01", EntryType: mealplanv1.EntryType_ENTRY_TYPE_BREAKFAST})); err != nil {
		t.Fatalf("an older type after the refusal: %v", err)
	}

	now = now.Add(NewerTypesRefusalMemory)
	wantCode(t, add(mealplanv1.EntryType_ENTRY_TYPE_SNACK), connect.CodeInvalidArgument, "entry_type snack needs Mealie 3")
	if n := len(h.mealie.requests()); n != 3 {
		t.Fatalf("%d requests once the memory ran out, want the snack asked again", n)
	}
}

// A random fill with a newer type on a Mealie that refuses it stops at the
// first day: one request, InvalidArgument, nothing planned.
func TestRandomNewerTypeOnOlderMealie(t *testing.T) {
	h := newHarness(t)
	h.mealie.on("POST", "/api/households/mealplans/random", "mealplans__create_422_bad_entry_type")
	_, err := h.svc.RandomMealPlan(context.Background(), connect.NewRequest(&mealplanv1.RandomMealPlanRequest{
		StartDate: "2026-12-01", EndDate: "2026-12-07", EntryType: mealplanv1.EntryType_ENTRY_TYPE_SNACK}))
	wantCode(t, err, connect.CodeInvalidArgument, "entry_type snack needs Mealie 3")
	if n := len(h.mealie.requests()); n != 1 {
		t.Fatalf("%d requests, want the first day only", n)
	}
}

// A 422 on something other than the entry type is Mealie's own answer and
// teaches nothing about the types.
func TestOther422IsNotATypeRefusal(t *testing.T) {
	h := newHarness(t)
	h.mealie.on("POST", "/api/households/mealplans", "mealplans__create_422_no_recipe_no_title", "mealplans__create_note")
	add := func() error {
		_, err := h.svc.AddMealPlanEntry(context.Background(), connect.NewRequest(&mealplanv1.AddMealPlanEntryRequest{
			Date: "2026-11-30", EntryType: mealplanv1.EntryType_ENTRY_TYPE_SNACK, Meal: &mealplanv1.AddMealPlanEntryRequest_Title{Title: "x"}}))
		return err
	}
	err := add()
	wantCode(t, err, connect.CodeInvalidArgument, "Mealie rejected the request")
	if err := add(); err != nil {
		t.Fatalf("second snack refused without asking: %v", err)
	}
	if n := len(h.mealie.requests()); n != 2 {
		t.Fatalf("%d requests", n)
	}
}
