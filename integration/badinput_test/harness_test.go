// Package badinput_test sends malformed tool arguments, the kind a model that
// hallucinates produces, through a real MCP client session to mcpfront over
// the real services, with the Mealie emulator and a counting food API behind
// them. Every refusal must be a tool error whose sentence names the
// parameter, and no request may reach a backend.
package badinput_test

import (
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

func newStack(t *testing.T) *stack {
	t.Helper()
	em := mealietest.NewServer(t)
	food := &counter{}
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
