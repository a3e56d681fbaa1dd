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
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/souskitchen/sous/internal/mealieemu"
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

func mount(t *testing.T, path string, h http.Handler) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// closeIdle closes a client's idle connections at the end of a test, so
// goleak sees no keep-alive goroutines.
func closeIdle(t *testing.T, hc *http.Client) {
	t.Cleanup(hc.CloseIdleConnections)
}

func newStack(t *testing.T, be backends) *stack {
	t.Helper()
	em := be.mealie
	mealieURL := em.URL
	if be.mealieURL != "" {
		mealieURL = be.mealieURL
	}
	mealieHC := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	closeIdle(t, mealieHC)

	var pc pantryv1connect.PantryServiceClient
	if be.foodBase != "" {
		foodHC := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		closeIdle(t, foodHC)
		ps, err := pantry.New(pantry.Config{FoodAPIBase: be.foodBase, FoodAPIToken: be.foodTok, HTTPClient: foodHC})
		if err != nil {
			t.Fatal(err)
		}
		p, h := ps.Handler()
		psrv := mount(t, p, h)
		pc = pantryv1connect.NewPantryServiceClient(psrv.Client(), psrv.URL)
	}
	rs, err := recipes.New(recipes.Config{MealieURL: mealieURL, MealieToken: em.Token, Pantry: pc, HTTPClient: mealieHC, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p, h := rs.Handler()
	rsrv := mount(t, p, h)
	rc := recipesv1connect.NewRecipesServiceClient(rsrv.Client(), rsrv.URL)
	ms, err := mealplan.New(mealplan.Config{MealieURL: mealieURL, MealieToken: em.Token, Recipes: rc, Pantry: pc, HTTPClient: mealieHC})
	if err != nil {
		t.Fatal(err)
	}
	p, h = ms.Handler()
	msrv := mount(t, p, h)
	ls, err := library.New(library.Config{MealieURL: mealieURL, MealieToken: em.Token, Recipes: rc, HTTPClient: mealieHC})
	if err != nil {
		t.Fatal(err)
	}
	p, h = ls.Handler()
	lsrv := mount(t, p, h)
	return &stack{mealie: em, cs: session(t, mcpfront.Backends{
		Recipes:  rc,
		MealPlan: mealplanv1connect.NewMealPlanServiceClient(msrv.Client(), msrv.URL),
		Library:  libraryv1connect.NewLibraryServiceClient(lsrv.Client(), lsrv.URL),
		Pantry:   pc,
	}, be.onProgress)}
}

// session connects an in-memory MCP client to mcpfront over b;
// onProgress, when set, receives progress notifications.
func session(t *testing.T, b mcpfront.Backends, onProgress func(*mcp.ProgressNotificationClientRequest)) *mcp.ClientSession {
	t.Helper()
	server, err := mcpfront.NewServer(b, mcpfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var copts *mcp.ClientOptions
	if onProgress != nil {
		copts = &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { onProgress(r) }}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "faults", Version: "test"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// call calls a tool and returns its one text block and isError.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks", name, len(res.Content))
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// oneSentence checks a tool error is one plain line: no stack trace, no
// raw body, no newline.
func oneSentence(t *testing.T, text string) {
	t.Helper()
	if strings.Contains(text, "\n") || strings.Contains(text, "goroutine") || strings.Contains(text, "<html") || strings.Contains(text, "Traceback") || len(text) > 400 {
		t.Errorf("not one plain sentence: %q", text)
	}
}
