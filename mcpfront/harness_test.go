package mcpfront

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// testTimeout bounds every test session.
const testTimeout = 20 * time.Second

// fakes are the four fake services behind one test server.
type fakes struct {
	recipes, mealplan, library, pantry *recorder
	backends                           Backends
}

// newFakes mounts fake services on a loopback httptest server and returns
// Connect clients of them.
func newFakes(t *testing.T) *fakes {
	t.Helper()
	f := &fakes{recipes: newRecorder(), mealplan: newRecorder(), library: newRecorder(), pantry: newRecorder()}
	mux := http.NewServeMux()
	f.recipes.mount(t, mux, recipesv1connect.RecipesServiceName)
	f.mealplan.mount(t, mux, mealplanv1connect.MealPlanServiceName)
	f.library.mount(t, mux, libraryv1connect.LibraryServiceName)
	f.pantry.mount(t, mux, pantryv1connect.PantryServiceName)
	srv := httptest.NewServer(mux) // binds 127.0.0.1
	t.Cleanup(srv.Close)
	hc := srv.Client()
	f.backends = Backends{
		Recipes:  recipesv1connect.NewRecipesServiceClient(hc, srv.URL),
		MealPlan: mealplanv1connect.NewMealPlanServiceClient(hc, srv.URL),
		Library:  libraryv1connect.NewLibraryServiceClient(hc, srv.URL),
		Pantry:   pantryv1connect.NewPantryServiceClient(hc, srv.URL),
	}
	return f
}

// session builds the MCP server over b with opts and connects an in-memory
// client to it. onProgress, if set, receives progress notifications.
func session(t *testing.T, b Backends, opts Options, onProgress func(*mcp.ProgressNotificationClientRequest)) *mcp.ClientSession {
	t.Helper()
	server, err := NewServer(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	var copts *mcp.ClientOptions
	if onProgress != nil {
		copts = &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { onProgress(r) }}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its one text block and whether it is an
// error. It fails the test on a protocol error or a structuredContent copy.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	return callParams(t, cs, &mcp.CallToolParams{Name: name, Arguments: args})
}

func callParams(t *testing.T, cs *mcp.ClientSession, p *mcp.CallToolParams) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	if res.StructuredContent != nil {
		t.Errorf("%s: structuredContent sent; answers go once, as text", p.Name)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", p.Name, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError {
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Errorf("%s: answer is not JSON: %q", p.Name, text)
		}
		if strings.Contains(text, "null") || strings.Contains(text, `""`) || strings.Contains(text, "\n") {
			t.Errorf("%s: answer carries empty values or is not compact: %s", p.Name, text)
		}
	}
	return text, res.IsError
}
