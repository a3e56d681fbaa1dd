package main

import (
	"bytes"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/souskitchen/sous/internal/svcenv"
	"github.com/souskitchen/sous/mcpfront"
)

func TestServicesForToolsets(t *testing.T) {
	tests := []struct {
		toolsets []string
		want     []string
	}{
		{nil, []string{"pantry", "recipes", "mealplan", "library"}},
		{[]string{"shopping"}, []string{"mealplan"}},
		{[]string{"recipes", "pantry"}, []string{"pantry", "recipes"}},
		{[]string{" Library "}, []string{"library"}},
	}
	for _, tt := range tests {
		if got := servicesForToolsets(tt.toolsets); !slices.Equal(got, tt.want) {
			t.Errorf("servicesForToolsets(%v) = %v, want %v", tt.toolsets, got, tt.want)
		}
	}
}

func TestNewStack(t *testing.T) {
	mealie := config{Mealie: svcenv.Mealie{URL: "http://127.0.0.1:9", Token: "t", VerifySSL: true}}
	food := config{FoodAPI: svcenv.FoodAPI{Base: "http://127.0.0.1:9/api", Token: "t"}}
	both := mealie
	both.FoodAPI = food.FoodAPI
	remote := config{Config: mcpfront.Config{Remotes: mcpfront.Remotes{RecipesURL: "http://127.0.0.1:9", Token: "s"}}}
	tests := []struct {
		name      string
		cfg       config
		want      []string
		strict    bool
		wantLocal []string
		wantOn    []string // clients present
		wantLog   []string
		wantErr   string
	}{
		{
			name: "Mealie only: the pantry is off, with the variables to set", cfg: mealie, want: servicesForToolsets(nil),
			wantLocal: []string{"recipes", "mealplan", "library"}, wantOn: []string{"recipes", "mealplan", "library"},
			wantLog: []string{"pantry toolset off: set FOOD_API_BASE and FOOD_API_TOKEN (or SOUS_PANTRY_URL) to turn it on"},
		},
		{
			name: "food API only: the Mealie toolsets are off", cfg: food, want: servicesForToolsets(nil),
			wantLocal: []string{"pantry"}, wantOn: []string{"pantry"},
			wantLog: []string{"recipes, mealplan, shopping, library toolsets off: set MEALIE_URL and MEALIE_API_TOKEN (or SOUS_RECIPES_URL, SOUS_MEALPLAN_URL, SOUS_LIBRARY_URL) to turn them on"},
		},
		{
			name: "both, pantry toolset only", cfg: both, want: []string{"pantry"}, wantLocal: []string{"pantry"}, wantOn: []string{"pantry"},
		},
		{
			name: "shopping alone brings recipes and the pantry along", cfg: both, want: []string{"mealplan"},
			wantLocal: []string{"pantry", "recipes", "mealplan"}, wantOn: []string{"pantry", "recipes", "mealplan"},
		},
		{
			name: "remote recipes", cfg: remote, want: []string{"recipes"}, wantOn: []string{"recipes"},
			wantLog: []string{"no pantry configured"},
		},
		{
			name: "serve refuses a service without its backend", cfg: food, want: []string{"recipes"}, strict: true,
			wantErr: "the recipes service cannot run: set MEALIE_URL and MEALIE_API_TOKEN",
		},
		{
			name: "a toolset chosen names only itself", cfg: config{Config: mcpfront.Config{Toolsets: []string{"shopping"}}}, want: servicesForToolsets([]string{"shopping"}),
			wantLog: []string{"shopping toolset off: set MEALIE_URL and MEALIE_API_TOKEN (or SOUS_RECIPES_URL, SOUS_MEALPLAN_URL) to turn it on"},
		},
		{
			name: "serve with only Mealie runs the Mealie services, saying how to add the pantry", cfg: mealie,
			want: serveServices(mealie, strings.Join(serviceNames, ","), false), strict: true,
			wantLocal: []string{"recipes", "mealplan", "library"}, wantOn: []string{"recipes", "mealplan", "library"},
			wantLog: []string{"pantry service off: set FOOD_API_BASE and FOOD_API_TOKEN to serve it"},
		},
		{
			name: "serve --services naming the pantry still needs the food API", cfg: mealie,
			want: serveServices(mealie, "pantry,recipes", true), strict: true,
			wantErr: "the pantry service cannot run: set FOOD_API_BASE and FOOD_API_TOKEN",
		},
		{name: "unknown service", cfg: both, want: []string{"desserts"}, strict: true, wantErr: `unknown service "desserts"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			s, err := newStack(tt.cfg, tt.want, tt.strict, slog.New(slog.NewTextHandler(&logs, nil)))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var local []string
			for _, svc := range s.local {
				for _, n := range serviceNames {
					if strings.Contains(strings.ToLower(svc.Name), "."+n+".") {
						local = append(local, n)
					}
				}
			}
			if !slices.Equal(local, tt.wantLocal) {
				t.Errorf("local services = %v, want %v", local, tt.wantLocal)
			}
			b := s.backends()
			on := map[string]bool{"recipes": b.Recipes != nil, "mealplan": b.MealPlan != nil, "library": b.Library != nil, "pantry": b.Pantry != nil}
			for n, present := range on {
				if present != slices.Contains(tt.wantOn, n) {
					t.Errorf("%s client present = %v", n, present)
				}
			}
			for _, w := range tt.wantLog {
				if !strings.Contains(logs.String(), w) {
					t.Errorf("log lacks %q:\n%s", w, logs.String())
				}
			}
			if strings.Count(logs.String(), "\n") > len(tt.wantLog) {
				t.Errorf("more log lines than expected:\n%s", logs.String())
			}
		})
	}
}

// TestServiceTable holds each row of serviceTable to the decisions sous
// made per service before the table existed, spelled out here: its
// toolsets, the variable whose URL makes it remote, and the line `sous
// serve` stops with when its backend is missing.
func TestServiceTable(t *testing.T) {
	tests := []struct {
		name     string
		toolsets []string
		urlVar   string
		remote   func(*mcpfront.Remotes)
		missing  string
		client   func(mcpfront.Backends) bool
	}{
		{"pantry", []string{"pantry"}, "SOUS_PANTRY_URL", func(r *mcpfront.Remotes) { r.PantryURL = "http://127.0.0.1:9" },
			"the pantry service cannot run: set FOOD_API_BASE and FOOD_API_TOKEN", func(b mcpfront.Backends) bool { return b.Pantry != nil }},
		{"recipes", []string{"recipes"}, "SOUS_RECIPES_URL", func(r *mcpfront.Remotes) { r.RecipesURL = "http://127.0.0.1:9" },
			"the recipes service cannot run: set MEALIE_URL and MEALIE_API_TOKEN", func(b mcpfront.Backends) bool { return b.Recipes != nil }},
		{"mealplan", []string{"mealplan", "shopping"}, "SOUS_MEALPLAN_URL", func(r *mcpfront.Remotes) { r.MealPlanURL = "http://127.0.0.1:9" },
			"the mealplan service cannot run: set MEALIE_URL and MEALIE_API_TOKEN", func(b mcpfront.Backends) bool { return b.MealPlan != nil }},
		{"library", []string{"library"}, "SOUS_LIBRARY_URL", func(r *mcpfront.Remotes) { r.LibraryURL = "http://127.0.0.1:9" },
			"the library service cannot run: set MEALIE_URL and MEALIE_API_TOKEN", func(b mcpfront.Backends) bool { return b.Library != nil }},
	}
	if len(tests) != len(serviceTable) {
		t.Fatalf("serviceTable has %d services, this test %d", len(serviceTable), len(tests))
	}
	quiet := slog.New(slog.DiscardHandler)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if serviceTable[i].name != tt.name {
				t.Fatalf("serviceTable[%d] is %s, want %s (build order)", i, serviceTable[i].name, tt.name)
			}
			if serviceTable[i].urlVar != tt.urlVar {
				t.Errorf("urlVar = %s, want %s", serviceTable[i].urlVar, tt.urlVar)
			}
			for _, ts := range tt.toolsets {
				if got := servicesForToolsets([]string{ts}); !slices.Equal(got, []string{tt.name}) {
					t.Errorf("servicesForToolsets(%s) = %v, want [%s]", ts, got, tt.name)
				}
			}
			// Its URL set and nothing else: remote, nothing built here.
			var remote config
			tt.remote(&remote.Remotes)
			s, err := newStack(remote, []string{tt.name}, false, quiet)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.client(s.backends()) || len(s.local) != 0 {
				t.Errorf("with %s set: client present %v, local %d, want a remote client only", tt.urlVar, tt.client(s.backends()), len(s.local))
			}
			// Named to `sous serve` with no backend (its URL set is not
			// enough: serve runs what it is asked for itself).
			if _, err := newStack(remote, []string{tt.name}, true, quiet); err == nil || err.Error() != tt.missing {
				t.Errorf("serve without a backend: err = %v, want %q", err, tt.missing)
			}
		})
	}
}

func TestServeServices(t *testing.T) {
	mealie := config{Mealie: svcenv.Mealie{URL: "http://127.0.0.1:9", Token: "t"}}
	both := mealie
	both.FoodAPI = svcenv.FoodAPI{Base: "http://127.0.0.1:9/api", Token: "t"}
	all := strings.Join(serviceNames, ",")
	tests := []struct {
		name     string
		cfg      config
		list     string
		explicit bool
		want     []string
	}{
		{"default, food API configured: all four", both, all, false, serviceNames},
		{"default, no food API: the pantry is left out", mealie, all, false, []string{"recipes", "mealplan", "library"}},
		{"explicit list is kept as given", mealie, " pantry, recipes ,", true, []string{"pantry", "recipes"}},
		{"explicit list without the pantry", mealie, "recipes", true, []string{"recipes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := serveServices(tt.cfg, tt.list, tt.explicit); !slices.Equal(got, tt.want) {
				t.Errorf("serveServices(%q, explicit=%v) = %v, want %v", tt.list, tt.explicit, got, tt.want)
			}
		})
	}
}

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
