// Package hostile_test plays the hostile caller: an MCP client with the
// wrong path secret or bearer, a browser page from a foreign origin, a DNS
// rebinding Host, an oversized body, a direct Connect client without the
// service token or writing in read-only mode, recipe links aimed at the
// homelab, image paths aimed outside the image directory, and imported pages
// that try to instruct the model. Each test asserts the refusal and that
// nothing secret leaks into answers or logs.
package hostile_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	"github.com/souskitchen/sous/mcpfront"
)

// callTimeout bounds one call; the emulator answers in microseconds.
const callTimeout = 20 * time.Second

// Secrets the tests configure; none may appear in any log line or answer.
const (
	pathSecret   = "p4th-s3cret-7f1c2d9e8b"
	bearerToken  = "b34rer-t0ken-a81f5c3e"
	mealieToken  = "m3alie-t0ken-55e1d0c9"
	serviceToken = "s3rvice-t0ken-c0ffee42"
)

// logSink collects every log line of a test, at debug level, so a test can
// grep the whole session for secrets.
type logSink struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logSink) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// stack is mcpfront, served over Streamable HTTP on loopback, over the real
// recipes and library services over the emulator, everything logging into
// one sink.
type stack struct {
	mealie *mealieemu.Server
	logs   *logSink
	server *mcp.Server
	url    string // the MCP endpoint's base, http://127.0.0.1:port
}

// newStack builds the stack; opts configures the HTTP endpoint (its Logger
// is replaced by the sink), and mo the MCP server.
func newStack(t *testing.T, opts mcpfront.HTTPOptions, mo mcpfront.Options, emOpts ...mealieemu.Option) *stack {
	t.Helper()
	return newStackLinks(t, false, opts, mo, emOpts...)
}

// newStackLinks is newStack with the link checker's private-address guard
// off when allowPrivate (SOUS_LINKCHECK_ALLOW_PRIVATE), so a test can put
// the "third-party" site on loopback.
func newStackLinks(t *testing.T, allowPrivate bool, opts mcpfront.HTTPOptions, mo mcpfront.Options, emOpts ...mealieemu.Option) *stack {
	t.Helper()
	logs := &logSink{}
	log := logs.logger()
	em := mealietest.NewServer(t, append([]mealieemu.Option{mealieemu.WithToken(mealieToken)}, emOpts...)...)
	b := harness.Services(t, harness.Config{Mealie: em, WithoutMealPlan: true, Logger: log, LinkTimeout: 2 * time.Second, AllowPrivateLinks: allowPrivate})
	mo.Logger = log.With("component", "mcp")
	server, err := mcpfront.NewServer(mcpfront.Backends{Recipes: b.Recipes, Library: b.Library}, mo)
	if err != nil {
		t.Fatal(err)
	}
	opts.Logger = log.With("component", "http")
	hsrv := httptest.NewUnstartedServer(mcpfront.HTTPHandler(server, opts))
	hsrv.Config.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	hsrv.Start()
	t.Cleanup(hsrv.Close)
	return &stack{mealie: em, logs: logs, server: server, url: hsrv.URL}
}

// connectMCP opens an MCP client session to endpoint with extra headers on
// every request.
func connectMCP(t *testing.T, endpoint string, headers map[string]string) (*mcp.ClientSession, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	t.Cleanup(cancel)
	hc := &http.Client{Transport: headerTransport{headers: headers}, Timeout: callTimeout}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hostile", Version: "test"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

type headerTransport struct{ headers map[string]string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// callText calls a tool and returns its text and isError.
func callText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	return harness.Call(t, cs, callTimeout, name, args)
}

// initBody is a JSON-RPC initialize request, as a client's first POST.
const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawPost sends body to url with headers and returns status, headers and
// body. Redirects are not followed, so a 3xx is seen as such.
func rawDo(t *testing.T, method, url, body string, headers map[string]string) (int, http.Header, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return resp.StatusCode, resp.Header, b.String()
}
