package mcpfront

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/recovery"
	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	"github.com/souskitchen/sous/proto/limits"
)

// handlerFunc is a tool's typed body: it calls the backend and returns a
// value to send as compact JSON (see encode).
type handlerFunc[In any] func(ctx context.Context, req *mcp.CallToolRequest, b Backends, in In) (any, error)

// props are a tool's refinements of its inferred input schema: enums,
// defaults and bounds that struct tags cannot carry (toolschema.Props).
type props = toolschema.Props

// mcpSchema is one parameter of a tool's input schema as a refinement sees
// it (toolschema.Param).
type mcpSchema = toolschema.Param

// maxTextLen caps free text: a description, a step, a note, a method. It is
// also the hidden cap of every string parameter that has no other
// (toolschema.Options.MaxText), so it is the largest free-text limit of any
// service. The numbers are the services' own (proto/limits), so a direct
// Connect client is refused at the same length.
const maxTextLen = max(limits.RecipeTextChars, limits.CookbookDescriptionChars, limits.MethodChars)

// newTool declares a tool whose input is In. Its schema comes from In's
// fields and their `jsonschema` descriptions, refined by p; it is the one
// tools/list shows and the one each call is held to (toolschema), so a
// misspelt parameter is a tool error naming it rather than silently
// ignored. A schema the checker cannot hold calls to is a start-up panic.
//
// The handler it declares is the tool's body alone: the deadline, the
// progress heartbeat and panic recovery are the server's middleware
// (middleware.go), applied at registration.
func newTool[In any](toolset string, def *mcp.Tool, available func(Backends, Options) bool, p props, h handlerFunc[In]) Tool {
	input, err := toolschema.For[In](def.Name, p, toolschema.Options{MaxText: maxTextLen})
	if err != nil {
		panic(err.Error())
	}
	def.InputSchema = input.Schema()
	return Tool{
		Def:       def,
		Toolset:   toolset,
		available: available,
		handler: func(b Backends) mcp.ToolHandler {
			return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if panicHook != nil {
					panicHook(def.Name, req.Params.Arguments)
				}
				in, notes, err := toolschema.Decode[In](input, req.Params.Arguments)
				if err != nil {
					return toolError(err), nil
				}
				v, err := h(ctx, req, b, in)
				if err != nil {
					return toolError(renameInternal(err, def.Name)), nil
				}
				if n, ok := v.(noted); ok && len(notes) > 0 {
					v = n.withCapped(strings.Join(notes, "; "))
				}
				// No output schema is declared and no structuredContent
				// is set, so the answer crosses the wire once: a
				// structured copy would double every answer's tokens
				// (docs/tools.md).
				res, err := encode(v)
				if err != nil {
					return toolError(err), nil
				}
				return res, nil
			}
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
