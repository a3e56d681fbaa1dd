package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// benchStartLimit bounds how long one start may take before the benchmark
// gives up; the target is well under a second, this only stops a hang.
const benchStartLimit = 30 * time.Second

// firstPage asks for page 1 at 100 per page until the server answers, and
// returns the envelope.
func firstPage(tb testing.TB, addr string) (total, items int) {
	tb.Helper()
	deadline := time.Now().Add(benchStartLimit)
	for {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/api/recipes?page=1&perPage=100", nil)
		req.Header.Set("Authorization", "Bearer "+mealieemu.DefaultToken)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			var page struct {
				Total int   `json:"total"`
				Items []any `json:"items"`
			}
			err = json.NewDecoder(resp.Body).Decode(&page)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err != nil {
				tb.Fatal(err)
			}
			return page.Total, len(page.Items)
		}
		if time.Now().After(deadline) {
			tb.Fatalf("server never answered: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
}

// BenchmarkServeBench2000 measures `mealietest serve --seed bench:2000` from
// the command line to the first recipe page of 100 served: the start the
// library sweeps wait for, which should stay well under a second.
func BenchmarkServeBench2000(b *testing.B) {
	for b.Loop() {
		addr := freeAddr(b)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan int, 1)
		go func() { done <- run(ctx, []string{"serve", "--addr", addr, "--seed", "bench:2000"}, io.Discard) }()
		total, items := firstPage(b, addr)
		cancel()
		<-done
		if total != 2000 || items != 100 {
			b.Fatalf("total %d, items %d; want 2000 and 100", total, items)
		}
	}
}

// TestServeBench2000Pages checks what the benchmark relies on: the bench seed
// holds 2000 recipes and serves them 100 to a page.
func TestServeBench2000Pages(t *testing.T) {
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--addr", addr, "--seed", "bench:2000"}, io.Discard) }()
	defer func() { cancel(); <-done }()
	if total, items := firstPage(t, addr); total != 2000 || items != 100 {
		t.Errorf("total %d, items %d; want 2000 and 100", total, items)
	}
}
