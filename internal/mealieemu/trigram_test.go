package mealieemu

import (
	"encoding/json"
	"os"
	"testing"
)

// TestWordSimilarity holds wordSimilarity to what PostgreSQL 15's pg_trgm
// computed for the same pairs (testdata/word_similarity.json: queries a
// household asks against the names, descriptions and ingredient lines of
// the household seed, lowercased as Mealie's normalized columns are).
func TestWordSimilarity(t *testing.T) {
	raw, err := os.ReadFile("testdata/word_similarity.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Pairs [][3]any `json:"pairs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Pairs) < 100 {
		t.Fatalf("only %d pairs", len(doc.Pairs))
	}
	for _, p := range doc.Pairs {
		a, b, want := p[0].(string), p[1].(string), float32(p[2].(float64))
		if got := wordSimilarity(a, b); got != want {
			t.Errorf("word_similarity(%q, %q) = %v, PostgreSQL says %v", a, b, got, want)
		}
	}
}
