package mcpfront

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The toolsets, one per backend area, so a connector can expose only what it
// needs (DESIGN.md, "The MCP front").
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
// annotations, toolset and handler (the inventory habit of STYLE.md). Read-only
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
	// list-only form, seed "Read-only mode").
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
// about 60 s (shared/cases/mcp-cases.md, M09/M10), and go-sdk does not cancel
// a stateless handler when the client aborts the POST, so work orphaned by an
// aborted call stops here at the latest.
const toolDeadline = 50 * time.Second

// newTool declares a tool whose input is In. Its schema comes from In's
// fields and their `jsonschema` descriptions, refined by p.
func newTool[In any](toolset string, def *mcp.Tool, available func(Backends, Options) bool, p props, h handlerFunc[In]) Tool {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", def.Name, err))
	}
	dropNullTypes(schema)
	for name, f := range p {
		prop, ok := schema.Properties[name]
		if !ok {
			panic(fmt.Sprintf("tool %s: no property %q to refine", def.Name, name))
		}
		f(prop)
	}
	for name, prop := range schema.Properties {
		if prop.Description == "" {
			panic(fmt.Sprintf("tool %s: property %q has no description", def.Name, name))
		}
	}
	def.InputSchema = schema
	return Tool{
		Def:       def,
		Toolset:   toolset,
		available: available,
		register: func(s *mcp.Server, b Backends, opts Options) {
			b.imageDir = opts.ImageDir
			mcp.AddTool(s, def, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
				ctx, cancel := context.WithTimeout(ctx, toolDeadline)
				defer cancel()
				v, err := h(ctx, req, b, in)
				if err != nil {
					return toolError(err), nil, nil
				}
				res, err := encode(v)
				if err != nil {
					return toolError(err), nil, nil
				}
				// The output is nil and no output schema is declared, so
				// the SDK sends no structuredContent: the answer crosses
				// the wire once (seed, "Responses are sent once").
				return res, nil, nil
			})
		},
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
	enabled := map[string]bool{}
	if len(opts.Toolsets) == 0 {
		for _, ts := range Toolsets {
			enabled[ts] = true
		}
	}
	for _, ts := range opts.Toolsets {
		ts = strings.ToLower(strings.TrimSpace(ts))
		if !slices.Contains(Toolsets, ts) {
			return nil, fmt.Errorf("SOUS_TOOLSETS: unknown toolset %q (valid: %s)", ts, strings.Join(Toolsets, ", "))
		}
		enabled[ts] = true
	}
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

// Annotation presets. The hints are set truthfully on every tool
// (DESIGN.md): open-world is false because every tool works on the user's own
// Mealie or pantry, except those that reach third-party pages.
func readAnn(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
}

// writeAnn annotates a write. destructive means it can overwrite or delete
// what is there (MCP's default for an unset hint is true, so it is always
// set); idempotent means a repeat with the same arguments changes nothing
// more; openWorld means it reaches a third-party host (Mealie fetching a
// page or an image).
func writeAnn(title string, destructive, idempotent, openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(openWorld)}
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

func isoDate(s *jsonschema.Schema) { s.Pattern = isoDatePattern }

// both applies several refinements to one property.
func both(fs ...func(*jsonschema.Schema)) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		for _, f := range fs {
			f(s)
		}
	}
}

// ingredientItems describes an ingredients list whose items are either a
// free-text line or a structured line (seed, "Ingredients accept text or
// structure, per item").
func ingredientItems(s *jsonschema.Schema) {
	s.MaxItems = ptr(maxListInput)
	text := &jsonschema.Schema{Type: "string", MaxLength: ptr(500), Description: `A free-text line, such as "2 cups flour, sifted".`}
	structured := &jsonschema.Schema{
		Type:        "object",
		Description: "A structured line, as parse_ingredients returns it. Food and unit names Mealie does not know are kept in the note.",
		Properties: map[string]*jsonschema.Schema{
			"quantity": {Type: "number", Minimum: ptr(0.0), Description: "Amount in the unit."},
			"unit":     {Type: "string", Description: `Unit name, such as "cup".`},
			"food":     {Type: "string", Description: `Food name, such as "flour".`},
			"note":     {Type: "string", Description: `Free text beside the food, such as "sifted".`},
			"title":    {Type: "string", Description: `Section title starting at this line, such as "For the sauce".`},
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
