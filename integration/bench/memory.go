package bench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/mealieemu"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// Memory and start-up settings and targets (docs/benchmarks.md).
const (
	// memorySeed fills the detail cache to its bound
	// (mealie.MaxCachedDetails is 2,000).
	memorySeed = "bench:2000"
	// settle is the pause before reading an RSS, so start-up or a sweep's
	// garbage has been collected and the figure is what the process keeps.
	settle = 2 * time.Second
	// startupRuns is how many cold starts the start-up figure takes the
	// median of.
	startupRuns = 5
	// sweepCallTimeout bounds one detail sweep over 2,000 recipes with no
	// added latency.
	sweepCallTimeout = 2 * time.Minute

	// MemoryTargetIdle is the bound docs/benchmarks.md states on `sous serve` idle RSS.
	MemoryTargetIdle = 40 << 20
	// MemoryTargetCached is its bound with 2,000 recipe details cached.
	MemoryTargetCached = 120 << 20
	// StartupTarget is its bound on exec to the first tools/list.
	StartupTarget = 300 * time.Millisecond
)

// Memory is figure 5 (the loaded RSS comes from the load figure, which
// runs the same services in one process under 100 sessions).
type Memory struct {
	// Idle is `sous serve` (recipes, mealplan, library) settled after
	// start; Cached after SweepRecipes read all 2,000 details.
	Idle, Cached MemStat
	// RepeatDetailGETs is how many recipe detail GETs a second sweep
	// needed: 0 shows all 2,000 details were held in the cache.
	RepeatDetailGETs int
	Recipes          int
	// Startup is the median, Startups every run, of exec to the first
	// tools/list answer of `sous mcp --stdio`.
	Startup  time.Duration
	Startups []time.Duration
}

// runMemory measures `sous serve` idle and with the detail cache full, and
// the stdio start-up.
func (h *Harness) runMemory(ctx context.Context) (*Memory, error) {
	em, err := mealieemu.Start(mealieemu.WithSeed(memorySeed))
	if err != nil {
		return nil, err
	}
	defer em.Close()
	mealie := []string{"MEALIE_URL=" + em.URL, "MEALIE_API_TOKEN=" + em.Token}
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	p, err := StartListening(h.Bin, h.Work, sousEnv(mealie...), addr, "serve", "--services", "recipes,mealplan,library", "--addr", addr)
	if err != nil {
		return nil, err
	}
	defer p.Stop()
	out := &Memory{}
	if err := sleepCtx(ctx, settle); err != nil {
		return nil, err
	}
	if out.Idle, err = ReadMemory(p.Pid()); err != nil {
		return nil, err
	}
	rc := recipesv1connect.NewRecipesServiceClient(httpClient(), "http://"+addr)
	if out.Recipes, err = sweepDetails(ctx, rc); err != nil {
		return nil, err
	}
	if err := sleepCtx(ctx, settle); err != nil {
		return nil, err
	}
	if out.Cached, err = ReadMemory(p.Pid()); err != nil {
		return nil, err
	}
	em.ResetRequests()
	if _, err := sweepDetails(ctx, rc); err != nil {
		return nil, err
	}
	for _, r := range em.Requests() {
		if r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/api/recipes/") && strings.Count(r.Path, "/") == 3 {
			out.RepeatDetailGETs++
		}
	}
	p.Stop()
	em.Close()

	// Start-up, against a small library with no latency: "once Mealie
	// answers" leaves Mealie's own speed out.
	demo, err := mealieemu.Start(mealieemu.WithSeed("demo"))
	if err != nil {
		return nil, err
	}
	defer demo.Close()
	env := sousEnv("MEALIE_URL="+demo.URL, "MEALIE_API_TOKEN="+demo.Token)
	for range startupRuns {
		t := time.Now()
		c, err := startStdio(h.Bin, h.Work, env)
		if err != nil {
			return nil, err
		}
		_, err = c.call("tools/list", map[string]any{})
		d := time.Since(t)
		c.close()
		if err != nil {
			return nil, err
		}
		out.Startups = append(out.Startups, d)
	}
	out.Startup = Percentile(slices.Clone(out.Startups), 0.5)
	return out, nil
}

// sweepRecipes is the detail sweep's size: the whole bench library, which
// is also the cache's bound (mealie.MaxCachedDetails).
const sweepRecipes = 2000

// sweepDetails streams every recipe's detail through the recipes service's
// SweepRecipes, which reads them through the Mealie client's detail cache,
// and returns how many recipes it received; an unreadable recipe is an
// error, since the cache would not be full.
func sweepDetails(ctx context.Context, rc recipesv1connect.RecipesServiceClient) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, sweepCallTimeout)
	defer cancel()
	st, err := rc.SweepRecipes(ctx, connect.NewRequest(&recipesv1.SweepRecipesRequest{
		MaxRecipes: sweepRecipes, View: recipesv1.RecipeView_RECIPE_VIEW_DETAIL,
	}))
	if err != nil {
		return 0, err
	}
	defer st.Close()
	n := 0
	for st.Receive() {
		switch it := st.Msg().GetItem().(type) {
		case *recipesv1.SweepRecipesResponse_Recipe:
			n++
		case *recipesv1.SweepRecipesResponse_Failure:
			return 0, fmt.Errorf("SweepRecipes: %s: %s", it.Failure.GetSlug(), it.Failure.GetMessage())
		}
	}
	if err := st.Err(); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, errors.New("SweepRecipes returned no recipe")
	}
	return n, nil
}
