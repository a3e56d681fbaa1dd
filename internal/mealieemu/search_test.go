package mealieemu

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

// TestSearchByEngine is the contract suite's TestSearchByEngine in brief:
// on PostgreSQL a search without quotes is fuzzy ("chicken" finds the
// chickpea stew, ordered after the closer name), a quoted one is the
// substring search SQLite runs.
func TestSearchByEngine(t *testing.T) {
	tests := []struct {
		profile, search string
		want            []string
	}{
		{"3.20", "chicken", []string{"chicken-curry"}},
		{"3.20-pg", "chicken", []string{"chicken-curry", "chickpea-stew"}},
		{"3.20-pg", `"chicken"`, []string{"chicken-curry"}},
		{"2.8-pg", "currry", []string{"chicken-curry"}},
		{"2.8", "currry", nil},
	}
	for _, tt := range tests {
		t.Run(tt.profile+" "+tt.search, func(t *testing.T) {
			s := newServer(t, WithSeed("empty"), WithVersion(tt.profile))
			for _, n := range []string{"Chickpea Stew", "Chicken Curry"} {
				if code, _ := call(t, s, http.MethodPost, "/api/recipes", map[string]any{"name": n}); code != http.StatusCreated {
					t.Fatalf("create %s: %d", n, code)
				}
			}
			code, body := call(t, s, http.MethodGet, "/api/recipes?orderBy=name&orderDirection=asc&search="+url.QueryEscape(tt.search), nil)
			page, _ := body.(map[string]any)
			items, _ := page["items"].([]any)
			if code != http.StatusOK {
				t.Fatalf("search: %d %v", code, body)
			}
			var got []string
			for _, it := range items {
				got = append(got, it.(map[string]any)["slug"].(string))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("search %q = %v, want %v", tt.search, got, tt.want)
			}
		})
	}
}
