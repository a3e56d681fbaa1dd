package mealietest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// TestNewServerServesAndStops checks that NewServer passes its options on
// and that the server it started is gone once its test has ended.
func TestNewServerServesAndStops(t *testing.T) {
	cases := []struct {
		name    string
		opts    []mealieemu.Option
		version string
	}{
		{"default profile", nil, "v2.8.0"},
		{"chosen profile", []mealieemu.Option{mealieemu.WithVersion("3.11")}, "v3.11.0"},
		{"newest profile", []mealieemu.Option{mealieemu.WithVersion("3.20")}, "v3.20.1"},
	}
	for _, tc := range cases {
		var url string
		t.Run(tc.name, func(t *testing.T) {
			srv := mealietest.NewServer(t, tc.opts...)
			url = srv.URL
			resp, err := http.Get(srv.URL + "/api/app/about")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var about struct{ Version string }
			if err := json.NewDecoder(resp.Body).Decode(&about); err != nil {
				t.Fatal(err)
			}
			if about.Version != tc.version {
				t.Errorf("version = %q, want %q", about.Version, tc.version)
			}
		})
		if _, err := http.Get(url + "/api/app/about"); err == nil {
			t.Errorf("%s: the server still answers after its test ended", tc.name)
		}
	}
}
