package mcpfront

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompts are the everyday asks as MCP prompts (prompts/list, prompts/get):
// short templates a user picks by name (Claude's apps show them as slash
// commands), each naming the tools that do the ask in the fewest calls.
// Like tools they are data: one table, each entry with the tools it needs,
// so a prompt is offered only when every one of its tools is (a read-only
// server offers none that writes, a server without a pantry none that
// needs it).

// promptArgChars caps a prompt argument: a date, a recipe's name or slug,
// a few words of preference.
const promptArgChars = 200

// promptDate and promptNumber are the forms of a date argument and a
// number argument.
var (
	promptDate   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	promptNumber = regexp.MustCompile(`^[1-9]\d{0,4}$`)
)

// promptDef is one prompt: its definition, the tools it names and needs,
// and its text for the arguments given.
type promptDef struct {
	prompt *mcp.Prompt
	// needs are the tools the text tells the model to call; the prompt is
	// offered only when all are.
	needs []string
	// dates are the arguments that must be YYYY-MM-DD, numbers those that
	// must be whole numbers.
	dates, numbers []string
	// text is the prompt's message for the arguments given; have says
	// which tools the server offers, for a sentence about an optional one.
	text func(args map[string]string, have map[string]bool) string
}

// promptCatalog is every prompt sous defines (prompts/list answers them
// by name).
func promptCatalog() []promptDef {
	arg := func(name, desc string, required bool) *mcp.PromptArgument {
		return &mcp.PromptArgument{Name: name, Description: desc, Required: required}
	}
	return []promptDef{
		{
			prompt: &mcp.Prompt{Name: "plan_week", Title: "Plan the week", Description: "Plan a week of dinners from the recipes in Mealie.",
				Arguments: []*mcp.PromptArgument{arg("start_date", "First day, YYYY-MM-DD (default: the coming Monday)", false), arg("wishes", "Anything to keep in mind, e.g. quick on weeknights, no fish", false)}},
			needs: []string{"get_meal_plan", "search_recipes", "add_meal_plan_entry", "update_meal_plan_entry"},
			dates: []string{"start_date"},
			text: func(a map[string]string, have map[string]bool) string {
				week := "the coming week, Monday to Sunday (get_todays_meals gives today's date)"
				if d := a["start_date"]; d != "" {
					week = "the 7 days from " + d
				}
				return "Plan dinners for " + week + "." + wishes(a["wishes"]) +
					" First call get_meal_plan for those days and keep what is already planned. Pick recipes with search_recipes" +
					" (max_total_minutes for quick weeknights, never_made for something new, fields [\"total_minutes\",\"last_made\"]);" +
					" suggest_recipes(from_pantry=true) finds what uses what we have, if a pantry is set up. Show me the plan before writing it," +
					" then add each dinner with add_meal_plan_entry; to move one, use update_meal_plan_entry."
			},
		},
		{
			prompt: &mcp.Prompt{Name: "dinner_tonight", Title: "What's for dinner tonight?", Description: "Say what is planned tonight, or find something to make.",
				Arguments: []*mcp.PromptArgument{arg("max_minutes", "The most time we have, in minutes", false)}},
			needs:   []string{"get_todays_meals", "suggest_recipes", "search_recipes"},
			numbers: []string{"max_minutes"},
			text: func(a map[string]string, have map[string]bool) string {
				limit := ""
				if m := a["max_minutes"]; m != "" {
					limit = " taking at most " + m + " minutes (search_recipes max_total_minutes=" + m + ")"
				}
				out := "What's for dinner tonight? Call get_todays_meals. If a dinner is planned, tell me what it is (get_recipe for what it needs)." +
					" If not, offer three options" + limit + ": suggest_recipes(from_pantry=true) when a pantry is set up, else search_recipes" +
					" with never_made or by what I like."
				if have["add_meal_plan_entry"] {
					out += " Once I choose, put it on tonight's plan with add_meal_plan_entry."
				}
				return out
			},
		},
		{
			prompt: &mcp.Prompt{Name: "shop_for_plan", Title: "Shop for the plan", Description: "Put what the planned meals need on the shopping list.",
				Arguments: []*mcp.PromptArgument{arg("start_date", "First day, YYYY-MM-DD", true), arg("end_date", "Last day, YYYY-MM-DD", true), arg("list", "Shopping list name (default: the only one)", false)}},
			needs: []string{"get_meal_plan", "add_to_shopping_list", "get_shopping_list"},
			dates: []string{"start_date", "end_date"},
			text: func(a map[string]string, have map[string]bool) string {
				list := ""
				if l := a["list"]; l != "" {
					list = fmt.Sprintf(", list_id=%q", l)
				}
				return fmt.Sprintf("Shop for the meal plan from %s to %s. Call get_meal_plan for those days and tell me what is planned,"+
					" then add_to_shopping_list(meal_plan_range={start_date: %q, end_date: %q}%s) in one call: it skips what the pantry has in stock"+
					" and says so; pass have=[...] for what I say I already have. Then read me the list with get_shopping_list.",
					a["start_date"], a["end_date"], a["start_date"], a["end_date"], list)
			},
		},
		{
			prompt: &mcp.Prompt{Name: "tidy_recipe", Title: "Tidy a recipe", Description: "Turn a recipe's text lines into proper ingredients, and fix what is off.",
				Arguments: []*mcp.PromptArgument{arg("recipe", "The recipe's name or slug", true)}},
			needs: []string{"get_recipe", "parse_ingredients", "update_recipe"},
			text: func(a map[string]string, have map[string]bool) string {
				return fmt.Sprintf("Tidy the recipe %q. Read it with get_recipe. For ingredient lines that are plain text, preview them with"+
					" parse_ingredients; then fix single lines with update_recipe's replace_ingredients ([{\"match\": a food or words of the line,"+
					" \"with\": the line as a cook writes it}]), remove_ingredients and add_ingredients, which leave every other line as it is."+
					" Check times, yield and tags too. Tell me what you will change before writing, and what update_recipe answered after.", a["recipe"])
			},
		},
		{
			prompt: &mcp.Prompt{Name: "log_cooked", Title: "Log what we cooked", Description: "Record a meal we made, and what it used up.",
				Arguments: []*mcp.PromptArgument{arg("recipe", "What we cooked: a recipe's name or slug", true), arg("date", "When, YYYY-MM-DD (default: today)", false), arg("note", "How it went", false)}},
			needs: []string{"search_recipes", "mark_recipe_made"},
			dates: []string{"date"},
			text: func(a map[string]string, have map[string]bool) string {
				when, note := "", ""
				if d := a["date"]; d != "" {
					when = fmt.Sprintf(", date=%q", d)
				}
				if n := a["note"]; n != "" {
					note = fmt.Sprintf(", note=%q", n)
				}
				out := fmt.Sprintf("We cooked %q. If it is a Mealie recipe (search_recipes finds its slug), call mark_recipe_made(slug%s%s).", a["recipe"], when, note)
				if have["log_cook"] {
					out += " If it is one of the pantry's meta-recipes (get_meta_recipes), log it with log_cook instead. Then ask me what ran out" +
						" or ran low and set it with set_item_state."
				}
				return out
			},
		},
	}
}

// wishes is the sentence of a user's wishes, or nothing.
func wishes(w string) string {
	if w = strings.TrimSpace(w); w == "" {
		return ""
	}
	return " Keep in mind: " + w + "."
}

// registerPrompts adds the prompts whose tools are all registered.
func registerPrompts(s *mcp.Server, tools []Tool) {
	have := map[string]bool{}
	for _, t := range tools {
		have[t.Def.Name] = true
	}
	for _, p := range promptCatalog() {
		if !slices.ContainsFunc(p.needs, func(n string) bool { return !have[n] }) {
			s.AddPrompt(p.prompt, p.handler(have))
		}
	}
}

// handler answers prompts/get: one user message, after the arguments are
// checked (an unknown one, a missing required one, a date not written
// YYYY-MM-DD, or one past promptArgChars is an error naming it).
func (p promptDef) handler(have map[string]bool) mcp.PromptHandler {
	return func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args := map[string]string{}
		known := map[string]bool{}
		for _, a := range p.prompt.Arguments {
			known[a.Name] = true
		}
		for k, v := range req.Params.Arguments {
			if !known[k] {
				return nil, fmt.Errorf("prompt %s has no argument %q; it takes %s", p.prompt.Name, k, argNames(p.prompt))
			}
			v = strings.TrimSpace(v)
			if utf8.RuneCountInString(v) > promptArgChars {
				return nil, fmt.Errorf("prompt %s: %s is longer than %d characters", p.prompt.Name, k, promptArgChars)
			}
			args[k] = v
		}
		for _, a := range p.prompt.Arguments {
			if a.Required && args[a.Name] == "" {
				return nil, fmt.Errorf("prompt %s needs %s (%s)", p.prompt.Name, a.Name, a.Description)
			}
		}
		for _, d := range p.dates {
			if v := args[d]; v != "" && !promptDate.MatchString(v) {
				return nil, fmt.Errorf("prompt %s: %s must be a date YYYY-MM-DD, got %q", p.prompt.Name, d, v)
			}
		}
		for _, n := range p.numbers {
			if v := args[n]; v != "" && !promptNumber.MatchString(v) {
				return nil, fmt.Errorf("prompt %s: %s must be a whole number, got %q", p.prompt.Name, n, v)
			}
		}
		return &mcp.GetPromptResult{
			Description: p.prompt.Description,
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: p.text(args, have)}}},
		}, nil
	}
}

// argNames lists a prompt's argument names.
func argNames(p *mcp.Prompt) string {
	var out []string
	for _, a := range p.Arguments {
		out = append(out, a.Name)
	}
	return strings.Join(out, ", ")
}
