package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/foodapiproc"
)

// Harness holds what every figure needs.
type Harness struct {
	// Bin is the sous binary under test.
	Bin string
	// PanicBin, when set, is sous built with the sous_bench_panic tag
	// (mcpfront/panichook_bench.go): the load figure runs it, with one
	// call in the first round that panics, to show it costs that call
	// only. Empty: the load runs Bin with no panicking call.
	PanicBin string
	// Root is the repository root (the directory holding go.work).
	Root string
	// Work is an empty directory: the children's working directory and
	// SOUS_IMAGE_DIR.
	Work string
	// Tok counts tokens after the figures ran.
	Tok *Tokenizer
	// Food is the Django food API, nil when its virtualenv is missing
	// (FoodErr says why); pantry figures are then left out.
	Food    *foodapiproc.FoodAPI
	FoodErr error
	// Log receives one progress line per step.
	Log io.Writer
	// Only, when not empty, runs just these figures (FigureNames), for
	// working on one; the results table is then partial.
	Only []string
	// Trace, when set, receives every household call and its answer.
	Trace io.Writer
}

// FigureNames are the figures' short names, in the order they run.
var FigureNames = []string{"catalog", "answers", "hop", "sweep", "memory", "load", "household"}

// Results are every figure of one run.
type Results struct {
	Date  time.Time
	Cores int
	CPU   string
	// LoadBefore and LoadAfter are the machine's 1-minute load average
	// (/proc/loadavg) at the start and end of the run: other work on a
	// shared machine shows there, and in the p99s.
	LoadBefore, LoadAfter string
	// Duration is the whole run's wall time.
	Duration time.Duration
	// The figures, in docs/benchmarks.md's order; nil when not measured.
	Catalog *Catalog
	Answers *Answers
	Hop     *Hop
	Sweep   *Sweep
	Memory  *Memory
	Load    *Load
	// Household is figure 7, the everyday tasks.
	Household *Household
	// Writers is figure 8, cooks adding to lists at once.
	Writers *Writers
	// Errors lists the figures that could not be measured, with why.
	Errors []string
	// TokenNote is "" when tokens were counted, else why not.
	TokenNote string
}

func (h *Harness) logf(format string, args ...any) {
	if h.Log != nil {
		fmt.Fprintf(h.Log, "sousbench: "+format+"\n", args...)
	}
}

// Run measures every figure. A figure that fails is recorded in
// Results.Errors and the others still run; the error returned is only for
// setup failures.
func (h *Harness) Run(ctx context.Context) (*Results, error) {
	start := time.Now()
	res := &Results{Date: start.UTC(), Cores: runtime.NumCPU(), CPU: cpuModel(), LoadBefore: loadAvg()}
	needFood := len(h.Only) == 0 || slices.Contains(h.Only, "catalog") || slices.Contains(h.Only, "answers")
	if needFood && h.Food == nil && h.FoodErr == nil {
		h.logf("starting the food API")
		h.Food, h.FoodErr = foodapiproc.Start(ctx, foodapiproc.Options{Root: h.Root})
		if h.Food != nil {
			defer h.Food.Close()
		}
	}
	if h.FoodErr != nil {
		res.Errors = append(res.Errors, "pantry left out: "+h.FoodErr.Error())
	}
	step := func(key, name string, f func() error) {
		if len(h.Only) > 0 && !slices.Contains(h.Only, key) {
			return
		}
		h.logf("%s", name)
		t := time.Now()
		if err := f(); err != nil {
			res.Errors = append(res.Errors, name+": "+err.Error())
			h.logf("%s failed: %v", name, err)
			return
		}
		h.logf("%s done in %s", name, time.Since(t).Round(time.Millisecond))
	}
	var err error
	step("catalog", "catalog cost", func() error { res.Catalog, err = h.runCatalog(); return err })
	step("answers", "answer cost", func() error { res.Answers, err = h.runAnswers(ctx); return err })
	step("hop", "hop overhead", func() error { res.Hop, err = h.runHop(ctx); return err })
	step("sweep", "sweep", func() error { res.Sweep, err = h.runSweep(ctx); return err })
	step("memory", "memory and start-up", func() error { res.Memory, err = h.runMemory(ctx); return err })
	step("load", "load", func() error { res.Load, err = h.runLoad(ctx); return err })
	step("household", "household tasks", func() error { res.Household, err = h.runHousehold(ctx); return err })
	step("writers", "writers", func() error { res.Writers, err = h.runWriters(ctx); return err })
	if err := h.Tok.Run(ctx); err != nil {
		res.TokenNote = err.Error()
		if errors.Is(err, ErrNoTokenizer) {
			res.TokenNote = TokensUnavailable
		}
	}
	res.Duration = time.Since(start)
	res.LoadAfter = loadAvg()
	return res, nil
}

// loadAvg is the 1-minute load average, "" if unknown.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// cpuModel is the first "model name" of /proc/cpuinfo, "" if unknown.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// httpClient is the client of every MCP session and direct GET: pooled
// connections to loopback, enough for the load figure's sessions not to
// queue on the transport.
func httpClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 1024
	t.MaxIdleConnsPerHost = 1024
	return &http.Client{Transport: t}
}

// connectMCP opens an MCP session over Streamable HTTP with go-sdk's client.
func connectMCP(ctx context.Context, hc *http.Client, url string) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "sousbench", Version: "1"}, nil)
	return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
}

// callText calls a tool and returns its text content; a tool error is an
// error.
func callText(ctx context.Context, s *mcp.ClientSession, name string, args map[string]any) (string, *mcp.CallToolResult, error) {
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	if res.IsError {
		return b.String(), res, fmt.Errorf("%s: tool error: %s", name, b.String())
	}
	return b.String(), res, nil
}

// startMCPHTTP starts `sous mcp --http` on a free port, rate limit off,
// and returns it with its endpoint URL.
func (h *Harness) startMCPHTTP(env ...string) (*Proc, string, error) {
	return h.startMCPHTTPBin(h.Bin, env...)
}

// startMCPHTTPBin is startMCPHTTP with another binary.
func (h *Harness) startMCPHTTPBin(bin string, env ...string) (*Proc, string, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, "", err
	}
	// Every session here comes from 127.0.0.1, one client to the
	// per-client rate limit, which would turn the hop and load figures into
	// a measure of the limiter's refusals.
	env = append([]string{"SOUS_MCP_RATE_LIMIT=off"}, env...)
	p, err := StartListening(bin, h.Work, sousEnv(env...), addr, "mcp", "--http", "--addr", addr)
	if err != nil {
		return nil, "", err
	}
	return p, "http://" + addr + "/mcp", nil
}
