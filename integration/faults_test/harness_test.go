// Package faults_test breaks the backends under a real MCP session: Mealie
// answering 5xx, dropping connections or answering late (the emulator's
// fault injection), Mealie going away in the middle of a library sweep, the
// Django food API stopped mid-test, and a service behind mcpfront going down
// and coming back. Reads must recover within the retry budget or fail with
// one plain sentence; writes must reach Mealie exactly once (asserted on the
// emulator's request log); and no goroutine may outlive the tests.
package faults_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/mcpfront"
)

// TestMain fails the package when any goroutine outlives its tests: a
// retry loop, a sweep or a stream left running after a fault is a leak that
// grows with every failure in production.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// callTimeout bounds one tool call: the slowest path here is a read that
// exhausts its retries with the default backoff (0.3 s + 0.6 s).
const callTimeout = 30 * time.Second

// backends is what newStack wires: the emulator, and optionally a food API
// base URL and token for the pantry service.
type backends struct {
	mealie            *mealieemu.Server
	foodBase, foodTok string
	// mealieURL, when set, is where the services reach Mealie instead of
	// the emulator's own address: a proxy in front of it.
	mealieURL string
	// onProgress, when set, receives the session's progress notifications.
	onProgress func(*mcp.ProgressNotificationClientRequest)
}

// stack is mcpfront over the real services over the backends.
type stack struct {
	mealie *mealieemu.Server
	cs     *mcp.ClientSession
}

// newClient is an HTTP client of its own whose idle connections are closed
// at the end of the test, so goleak sees no keep-alive goroutines.
func newClient(t *testing.T) *http.Client {
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	t.Cleanup(hc.CloseIdleConnections)
	return hc
}

func newStack(t *testing.T, be backends) *stack {
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
