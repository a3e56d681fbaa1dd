package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// Load figure settings (docs/benchmarks.md).
const (
	loadSessions = 100
	loadCalls    = 20
	loadLatency  = 10 * time.Millisecond
	// loadTimeout bounds the whole figure: two rounds of 2,000 calls take
	// seconds each, the rests add laterSettle and a little; more means a
	// stall.
	loadTimeout = 5 * time.Minute
	// sampleEvery is how often RSS is sampled during the load.
	sampleEvery = 50 * time.Millisecond
	// afterSettle is how long the process rests before "memory after" is
	// read: long enough for a GC cycle and the runtime's scavenger to
	// start returning freed pages.
	afterSettle = 5 * time.Second
	// laterSettle is the further rest before the last reading. An idle Go
	// process allocates nothing, so no GC cycle lowers the heap goal the
	// load raised and the scavenger keeps those pages, until the runtime's
	// forced GC, every two minutes; 2m10s includes one.
	laterSettle = 130 * time.Second
	// NearIdle is how "back near idle" is read: RSS after the load at most
	// 1.5 times the RSS before it.
	NearIdle = 1.5
)

// Load is figure 6.
type Load struct {
	Sessions, CallsEach int
	Calls, Errors       int
	// FirstError is one failure, verbatim, when Errors > 0.
	FirstError string
	Wall       time.Duration
	P50, P99   time.Duration
	// Idle before the load, PeakRSS sampled during both rounds, After
	// afterSettle after the first round, Later laterSettle after the
	// second; all of the one `sous mcp --http` process.
	Idle, After, Later MemStat
	// CPU is the CPU time sous used during the first round: per call, and
	// against the wall time and cores, it says whether sous or the rest of
	// the machine set the latency.
	CPU time.Duration
	// HarnessCPU is what this process (the 100 clients and the emulator)
	// used in the same round.
	HarnessCPU time.Duration
	// AfterSecond is read afterSettle after a second identical round
	// (whose errors count too); Later follows it.
	AfterSecond MemStat
	PeakRSS     int64
	// Panicked is how many calls of the first round were the deliberate
	// panic (0 or 1, see Harness.PanicBin); they are not in Calls or
	// Errors. PanicAnswer is what that call was answered, and Alive
	// whether the process was still serving after both rounds.
	Panicked    int
	PanicAnswer string
	Alive       bool
}

// benchPanicSlug is mcpfront.BenchPanicSlug, the get_recipe slug that
// panics in a sous_bench_panic build (that constant exists only there).
const benchPanicSlug = "sous-bench-panic"

// Throughput is calls per second over the whole run, session set-up
// included.
func (l *Load) Throughput() float64 {
	if l.Wall <= 0 {
		return 0
	}
	return float64(l.Calls) / l.Wall.Seconds()
}

// loadMix is the cycle of read calls each session makes, started at a
// different point per session: what a model's kitchen session reads.
func loadMix(slugs []string, week map[string]any) []func(i int) (string, map[string]any) {
	return []func(i int) (string, map[string]any){
		func(i int) (string, map[string]any) {
			return "search_recipes", map[string]any{"query": []string{"chicken", "soup", "pasta", "cake"}[i%4]}
		},
		func(i int) (string, map[string]any) { return "get_recipe", map[string]any{"slug": slugs[i%len(slugs)]} },
		func(int) (string, map[string]any) { return "get_meal_plan", week },
		func(int) (string, map[string]any) { return "get_todays_meals", map[string]any{} },
		func(i int) (string, map[string]any) {
			return "get_recipe", map[string]any{"slug": slugs[(i*7)%len(slugs)]}
		},
		func(int) (string, map[string]any) { return "list_cookbooks", map[string]any{} },
		func(int) (string, map[string]any) { return "library_stats", map[string]any{"resource": "tags"} },
		func(int) (string, map[string]any) { return "get_shopping_list", map[string]any{} },
	}
}

// runLoad runs loadSessions MCP sessions at once against one `sous mcp
// --http` (every Mealie-backed service in-process), each making loadCalls
// mixed read calls.
func (h *Harness) runLoad(ctx context.Context) (*Load, error) {
	ctx, cancel := context.WithTimeout(ctx, loadTimeout)
	defer cancel()
	em, err := mealieemu.Start(mealieemu.WithSeed("demo"), mealieemu.WithLatency(loadLatency))
	if err != nil {
		return nil, err
	}
	defer em.Close()
	bin := h.Bin
	if h.PanicBin != "" {
		bin = h.PanicBin
	}
	p, url, err := h.startMCPHTTPBin(bin, "MEALIE_URL="+em.URL, "MEALIE_API_TOKEN="+em.Token)
	if err != nil {
		return nil, err
	}
	defer p.Stop()
	hc := httpClient()
	var page struct {
		Items []struct {
			Slug string `json:"slug"`
		} `json:"items"`
	}
	if err := getJSON(ctx, hc, em, "/api/recipes?perPage=100", &page); err != nil {
		return nil, err
	}
	var slugs []string
	for _, it := range page.Items {
		slugs = append(slugs, it.Slug)
	}
	if len(slugs) == 0 {
		return nil, fmt.Errorf("the demo seed has no recipes")
	}
	today := time.Now()
	week := map[string]any{"start_date": today.Format(time.DateOnly), "end_date": today.AddDate(0, 0, 6).Format(time.DateOnly)}
	mix := loadMix(slugs, week)

	out := &Load{Sessions: loadSessions, CallsEach: loadCalls}
	if err := sleepCtx(ctx, settle); err != nil {
		return nil, err
	}
	if out.Idle, err = ReadMemory(p.Pid()); err != nil {
		return nil, err
	}
	var peak atomic.Int64
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			select {
			case <-stopSampling:
				return
			case <-t.C:
				if m, err := ReadMemory(p.Pid()); err == nil && m.RSS > peak.Load() {
					peak.Store(m.RSS)
				}
			}
		}
	}()

	cpu0, err := ReadCPU(p.Pid())
	if err != nil {
		return nil, err
	}
	self0, err := ReadCPU(os.Getpid())
	if err != nil {
		return nil, err
	}
	r := loadRound(ctx, hc, url, mix, h.PanicBin != "")
	cpu1, err := ReadCPU(p.Pid())
	if err != nil {
		return nil, err
	}
	self1, err := ReadCPU(os.Getpid())
	if err != nil {
		return nil, err
	}
	out.CPU, out.HarnessCPU = cpu1-cpu0, self1-self0
	out.Wall, out.Errors, out.FirstError = r.wall, r.errors, r.firstErr
	out.Panicked, out.PanicAnswer = r.panicked, r.panicAnswer
	out.Calls = loadSessions * loadCalls
	out.P50, out.P99 = Percentile(r.times, 0.50), Percentile(r.times, 0.99)
	hc.CloseIdleConnections()
	if err := sleepCtx(ctx, afterSettle); err != nil {
		return nil, err
	}
	if out.After, err = ReadMemory(p.Pid()); err != nil {
		return nil, err
	}
	// A second identical round tells retained memory from a leak: a leak
	// grows again, a runtime that keeps its heap for reuse does not.
	r2 := loadRound(ctx, hc, url, mix, false)
	out.Errors += r2.errors
	if out.FirstError == "" {
		out.FirstError = r2.firstErr
	}
	close(stopSampling)
	<-sampled
	// The sessions are gone; so are their connections, as when real
	// clients leave (their buffers would otherwise count as sous's).
	hc.CloseIdleConnections()
	if err := sleepCtx(ctx, afterSettle); err != nil {
		return nil, err
	}
	if out.AfterSecond, err = ReadMemory(p.Pid()); err != nil {
		return nil, err
	}
	// Alive: the process still answers a call after both rounds.
	if sess, err := connectMCP(ctx, hc, url); err == nil {
		_, _, err = callText(ctx, sess, "list_cookbooks", map[string]any{})
		out.Alive = err == nil
		sess.Close()
	}
	out.PeakRSS = peak.Load()
	if err := sleepCtx(ctx, laterSettle); err != nil {
		return nil, err
	}
	if out.Later, err = ReadMemory(p.Pid()); err != nil {
		return nil, err
	}
	if out.Later.Peak > out.PeakRSS {
		out.PeakRSS = out.Later.Peak // VmHWM catches a peak between samples
	}
	return out, nil
}

// round is one pass of every session.
type round struct {
	times    []time.Duration
	errors   int
	firstErr string
	wall     time.Duration
	// panicked and panicAnswer: the deliberate panic, when withPanic.
	panicked    int
	panicAnswer string
}

// loadRound runs loadSessions sessions at once, each making loadCalls
// calls from mix, and collects every call's latency and failure. With
// withPanic, the middle session first makes one more call, the one a
// sous_bench_panic build panics on; its answer is kept apart.
func loadRound(ctx context.Context, hc *http.Client, url string, mix []func(int) (string, map[string]any), withPanic bool) round {
	var (
		mu sync.Mutex
		r  round
		wg sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		r.errors++
		if r.firstErr == "" {
			r.firstErr = err.Error()
		}
		mu.Unlock()
	}
	start := time.Now()
	for s := range loadSessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sess, err := connectMCP(ctx, hc, url)
			if err != nil {
				for range loadCalls {
					fail(fmt.Errorf("connect: %w", err))
				}
				return
			}
			defer sess.Close()
			if withPanic && s == loadSessions/2 {
				text, _, _ := callText(ctx, sess, "get_recipe", map[string]any{"slug": benchPanicSlug})
				mu.Lock()
				r.panicked, r.panicAnswer = 1, text
				mu.Unlock()
			}
			local := make([]time.Duration, 0, loadCalls)
			for c := range loadCalls {
				name, args := mix[(s+c)%len(mix)](s + c)
				t := time.Now()
				_, _, err := callText(ctx, sess, name, args)
				local = append(local, time.Since(t))
				if err != nil {
					fail(err)
				}
			}
			mu.Lock()
			r.times = append(r.times, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.wall = time.Since(start)
	return r
}
