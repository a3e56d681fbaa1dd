package mcpfront

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"connectrpc.com/connect"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/recovery"
	"github.com/souskitchen/sous/proto/limits"
)

// The toolsets, one per backend area, so a connector can expose only what it
// needs (docs/tools.md, "Toolsets").
const (
	ToolsetRecipes  = "recipes"
	ToolsetMealPlan = "mealplan"
	ToolsetLibrary  = "library"
	ToolsetPantry   = "pantry"
	ToolsetShopping = "shopping"
)

// Toolsets lists every toolset name, in catalog order.
var Toolsets = []string{ToolsetRecipes, ToolsetMealPlan, ToolsetLibrary, ToolsetPantry, ToolsetShopping}

// Tool is one entry of the catalog: declared once with its schema,
// annotations, toolset and handler, so nothing about a tool is stated in two
// places (TestCatalogInventory checks the whole list). Read-only
// mode and scopes are derived from Annotations.ReadOnlyHint, so a tool cannot
// be write-capable and listed as read-only.
type Tool struct {
	// Def is what tools/list shows.
	Def *mcp.Tool
	// Toolset is the toolset the tool belongs to.
	Toolset string
	// register adds the tool to a server.
	register func(s *mcp.Server, b Backends, opts Options)
	// available reports whether the backend (and, for upload_recipe_image,
	// the setting) the tool needs is configured.
	available func(b Backends, opts Options) bool
	// readOnlyVariant, when set on a write tool, is what read-only mode
	// registers in its place under the same name (manage_taxonomy's
	// list-only form, docs/tools.md "Safety lines").
	readOnlyVariant func() Tool
	// writeAttempt, on a read-only variant, reports whether a call's
	// arguments ask for a write, which is answered ReadOnlyMessage.
	writeAttempt func(args json.RawMessage) bool
}

// ReadOnly reports whether the tool only reads.
func (t *Tool) ReadOnly() bool { return t.Def.Annotations != nil && t.Def.Annotations.ReadOnlyHint }

// handlerFunc is a tool's typed body: it calls the backend and returns a
// value to send as compact JSON (see encode).
type handlerFunc[In any] func(ctx context.Context, req *mcp.CallToolRequest, b Backends, in In) (any, error)

// props tweaks an input schema's properties after it is inferred from the
// input struct: enums, defaults and bounds that struct tags cannot carry.
type props map[string]func(*jsonschema.Schema)

// toolDeadline bounds every tool call. claude.ai gives up on a call after
// about 60 s, and go-sdk does not cancel
// a stateless handler when the client aborts the POST, so work orphaned by an
// aborted call stops here at the latest.
const toolDeadline = 50 * time.Second

// newTool declares a tool whose input is In. Its schema comes from In's
// fields and their `jsonschema` descriptions, refined by p.
//
// Two copies of that schema exist. The strict one, which refuses properties
// it does not declare (at every level), checks each call (checkArgs), so a
// misspelt parameter is a tool error naming it rather than silently
// ignored. The one tools/list shows says the same in fewer bytes (see
// advertise), because every session pays for the whole catalog
// (maxBytesPerTool).
func newTool[In any](toolset string, def *mcp.Tool, available func(Backends, Options) bool, p props, h handlerFunc[In]) Tool {
	strict, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", def.Name, err))
	}
	dropNullTypes(strict)
	for name, f := range p {
		prop, ok := strict.Properties[name]
		if !ok {
			panic(fmt.Sprintf("tool %s: no property %q to refine", def.Name, name))
		}
		f(prop)
	}
	for name, prop := range strict.Properties {
		if prop.Description == "" {
			panic(fmt.Sprintf("tool %s: property %q has no description", def.Name, name))
		}
	}
	shown := strict.CloneSchemas()
	advertise(shown)
	if shown.Properties == nil {
		// An empty object says "no parameters" to clients that would
		// otherwise guess.
		shown.Properties = map[string]*jsonschema.Schema{}
	}
	guardStrings(strict)
	// Resolving checks, once at startup, that every default fits its
	// schema; calls are checked by checkArgs.
	if _, err := strict.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
		panic(fmt.Sprintf("tool %s: resolving its input schema: %v", def.Name, err))
	}
	def.InputSchema = shown
	return Tool{
		Def:       def,
		Toolset:   toolset,
		available: available,
		register: func(s *mcp.Server, b Backends, opts Options) {
			b.imageDir = opts.ImageDir
			s.AddTool(def, func(ctx context.Context, req *mcp.CallToolRequest) (out *mcp.CallToolResult, _ error) {
				// go-sdk runs each request on a goroutine of its own
				// without recover: a panic here would end the process and
				// every other session with it.
				defer func() {
					if p := recover(); p != nil {
						recovery.Log(opts.Logger, def.Name, p)
						out = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: recovery.Message(def.Name)}}}
					}
				}()
				if panicHook != nil {
					panicHook(def.Name, req.Params.Arguments)
				}
				in, notes, err := decodeArgs[In](def.Name, strict, req.Params.Arguments)
				if err != nil {
					return toolError(err), nil
				}
				ctx, cancel := context.WithTimeout(ctx, toolDeadline)
				defer cancel()
				if heartbeatTools[def.Name] {
					defer heartbeat(ctx, req)()
				}
				v, err := h(ctx, req, b, in)
				if err != nil {
					return toolError(renameInternal(err, def.Name)), nil
				}
				// No output schema is declared and no structuredContent
				// is set, so the answer crosses the wire once: a
				// structured copy would double every answer's tokens
				// (docs/tools.md).
				res, err := encode(v)
				if err != nil {
					return toolError(err), nil
				}
				addNotes(res, notes)
				return res, nil
			})
		},
	}
}

// panicHook, when set, runs first in every tool call. It is nil in every
// build a user runs: tests set it, and so does the bench binary's build tag
// (panichook_bench.go), to make one call panic and show the others go on.
var panicHook func(tool string, args json.RawMessage)

// renameInternal rewords a service's recovered panic (a Connect Internal
// carrying recovery.Message with the RPC's procedure) to name the tool the
// caller called instead.
func renameInternal(err error, tool string) error {
	if recovery.Recovered(err) {
		return connect.NewError(connect.CodeInternal, errors.New(recovery.Message(tool)))
	}
	return err
}

// decodeArgs checks a call's arguments against the strict schema (see
// checkArgs), fills in the schema's defaults, and decodes them into In,
// with the notes of what was forgiven.
func decodeArgs[In any](tool string, strict *jsonschema.Schema, raw json.RawMessage) (In, []string, error) {
	var in In
	args := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := decodeJSON(raw, &args); err != nil || args == nil {
			return in, nil, fmt.Errorf("the arguments of %s must be a JSON object of named values", tool)
		}
	}
	notes, err := checkArgs(tool, strict, args)
	if err != nil {
		return in, nil, err
	}
	filled, err := json.Marshal(args)
	if err != nil {
		return in, nil, err
	}
	if err := json.Unmarshal(filled, &in); err != nil {
		return in, nil, fmt.Errorf("the arguments of %s could not be read: %v", tool, err)
	}
	return in, notes, nil
}

// addNotes adds what a call was forgiven ("limit 500 capped at 100") to an
// answer object as "capped", so the model knows it got less than it asked.
func addNotes(res *mcp.CallToolResult, notes []string) {
	if len(notes) == 0 || res == nil || len(res.Content) != 1 {
		return
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok || !strings.HasSuffix(tc.Text, "}") {
		return
	}
	note, err := marshal(strings.Join(notes, "; "))
	if err != nil {
		return
	}
	body := strings.TrimSuffix(tc.Text, "}")
	sep := ","
	if strings.HasSuffix(body, "{") {
		sep = ""
	}
	tc.Text = body + sep + `"capped":` + string(note) + "}"
}

// advertise shortens the schema tools/list shows, in place: it shows a
// date's pattern as "format": "date", which names the same YYYY-MM-DD shape
// (RFC 3339 full-date) in a third of the bytes, and drops the guard caps
// (see guardLen) and the cap marks. The strict copy keeps all of them for
// checkArgs. additionalProperties stays: it tells a client that unknown
// arguments are refused.
func advertise(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Pattern == isoDatePattern {
		s.Pattern, s.Format = "", "date"
	}
	if s.Extra[guardKey] != nil {
		s.MaxLength, s.MinLength = nil, nil
	}
	// The clone shares its Extra map with the strict copy, which still
	// needs the marks.
	s.Extra = maps.Clone(s.Extra)
	delete(s.Extra, guardKey)
	delete(s.Extra, capKey)
	if len(s.Extra) == 0 {
		s.Extra = nil
	}
	for _, p := range s.Properties {
		advertise(p)
	}
	advertise(s.Items)
	for _, a := range s.AnyOf {
		advertise(a)
	}
}

// catalog returns every tool sous defines, in a stable order.
func catalog() []Tool {
	var all []Tool
	all = append(all, recipeTools()...)
	all = append(all, taxonomyTools()...)
	all = append(all, mealPlanTools()...)
	all = append(all, libraryTools()...)
	all = append(all, pantryTools()...)
	all = append(all, shoppingTools()...)
	return all
}

// Select filters the catalog by toolsets, configured backends and read-only
// mode. Unknown toolset names are an error that lists the valid ones.
func Select(b Backends, opts Options) ([]Tool, error) {
	for _, ts := range opts.Toolsets {
		ts = strings.ToLower(strings.TrimSpace(ts))
		if !slices.Contains(Toolsets, ts) {
			return nil, fmt.Errorf("SOUS_TOOLSETS: unknown toolset %q (valid: %s)", ts, strings.Join(Toolsets, ", "))
		}
	}
	enabled := enabledToolsets(opts.Toolsets)
	var out []Tool
	for _, t := range catalog() {
		if !enabled[t.Toolset] || !t.available(b, opts) {
			continue
		}
		if opts.ReadOnly && !t.ReadOnly() {
			if t.readOnlyVariant == nil {
				continue
			}
			t = t.readOnlyVariant()
			if !t.ReadOnly() {
				panic(fmt.Sprintf("tool %s: its read-only variant is not annotated read-only", t.Def.Name))
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// enabledToolsets is the set of toolsets names enables: every toolset when
// names is empty. Unknown names are left to Select to refuse.
func enabledToolsets(names []string) map[string]bool {
	enabled := map[string]bool{}
	if len(names) == 0 {
		for _, ts := range Toolsets {
			enabled[ts] = true
		}
	}
	for _, ts := range names {
		enabled[strings.ToLower(strings.TrimSpace(ts))] = true
	}
	return enabled
}

// Annotation presets. The hints are set truthfully on every tool
// (docs/tools.md, "Annotations"): open-world is false because every tool works on the user's own
// Mealie or pantry, except those that reach third-party pages. No title is
// set: it would only repeat the tool's name in other words, in every
// tools/list answer.
func readAnn() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
}

// writeAnn annotates a write. destructive means it can overwrite or delete
// what is there (MCP's default for an unset hint is true, so it is always
// set); idempotent means a repeat with the same arguments changes nothing
// more; openWorld means it reaches a third-party host (Mealie fetching a
// page or an image).
func writeAnn(destructive, idempotent, openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(openWorld)}
}

func ptr[T any](v T) *T { return &v }

// Schema refinements.
func enum(values ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		for _, v := range values {
			s.Enum = append(s.Enum, v)
		}
	}
}

func intRange(lo, hi, def int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Minimum, s.Maximum = ptr(float64(lo)), ptr(float64(hi))
		s.Default = []byte(fmt.Sprint(def))
	}
}

func boolDefault(def bool) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Default = []byte(fmt.Sprint(def)) }
}

func maxLen(n int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.MaxLength = ptr(n) }
}

// Guard caps: lengths past which a value is a runaway paste, not input.
// They validate every call but are not shown in tools/list (advertise):
// no model plans a 10,000-character description, and every session would
// pay for the numbers. The numbers are the services' own (proto/limits), so
// a direct Connect client is refused at the same length.
//
// maxTextLen caps free text: a description, a step, a note, a method. It is
// also the cap of every string parameter that has no other (guardStrings),
// so it is the largest free-text limit of any service.
const maxTextLen = max(limits.RecipeTextChars, limits.CookbookDescriptionChars, limits.MethodChars)

// guardKey marks a schema whose length bounds are guard caps, which
// advertise drops from the listing.
const guardKey = "x-sous-guard"

// guardLen caps a string at n characters without showing it (see the
// guard caps above).
func guardLen(n int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.MaxLength = ptr(n)
		if s.Extra == nil {
			s.Extra = map[string]any{}
		}
		s.Extra[guardKey] = true
	}
}

// guardItems applies guardLen to every item of a string array.
func guardItems(n int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { guardLen(n)(s.Items) }
}

// nonEmpty requires at least one character, without showing it: an empty
// name is refused with a sentence naming it.
func nonEmpty(s *jsonschema.Schema) {
	s.MinLength = ptr(1)
	if s.Extra == nil {
		s.Extra = map[string]any{}
	}
	s.Extra[guardKey] = true
}

// guardStrings gives every string in a strict schema that has no length
// cap the maxTextLen guard, at every depth (array items, nested objects,
// anyOf branches), so no parameter, present or added later, carries a
// megabyte to a service.
func guardStrings(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Type == "string" && s.MaxLength == nil && len(s.Enum) == 0 {
		s.MaxLength = ptr(maxTextLen)
	}
	for _, p := range s.Properties {
		guardStrings(p)
	}
	guardStrings(s.Items)
	for _, a := range s.AnyOf {
		guardStrings(a)
	}
}

// mcpSchema is the JSON schema type tool inputs are described with.
type mcpSchema = jsonschema.Schema

func toAny(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

func maxItems(n int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.MaxItems = ptr(n) }
}

func itemsRange(lo, hi int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.MinItems, s.MaxItems = ptr(lo), ptr(hi) }
}

func numRange(lo, hi float64) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Minimum, s.Maximum = ptr(lo), ptr(hi) }
}

// isoDatePattern is the shape of a YYYY-MM-DD date; the services check the
// calendar (a 31 February is InvalidArgument there).
const isoDatePattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`

// isoDate makes a parameter a YYYY-MM-DD date, and says so in its
// description, which is what a model reads.
func isoDate(s *jsonschema.Schema) {
	s.Pattern = isoDatePattern
	if !strings.Contains(s.Description, "YYYY-MM-DD") {
		s.Description = strings.TrimSuffix(s.Description, ".") + ", YYYY-MM-DD."
	}
}

// both applies several refinements to one property.
func both(fs ...func(*jsonschema.Schema)) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		for _, f := range fs {
			f(s)
		}
	}
}

// ingredientItems describes an ingredients list whose items are either a
// free-text line or a structured line, chosen per item: a model writes
// "2 cups flour" as easily as its parts, and a structured line keeps
// Mealie's food and unit links (docs/tools.md, create_recipe).
func ingredientItems(s *jsonschema.Schema) {
	s.MaxItems = ptr(limits.RecipeIngredients)
	// The parameter's own description names the object's fields; a
	// description per field would be paid for twice (create and update).
	text := &jsonschema.Schema{Type: "string", MaxLength: ptr(limits.IngredientLineChars)}
	structured := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"quantity": {Type: "number", Minimum: ptr(0.0)},
			"unit":     {Type: "string"},
			"food":     {Type: "string"},
			"note":     {Type: "string"},
			"title":    {Type: "string"},
		},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	s.Items = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{text, structured}}
}

// intBounds bounds an integer that has no default: unset means something
// other than any one value (such as "the recipe's own servings").
func intBounds(lo, hi int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Minimum, s.Maximum = ptr(float64(lo)), ptr(float64(hi)) }
}

// dropNullTypes rewrites the ["null", T] types jsonschema infers for
// pointers and slices to plain T, recursively. Omitting a parameter is how
// a caller leaves it unset; a null type adds tokens to every listing and
// invites models to send null.
func dropNullTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		dropNullTypes(p)
	}
	dropNullTypes(s.Items)
}
