package abuse_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// mealieTimeout is services/internal/mealie.Timeout, the bound on one
// request to Mealie; a late answer must outlast it.
const mealieTimeout = 15 * time.Second

// TestWriteAnsweredAfterTheTimeout: Mealie commits a create but answers only
// after the client gave up — the case that makes a naive retry duplicate the
// recipe. The create reaches Mealie once, and the model is told it failed.
func TestWriteAnsweredAfterTheTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: waits out the 15 s Mealie timeout")
	}
	em := mealietest.NewServer(t)
	s := newFaultStack(t, backends{mealie: em})
	em.SetFaults(mealieemu.FaultRule{Method: http.MethodPost, PathPrefix: "/api/recipes", LateAnswer: mealieTimeout + 5*time.Second})
	text, isErr := call(t, s.cs, "create_recipe", map[string]any{"name": "Slow soup"})
	if !isErr {
		t.Errorf("a create that timed out was reported as done: %s", text)
	}
	oneSentence(t, text)
	if n := em.Count(http.MethodPost, "/api/recipes"); n != 1 {
		t.Errorf("POST /api/recipes sent %d times, want once", n)
	}
	if again := em.RetriedWrites(); len(again) != 0 {
		t.Errorf("retried writes: %v", again)
	}
}

// TestCancelledCallStopsMealieRequests: a client that cancels a tool call
// (claude.ai gives up at about 60 s) stops
// the Mealie request in flight, and no retry follows it.
func TestCancelledCallStopsMealieRequests(t *testing.T) {
	em := mealietest.NewServer(t)
	s := newFaultStack(t, backends{mealie: em})
	em.SetFaults(mealieemu.FaultRule{Method: http.MethodGet, PathPrefix: "/api/recipes", Delay: 20 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_recipes", Arguments: map[string]any{"limit": 1}})
		done <- err
	}()
	// Cancel once the request is at Mealie.
	deadline := time.Now().Add(callTimeout)
	for em.Count(http.MethodGet, "/api/recipes") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the search never reached Mealie")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("the cancelled call returned a result")
	}
	// The held request must end as abandoned by its client (499), well
	// before the 20 s delay would have let it through.
	for {
		reqs := em.Matching(http.MethodGet, "/api/recipes")
		if len(reqs) > 0 && reqs[0].Status == 499 {
			// Give a wrongful retry (1 ms backoff here) time to show up.
			time.Sleep(200 * time.Millisecond)
			if reqs = em.Matching(http.MethodGet, "/api/recipes"); len(reqs) != 1 {
				t.Errorf("%d requests after the cancel, want none", len(reqs)-1)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Mealie request outlived the cancelled call: %+v", reqs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
