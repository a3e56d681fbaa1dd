package mcpfront

import (
	"context"
	"fmt"
	"slices"
	"strings"

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
	// available reports whether the backend the tool needs is configured.
	available func(b Backends) bool
}

// ReadOnly reports whether the tool only reads.
func (t *Tool) ReadOnly() bool { return t.Def.Annotations != nil && t.Def.Annotations.ReadOnlyHint }

// handlerFunc is a tool's typed body: it calls the backend and returns a
// value to send as compact JSON (see encode).
type handlerFunc[In any] func(ctx context.Context, req *mcp.CallToolRequest, b Backends, in In) (any, error)

// props tweaks an input schema's properties after it is inferred from the
// input struct: enums, defaults and bounds that struct tags cannot carry.
type props map[string]func(*jsonschema.Schema)

// newTool declares a tool whose input is In. Its schema comes from In's
// fields and their `jsonschema` descriptions, refined by p.
func newTool[In any](toolset string, def *mcp.Tool, available func(Backends) bool, p props, h handlerFunc[In]) Tool {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", def.Name, err))
	}
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
		register: func(s *mcp.Server, b Backends, _ Options) {
			mcp.AddTool(s, def, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
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
		if !enabled[t.Toolset] || !t.available(b) {
			continue
		}
		if opts.ReadOnly && !t.ReadOnly() {
			continue
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
