// Package harness is what the integration suites share: it starts sous
// in-process for the suites that drive it through a real MCP client (the
// abuse suite): the real recipes, meal plan, library and pantry services,
// each on its own loopback Connect server, over the Mealie emulator and a
// food API the suite chooses, with mcpfront in front of them; it calls a
// tool the one way every suite checks an answer (Call, CallRaw); and it
// starts the Django food API for a test (StartFoodAPI).
//
// Every server, session and process it starts is stopped when the test
// ends.
package harness

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/integration/harness/foodapidocker"
	"github.com/souskitchen/sous/internal/foodapiproc"
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

// Backoff is the services' retry pause: short, so that a read that
// exhausts its retries fails in milliseconds rather than a second.
const Backoff = time.Millisecond

// Config says what the services talk to. Mealie is required; the zero value
// of every other field is the services' default.
type Config struct {
	// Mealie is the emulator the services read and write.
	Mealie *mealieemu.Server
	// MealieURL, when set, is where the services reach Mealie instead of
	// the emulator's own address: a proxy in front of it.
	MealieURL string
	// MealieHTTPClient is the services' HTTP client to Mealie.
	MealieHTTPClient *http.Client
	// FoodAPIBase and FoodAPIToken configure the pantry service; without
	// FoodAPIBase there is no pantry service.
	FoodAPIBase, FoodAPIToken string
	// FoodHTTPClient is the pantry service's HTTP client to the food API.
	FoodHTTPClient *http.Client
	// WithoutMealPlan leaves the meal plan service out.
	WithoutMealPlan bool
	// Logger receives the services' logs, each with a "service" attribute.
	Logger *slog.Logger
	// LinkTimeout and AllowPrivateLinks configure the library's link
	// checker (library.Config).
	LinkTimeout       time.Duration
	AllowPrivateLinks bool
}

// Mount serves one Connect handler on a loopback server closed when the
// test ends.
func Mount(t testing.TB, path string, h http.Handler) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// Services starts the services cfg asks for and returns their Connect
// clients, ready for mcpfront.NewServer.
func Services(t testing.TB, cfg Config) mcpfront.Backends {
	t.Helper()
	mealieURL := cfg.Mealie.URL
	if cfg.MealieURL != "" {
		mealieURL = cfg.MealieURL
	}
	logger := func(name string) *slog.Logger {
		if cfg.Logger == nil {
			return nil
		}
		return cfg.Logger.With("service", name)
	}
	var b mcpfront.Backends
	if cfg.FoodAPIBase != "" {
		ps, err := pantry.New(pantry.Config{FoodAPIBase: cfg.FoodAPIBase, FoodAPIToken: cfg.FoodAPIToken, HTTPClient: cfg.FoodHTTPClient, Logger: logger("pantry")})
		if err != nil {
			t.Fatal(err)
		}
		p, h := ps.Handler()
		srv := Mount(t, p, h)
		b.Pantry = pantryv1connect.NewPantryServiceClient(srv.Client(), srv.URL)
	}
	rs, err := recipes.New(recipes.Config{MealieURL: mealieURL, MealieToken: cfg.Mealie.Token, Pantry: b.Pantry, HTTPClient: cfg.MealieHTTPClient, Logger: logger("recipes"), Backoff: Backoff})
	if err != nil {
		t.Fatal(err)
	}
	p, h := rs.Handler()
	srv := Mount(t, p, h)
	b.Recipes = recipesv1connect.NewRecipesServiceClient(srv.Client(), srv.URL)
	if !cfg.WithoutMealPlan {
		ms, err := mealplan.New(mealplan.Config{MealieURL: mealieURL, MealieToken: cfg.Mealie.Token, Recipes: b.Recipes, Pantry: b.Pantry, HTTPClient: cfg.MealieHTTPClient, Logger: logger("mealplan")})
		if err != nil {
			t.Fatal(err)
		}
		p, h := ms.Handler()
		srv := Mount(t, p, h)
		b.MealPlan = mealplanv1connect.NewMealPlanServiceClient(srv.Client(), srv.URL)
	}
	ls, err := library.New(library.Config{MealieURL: mealieURL, MealieToken: cfg.Mealie.Token, Recipes: b.Recipes, HTTPClient: cfg.MealieHTTPClient, Logger: logger("library"), LinkTimeout: cfg.LinkTimeout, AllowPrivateLinks: cfg.AllowPrivateLinks})
	if err != nil {
		t.Fatal(err)
	}
	p, h = ls.Handler()
	srv = Mount(t, p, h)
	b.Library = libraryv1connect.NewLibraryServiceClient(srv.Client(), srv.URL)
	return b
}

// Session serves mcpfront over b with opts and connects an in-memory MCP
// client named name to it; copts may be nil. The session is closed, and
// the server's side waited for, when the test ends.
func Session(t testing.TB, b mcpfront.Backends, opts mcpfront.Options, name string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	server, err := mcpfront.NewServer(b, opts)
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
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "test"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// CallRaw calls a tool with arguments as given (any JSON value, malformed
// ones included) within timeout and returns its one text block and
// isError. A protocol-level error is returned as such: go-sdk answers some
// malformed calls that way rather than with a tool error. More than one
// content block, or a structuredContent copy of the text (which sous never
// sends: mcpfront answers in text alone), fails the test.
func CallRaw(t testing.TB, cs *mcp.ClientSession, timeout time.Duration, name string, args any) (string, bool, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", false, err
	}
	if res.StructuredContent != nil {
		t.Errorf("%s: structuredContent sent", name)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks", name, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T", name, res.Content[0])
	}
	return tc.Text, res.IsError, nil
}

// Call is CallRaw for a call that must reach the tool: a protocol-level
// error fails the test. Nil args are sent as {}, as a client without
// arguments sends them.
func Call(t testing.TB, cs *mcp.ClientSession, timeout time.Duration, name string, args map[string]any) (string, bool) {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	text, isErr, err := CallRaw(t, cs, timeout, name, args)
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	return text, isErr
}

// StartFoodAPI runs the Django food API for one test with start and stops
// it when the test ends. start is foodapiproc.Start, the local process from
// foodapi/.venv, or foodapidocker.Launch, the image when a Docker engine
// answers (else the local process); both bound the start themselves
// (foodapiproc.StartTimeout, the image build's own limit). What start needs
// and does not find skips the test with one line naming the command that
// provides it; a verbose run mirrors the food API's log to stderr.
func StartFoodAPI(t testing.TB, start func(context.Context, foodapiproc.Options) (*foodapiproc.FoodAPI, error), opts foodapiproc.Options) *foodapiproc.FoodAPI {
	t.Helper()
	if testing.Verbose() && opts.Log == nil {
		opts.Log = os.Stderr
	}
	fa, err := start(t.Context(), opts)
	if errors.Is(err, foodapiproc.ErrNoVirtualenv) {
		t.Skip("the food API virtualenv is missing: run make -C foodapi venv")
	}
	if errors.Is(err, foodapidocker.ErrNoDocker) {
		t.Skipf("food API container: %v", err)
	}
	if err != nil {
		t.Fatalf("starting the food API: %v", err)
	}
	t.Cleanup(fa.Close)
	return fa
}
