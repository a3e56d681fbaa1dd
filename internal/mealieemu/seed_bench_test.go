package mealieemu

import (
	"testing"
	"time"
)

// BenchmarkSeedBench2000 measures seeding the bench:2000 library that
// `mealietest serve --seed bench:2000` starts with.
func BenchmarkSeedBench2000(b *testing.B) {
	for b.Loop() {
		st := newStore(profiles["2.8"], time.Now)
		if err := st.seed("bench:2000"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSeedDemo measures seeding the demo library.
func BenchmarkSeedDemo(b *testing.B) {
	for b.Loop() {
		st := newStore(profiles["2.8"], time.Now)
		if err := st.seed("demo"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListAllBench2000 measures GET /api/recipes?perPage=-1 over 2000
// recipes, the library sweep sous's reports make.
func BenchmarkListAllBench2000(b *testing.B) {
	s, err := Start(WithSeed("bench:2000"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	h := s.Handler()
	for b.Loop() {
		rec := newDiscardRecorder()
		req := newRequest("GET", "/api/recipes?perPage=-1", s.Token)
		h.ServeHTTP(rec, req)
		if rec.status != 200 {
			b.Fatalf("status %d", rec.status)
		}
	}
}
