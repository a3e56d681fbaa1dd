package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestServeWithoutFoodAPI runs `sous serve` with only Mealie configured: by
// default it gets as far as listening (an unusable --addr then stops it, so
// nothing binds) having left the pantry out with one line; with the pantry
// named in --services it stops first, naming the variables.
func TestServeWithoutFoodAPI(t *testing.T) {
	t.Setenv("MEALIE_URL", "http://127.0.0.1:9")
	t.Setenv("MEALIE_API_TOKEN", "t")
	for _, v := range []string{"FOOD_API_BASE", "FOOD_API_TOKEN", "SOUS_PANTRY_URL", "SOUS_RECIPES_URL", "SOUS_MEALPLAN_URL", "SOUS_LIBRARY_URL", "SOUS_TOOLSETS", "MEALIE_LOG_LEVEL"} {
		t.Setenv(v, " ") // blank: the default, and a .env cannot fill it in
	}
	tests := []struct {
		name      string
		args      []string
		want      string
		wantNot   string
		wantLines int // lines mentioning the pantry
	}{
		{"default", []string{"serve", "--addr", "127.0.0.1:-1"}, "pantry service off: set FOOD_API_BASE and FOOD_API_TOKEN", "cannot run", 1},
		{"explicit", []string{"serve", "--services", "pantry,recipes", "--addr", "127.0.0.1:-1"}, "sous: the pantry service cannot run: set FOOD_API_BASE and FOOD_API_TOKEN", "pantry service off", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, strings.NewReader(""), &stdout, &stderr); code != exitStartup {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitStartup, stderr.String())
			}
			out := stderr.String()
			if !strings.Contains(out, tt.want) || strings.Contains(out, tt.wantNot) {
				t.Errorf("stderr lacks %q or has %q:\n%s", tt.want, tt.wantNot, out)
			}
			n := 0
			for _, line := range strings.Split(out, "\n") {
				if strings.Contains(strings.ToLower(line), "pantry") {
					n++
				}
			}
			if n != tt.wantLines {
				t.Errorf("%d lines mention the pantry, want %d:\n%s", n, tt.wantLines, out)
			}
		})
	}
}
