//go:build sous_bench_panic

package mcpfront

import (
	"encoding/json"
	"strings"
)

// BenchPanicSlug is the get_recipe slug that panics in a binary built with
// the sous_bench_panic tag. Only the benchmark harness builds that binary,
// to show a panicking call mixed into its load costs that call only; no
// build a user runs has this file (panicHook stays nil there, and
// TestNoPanicHook checks it).
const BenchPanicSlug = "sous-bench-panic"

func init() {
	panicHook = func(tool string, args json.RawMessage) {
		if tool == "get_recipe" && strings.Contains(string(args), `"`+BenchPanicSlug+`"`) {
			panic("sous_bench_panic: the benchmark's deliberate panic")
		}
	}
}
