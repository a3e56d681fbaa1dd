package stack

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
		if got := ForToolsets(tt.toolsets); !slices.Equal(got, tt.want) {
			t.Errorf("ForToolsets(%v) = %v, want %v", tt.toolsets, got, tt.want)
		}
	}
}

func TestNewStack(t *testing.T) {
	mealie := Config{Mealie: svcenv.Mealie{URL: "http://127.0.0.1:9", Token: "t", VerifySSL: true}}
	food := Config{FoodAPI: svcenv.FoodAPI{Base: "http://127.0.0.1:9/api", Token: "t"}}
	both := mealie
	both.FoodAPI = food.FoodAPI
	remote := Config{Config: mcpfront.Config{Remotes: mcpfront.Remotes{RecipesURL: "http://127.0.0.1:9", Token: "s"}}}
	tests := []struct {
		name      string
		cfg       Config
		want      []string
		mode      Mode
		wantLocal []string
		wantOn    []string // clients present
		wantLog   []string
		wantErr   string
	}{
		{
			name: "Mealie only: the pantry is off, with the variables to set", cfg: mealie, want: ForToolsets(nil),
			wantLocal: []string{"recipes", "mealplan", "library"}, wantOn: []string{"recipes", "mealplan", "library"},
			wantLog: []string{"pantry toolset off: set FOOD_API_BASE and FOOD_API_TOKEN (or SOUS_PANTRY_URL) to turn it on"},
		},
		{
			name: "food API only: the Mealie toolsets are off", cfg: food, want: ForToolsets(nil),
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
			name: "serve refuses a service without its backend", cfg: food, want: []string{"recipes"}, mode: Serve,
			wantErr: "the recipes service cannot run: set MEALIE_URL and MEALIE_API_TOKEN",
		},
		{
			name: "a toolset chosen names only itself", cfg: Config{Config: mcpfront.Config{Toolsets: []string{"shopping"}}}, want: ForToolsets([]string{"shopping"}),
			wantLog: []string{"shopping toolset off: set MEALIE_URL and MEALIE_API_TOKEN (or SOUS_RECIPES_URL, SOUS_MEALPLAN_URL) to turn it on"},
		},
		{
			name: "serve with only Mealie runs the Mealie services, saying how to add the pantry", cfg: mealie,
			want: ServeServices(mealie, strings.Join(Names, ","), false), mode: Serve,
			wantLocal: []string{"recipes", "mealplan", "library"}, wantOn: []string{"recipes", "mealplan", "library"},
			wantLog: []string{"pantry service off: set FOOD_API_BASE and FOOD_API_TOKEN to serve it"},
		},
		{
			name: "serve --services naming the pantry still needs the food API", cfg: mealie,
			want: ServeServices(mealie, "pantry,recipes", true), mode: Serve,
			wantErr: "the pantry service cannot run: set FOOD_API_BASE and FOOD_API_TOKEN",
		},
		{name: "unknown service", cfg: both, want: []string{"desserts"}, mode: Serve, wantErr: `unknown service "desserts"`},
		{
			name: "one binary: mealplan here, recipes at its own binary's address, no pantry said once", cfg: both,
			want: []string{"mealplan"}, mode: Single,
			wantLocal: []string{"mealplan"}, wantOn: []string{"recipes", "mealplan"},
			wantLog: []string{"SOUS_PANTRY_URL is not set: running without the pantry"},
		},
		{
			name: "one binary: library uses no pantry, so says nothing of it", cfg: mealie, want: []string{"library"}, mode: Single,
			wantLocal: []string{"library"}, wantOn: []string{"recipes", "library"},
		},
		{
			name: "one binary: its own URL set (a shared environment) still runs it here", cfg: mealiePantryRemote(mealie),
			want: []string{"recipes"}, mode: Single, wantLocal: []string{"recipes"}, wantOn: []string{"recipes", "pantry"},
		},
		{
			name: "one binary: the pantry without the food API", cfg: mealie, want: []string{"pantry"}, mode: Single,
			wantErr: "the pantry service cannot run: set FOOD_API_BASE and FOOD_API_TOKEN",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			s, err := New(tt.cfg, tt.want, tt.mode, slog.New(slog.NewTextHandler(&logs, nil)))
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
				for _, n := range Names {
					if strings.Contains(strings.ToLower(svc.Name), "."+n+".") {
						local = append(local, n)
					}
				}
			}
			if !slices.Equal(local, tt.wantLocal) {
				t.Errorf("local services = %v, want %v", local, tt.wantLocal)
			}
			b := s.Backends()
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
			if serviceTable[i].name() != tt.name {
				t.Fatalf("serviceTable[%d] is %s, want %s (build order)", i, serviceTable[i].name(), tt.name)
			}
			if serviceTable[i].front.URLVar != tt.urlVar {
				t.Errorf("urlVar = %s, want %s", serviceTable[i].front.URLVar, tt.urlVar)
			}
			for _, ts := range tt.toolsets {
				if got := ForToolsets([]string{ts}); !slices.Equal(got, []string{tt.name}) {
					t.Errorf("ForToolsets(%s) = %v, want [%s]", ts, got, tt.name)
				}
			}
			// Its URL set and nothing else: remote, nothing built here.
			var remote Config
			tt.remote(&remote.Remotes)
			s, err := New(remote, []string{tt.name}, Front, quiet)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.client(s.Backends()) || len(s.local) != 0 {
				t.Errorf("with %s set: client present %v, local %d, want a remote client only", tt.urlVar, tt.client(s.Backends()), len(s.local))
			}
			// Named to `sous serve` with no backend (its URL set is not
			// enough: serve runs what it is asked for itself).
			if _, err := New(remote, []string{tt.name}, Serve, quiet); err == nil || err.Error() != tt.missing {
				t.Errorf("serve without a backend: err = %v, want %q", err, tt.missing)
			}
		})
	}
}

func TestServeServices(t *testing.T) {
	mealie := Config{Mealie: svcenv.Mealie{URL: "http://127.0.0.1:9", Token: "t"}}
	both := mealie
	both.FoodAPI = svcenv.FoodAPI{Base: "http://127.0.0.1:9/api", Token: "t"}
	all := strings.Join(Names, ",")
	tests := []struct {
		name     string
		cfg      Config
		list     string
		explicit bool
		want     []string
	}{
		{"default, food API configured: all four", both, all, false, Names},
		{"default, no food API: the pantry is left out", mealie, all, false, []string{"recipes", "mealplan", "library"}},
		{"explicit list is kept as given", mealie, " pantry, recipes ,", true, []string{"pantry", "recipes"}},
		{"explicit list without the pantry", mealie, "recipes", true, []string{"recipes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ServeServices(tt.cfg, tt.list, tt.explicit); !slices.Equal(got, tt.want) {
				t.Errorf("ServeServices(%q, explicit=%v) = %v, want %v", tt.list, tt.explicit, got, tt.want)
			}
		})
	}
}

// mealiePantryRemote is c with the recipes and pantry URLs set, as a
// compose file's shared environment sets them for every service.
func mealiePantryRemote(c Config) Config {
	c.Remotes = mcpfront.Remotes{RecipesURL: "http://recipes:8080", PantryURL: "http://pantry:8080"}
	return c
}
