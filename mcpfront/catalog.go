package mcpfront

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	// handler is the tool's call handler on the backends b, before the
	// server's tool middleware wraps it (register).
	handler func(b Backends) mcp.ToolHandler
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

// register adds the tool to s, its handler on b wrapped in mws, the first
// of them outermost (NewServer passes the server's own, middleware.go).
func (t *Tool) register(s *mcp.Server, b Backends, mws ...toolMiddleware) {
	h := t.handler(b)
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](t.Def.Name, h)
	}
	s.AddTool(t.Def, h)
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
