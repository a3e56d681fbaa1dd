package bench

import (
	"slices"
	"time"
)

// Percentile is the nearest-rank q-quantile (0 < q <= 1) of ds, which it
// sorts in place; 0 for none.
func Percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := int(q*float64(len(ds))+0.999999999) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

// ms renders a duration in milliseconds with two decimals, the unit of
// every latency in the results table.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// mb renders bytes in MiB with one decimal.
func mb(b int64) float64 { return float64(b*10/(1<<20)) / 10 }
