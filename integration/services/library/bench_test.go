package library_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/mealieemu"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
)

// Benchmark setting: a 2,000-recipe
// library behind 10 ms of latency per request, roughly a homelab Mealie on
// the other side of a VPN.
const (
	benchSeed    = "bench:2000"
	benchLatency = 10 * time.Millisecond
	// seedFanout is mcp-mealie's FANOUT: detail GETs 8 at a time.
	seedFanout = 8
	// seedPageSize is mcp-mealie's list page size.
	seedPageSize = 100
)

// seedFoodCounts counts recipes per food id mcp-mealie's way: page the list,
// then one detail GET per recipe, seedFanout at a time.
func seedFoodCounts(ctx context.Context, m *mealieemu.Server) (map[string]int32, error) {
	get := func(path string, out any) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, m.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+m.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: %d", path, resp.StatusCode)
		}
		return json.NewDecoder(resp.Body).Decode(out)
	}
	var slugs []string
	for page := 1; ; page++ {
		var p struct {
			TotalPages int `json:"total_pages"`
			Items      []struct{ Slug string }
		}
		if err := get("/api/recipes?perPage="+strconv.Itoa(seedPageSize)+"&page="+strconv.Itoa(page), &p); err != nil {
			return nil, err
		}
		for _, it := range p.Items {
			slugs = append(slugs, it.Slug)
		}
		if page >= p.TotalPages {
			break
		}
	}
	counts := map[string]int32{}
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		firstErr error
	)
	sem := make(chan struct{}, seedFanout)
	for _, slug := range slugs {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var r struct {
				RecipeIngredient []struct {
					Food *struct{ ID string } `json:"food"`
				} `json:"recipeIngredient"`
			}
			err := get("/api/recipes/"+slug, &r)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				firstErr = err
				return
			}
			seen := map[string]bool{}
			for _, in := range r.RecipeIngredient {
				if in.Food != nil && !seen[in.Food.ID] {
					seen[in.Food.ID] = true
					counts[in.Food.ID]++
				}
			}
		}()
	}
	wg.Wait()
	return counts, firstErr
}

// BenchmarkLibraryStatsFoods measures LibraryStats(foods) cold, warm and
// after one recipe write, beside mcp-mealie's approach, in Mealie requests
// and wall time, on one emulator. Run it once per measurement:
//
//	go test ./integration/services/library -run '^$' -bench LibraryStatsFoods -benchtime 1x
//
// Each phase's counts must equal mcp-mealie's approach's, or the benchmark
// fails.
func BenchmarkLibraryStatsFoods(b *testing.B) {
	for b.Loop() {
		s := setup(b, nil, mealieemu.WithSeed(benchSeed), mealieemu.WithLatency(benchLatency))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		measure := func(name string, run func() map[string]int32) map[string]int32 {
			s.mealie.ResetRequests()
			start := time.Now()
			counts := run()
			b.ReportMetric(float64(time.Since(start).Milliseconds()), name+"-ms")
			b.ReportMetric(float64(len(s.mealie.Requests())), name+"-requests")
			return counts
		}
		want := measure("seed", func() map[string]int32 {
			c, err := seedFoodCounts(ctx, s.mealie)
			if err != nil {
				b.Fatal(err)
			}
			return c
		})
		report := func() map[string]int32 {
			st, err := s.client.LibraryStats(ctx, connect.NewRequest(&libraryv1.LibraryStatsRequest{
				Resource: libraryv1.StatsResource_STATS_RESOURCE_FOODS, Top: 500, IncludeUnused: new(false),
			}))
			if err != nil {
				b.Fatal(err)
			}
			out := map[string]int32{}
			for st.Receive() {
				if r := st.Msg().GetResult(); r != nil {
					if r.Truncated != "" {
						b.Fatalf("truncated: %s", r.Truncated)
					}
					b.Logf("method: %s", r.Method)
					for _, it := range r.Items {
						out[it.Id] = it.RecipeCount
					}
				}
			}
			if err := st.Err(); err != nil {
				b.Fatal(err)
			}
			return out
		}
		same := func(phase string, got map[string]int32) {
			if fmt.Sprint(got) != fmt.Sprint(want) {
				b.Fatalf("%s: counts differ from mcp-mealie's approach's (%d foods vs %d)", phase, len(got), len(want))
			}
		}
		same("cold", measure("cold", report))
		same("warm", measure("warm", report))

		// One write: a recipe's description changes.
		var page struct {
			Items []struct{ Slug string }
		}
		s.mealieCall(b, http.MethodGet, "/api/recipes?perPage=1", nil, &page)
		s.mealieCall(b, http.MethodPatch, "/api/recipes/"+page.Items[0].Slug, map[string]any{"description": "edited for the benchmark"}, nil)
		same("after-write", measure("after-write", report))
		cancel()
	}
}
