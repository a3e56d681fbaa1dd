package bench

import (
	"fmt"
	"strings"
)

// Markdown renders figure 7: one row a task, a total, and the pair.
func (hh *Household) Markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("\n### 7. Household tasks: the calls a model makes, on a library of 40 real recipes\n\n")
	p("Each task is the tool calls a model reading only `tools/list` makes for it, through one MCP session on `sous mcp --http` (the emulator's `household` seed, the demo pantry); the outcome is read back from Mealie and the food API.\n\n")
	p("| # | Task | Calls | Tool errors | Answer tokens | Outcome held | What was read back |\n|--:|---|--:|--:|--:|---|---|\n")
	calls, errs, tokens, held, tokOK := 0, 0, 0, 0, true
	for i, t := range hh.Tasks {
		p("| %d | %s | %s |\n", i+1, t.Ask, t.cells())
		calls += len(t.Calls)
		errs += t.ToolErrors()
		if n, ok := t.TokenSum(); ok {
			tokens += n
		} else {
			tokOK = false
		}
		if t.Held {
			held++
		}
	}
	tok := TokensUnavailable
	if tokOK {
		tok = fmt.Sprint(tokens)
	}
	p("| | **Total** | **%d** | **%d** | **%s** | **%d of %d** | |\n", calls, errs, tok, held, len(hh.Tasks))
	if len(hh.Pair) > 0 {
		p("\nThe two figures the name resolver is measured by (the pasted recipe is task 2 above):\n\n")
		p("| Task | Calls | Tool errors | Answer tokens | Outcome held | What was read back |\n|---|--:|--:|--:|---|---|\n")
		for _, t := range hh.Pair {
			p("| %s | %s |\n", t.Ask, t.cells())
		}
	}
	if len(hh.Edits) > 0 {
		where := "this build, asked the old way (sousbench -before names a build from before them)"
		if hh.EditsBeforeBin {
			where = "a build from before they were built"
		}
		p("\nThe edits a household says, each run twice from the same starting state: the way a model asks with the tools sous had before they were built (before: %s), and with the tools made for them (after, this build):\n\n", where)
		p("| Ask | Before: calls | Before: tool errors | Before: answer tokens | Before: held | After: calls | After: tool errors | After: answer tokens | After: held | What was read back after |\n|---|--:|--:|--:|---|--:|--:|--:|---|---|\n")
		for _, e := range hh.Edits {
			p("| %s | %s | %s | %s |\n", strings.ReplaceAll(e.Ask, "|", "\\|"), e.Before.short(), e.After.short(), e.After.readBack())
		}
	}
	if !hh.Pantry {
		p("\nThe food API did not start: the pantry tasks did not run.\n")
	}
	return b.String()
}

// cells renders a task's columns after its name.
func (t *HouseholdTask) cells() string {
	tok := TokensUnavailable
	if n, ok := t.TokenSum(); ok {
		tok = fmt.Sprint(n)
	}
	var tools []string
	for _, c := range t.Calls {
		tools = append(tools, c.Tool)
	}
	held := "no"
	if t.Held {
		held = "yes"
	}
	outcome := t.Outcome
	if t.Err != "" {
		held, outcome = "not run", t.Err
	}
	outcome = strings.ReplaceAll(outcome, "|", "\\|")
	if len(tools) > 0 {
		outcome += " (calls: " + compactTools(tools) + ")"
	}
	return fmt.Sprintf("%d | %d | %s | %s | %s", len(t.Calls), t.ToolErrors(), tok, held, outcome)
}

// short is a run's calls, tool errors, tokens and outcome, as cells.
func (t *HouseholdTask) short() string {
	tok := TokensUnavailable
	if n, ok := t.TokenSum(); ok {
		tok = fmt.Sprint(n)
	}
	held := "no"
	switch {
	case t.Err != "":
		held = "not run"
	case t.Held:
		held = "yes"
	}
	return fmt.Sprintf("%d | %d | %s | %s", len(t.Calls), t.ToolErrors(), tok, held)
}

// readBack is what a run's check read, with its calls.
func (t *HouseholdTask) readBack() string {
	outcome := t.Outcome
	if t.Err != "" {
		outcome = t.Err
	}
	var tools []string
	for _, c := range t.Calls {
		tools = append(tools, c.Tool)
	}
	outcome = strings.ReplaceAll(outcome, "|", "\\|")
	if len(tools) > 0 {
		outcome += " (calls: " + compactTools(tools) + ")"
	}
	return outcome
}

// compactTools lists tool names, runs of the same tool as "name ×n".
func compactTools(tools []string) string {
	var out []string
	for i := 0; i < len(tools); {
		j := i
		for j < len(tools) && tools[j] == tools[i] {
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("`%s` ×%d", tools[i], j-i))
		} else {
			out = append(out, "`"+tools[i]+"`")
		}
		i = j
	}
	return strings.Join(out, ", ")
}
