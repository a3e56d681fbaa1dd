package mcpfront

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func promptNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range res.Prompts {
		out = append(out, p.Name)
	}
	return out
}

// TestPromptsOfferedWithTheirTools: every prompt is listed when every tool
// it names is, and only then: a read-only server offers the one prompt
// that only reads, without its sentence about planning.
func TestPromptsOfferedWithTheirTools(t *testing.T) {
	f := newFakes(t)
	all := promptNames(t, session(t, f.backends, Options{}, nil))
	// prompts/list answers by name, as the SDK keeps them
	if want := []string{"dinner_tonight", "log_cooked", "plan_week", "shop_for_plan", "tidy_recipe"}; !slices.Equal(all, want) {
		t.Errorf("prompts = %q, want %q", all, want)
	}
	ro := session(t, f.backends, Options{ReadOnly: true}, nil)
	if got := promptNames(t, ro); !slices.Equal(got, []string{"dinner_tonight"}) {
		t.Errorf("read-only prompts = %q, want dinner_tonight alone", got)
	}
	res, err := ro.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "dinner_tonight"})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Messages[0].Content.(*mcp.TextContent).Text; strings.Contains(text, "add_meal_plan_entry") {
		t.Errorf("a read-only server's prompt names a write: %s", text)
	}
	if got := promptNames(t, session(t, f.backends, Options{Toolsets: []string{"recipes"}}, nil)); !slices.Equal(got, []string{"log_cooked", "tidy_recipe"}) {
		t.Errorf("recipes toolset alone: prompts = %q", got)
	}
}

// toolWord finds the words of a prompt's text that look like tool names.
var toolWord = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)

// TestPromptsNameRealTools: each prompt's text, for its arguments, is one
// user message naming only tools of the catalog and every tool it needs.
func TestPromptsNameRealTools(t *testing.T) {
	f := newFakes(t)
	cs := session(t, f.backends, Options{}, nil)
	known := map[string]bool{}
	for _, tl := range catalog() {
		known[tl.Def.Name] = true
	}
	params := map[string]string{"max_total_minutes": "", "never_made": "", "from_pantry": "", "meal_plan_range": "", "start_date": "", "end_date": "",
		"list_id": "", "have": "", "replace_ingredients": "", "remove_ingredients": "", "add_ingredients": "", "total_minutes": "", "last_made": ""}
	args := map[string]map[string]string{
		"plan_week":      {"start_date": "2026-03-09", "wishes": "quick on weeknights"},
		"dinner_tonight": {"max_minutes": "30"},
		"shop_for_plan":  {"start_date": "2026-03-09", "end_date": "2026-03-15", "list": "Groceries"},
		"tidy_recipe":    {"recipe": "lemon risotto"},
		"log_cooked":     {"recipe": "weeknight stir-fry", "date": "2026-03-10", "note": "a bit salty"},
	}
	for _, p := range promptCatalog() {
		res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: p.prompt.Name, Arguments: args[p.prompt.Name]})
		if err != nil {
			t.Fatalf("%s: %v", p.prompt.Name, err)
		}
		if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
			t.Fatalf("%s: messages %v", p.prompt.Name, res.Messages)
		}
		text := res.Messages[0].Content.(*mcp.TextContent).Text
		for _, w := range toolWord.FindAllString(text, -1) {
			if _, isParam := params[w]; !known[w] && !isParam {
				t.Errorf("%s names %q, which is no tool: %s", p.prompt.Name, w, text)
			}
		}
		for _, n := range p.needs {
			if !known[n] || !strings.Contains(text, n) {
				t.Errorf("%s needs %s but its text does not name it: %s", p.prompt.Name, n, text)
			}
		}
		for _, v := range args[p.prompt.Name] {
			if !strings.Contains(text, v) {
				t.Errorf("%s: the argument %q is not in the text: %s", p.prompt.Name, v, text)
			}
		}
	}
}

// TestPromptArgumentsChecked: a missing required argument, an unknown one,
// a date not written YYYY-MM-DD and a number in words are refused with
// the argument named.
func TestPromptArgumentsChecked(t *testing.T) {
	f := newFakes(t)
	cs := session(t, f.backends, Options{}, nil)
	for _, c := range []struct {
		name string
		args map[string]string
		want string
	}{
		{"tidy_recipe", nil, "needs recipe"},
		{"plan_week", map[string]string{"start": "2026-03-09"}, `no argument "start"`},
		{"plan_week", map[string]string{"start_date": "next monday"}, "start_date must be a date YYYY-MM-DD"},
		{"dinner_tonight", map[string]string{"max_minutes": "half an hour"}, "max_minutes must be a whole number"},
		{"shop_for_plan", map[string]string{"start_date": "2026-03-09"}, "needs end_date"},
		{"log_cooked", map[string]string{"recipe": strings.Repeat("x", 201)}, "longer than 200"},
	} {
		_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: c.name, Arguments: c.args})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: err = %v, want %q", c.name, c.args, err, c.want)
		}
	}
}
