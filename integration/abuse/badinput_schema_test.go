package abuse_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// hugeString is the 1 MB string a runaway model might paste into any text
// parameter.
var hugeString = strings.Repeat("a", 1<<20)

// baseline holds valid arguments for every tool: a mutation replaces one
// parameter, so the refusal can only be about that one. A tool missing here
// fails TestEveryToolHasABaseline, so a new tool cannot skip the table.
var baseline = map[string]map[string]any{
	"add_meal_plan_entry":    {"date": "2026-12-01", "title": "Leftovers"},
	"add_to_pantry":          {"items": []any{map[string]any{"name": "eggs"}}},
	"add_to_shopping_list":   {"items": []any{"milk"}},
	"bulk_tag_recipes":       {"slugs": []any{"pad-thai"}, "tags": []any{"Quick"}},
	"check_recipe_links":     {},
	"create_cookbook":        {"name": "Weeknight"},
	"create_meta_recipe":     {"name": "Stir-fry"},
	"create_recipe":          {"name": "Toast"},
	"delete_cookbook":        {"cookbook_id": "c1"},
	"delete_meal_plan_entry": {"entry_id": "1"},
	"delete_recipe":          {"slug": "toast", "confirm_slug": "toast"},
	"find_duplicate_recipes": {},
	"get_cookbook_recipes":   {"cookbook": "weeknight"},
	"get_meal_plan":          {"start_date": "2026-12-01", "end_date": "2026-12-02"},
	"get_meta_recipes":       {},
	"get_pantry":             {},
	"get_recipe":             {"slug": "toast"},
	"get_shopping_list":      {},
	"get_todays_meals":       {},
	"import_recipe_from_url": {"url": "https://example.org/recipe"},
	"library_stats":          {"resource": "tags"},
	"list_cookbooks":         {},
	"log_cook":               {"recipe": "Toast"},
	"manage_taxonomy":        {"resource": "tags"},
	"manage_shopping_lists":  {"action": "rename", "list_id": "Weekly", "name": "Groceries"},
	"mark_recipe_made":       {"slug": "toast"},
	"parse_ingredients":      {"lines": []any{"1 egg"}},
	"random_meal_plan":       {"start_date": "2026-12-01", "end_date": "2026-12-02"},
	"search_recipes":         {},
	"set_item_state":         {"ingredient": "eggs", "state": "in"},
	"set_recipe_image":       {"slug": "toast", "url": "https://example.org/toast.jpg"},
	"suggest_recipes":        {},
	"update_cookbook":        {"cookbook_id": "c1"},
	"update_meal_plan_entry": {"entry_id": "1", "note": "for four"},
	"update_recipe":          {"slug": "toast"},
	"update_shopping_items":  {"list_id": "l1", "check": []any{"i1"}},
	"upload_recipe_image":    {"slug": "toast", "path": "toast.jpg"},
	"what_can_i_cook":        {},
}

// prop is the part of a property schema the mutations are derived from.
type prop struct {
	Type      string   `json:"type"`
	Enum      []any    `json:"enum"`
	Pattern   string   `json:"pattern"`
	MaxLength *int     `json:"maxLength"`
	Minimum   *float64 `json:"minimum"`
	Maximum   *float64 `json:"maximum"`
	MaxItems  *int     `json:"maxItems"`
	MinItems  *int     `json:"minItems"`
}

// mutation is one malformed value for one parameter.
type mutation struct {
	name  string
	value any
}

// cappedParams are the parameters whose maximum is a cap applied with a
// note, not a refusal (TestLimitIsCapped).
var cappedParams = map[string]bool{"limit": true}

// mutations derives malformed values from a property's schema: the wrong
// JSON type (a string that spells no number included; one that does is
// taken, TestNumbersAsStrings), values past its bounds, an unknown enum
// value, a US-style date where ISO is required, and a 1 MB string where a
// length cap is declared.
func mutations(name string, p prop) []mutation {
	var out []mutation
	switch p.Type {
	case "integer":
		out = append(out, mutation{"fraction as string", "2.5"}, mutation{"fraction", 1.5}, mutation{"object", map[string]any{}})
		if p.Minimum != nil {
			out = append(out, mutation{"negative", *p.Minimum - 1 - 1e6})
		}
		if p.Maximum != nil && !cappedParams[name] {
			out = append(out, mutation{"enormous", 1e15})
		}
	case "number":
		out = append(out, mutation{"words as string", "abc"}, mutation{"array", []any{1}})
		if p.Minimum != nil {
			out = append(out, mutation{"below minimum", *p.Minimum - 1})
		}
		if p.Maximum != nil {
			out = append(out, mutation{"enormous", 1e300})
		}
	case "string":
		out = append(out, mutation{"number", 42}, mutation{"array", []any{"x"}})
		if len(p.Enum) > 0 {
			out = append(out, mutation{"unknown enum value", "definitely-not-a-choice"})
		}
		if p.Pattern != "" {
			out = append(out, mutation{"US date", "12/01/2026"})
		}
		if p.MaxLength != nil {
			out = append(out, mutation{"1 MB string", hugeString})
		}
	case "boolean":
		out = append(out, mutation{"string", "yes please"}, mutation{"number", 1})
	case "array":
		out = append(out, mutation{"bare string", "x"}, mutation{"object", map[string]any{"a": 1}})
		if p.MaxItems != nil {
			items := make([]any, *p.MaxItems+1)
			for i := range items {
				items[i] = "x"
			}
			out = append(out, mutation{"one item too many", items})
		}
		if p.MinItems != nil && *p.MinItems > 0 {
			out = append(out, mutation{"empty", []any{}})
		}
	case "object":
		out = append(out, mutation{"string", "x"}, mutation{"array", []any{}})
	}
	return out
}

// listTools returns every tool's input schema properties, by tool.
func listTools(t *testing.T, s *stack) map[string]map[string]prop {
	t.Helper()
	res, err := s.cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]prop{}
	for _, tl := range res.Tools {
		raw, err := json.Marshal(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema struct {
			Properties map[string]prop `json:"properties"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		out[tl.Name] = schema.Properties
	}
	return out
}

func TestEveryToolHasABaseline(t *testing.T) {
	s := newBadInputStack(t)
	for name := range listTools(t, s) {
		if _, ok := baseline[name]; !ok {
			t.Errorf("tool %s has no baseline arguments in badinput_schema_test.go: add one so its parameters are fuzzed", name)
		}
	}
}

// TestSchemaMutationsPerTool sends every mutation of every parameter of
// every tool, plus an unknown parameter, and requires a tool error naming
// the parameter, no stack trace, and no request to Mealie or the food API.
func TestSchemaMutationsPerTool(t *testing.T) {
	s := newBadInputStack(t)
	tools := listTools(t, s)
	names := make([]string, 0, len(tools))
	for n := range tools {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, tool := range names {
		t.Run(tool, func(t *testing.T) {
			props := tools[tool]
			pnames := make([]string, 0, len(props))
			for p := range props {
				pnames = append(pnames, p)
			}
			sort.Strings(pnames)
			type tc struct {
				param, what string
				args        map[string]any
			}
			var cases []tc
			for _, pn := range pnames {
				for _, m := range mutations(pn, props[pn]) {
					args := clone(baseline[tool])
					args[pn] = m.value
					cases = append(cases, tc{pn, m.what(), args})
				}
			}
			args := clone(baseline[tool])
			args["made_up_param"] = "x"
			cases = append(cases, tc{"made_up_param", "unknown parameter", args})
			for _, c := range cases {
				t.Run(c.param+"/"+c.what, func(t *testing.T) {
					s.expectRefused(t, tool, c.args, c.param)
				})
			}
		})
	}
}

func (m mutation) what() string { return m.name }

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// expectRefused calls tool with args and checks the refusal: a tool error
// (not a protocol error, which a model cannot read), whose text names
// param, carries no stack trace, and that no backend saw.
func (s *stack) expectRefused(t *testing.T, tool string, args any, param string) string {
	t.Helper()
	s.mealie.ResetRequests()
	s.food.reset()
	text, isErr, err := s.call(t, tool, args)
	if err != nil {
		t.Fatalf("%s: protocol error instead of a tool error: %v", tool, err)
	}
	if !isErr {
		t.Fatalf("%s accepted malformed %s: %s", tool, param, short(text))
	}
	if !strings.Contains(text, param) {
		t.Errorf("%s: the refusal does not name %q: %s", tool, param, short(text))
	}
	for _, leak := range []string{"goroutine ", "panic", ".go:"} {
		if strings.Contains(text, leak) {
			t.Errorf("%s: the refusal carries %q: %s", tool, leak, short(text))
		}
	}
	// A JSON-schema validator's vocabulary tells a model nothing it can
	// act on.
	for _, w := range validatorWords {
		if strings.Contains(text, w) {
			t.Errorf("%s: the refusal carries validator vocabulary %q: %s", tool, w, short(text))
		}
	}
	s.noBackendRequest(t)
	return text
}

// noBackendRequest fails the test when Mealie or the food API was asked
// anything since the last reset.
func (s *stack) noBackendRequest(t *testing.T) {
	t.Helper()
	var reqs []string
	for _, r := range s.mealie.Requests() {
		reqs = append(reqs, r.Method+" "+r.Path)
	}
	if len(reqs) > 0 {
		t.Errorf("Mealie was asked %v", short(fmt.Sprint(reqs)))
	}
	if seen := s.food.seen(); len(seen) > 0 {
		t.Errorf("the food API was asked %v", seen)
	}
}

// short trims a long answer for a failure message.
func short(s string) string {
	if len(s) > 300 {
		return s[:300] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// validatorWords are what a JSON-schema validator's refusal is made of
// ("validating root: validating /properties/end_date: pattern: … does not
// match regular expression …", "200/1 is greater than 100.000000").
var validatorWords = []string{"validating", "/properties/", "regular expression", "does not match", "additional properties", "^[", ".000000", "anyOf", "JSON pointer", "{"}

// TestNumbersAsStrings: several MCP clients send every argument as a
// string. Where a tool takes an integer, a number or a boolean, a string
// that is exactly one is taken as that value, for every such parameter of
// every tool; a refusal may still follow from the service, but never one
// about the argument's type.
func TestNumbersAsStrings(t *testing.T) {
	s := newBadInputStack(t)
	tools := listTools(t, s)
	for tool, props := range tools {
		for pn, p := range props {
			var v string
			switch p.Type {
			case "integer", "number":
				n := 1.0
				if p.Minimum != nil && *p.Minimum > n {
					n = *p.Minimum
				}
				v = fmt.Sprint(n)
			case "boolean":
				v = "true"
			default:
				continue
			}
			args := clone(baseline[tool])
			args[pn] = v
			text, isErr, err := s.call(t, tool, args)
			if err != nil {
				t.Fatalf("%s: %v", tool, err)
			}
			if isErr && (strings.Contains(text, "not a number") || strings.Contains(text, "not a whole number") || strings.Contains(text, "true or false") || strings.Contains(text, "must be")) {
				t.Errorf("%s(%s=%q) refused the string: %s", tool, pn, v, short(text))
			}
		}
	}
}

// TestLimitIsCapped: a limit past the cap is answered, capped, with a note
// saying so (as mcp-mealie's "capped at 100 per page"), not refused.
func TestLimitIsCapped(t *testing.T) {
	s := newBadInputStack(t)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search_recipes", map[string]any{"limit": 500}, `"capped":"limit 500 capped at 100"`},
		{"search_recipes", map[string]any{"limit": "200"}, `"capped":"limit 200 capped at 100"`},
		{"suggest_recipes", map[string]any{"foods": []any{"egg"}, "limit": 1000}, `"capped":"limit 1000 capped at 50"`},
		{"get_cookbook_recipes", map[string]any{"cookbook": "weeknight", "limit": 101}, `"capped":"limit 101 capped at 100"`},
	} {
		text, isErr, err := s.call(t, c.tool, c.args)
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		if isErr && !strings.Contains(text, "cookbook") {
			t.Errorf("%s %v refused: %s", c.tool, c.args, short(text))
			continue
		}
		if !isErr && !strings.Contains(text, c.want) {
			t.Errorf("%s %v: no cap note %s in %s", c.tool, c.args, c.want, short(text))
		}
	}
}
