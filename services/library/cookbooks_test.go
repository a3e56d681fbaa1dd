package library

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"connectrpc.com/connect"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/proto/limits"
)

func TestListCookbooks(t *testing.T) {
	h := newHarness(t, nil)
	res, err := h.client.ListCookbooks(context.Background(), connect.NewRequest(&libraryv1.ListCookbooksRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	items := res.Msg.Items
	if len(items) != 5 {
		t.Fatalf("cookbooks = %v", items)
	}
	// All at position 1 in the capture: ordered by name.
	if items[0].Name != "Breakfast Book" || items[0].QueryFilter == "" || items[0].Id == "" {
		t.Errorf("first = %v", items[0])
	}
}

func TestGetCookbookRecipes(t *testing.T) {
	h := newHarness(t, nil)
	res, err := h.client.GetCookbookRecipes(context.Background(), connect.NewRequest(&libraryv1.GetCookbookRecipesRequest{Cookbook: "breakfast-book"}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Msg.Page != 1 || res.Msg.Limit != DefaultCookbookLimit || len(res.Msg.Items) != 1 || res.Msg.Total != 1 {
		t.Errorf("page = %v", res.Msg)
	}
	_, err = h.client.GetCookbookRecipes(context.Background(), connect.NewRequest(&libraryv1.GetCookbookRecipesRequest{Cookbook: "no-such-cookbook"}))
	if connect.CodeOf(err) != connect.CodeNotFound || !strings.Contains(err.Error(), "cookbook 'no-such-cookbook' not found") {
		t.Errorf("unknown cookbook: %v", err)
	}
	_, err = h.client.GetCookbookRecipes(context.Background(), connect.NewRequest(&libraryv1.GetCookbookRecipesRequest{Cookbook: "x", Limit: 101}))
	if connect.CodeOf(err) != connect.CodeInvalidArgument {
		t.Errorf("limit 101: %v", err)
	}
}

func TestBuildFilter(t *testing.T) {
	h := newHarness(t, nil)
	h.mealie.taxonomy[kindTags.path] = []taxonomyItem{{ID: "t1", Name: "Quick & Easy"}, {ID: "t2", Name: "Breakfast"}}
	h.mealie.taxonomy[kindCategories.path] = []taxonomyItem{{ID: "c1", Name: "Dinner"}}
	h.mealie.taxonomy[kindTools.path] = []taxonomyItem{{ID: "o1", Name: "Skillet"}}
	for _, tc := range []struct {
		name string
		spec filterSpec
		want string
		code connect.Code
		msg  string
	}{
		{"canonical casing", filterSpec{tags: []string{"breakfast", " QUICK & easy"}}, `tags.name IN ["Breakfast", "Quick & Easy"]`, 0, ""},
		{"any across kinds", filterSpec{tags: []string{"breakfast"}, tools: []string{"skillet"}}, `tags.name IN ["Breakfast"] OR tools.name IN ["Skillet"]`, 0, ""},
		{"all", filterSpec{categories: []string{"dinner"}, tools: []string{"Skillet"}, requireAll: true},
			`recipe_category.name CONTAINS ALL ["Dinner"] AND tools.name CONTAINS ALL ["Skillet"]`, 0, ""},
		{"extra", filterSpec{tags: []string{"Breakfast"}, tools: []string{"skillet"}, extra: `last_made IS NULL`},
			`(tags.name IN ["Breakfast"] OR tools.name IN ["Skillet"]) AND (last_made IS NULL)`, 0, ""},
		{"extra alone", filterSpec{extra: ` rating >= 4 `}, `rating >= 4`, 0, ""},
		{"unknown name", filterSpec{tags: []string{"breakfst"}}, "", connect.CodeNotFound, "tag 'breakfst' not found — did you mean 'Breakfast'?"},
		{"unknown attribute", filterSpec{extra: `nonexistent = "x"`}, "", connect.CodeInvalidArgument, "'nonexistent' does not exist on this schema"},
		{"broken syntax", filterSpec{extra: `name = `}, "", connect.CodeInvalidArgument, "could not parse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := h.svc.buildFilter(context.Background(), tc.spec)
			if tc.code != 0 {
				if connect.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("err = %v, want %v containing %q", err, tc.code, tc.msg)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("filter = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestCreateUpdateDeleteCookbook(t *testing.T) {
	h := newHarness(t, nil)
	h.mealie.taxonomy[kindTags.path] = []taxonomyItem{{ID: "t2", Name: "Breakfast"}}
	ctx := context.Background()
	created, err := h.client.CreateCookbook(ctx, connect.NewRequest(&libraryv1.CreateCookbookRequest{
		Name: "Mornings", Description: "early", Tags: []string{"BREAKFAST"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	cb := created.Msg.Cookbook
	if cb.Id == "" || cb.QueryFilter != `tags.name IN ["Breakfast"]` || cb.Description != "early" {
		t.Errorf("created = %v", cb)
	}

	// Mealie refusing the filter is InvalidArgument in Mealie's words
	// (testdata/cookbooks__create_unknown_attr_filter_422.json); it reaches the
	// cookbook endpoint only when the list accepted it, which the fake's
	// "nope" attribute does.
	_, err = h.client.CreateCookbook(ctx, connect.NewRequest(&libraryv1.CreateCookbookRequest{Name: "Broken", QueryFilter: `nope = "x"`}))
	if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), "Invalid query filter string") {
		t.Errorf("refused filter: %v", err)
	}

	updated, err := h.client.UpdateCookbook(ctx, connect.NewRequest(&libraryv1.UpdateCookbookRequest{CookbookId: cb.Id, Name: new("Early Mornings")}))
	if err != nil {
		t.Fatal(err)
	}
	u := updated.Msg.Cookbook
	if u.Id != cb.Id || u.Name != "Early Mornings" || u.QueryFilter != cb.QueryFilter || u.Description != "early" {
		t.Errorf("updated = %v (the PUT must carry every field)", u)
	}
	puts := h.mealie.bodies["PUT /api/households/cookbooks/"+cb.Id]
	if len(puts) != 1 || puts[0]["queryFilterString"] != cb.QueryFilter {
		t.Errorf("PUT bodies = %v", puts)
	}

	cleared, err := h.client.UpdateCookbook(ctx, connect.NewRequest(&libraryv1.UpdateCookbookRequest{CookbookId: cb.Id, QueryFilter: new("")}))
	if err != nil || cleared.Msg.Cookbook.QueryFilter != "" {
		t.Errorf("clearing the filter: %v %v", cleared, err)
	}

	gone, err := h.client.DeleteCookbook(ctx, connect.NewRequest(&libraryv1.DeleteCookbookRequest{CookbookId: cb.Id}))
	if err != nil || gone.Msg.Cookbook.Id != cb.Id {
		t.Fatalf("delete: %v %v", gone, err)
	}
	_, err = h.client.DeleteCookbook(ctx, connect.NewRequest(&libraryv1.DeleteCookbookRequest{CookbookId: cb.Id}))
	if connect.CodeOf(err) != connect.CodeNotFound {
		t.Errorf("second delete: %v", err)
	}
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.ReadOnly = true })
	_, err := h.client.CreateCookbook(context.Background(), connect.NewRequest(&libraryv1.CreateCookbookRequest{Name: "x"}))
	if connect.CodeOf(err) != connect.CodePermissionDenied {
		t.Errorf("create in read-only mode: %v", err)
	}
	if _, err := h.client.ListCookbooks(context.Background(), connect.NewRequest(&libraryv1.ListCookbooksRequest{})); err != nil {
		t.Errorf("list in read-only mode: %v", err)
	}
	st, err := h.client.GetStatus(context.Background(), connect.NewRequest(&libraryv1.GetStatusRequest{}))
	if err != nil || !st.Msg.ReadOnly || st.Msg.User != "cook" {
		t.Errorf("status = %v, %v", st, err)
	}
}

// TestRefusedFilterCarriesExamples: a filter Mealie refuses, by syntax or by
// attribute, is answered with every worked example, so the caller can fix it.
func TestRefusedFilterCarriesExamples(t *testing.T) {
	if len(QueryFilterExamples) < 5 {
		t.Fatalf("only %d examples", len(QueryFilterExamples))
	}
	h := newHarness(t, nil)
	for _, extra := range []string{`name = `, `nonexistent = "x"`} {
		_, err := h.svc.buildFilter(context.Background(), filterSpec{extra: extra})
		if connect.CodeOf(err) != connect.CodeInvalidArgument {
			t.Fatalf("%q: %v, want InvalidArgument", extra, err)
		}
		for _, e := range QueryFilterExamples {
			if !strings.Contains(err.Error(), "`"+e.Filter+"`") || !strings.Contains(err.Error(), e.Means) {
				t.Errorf("%q: the error lacks the example %q: %v", extra, e.Filter, err)
			}
		}
	}
}

// TestCookbookTextLimits: an overlong description or cookbook id is
// InvalidArgument naming the field, before any request to Mealie, and the id
// is not echoed back.
func TestCookbookTextLimits(t *testing.T) {
	h := newHarness(t, nil)
	ctx := context.Background()
	long := strings.Repeat("a", MaxCookbookDescription+1)
	longID := strings.Repeat("i", MaxCookbookIDChars+1)
	for _, tt := range []struct {
		field string
		call  func() error
	}{
		{"description", func() error {
			_, err := h.client.CreateCookbook(ctx, connect.NewRequest(&libraryv1.CreateCookbookRequest{Name: "x", Description: long}))
			return err
		}},
		{"description", func() error {
			_, err := h.client.UpdateCookbook(ctx, connect.NewRequest(&libraryv1.UpdateCookbookRequest{CookbookId: "c1", Description: &long}))
			return err
		}},
		{"cookbook_id", func() error {
			_, err := h.client.UpdateCookbook(ctx, connect.NewRequest(&libraryv1.UpdateCookbookRequest{CookbookId: longID}))
			return err
		}},
		{"cookbook_id", func() error {
			_, err := h.client.DeleteCookbook(ctx, connect.NewRequest(&libraryv1.DeleteCookbookRequest{CookbookId: longID}))
			return err
		}},
	} {
		before := h.mealie.total()
		err := tt.call()
		if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), tt.field) || len(err.Error()) > 200 {
			t.Errorf("%s: got %.200v, want a short InvalidArgument naming it", tt.field, err)
		}
		if n := h.mealie.total() - before; n != 0 {
			t.Errorf("%s: %d requests reached Mealie", tt.field, n)
		}
	}
}

// TestCookbookBoundsBeforeMealie: a query_filter or position past its bound
// in proto/limits is refused with a sentence naming the argument, what was
// given and what is expected, before any request to Mealie; a value at the
// bound gets through to Mealie.
func TestCookbookBoundsBeforeMealie(t *testing.T) {
	h := newHarness(t, nil)
	ctx := context.Background()
	filter := func(n int) *string { f := "name = \"" + strings.Repeat("f", n-len("name = \"\"")) + "\""; return &f }
	position := func(n int) *int32 { p := int32(n); return &p }
	overFilter := fmt.Sprintf("query_filter: at most %d characters, got %d", limits.CookbookQueryFilterChars, limits.CookbookQueryFilterChars+1)
	for _, tt := range []struct {
		name  string
		call  func(n int) error
		bound int
		want  string
	}{
		{"create query_filter", func(n int) error {
			_, err := h.client.CreateCookbook(ctx, connect.NewRequest(&libraryv1.CreateCookbookRequest{Name: "x", QueryFilter: *filter(n)}))
			return err
		}, limits.CookbookQueryFilterChars, overFilter},
		{"update query_filter", func(n int) error {
			_, err := h.client.UpdateCookbook(ctx, connect.NewRequest(&libraryv1.UpdateCookbookRequest{CookbookId: "c1", QueryFilter: filter(n)}))
			return err
		}, limits.CookbookQueryFilterChars, overFilter},
		{"update position", func(n int) error {
			_, err := h.client.UpdateCookbook(ctx, connect.NewRequest(&libraryv1.UpdateCookbookRequest{CookbookId: "c1", Position: position(n)}))
			return err
		}, limits.CookbookPosition, fmt.Sprintf("position must be between 1 and %d, got %d", limits.CookbookPosition, limits.CookbookPosition+1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := h.mealie.total()
			err := tt.call(tt.bound + 1)
			if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("over the bound: got %v, want InvalidArgument saying %q", err, tt.want)
			}
			if n := h.mealie.total() - before; n != 0 {
				t.Errorf("over the bound: %d requests reached Mealie", n)
			}
			err = tt.call(tt.bound)
			if err != nil && (strings.Contains(err.Error(), "at most") || strings.Contains(err.Error(), "must be between")) {
				t.Errorf("at the bound: refused with %v", err)
			}
			if h.mealie.total() == before {
				t.Errorf("at the bound: nothing reached Mealie (%v)", err)
			}
		})
	}
}
