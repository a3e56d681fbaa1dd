// Package abuse_test holds sous to what can go wrong on its way in and
// behind it, on one stack over integration/harness:
//
//   - bad input (badinput_*): malformed tool arguments, the kind a model
//     that hallucinates produces, sent through a real MCP client session to
//     mcpfront over the real services, with the Mealie emulator and a
//     counting food API behind them. Every refusal must be a tool error
//     whose sentence names the parameter, and no request may reach a backend.
//   - faults (faults_*): the backends broken under a real MCP session: Mealie
//     answering 5xx, dropping connections or answering late (the emulator's
//     fault injection), Mealie going away in the middle of a library sweep,
//     the Django food API stopped mid-test, and a service behind mcpfront
//     going down and coming back. Reads must recover within the retry budget
//     or fail with one plain sentence; writes must reach Mealie exactly once
//     (asserted on the emulator's request log).
//   - hostile callers (hostile_*): an MCP client with the wrong path secret
//     or bearer, a browser page from a foreign origin, a DNS rebinding Host,
//     an oversized body, a direct Connect client without the service token
//     or writing in read-only mode, recipe links aimed at the homelab, image
//     paths aimed outside the image directory, and imported pages that try
//     to instruct the model. Each test asserts the refusal and that nothing
//     secret leaks into answers or logs.
//
// No goroutine may outlive the tests (TestMain).
package abuse_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/mcpfront"
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/library"
	"github.com/souskitchen/sous/services/mealplan"
	"github.com/souskitchen/sous/services/pantry"
	"github.com/souskitchen/sous/services/recipes"
)

// TestMain fails the package when any goroutine outlives its tests: a
// retry loop, a sweep or a stream left running after a fault is a leak that
// grows with every failure in production.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// callTimeout bounds one call: the slowest path here is a read that
// exhausts its retries with the default backoff (0.3 s + 0.6 s); a refused
// call answers in milliseconds.
const callTimeout = 30 * time.Second

// Secrets the hostile tests configure; none may appear in any log line or
// answer.
const (
	pathSecret   = "p4th-s3cret-7f1c2d9e8b"
	bearerToken  = "b34rer-t0ken-a81f5c3e"
	mealieToken  = "m3alie-t0ken-55e1d0c9"
	serviceToken = "s3rvice-t0ken-c0ffee42"
)

// foodToken is the food API token of the counting fake.
const foodToken = "food-token-badinput"

// stack is the real services over the Mealie emulator with mcpfront or
// serve.Handler in front, as each constructor below wires it; a field a
// constructor does not wire is nil.
type stack struct {
	mealie *mealieemu.Server
	// food is the counting food API behind the pantry service.
	food *foodCounter
	// cs is an in-memory MCP client session to mcpfront.
	cs *mcp.ClientSession
	// logs collects every log line of the stack, at debug level.
	logs *logSink
	// server is mcpfront's MCP server.
	server *mcp.Server
	// url is the base of the stack's HTTP endpoint, http://127.0.0.1:port.
	url string
}

// foodCounter is a food API that counts what it is asked and answers 404:
// a refused call must leave it at zero.
type foodCounter struct {
	mu   sync.Mutex
	reqs []string
}

func (f *foodCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.reqs = append(f.reqs, r.Method+" "+r.URL.Path)
	f.mu.Unlock()
	http.NotFound(w, r)
}

// seen is every request so far.
func (f *foodCounter) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.reqs...)
}

// reset forgets the requests so far.
func (f *foodCounter) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = nil
}

// writes is every request so far that is not a GET.
func (f *foodCounter) writes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, r := range f.reqs {
		if !strings.HasPrefix(r, "GET ") {
			out = append(out, r)
		}
	}
	return out
}

// newBadInputStack is mcpfront, over an in-memory session, over the four
// real services over the emulator and the counting food API.
func newBadInputStack(t *testing.T) *stack {
	t.Helper()
	em := mealietest.NewServer(t)
	food := &foodCounter{}
	fsrv := httptest.NewServer(food)
	t.Cleanup(fsrv.Close)
	b := harness.Services(t, harness.Config{Mealie: em, FoodAPIBase: fsrv.URL + "/api", FoodAPIToken: foodToken})
	cs := harness.Session(t, b, mcpfront.Options{ImageDir: t.TempDir()}, "badinput", nil)
	return &stack{mealie: em, food: food, cs: cs}
}

// call sends raw arguments and returns the answer's text and isError. A
// protocol-level error is returned as such: go-sdk answers some malformed
// calls that way rather than with a tool error.
func (s *stack) call(t *testing.T, name string, args any) (string, bool, error) {
	t.Helper()
	return harness.CallRaw(t, s.cs, callTimeout, name, args)
}

// backends is what newFaultStack wires: the emulator, and optionally a food
// API base URL and token for the pantry service.
type backends struct {
	mealie            *mealieemu.Server
	foodBase, foodTok string
	// mealieURL, when set, is where the services reach Mealie instead of
	// the emulator's own address: a proxy in front of it.
	mealieURL string
	// onProgress, when set, receives the session's progress notifications.
	onProgress func(*mcp.ProgressNotificationClientRequest)
}

// newClient is an HTTP client of its own whose idle connections are closed
// at the end of the test, so goleak sees no keep-alive goroutines.
func newClient(t *testing.T) *http.Client {
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	t.Cleanup(hc.CloseIdleConnections)
	return hc
}

// newFaultStack is mcpfront, over an in-memory session, over the real
// services over be.
func newFaultStack(t *testing.T, be backends) *stack {
	t.Helper()
	cfg := harness.Config{Mealie: be.mealie, MealieURL: be.mealieURL, MealieHTTPClient: newClient(t)}
	if be.foodBase != "" {
		cfg.FoodAPIBase, cfg.FoodAPIToken, cfg.FoodHTTPClient = be.foodBase, be.foodTok, newClient(t)
	}
	return &stack{mealie: be.mealie, cs: session(t, harness.Services(t, cfg), be.onProgress)}
}

// session connects an in-memory MCP client to mcpfront over b;
// onProgress, when set, receives progress notifications.
func session(t *testing.T, b mcpfront.Backends, onProgress func(*mcp.ProgressNotificationClientRequest)) *mcp.ClientSession {
	t.Helper()
	var copts *mcp.ClientOptions
	if onProgress != nil {
		copts = &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { onProgress(r) }}
	}
	return harness.Session(t, b, mcpfront.Options{}, "faults", copts)
}

// call calls a tool and returns its one text block and isError.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	return harness.Call(t, cs, callTimeout, name, args)
}

// oneSentence checks a tool error is one plain line: no stack trace, no
// raw body, no newline.
func oneSentence(t *testing.T, text string) {
	t.Helper()
	if strings.Contains(text, "\n") || strings.Contains(text, "goroutine") || strings.Contains(text, "<html") || strings.Contains(text, "Traceback") || len(text) > 400 {
		t.Errorf("not one plain sentence: %q", text)
	}
}

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

// newHTTPStack is mcpfront, served over Streamable HTTP on loopback, over
// the real recipes and library services over the emulator, everything
// logging into one sink; opts configures the HTTP endpoint (its Logger is
// replaced by the sink), and mo the MCP server.
func newHTTPStack(t *testing.T, opts mcpfront.HTTPOptions, mo mcpfront.Options, emOpts ...mealieemu.Option) *stack {
	t.Helper()
	return newHTTPStackLinks(t, false, opts, mo, emOpts...)
}

// newHTTPStackLinks is newHTTPStack with the link checker's private-address
// guard off when allowPrivate (SOUS_LINKCHECK_ALLOW_PRIVATE), so a test can
// put the "third-party" site on loopback.
func newHTTPStackLinks(t *testing.T, allowPrivate bool, opts mcpfront.HTTPOptions, mo mcpfront.Options, emOpts ...mealieemu.Option) *stack {
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

// serveAll is the four services behind serve.Handler and the service
// token, as `sous serve` mounts them, over the emulator and the counting
// food API.
func serveAll(t *testing.T, readOnly bool) *stack {
	t.Helper()
	return serveWithToken(t, readOnly, serviceToken)
}

// serveWithToken is serveAll guarded by token ("" accepts any caller, as
// `sous serve` does with SOUS_SERVICE_TOKEN unset).
func serveWithToken(t *testing.T, readOnly bool, token string) *stack {
	t.Helper()
	em := mealietest.NewServer(t, mealieemu.WithToken(mealieToken))
	food := &foodCounter{}
	fsrv := httptest.NewServer(food)
	t.Cleanup(fsrv.Close)
	// The services reach each other over the same guarded endpoint, with
	// the token, as separate processes would.
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	auth := connect.WithInterceptors(svcauth.ClientInterceptor(token))
	hc := &http.Client{Timeout: callTimeout}
	pc := pantryv1connect.NewPantryServiceClient(hc, base, auth)
	rc := recipesv1connect.NewRecipesServiceClient(hc, base, auth)

	ps, err := pantry.New(pantry.Config{FoodAPIBase: fsrv.URL + "/api", FoodAPIToken: "food", ReadOnly: readOnly})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := recipes.New(recipes.Config{MealieURL: em.URL, MealieToken: em.Token, Pantry: pc, ReadOnly: readOnly, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := mealplan.New(mealplan.Config{MealieURL: em.URL, MealieToken: em.Token, Recipes: rc, Pantry: pc, ReadOnly: readOnly})
	if err != nil {
		t.Fatal(err)
	}
	ls, err := library.New(library.Config{MealieURL: em.URL, MealieToken: em.Token, Recipes: rc, ReadOnly: readOnly})
	if err != nil {
		t.Fatal(err)
	}
	var svcs []serve.Service
	for _, s := range []struct {
		name string
		h    interface {
			Handler(...connect.HandlerOption) (string, http.Handler)
		}
	}{
		{pantryv1connect.PantryServiceName, ps}, {recipesv1connect.RecipesServiceName, rs},
		{mealplanv1connect.MealPlanServiceName, ms}, {libraryv1connect.LibraryServiceName, ls},
	} {
		p, h := s.h.Handler()
		svcs = append(svcs, serve.Service{Name: s.name, Path: p, Handler: h})
	}
	srv.Config.Handler = serve.Handler(token, svcs...)
	srv.Start()
	t.Cleanup(srv.Close)
	return &stack{mealie: em, food: food, url: base}
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

// initBody is a JSON-RPC initialize request, as a client's first POST.
const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawDo sends body to url with method and headers and returns status,
// headers and body. Redirects are not followed, so a 3xx is seen as such.
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
