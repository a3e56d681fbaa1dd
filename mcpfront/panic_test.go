package mcpfront

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/recovery"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// syncBuffer is a log sink safe for the concurrent sessions of a test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// panicSecret is in the panic value; it must not reach the log.
const panicSecret = "pathsecret-4f1c"

// setPanicHook makes get_recipe panic when its slug says "boom", the way a
// bug in a shaper would, for the length of the test.
func setPanicHook(t *testing.T) {
	t.Helper()
	panicHook = func(tool string, args json.RawMessage) {
		if tool == "get_recipe" && strings.Contains(string(args), "boom") {
			panic("shaper bug while reading https://user:pw@mealie.example/mcp/" + panicSecret + "?token=" + panicSecret)
		}
	}
	t.Cleanup(func() { panicHook = nil })
}

// stdioSession connects a client to server over a pair of pipes carrying
// the newline-delimited JSON-RPC of the stdio transport.
func stdioSession(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	done := make(chan struct{})
	go func() { defer close(done); _ = RunStdio(ctx, server, sr, sw) }()
	t.Cleanup(func() { cw.Close(); sw.Close(); <-done })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// httpSession connects a client to server over Streamable HTTP.
func httpSession(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestPanicEndsOnlyThatCall: a tool call that panics answers a tool error
// naming the tool, its stack is logged once at error level without the
// secrets in the panic value, and the process goes on: a second session
// calling tools all along gets its answers, and so does the first session
// after the panic. Without recoverMethods, the one recover, the test binary dies.
func TestPanicEndsOnlyThatCall(t *testing.T) {
	setPanicHook(t)
	transports := []struct {
		name    string
		connect func(t *testing.T, server *mcp.Server) (first, second *mcp.ClientSession)
	}{
		{name: "stdio", connect: func(t *testing.T, server *mcp.Server) (*mcp.ClientSession, *mcp.ClientSession) {
			return stdioSession(t, server), stdioSession(t, server)
		}},
		{name: "http", connect: func(t *testing.T, server *mcp.Server) (*mcp.ClientSession, *mcp.ClientSession) {
			srv := httptest.NewServer(HTTPHandler(server, HTTPOptions{}))
			t.Cleanup(srv.Close)
			return httpSession(t, srv.URL+"/mcp"), httpSession(t, srv.URL+"/mcp")
		}},
	}
	const panics, others = 3, 40
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			var logs syncBuffer
			f := newFakes(t)
			f.recipes.replies["GetRecipe"] = &recipesv1.GetRecipeResponse{Recipe: &recipesv1.Recipe{Slug: "pasta", Name: "Pasta"}}
			server, err := NewServer(f.backends, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			first, second := tr.connect(t, server)
			var wg sync.WaitGroup
			otherErrs := make(chan string, others)
			wg.Go(func() {
				for range others {
					if text, isErr := call(t, second, "get_recipe", map[string]any{"slug": "pasta"}); isErr {
						otherErrs <- text
					}
				}
			})
			for range panics {
				text, isErr := call(t, first, "get_recipe", map[string]any{"slug": "boom"})
				if want := recovery.Message("get_recipe"); !isErr || text != want {
					t.Errorf("panicking call: %q (error %v), want the tool error %q", text, isErr, want)
				}
			}
			wg.Wait()
			close(otherErrs)
			for text := range otherErrs {
				t.Errorf("second session: %s", text)
			}
			if text, isErr := call(t, first, "get_recipe", map[string]any{"slug": "pasta"}); isErr {
				t.Errorf("first session after its panics: %s", text)
			}
			out := logs.String()
			if n := strings.Count(out, "level=ERROR"); n != panics {
				t.Errorf("%d error records for %d panics:\n%s", n, panics, out)
			}
			if n := strings.Count(out, "runtime/debug.Stack"); n != panics {
				t.Errorf("%d stacks logged for %d panics", n, panics)
			}
			for _, leak := range []string{panicSecret, "user:pw"} {
				if strings.Contains(out, leak) {
					t.Errorf("log carries %q:\n%s", leak, out)
				}
			}
		})
	}
}

// TestNoPanicHook: the hook that makes a call panic is set only by tests
// and by the sous_bench_panic build tag, never in a build a user runs.
func TestNoPanicHook(t *testing.T) {
	if panicHook != nil {
		t.Fatal("panicHook is set in a build without the sous_bench_panic tag")
	}
}

// TestRecoverMethods: recoverMethods is the one recover. A panic outside a
// tool body (a middleware, another method) is answered with a JSON-RPC
// error naming the method; one inside a tool body (namePanics marked it
// running) with a tool error naming the tool. Either is logged once.
func TestRecoverMethods(t *testing.T) {
	panicking := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, fmt.Errorf("unreachable: %d", deref(nil))
	}
	tests := []struct {
		name     string
		method   string
		next     mcp.MethodHandler
		panics   bool
		wantTool string
	}{
		{name: "a panicking middleware", method: "tools/list", panics: true, next: func(context.Context, string, mcp.Request) (mcp.Result, error) {
			return nil, fmt.Errorf("unreachable: %d", deref(nil))
		}},
		{name: "a middleware panicking in a call before the tool runs", method: "tools/call", panics: true, next: func(context.Context, string, mcp.Request) (mcp.Result, error) {
			return nil, fmt.Errorf("unreachable: %d", deref(nil))
		}},
		{name: "a panicking tool body", method: "tools/call", panics: true, wantTool: "get_recipe", next: func(ctx context.Context, _ string, _ mcp.Request) (mcp.Result, error) {
			return namePanics("get_recipe", panicking)(ctx, nil)
		}},
		{name: "a quiet one", method: "tools/list", next: func(context.Context, string, mcp.Request) (mcp.Result, error) {
			return &mcp.ListToolsResult{}, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs syncBuffer
			h := recoverMethods(slog.New(slog.NewTextHandler(&logs, nil)))(tt.next)
			res, err := h(context.Background(), tt.method, nil)
			switch {
			case tt.wantTool != "":
				tr, ok := res.(*mcp.CallToolResult)
				if err != nil || !ok || !tr.IsError || tr.Content[0].(*mcp.TextContent).Text != recovery.Message(tt.wantTool) {
					t.Errorf("res, err = %v, %v; want the tool error %q", res, err, recovery.Message(tt.wantTool))
				}
			case tt.panics:
				if err == nil || err.Error() != recovery.Message(tt.method) || res != nil {
					t.Errorf("res, err = %v, %v; want the error %q", res, err, recovery.Message(tt.method))
				}
			default:
				if err != nil || res == nil || logs.String() != "" {
					t.Errorf("res, err = %v, %v; logs %q", res, err, logs.String())
				}
				return
			}
			if n := strings.Count(logs.String(), "level=ERROR"); n != 1 {
				t.Errorf("%d error records, want 1", n)
			}
		})
	}
}

// deref reads through p, a nil pointer in the test: a runtime error panic.
func deref(p *int) int { return *p }
