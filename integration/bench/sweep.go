package bench

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// sweepTimeout bounds figure 4: compiling the test binary, then four
// sweeps of 2,000 recipes behind 10 ms (about a minute on two cores).
const sweepTimeout = 5 * time.Minute

// sweepPackage holds the library's benchmark, reused as is.
const sweepPackage = "github.com/souskitchen/sous/integration/services/library"

// Sweep is figure 4: BenchmarkLibraryStatsFoods's metrics, by phase
// ("seed", "cold", "warm", "after-write"), each with "ms" and "requests".
type Sweep struct {
	Metrics map[string]float64
}

// Phases in the order the table shows them.
var sweepPhases = []string{"seed", "cold", "warm", "after-write"}

// runSweep runs the library benchmark once and reads its metrics.
func (h *Harness) runSweep(ctx context.Context) (*Sweep, error) {
	ctx, cancel := context.WithTimeout(ctx, sweepTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", sweepPackage, "-run", "^$", "-bench", "^BenchmarkLibraryStatsFoods$", "-benchtime", "1x", "-count", "1")
	cmd.Dir = h.Root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("BenchmarkLibraryStatsFoods failed (%v): %s", err, benchFailure(string(out)+stderr.String()))
	}
	m, err := parseBenchLine(string(out), "BenchmarkLibraryStatsFoods")
	if err != nil {
		return nil, err
	}
	return &Sweep{Metrics: m}, nil
}

// parseBenchLine reads the metrics of a benchmark's result line:
// "BenchmarkX-2   1   123 ns/op   4567 seed-ms   2021 seed-requests".
func parseBenchLine(out, name string) (map[string]float64, error) {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || (f[0] != name && !strings.HasPrefix(f[0], name+"-")) {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue // a log line that starts with the name
		}
		m := map[string]float64{}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: metric %q: %w", name, f[i+1], err)
			}
			m[f[i+1]] = v
		}
		return m, nil
	}
	return nil, fmt.Errorf("%s: no result line in the output", name)
}

// benchFailure picks the lines of a failed benchmark's output that say
// why: the test's own messages ("bench_test.go:139: …"), else the last line.
func benchFailure(out string) string {
	var why []string
	for _, line := range strings.Split(out, "\n") {
		if l := strings.TrimSpace(line); strings.Contains(l, ".go:") {
			why = append(why, l)
		}
	}
	if len(why) == 0 {
		return lastLine(out)
	}
	return strings.Join(why, "; ")
}
