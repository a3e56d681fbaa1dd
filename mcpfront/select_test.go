package mcpfront

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestSelect(t *testing.T) {
	b := allBackends()
	tests := []struct {
		name    string
		b       Backends
		opts    Options
		want    []string // exact set, or nil to check only count
		count   int
		wantErr string
	}{
		{name: "read-only mode", b: b, opts: Options{ReadOnly: true, ImageDir: "/x"}, want: wantReadOnly},
		{name: "all", b: b, opts: fullOpts, count: 38},
		{name: "no image dir leaves upload out", b: b, count: 37},
		{name: "shopping alone", b: b, opts: Options{Toolsets: []string{"shopping"}}, want: []string{"add_to_shopping_list", "get_shopping_list", "manage_shopping_lists", "update_shopping_items"}},
		{name: "pantry alone", b: b, opts: Options{Toolsets: []string{" Pantry "}}, want: []string{"add_to_pantry", "create_meta_recipe", "get_meta_recipes", "get_pantry", "log_cook", "set_item_state", "what_can_i_cook"}},
		{name: "mealplan alone", b: b, opts: Options{Toolsets: []string{"mealplan"}}, want: []string{"add_meal_plan_entry", "delete_meal_plan_entry", "get_meal_plan", "get_todays_meals", "random_meal_plan", "update_meal_plan_entry"}},
		{name: "library alone", b: b, opts: Options{Toolsets: []string{"library"}}, count: 8},
		{name: "recipes alone", b: b, opts: Options{Toolsets: []string{"recipes"}}, count: 12},
		{name: "a missing backend turns its tools off", b: Backends{Pantry: b.Pantry}, want: []string{"add_to_pantry", "create_meta_recipe", "get_meta_recipes", "get_pantry", "log_cook", "set_item_state", "what_can_i_cook"}},
		{name: "unknown toolset", b: b, opts: Options{Toolsets: []string{"desserts"}}, wantErr: `unknown toolset "desserts"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Select(tt.b, tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range got {
				names = append(names, tool.Def.Name)
				if tt.opts.ReadOnly && !tool.ReadOnly() {
					t.Errorf("%s registered in read-only mode", tool.Def.Name)
				}
			}
			slices.Sort(names)
			if tt.want != nil && !slices.Equal(names, tt.want) {
				t.Errorf("tools = %v\nwant   %v", names, tt.want)
			}
			if tt.count != 0 && len(names) != tt.count {
				t.Errorf("%d tools, want %d: %v", len(names), tt.count, names)
			}
		})
	}
}

func TestNoToolsIsAnError(t *testing.T) {
	if _, err := NewServer(Backends{}, Options{}); err == nil {
		t.Fatal("a server with no tools was built")
	}
}

func TestReadOnlyMode(t *testing.T) {
	f := newFakes(t)
	cs := session(t, f.backends, Options{ReadOnly: true}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(res.Tools); !slices.Equal(got, wantReadOnly) {
		t.Errorf("read-only tools = %v", got)
	}
	for _, tool := range res.Tools {
		if tool.Name != "manage_taxonomy" {
			continue
		}
		if tool.Description != manageTaxonomyReadOnlyDesc || !tool.Annotations.ReadOnlyHint {
			t.Errorf("manage_taxonomy is not the list-only variant: %q", tool.Description)
		}
	}
	// A write, hidden or restricted, answers the read-only sentence and
	// reaches no service.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"delete_recipe", map[string]any{"slug": "a", "confirm_slug": "a"}},
		{"set_item_state", map[string]any{"ingredient": "eggs", "state": "out"}},
		{"add_to_shopping_list", map[string]any{"items": []string{"milk"}}},
		{"manage_taxonomy", map[string]any{"resource": "tags", "action": "delete", "item_id": "t"}},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || text != ReadOnlyMessage {
			t.Errorf("%s in read-only mode: isError=%v %q", c.tool, isErr, text)
		}
	}
	if n := f.recipes.calls() + f.mealplan.calls() + f.pantry.calls(); n != 0 {
		t.Errorf("read-only mode let %d calls through to the services", n)
	}
	// Listing still works.
	if _, isErr := call(t, cs, "manage_taxonomy", map[string]any{"resource": "tags"}); isErr {
		t.Error("manage_taxonomy list refused in read-only mode")
	}
}

// TestOutsideToolsets: a tool the enabled toolsets leave out answers with
// its toolset and the setting that enables it, not the read-only sentence,
// in read-only mode or not; a write of an enabled toolset in read-only mode
// still answers ReadOnlyMessage. No call reaches a service.
func TestOutsideToolsets(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
		tool string
		args map[string]any
		want string
	}{
		{"read tool", Options{Toolsets: []string{"recipes"}}, "get_meal_plan", map[string]any{"start_date": "2026-01-01", "end_date": "2026-01-02"},
			"get_meal_plan is in the mealplan toolset, which this server does not enable (SOUS_TOOLSETS=recipes): add mealplan to SOUS_TOOLSETS to use it"},
		{"write tool", Options{Toolsets: []string{"recipes", "library"}}, "set_item_state", map[string]any{"ingredient": "eggs", "state": "out"},
			"set_item_state is in the pantry toolset, which this server does not enable (SOUS_TOOLSETS=recipes,library): add pantry to SOUS_TOOLSETS to use it"},
		{"write tool, read-only", Options{Toolsets: []string{"recipes"}, ReadOnly: true}, "add_meal_plan_entry", map[string]any{"date": "2026-01-01", "title": "Eat out"},
			"add_meal_plan_entry is in the mealplan toolset, which this server does not enable (SOUS_TOOLSETS=recipes): add mealplan to SOUS_TOOLSETS to use it"},
		{"enabled write, read-only", Options{Toolsets: []string{"recipes"}, ReadOnly: true}, "delete_recipe", map[string]any{"slug": "a", "confirm_slug": "a"},
			ReadOnlyMessage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakes(t)
			cs := session(t, f.backends, tt.opts, nil)
			text, isErr := call(t, cs, tt.tool, tt.args)
			if !isErr || text != tt.want {
				t.Errorf("isError=%v %q, want %q", isErr, text, tt.want)
			}
			if n := f.recipes.calls() + f.mealplan.calls() + f.pantry.calls(); n != 0 {
				t.Errorf("%d calls reached the services", n)
			}
		})
	}
}
