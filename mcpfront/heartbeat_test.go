package mcpfront

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/proto"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// slowImport holds ImportRecipeFromURL until release is closed, as a Mealie
// fetching a slow page does.
type slowImport struct {
	recipesv1connect.RecipesServiceClient
	release chan struct{}
}

func (s slowImport) ImportRecipeFromURL(ctx context.Context, req *connect.Request[recipesv1.ImportRecipeFromURLRequest]) (*connect.Response[recipesv1.ImportRecipeFromURLResponse], error) {
	select {
	case <-s.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return connect.NewResponse(&recipesv1.ImportRecipeFromURLResponse{Slug: "lemon-bars", Name: "Lemon Bars", IngredientCount: 2, InstructionCount: 1}), nil
}

// TestHeartbeat: a long import called with a progress token gets progress
// notifications while it runs, with the token and growing progress; the
// import answers only after three of them arrived, so the test waits for
// events, not for time. Without a token none are sent.
func TestHeartbeat(t *testing.T) {
	old := heartbeatEvery
	heartbeatEvery = 10 * time.Millisecond
	t.Cleanup(func() { heartbeatEvery = old })
	tests := []struct {
		name  string
		token any
	}{
		{name: "with a progress token", token: "import-1"},
		{name: "without one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakes(t)
			release := make(chan struct{})
			b := f.backends
			b.Recipes = slowImport{RecipesServiceClient: b.Recipes, release: release}
			got := make(chan *mcp.ProgressNotificationParams, 100)
			cs := session(t, b, Options{}, func(r *mcp.ProgressNotificationClientRequest) { got <- r.Params })
			if tt.token == nil {
				// Nothing can arrive; let the import run a few beats long.
				time.AfterFunc(5*heartbeatEvery, func() { close(release) })
			} else {
				go func() {
					for range 3 {
						select {
						case <-got:
						case <-time.After(testTimeout):
							t.Error("no progress notification while the import ran")
						}
					}
					close(release)
				}()
			}
			p := &mcp.CallToolParams{Name: "import_recipe_from_url", Arguments: map[string]any{"url": "https://recipes.example.net/lemon-bars"}}
			if tt.token != nil {
				p.SetProgressToken(tt.token)
			}
			if text, isErr := callParams(t, cs, p); isErr {
				t.Fatalf("import: %s", text)
			}
			if tt.token == nil && len(got) > 0 {
				t.Errorf("%d progress notifications without a progress token", len(got))
			}
			// Not closed: a notification may still be on its way to the
			// client's handler.
			prev := -1.0
			for len(got) > 0 {
				n := <-got
				if n.ProgressToken != tt.token || n.Progress < prev {
					t.Errorf("notification %+v after progress %v", n, prev)
				}
				prev = n.Progress
			}
		})
	}
}

func TestReportProgress(t *testing.T) {
	f := newFakes(t)
	f.library.streams["LibraryStats"] = []proto.Message{
		statsProgress(0, 3, "reading recipes"), statsProgress(2, 3, ""), statsProgress(3, 3, ""),
		&libraryv1.LibraryStatsResponse{Event: &libraryv1.LibraryStatsResponse_Result{Result: &libraryv1.LibraryStatsResult{Scanned: 3, LibraryTotal: 3}}},
	}
	var mu sync.Mutex
	var got []float64
	cs := session(t, f.backends, Options{}, func(r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		if r.Params.ProgressToken != "tok-1" || r.Params.Total != 3 {
			t.Errorf("progress %+v", r.Params)
		}
		got = append(got, r.Params.Progress)
	})
	p := &mcp.CallToolParams{Name: "library_stats", Arguments: map[string]any{"resource": "tags"}}
	p.SetProgressToken("tok-1")
	if text, isErr := callParams(t, cs, p); isErr {
		t.Fatal(text)
	}
	// Notifications may trail the result on the in-memory transport.
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got, []float64{0, 2, 3}) {
		t.Errorf("progress = %v, want [0 2 3]", got)
	}
}

func statsProgress(scanned, total int32, msg string) *libraryv1.LibraryStatsResponse {
	return &libraryv1.LibraryStatsResponse{Event: &libraryv1.LibraryStatsResponse_Progress{Progress: &libraryv1.ReportProgress{Scanned: scanned, Total: total, Message: msg}}}
}
