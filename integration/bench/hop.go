package bench

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/mealieemu"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// Hop figure settings (targets in docs/benchmarks.md): 1,000 calls against a Mealie that
// takes 5 ms to answer, a LAN-fast server whose latency still dwarfs a
// loopback hop.
const (
	hopCalls   = 1000
	hopLatency = 5 * time.Millisecond
	// hopWarmup calls per path are left out of the figure: connection
	// set-up and first-use allocations are start-up, not overhead.
	hopWarmup = 20
	// HopTargetP50 is the bound docs/benchmarks.md states on the p50 overhead of a call
	// through sous over a direct GET.
	HopTargetP50 = time.Millisecond
	// HopTargetP99 is its bound on the p99 overhead.
	HopTargetP99 = 3 * time.Millisecond
)

// HopPath is one way of reading the same recipe.
type HopPath struct {
	Name     string
	P50, P99 time.Duration
	// Part marks a path that is one hop of another, shown to split its
	// overhead; the targets apply to MCP paths.
	Part bool
	// Alone marks a path that never reaches Mealie: its whole latency is
	// overhead.
	Alone bool
}

// Hop is figure 3. Paths[0] is the direct GET baseline; overheads are
// each path's percentile minus the baseline's, from one interleaved run.
type Hop struct {
	Calls int
	Paths []HopPath
	// MealieGETs is how many recipe GETs the emulator answered for the
	// sous paths together: Calls per path shows no cache answered instead.
	MealieGETs int
	// ThroughSous is how many calls went through sous to Mealie.
	ThroughSous int
}

// runHop reads one recipe hopCalls times on each path, interleaved call by
// call so that every path sees the same machine load: a direct GET to the
// emulator; get_recipe through `sous mcp --http` with recipes in a separate
// `sous serve` (Streamable HTTP, then Connect over HTTP); and get_recipe
// through `sous mcp --http` with recipes in-process. A fourth path, the
// Connect call to `sous serve` without MCP, splits the remote path's
// overhead between its two hops, and a get_recipe refused by its input
// schema (no backend; an MCP ping is refused by the stateless Streamable
// HTTP handler) shows what an MCP round trip costs with no service behind
// it.
//
// The recipes service's GetRecipe reads Mealie on every call (its detail
// cache only serves sweeps), so "cache disabled" needs no switch; the
// emulator's request count checks it.
func (h *Harness) runHop(ctx context.Context) (*Hop, error) {
	em, err := mealieemu.Start(mealieemu.WithSeed("demo"), mealieemu.WithLatency(hopLatency))
	if err != nil {
		return nil, err
	}
	defer em.Close()
	mealie := []string{"MEALIE_URL=" + em.URL, "MEALIE_API_TOKEN=" + em.Token}
	serveAddr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	serve, err := StartListening(h.Bin, h.Work, sousEnv(mealie...), serveAddr, "serve", "--services", "recipes", "--addr", serveAddr)
	if err != nil {
		return nil, err
	}
	defer serve.Stop()
	remote, remoteURL, err := h.startMCPHTTP("SOUS_TOOLSETS=recipes", "SOUS_RECIPES_URL=http://"+serveAddr)
	if err != nil {
		return nil, err
	}
	defer remote.Stop()
	local, localURL, err := h.startMCPHTTP(append([]string{"SOUS_TOOLSETS=recipes"}, mealie...)...)
	if err != nil {
		return nil, err
	}
	defer local.Stop()

	hc := httpClient()
	slug, err := recipeWithLastMade(ctx, hc, em)
	if err != nil {
		return nil, err
	}
	rs, err := connectMCP(ctx, hc, remoteURL)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	ls, err := connectMCP(ctx, hc, localURL)
	if err != nil {
		return nil, err
	}
	defer ls.Close()
	args := map[string]any{"slug": slug}
	// A slug past the schema's 500 characters never reaches a service.
	tooLong := map[string]any{"slug": strings.Repeat("x", 501)}
	rc := recipesv1connect.NewRecipesServiceClient(hc, "http://"+serveAddr)
	paths := []struct {
		name  string
		call  func() error
		part  bool
		alone bool
	}{
		{"direct GET to Mealie", func() error { return getJSON(ctx, hc, em, "/api/recipes/"+slug, nil) }, false, false},
		{"Connect GetRecipe → sous serve (recipes), no MCP", func() error {
			_, err := rc.GetRecipe(ctx, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: slug}))
			return err
		}, true, false},
		{"MCP → sous mcp → Connect → sous serve (recipes)", func() error { _, _, err := callText(ctx, rs, "get_recipe", args); return err }, false, false},
		{"MCP get_recipe refused by its input schema → sous mcp, no backend", func() error {
			// The answer is a refusal by design; only a broken session
			// is a failure.
			_, err := ls.CallTool(ctx, &mcp.CallToolParams{Name: "get_recipe", Arguments: tooLong})
			if err != nil && !strings.Contains(err.Error(), "slug") {
				return err
			}
			return nil
		}, true, true},
		{"MCP → sous mcp, recipes in-process", func() error { _, _, err := callText(ctx, ls, "get_recipe", args); return err }, false, false},
	}
	for range hopWarmup {
		for _, p := range paths {
			if err := p.call(); err != nil {
				return nil, fmt.Errorf("%s: %w", p.name, err)
			}
		}
	}
	em.ResetRequests()
	times := make([][]time.Duration, len(paths))
	for i := range hopCalls {
		// Rotate the order so no path always runs right after another.
		for j := range paths {
			k := (i + j) % len(paths)
			t := time.Now()
			if err := paths[k].call(); err != nil {
				return nil, fmt.Errorf("%s: %w", paths[k].name, err)
			}
			times[k] = append(times[k], time.Since(t))
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	out := &Hop{Calls: hopCalls}
	for _, r := range em.Requests() {
		if r.Method == http.MethodGet && r.Path == "/api/recipes/"+slug {
			out.MealieGETs++
		}
	}
	out.MealieGETs -= hopCalls // the direct path's own
	for _, p := range paths[1:] {
		if !p.alone {
			out.ThroughSous += hopCalls
		}
	}
	for k, p := range paths {
		out.Paths = append(out.Paths, HopPath{Name: p.name, P50: Percentile(times[k], 0.50), P99: Percentile(times[k], 0.99), Part: p.part, Alone: p.alone})
	}
	return out, nil
}
