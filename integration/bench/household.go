package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/foodapiproc"
	"github.com/souskitchen/sous/internal/mealieemu"
)

// Household is figure 7: everyday tasks, each as the tool calls a model
// makes reading only tools/list, on the emulator's household library (40
// recipes from public recipe pages, household/README.md in
// internal/mealieemu) and the demo pantry, each outcome checked by reading
// Mealie and the food API back.
type Household struct {
	// Tasks are the ten everyday tasks, in the order they ran.
	Tasks []*HouseholdTask
	// Pair are the two figures the name resolver is measured by: "what
	// can I make with chicken thighs, rice and a lime" and the pasted
	// 13-line recipe (task 2's record, shown again).
	Pair []*HouseholdTask
	// Pantry is false when the food API could not start; the pantry tasks
	// then did not run.
	Pantry bool
	// Edits are the edits a household says, each run with the tools
	// before they were built and after (household_edits.go).
	Edits []*EditPair
	// EditsBeforeBin says the before runs went through a build from
	// before the edit tools (Harness.BeforeBin), not this one.
	EditsBeforeBin bool
}

// HouseholdTask is one task's record.
type HouseholdTask struct {
	// Key names the task in the table and in -household (short, stable).
	Key string
	// Ask is what the user said.
	Ask string
	// Calls are the tool calls made, in order.
	Calls []HouseholdCall
	// Held says whether the outcome read back from Mealie and the food
	// API is what the user asked for; Outcome says what was read.
	Held    bool
	Outcome string
	// Err is set when the task could not be run at all (a transport
	// failure, not a tool error, which is part of the measure).
	Err string
}

// HouseholdCall is one tool call of a task.
type HouseholdCall struct {
	Tool string
	// Bytes and Tokens measure the answer the model reads.
	Bytes  int
	Tokens *Tokens
	// ToolError is true when the answer was a tool error.
	ToolError bool
}

// TokenSum adds the task's answer tokens; ok is false when any count is
// missing.
func (t *HouseholdTask) TokenSum() (n int, ok bool) {
	for _, c := range t.Calls {
		if c.Tokens == nil || !c.Tokens.OK {
			return 0, false
		}
		n += c.Tokens.N
	}
	return n, true
}

// ToolErrors counts the task's calls answered with a tool error.
func (t *HouseholdTask) ToolErrors() int {
	n := 0
	for _, c := range t.Calls {
		if c.ToolError {
			n++
		}
	}
	return n
}

// hx is what a task script and its check use: the MCP session the model
// talks through, and direct reads of Mealie and the food API for the check.
type hx struct {
	ctx  context.Context
	s    *mcp.ClientSession
	hc   *http.Client
	em   *mealieemu.Server
	food *foodapiproc.FoodAPI
	tok  *Tokenizer
	rec  *HouseholdTask
	// kept is what a script keeps for its check: the lines as they were,
	// the recipes an answer suggested.
	kept []string
	// trace receives each call and answer (Harness.Trace), nil for none.
	trace io.Writer
	// week is next Monday to Sunday, the days the plan task fills.
	monday time.Time
}

// call makes one tool call as the model would and records it. A tool error
// is returned as text with isErr set, since the model reads it and goes on;
// err is only a transport failure.
func (x *hx) call(tool string, args map[string]any) (text string, isErr bool, err error) {
	res, err := x.s.CallTool(x.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	text = b.String()
	n := len(text)
	if res.StructuredContent != nil {
		sc, _ := json.Marshal(res.StructuredContent)
		n += len(sc)
		text += string(sc)
	}
	if x.trace != nil {
		a, _ := json.Marshal(args)
		fmt.Fprintf(x.trace, "--- %s %s %s\n%s\n", x.rec.Key, tool, a, text)
	}
	x.rec.Calls = append(x.rec.Calls, HouseholdCall{Tool: tool, Bytes: n, Tokens: x.tok.Add(text), ToolError: res.IsError})
	return b.String(), res.IsError, nil
}

// callJSON is call with the answer decoded; a tool error or an answer that
// is not a JSON object decodes to nil.
func (x *hx) callJSON(tool string, args map[string]any) (map[string]any, string, bool, error) {
	text, isErr, err := x.call(tool, args)
	if err != nil || isErr {
		return nil, text, isErr, err
	}
	var m map[string]any
	if json.Unmarshal([]byte(text), &m) != nil {
		return nil, text, false, nil
	}
	return m, text, false, nil
}

// mealie GETs a Mealie path from the emulator directly, for a check.
func (x *hx) mealie(path string, out any) error {
	return getJSON(x.ctx, x.hc, x.em, path, out)
}

// pantry GETs a food API path directly, for a check.
func (x *hx) pantry(path string, out any) error {
	req, err := http.NewRequestWithContext(x.ctx, http.MethodGet, x.food.BaseURL+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Token "+x.food.Token)
	resp, err := x.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("GET %s: status %d: %s", path, resp.StatusCode, b)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// householdTask is one task: its script (the calls a model reading only
// tools/list makes, adapting to the answers as a model would) and its check
// (Mealie and the food API read back).
type householdTask struct {
	key, ask string
	// pantry tasks need the food API.
	pantry bool
	run    func(x *hx) error
	check  func(x *hx) (bool, string, error)
}

// runHousehold runs every household task in order against one emulator,
// one food API and one `sous mcp --http`: tasks share the library, as a
// household's week does.
func (h *Harness) runHousehold(ctx context.Context) (*Household, error) {
	em, err := mealieemu.Start(mealieemu.WithSeed("household"))
	if err != nil {
		return nil, err
	}
	defer em.Close()
	out := &Household{}
	env := []string{"MEALIE_URL=" + em.URL, "MEALIE_API_TOKEN=" + em.Token}
	// A food API of its own: the tasks change the pantry, and the other
	// figures read the demo kitchen as seeded.
	food, ferr := foodapiproc.Start(ctx, foodapiproc.Options{Root: h.Root})
	if ferr == nil {
		defer food.Close()
		out.Pantry = true
		env = append(env, "FOOD_API_BASE="+food.BaseURL, "FOOD_API_TOKEN="+food.Token)
	}
	p, url, err := h.startMCPHTTP(env...)
	if err != nil {
		return nil, err
	}
	defer p.Stop()
	hc := httpClient()
	s, err := connectMCP(ctx, hc, url)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	monday := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 1)
	for monday.Weekday() != time.Monday {
		monday = monday.AddDate(0, 0, 1)
	}
	var errs []error
	runOne := func(t householdTask) *HouseholdTask {
		rec := &HouseholdTask{Key: t.key, Ask: t.ask}
		if t.pantry && food == nil {
			rec.Err = "not run: the food API did not start (" + ferr.Error() + ")"
			return rec
		}
		x := &hx{ctx: ctx, s: s, hc: hc, em: em, food: food, tok: h.Tok, rec: rec, monday: monday, trace: h.Trace}
		if err := t.run(x); err != nil {
			rec.Err = err.Error()
			errs = append(errs, fmt.Errorf("%s: %w", t.key, err))
			return rec
		}
		held, outcome, err := t.check(x)
		if err != nil {
			rec.Err = "check: " + err.Error()
			errs = append(errs, fmt.Errorf("%s: check: %w", t.key, err))
			return rec
		}
		rec.Held, rec.Outcome = held, outcome
		h.logf("household %s: %d calls, held %v: %s", t.key, len(rec.Calls), held, outcome)
		return rec
	}
	var paste *HouseholdTask
	for _, t := range householdTasks {
		rec := runOne(t)
		out.Tasks = append(out.Tasks, rec)
		if t.key == pasteKey {
			paste = rec
		}
	}
	for _, t := range householdPair {
		out.Pair = append(out.Pair, runOne(t))
	}
	if paste != nil {
		out.Pair = append(out.Pair, paste)
	}
	// The before runs go through the build from before the edit tools
	// when there is one, against the same Mealie and food API.
	beforeSession := s
	if h.BeforeBin != "" {
		bp, burl, err := h.startMCPHTTPBin(h.BeforeBin, env...)
		if err != nil {
			return nil, fmt.Errorf("starting the build from before the edits: %w", err)
		}
		defer bp.Stop()
		if beforeSession, err = connectMCP(ctx, hc, burl); err != nil {
			return nil, err
		}
		defer beforeSession.Close()
		out.EditsBeforeBin = true
	}
	for _, a := range householdEditAsks() {
		pair := &EditPair{Key: a.key, Ask: a.ask}
		for i, script := range []func(*hx) error{a.before, a.after} {
			rec := &HouseholdTask{Key: a.key + []string{" (before)", " (after)"}[i], Ask: a.ask}
			sess := s
			if i == 0 {
				sess = beforeSession
			}
			x := &hx{ctx: ctx, s: sess, hc: hc, em: em, food: food, tok: h.Tok, rec: rec, monday: monday, trace: h.Trace}
			if err := a.setup(x); err != nil {
				rec.Err = "setup: " + err.Error()
				errs = append(errs, fmt.Errorf("%s: setup: %w", rec.Key, err))
			} else if err := script(x); err != nil {
				rec.Err = err.Error()
				errs = append(errs, fmt.Errorf("%s: %w", rec.Key, err))
			} else if held, outcome, err := a.check(x); err != nil {
				rec.Err = "check: " + err.Error()
				errs = append(errs, fmt.Errorf("%s: check: %w", rec.Key, err))
			} else {
				rec.Held, rec.Outcome = held, outcome
				h.logf("household %s: %d calls, held %v: %s", rec.Key, len(rec.Calls), held, outcome)
			}
			if i == 0 {
				pair.Before = rec
			} else {
				pair.After = rec
			}
		}
		out.Edits = append(out.Edits, pair)
	}
	return out, errors.Join(errs...)
}
