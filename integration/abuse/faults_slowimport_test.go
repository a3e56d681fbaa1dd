package abuse_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// TestSlowImport: Mealie takes 90 s over an import (its answer comes long
// after the write). The caller that sent a progress token hears from sous
// while it waits; the call ends with "may have saved", not with a retry;
// and the next import of the page sees the outcome: already imported, one
// import in all.
func TestSlowImport(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: waits out the 15 s Mealie timeout")
	}
	const page = "https://recipes.example.net/slow-stew"
	em := mealietest.NewServer(t, mealieemu.WithWebPage(page, `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Slow Stew","recipeIngredient":["1 kg beef"],"recipeInstructions":[{"@type":"HowToStep","text":"Simmer."}]}</script></head></html>`),
		mealieemu.WithFault(mealieemu.FaultRule{Method: http.MethodPost, PathPrefix: "/api/recipes/create/url", FirstN: 1, LateAnswer: 90 * time.Second}))
	var mu sync.Mutex
	var progress []float64
	s := newFaultStack(t, backends{mealie: em, onProgress: func(r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		progress = append(progress, r.Params.Progress)
		mu.Unlock()
	}})
	p := &mcp.CallToolParams{Name: "import_recipe_from_url", Arguments: map[string]any{"url": page}}
	p.SetProgressToken("slow-1")
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := s.cs.CallTool(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.Contains(text, "may have saved") {
		t.Errorf("the slow import answered %q, want a tool error saying it may have been saved", text)
	}
	mu.Lock()
	// The Mealie client gives up at 15 s; a heartbeat every 5 s means two
	// or three notifications by then.
	if len(progress) < 2 {
		t.Errorf("%d progress notifications during a 15 s wait, want at least 2 (one every 5 s)", len(progress))
	}
	mu.Unlock()
	again, isErr := call(t, s.cs, "import_recipe_from_url", map[string]any{"url": page})
	if !isErr || !strings.Contains(again, "already imported as 'slow-stew'") {
		t.Errorf("the import after it: %q, want already imported", again)
	}
	if n := em.Count(http.MethodPost, "/api/recipes/create/url"); n != 1 {
		t.Errorf("Mealie received %d imports, want 1", n)
	}
}
