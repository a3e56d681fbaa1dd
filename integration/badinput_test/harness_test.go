// Package badinput_test sends malformed tool arguments, the kind a model that
// hallucinates produces, through a real MCP client session to mcpfront over
// the real services, with the Mealie emulator and a counting food API behind
// them. Every refusal must be a tool error whose sentence names the
// parameter, and no request may reach a backend.
package badinput_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
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

// callTimeout bounds one tool call; every call here is refused before any
// backend is asked, so it answers in milliseconds.
const callTimeout = 20 * time.Second

// foodToken is the food API token of the counting fake.
const foodToken = "food-token-badinput"

// counter is a food API that answers nothing useful and counts requests:
// a refused call must leave it at zero.
type counter struct {
	mu    sync.Mutex
	paths []string
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.paths = append(c.paths, r.Method+" "+r.URL.Path)
	c.mu.Unlock()
	http.Error(w, `{"detail":"not expected"}`, http.StatusTeapot)
}

func (c *counter) seen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.paths...)
}

func (c *counter) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.paths = nil
}

// stack is mcpfront over the four real services over the emulator and the
// counting food API.
type stack struct {
	mealie *mealieemu.Server
	food   *counter
	cs     *mcp.ClientSession
}

// mount serves one Connect handler on a loopback server.
func mount(t *testing.T, path string, h http.Handler) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func newStack(t *testing.T) *stack {
	t.Helper()
	em := mealietest.NewServer(t)
	food := &counter{}
	fsrv := httptest.NewServer(food)
	t.Cleanup(fsrv.Close)

	ps, err := pantry.New(pantry.Config{FoodAPIBase: fsrv.URL + "/api", FoodAPIToken: foodToken})
	if err != nil {
		t.Fatal(err)
	}
	p, h := ps.Handler()
	psrv := mount(t, p, h)
	pc := pantryv1connect.NewPantryServiceClient(psrv.Client(), psrv.URL)

	rs, err := recipes.New(recipes.Config{MealieURL: em.URL, MealieToken: em.Token, Pantry: pc, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p, h = rs.Handler()
	rsrv := mount(t, p, h)
	rc := recipesv1connect.NewRecipesServiceClient(rsrv.Client(), rsrv.URL)

	ms, err := mealplan.New(mealplan.Config{MealieURL: em.URL, MealieToken: em.Token, Recipes: rc, Pantry: pc})
	if err != nil {
		t.Fatal(err)
	}
	p, h = ms.Handler()
	msrv := mount(t, p, h)

	ls, err := library.New(library.Config{MealieURL: em.URL, MealieToken: em.Token, Recipes: rc})
	if err != nil {
		t.Fatal(err)
	}
	p, h = ls.Handler()
	lsrv := mount(t, p, h)

	b := mcpfront.Backends{
		Recipes:  rc,
		MealPlan: mealplanv1connect.NewMealPlanServiceClient(msrv.Client(), msrv.URL),
		Library:  libraryv1connect.NewLibraryServiceClient(lsrv.Client(), lsrv.URL),
		Pantry:   pc,
	}
	server, err := mcpfront.NewServer(b, mcpfront.Options{ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "badinput", Version: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &stack{mealie: em, food: food, cs: cs}
}

// call sends raw arguments and returns the answer's text and isError. A
// protocol-level error is returned as such: go-sdk answers some malformed
// calls that way rather than with a tool error.
func (s *stack) call(t *testing.T, name string, args any) (string, bool, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", false, err
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
