package mcpfront

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/recovery"
)

// toolMiddleware wraps the handler of the tool named tool. NewServer passes
// the server's own to every tool at registration (Tool.register), so what
// every call shares (a deadline, a heartbeat, naming a panic) is stated
// once, not in each tool's body.
type toolMiddleware func(tool string, next mcp.ToolHandler) mcp.ToolHandler

// toolMiddlewares are what every tool call runs through, the first
// outermost.
func toolMiddlewares() []toolMiddleware {
	return []toolMiddleware{namePanics, withDeadline(toolDeadline), withHeartbeat(heartbeatTools)}
}

// toolDeadline bounds every tool call. claude.ai gives up on a call after
// about 60 s, and go-sdk does not cancel
// a stateless handler when the client aborts the POST, so work orphaned by an
// aborted call stops here at the latest.
const toolDeadline = 50 * time.Second

// withDeadline bounds each call of the tool at d.
func withDeadline(d time.Duration) toolMiddleware {
	return func(_ string, next mcp.ToolHandler) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			return next(ctx, req)
		}
	}
}

// withHeartbeat sends a progress heartbeat (heartbeat) while a call of one
// of tools runs; other tools pass through untouched.
func withHeartbeat(tools map[string]bool) toolMiddleware {
	return func(tool string, next mcp.ToolHandler) mcp.ToolHandler {
		if !tools[tool] {
			return next
		}
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			defer heartbeat(ctx, req)()
			return next(ctx, req)
		}
	}
}

// runningKey is the context key of the tool a request is running, which
// recoverMethods sets up and namePanics fills in.
type runningKey struct{}

// namePanics tells recoverMethods that the request's tool body is running,
// so a panic in it is answered as that tool's error. It recovers nothing
// itself: recoverMethods is the one place a panic is recovered.
func namePanics(tool string, next mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if running, ok := ctx.Value(runningKey{}).(*string); ok {
			*running = tool
		}
		return next(ctx, req)
	}
}

// recoverMethods ends a panic anywhere in handling one request (a tool's
// body, a middleware, tools/list, the SDK's own argument handling) with
// that request: it is logged once and the process serves on. go-sdk runs
// each request on a goroutine without recover. A panic in a tool's body
// (namePanics marked it running) is answered with a tool error naming the
// tool, which a model reads; any other with a JSON-RPC error naming the
// method.
func recoverMethods(logger *slog.Logger) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			var running string
			ctx = context.WithValue(ctx, runningKey{}, &running)
			defer func() {
				p := recover()
				switch {
				case p == nil:
				case running != "":
					recovery.Log(logger, running, p)
					res, err = toolError(errors.New(recovery.Message(running))), nil
				default:
					recovery.Log(logger, method, p)
					res, err = nil, errors.New(recovery.Message(method))
				}
			}()
			return next(ctx, method, req)
		}
	}
}
