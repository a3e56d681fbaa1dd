package stack

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// fakeMealie answers the two reads of the startup probe: /api/app/about
// with version and /api/users/self with selfStatus.
func fakeMealie(t *testing.T, version string, selfStatus int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/app/about":
			_, _ = io.WriteString(w, `{"version":"`+version+`","production":true}`)
		case "/api/users/self":
			w.WriteHeader(selfStatus)
			if selfStatus != http.StatusOK {
				_, _ = io.WriteString(w, `{"detail":"Not authenticated"}`)
				return
			}
			_, _ = io.WriteString(w, `{"id":"u1","username":"cook","household":"Family","group":"Home"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// clearEnv blanks every variable a service binary reads, so the machine's
// environment (or a .env) cannot decide a case.
func clearEnv(t *testing.T) {
	for _, v := range []string{"MEALIE_URL", "MEALIE_API_TOKEN", "MEALIE_VERIFY_SSL", "FOOD_API_BASE", "FOOD_API_TOKEN",
		"SOUS_RECIPES_URL", "SOUS_MEALPLAN_URL", "SOUS_LIBRARY_URL", "SOUS_PANTRY_URL", "SOUS_SERVICE_TOKEN",
		"SOUS_CREATE_FOODS", "SOUS_LINKCHECK_ALLOW_PRIVATE", "SOUS_MCP_RATE_LIMIT", "MEALIE_READ_ONLY"} {
		t.Setenv(v, "")
	}
}

// TestCommandProbesMealie: each Mealie-backed service's own binary
// refuses to start against a Mealie it cannot serve, with the probe's
// message, and starts against one it can, saying what it connected to;
// the services it calls are not contacted to start.
func TestCommandProbesMealie(t *testing.T) {
	for _, name := range []string{svcRecipes, svcMealPlan, svcLibrary} {
		for _, tc := range []struct {
			name, version string
			selfStatus    int
			wantErr       string
		}{
			{name: "supported", version: "v2.8.0", selfStatus: http.StatusOK},
			{name: "Mealie 1.x", version: "v1.12.0", selfStatus: http.StatusOK, wantErr: "sous needs Mealie 2.0 or newer"},
			{name: "bad token", version: "v2.8.0", selfStatus: http.StatusUnauthorized, wantErr: "check MEALIE_API_TOKEN"},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				clearEnv(t)
				t.Setenv("MEALIE_URL", fakeMealie(t, tc.version, tc.selfStatus))
				t.Setenv("MEALIE_API_TOKEN", "token")
				// An unusable malformed MCP-only setting: a service binary
				// does not read it.
				t.Setenv("SOUS_MCP_RATE_LIMIT", "fast")
				var logs strings.Builder
				setup := serve.Setup{Logger: slog.New(slog.NewTextHandler(&logs, nil))}
				svcs, err := Command(name).Build(context.Background(), setup)
				if tc.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
						t.Fatalf("build error = %v; want one containing %q", err, tc.wantErr)
					}
					return
				}
				if err != nil || len(svcs) != 1 || !strings.Contains(svcs[0].Name, "."+name+".") {
					t.Fatalf("build = %v, %v; want the %s service alone", svcs, err, name)
				}
				if !strings.Contains(logs.String(), "connected to Mealie v2.8.0 as cook") {
					t.Errorf("no startup line in the log:\n%s", logs.String())
				}
			})
		}
	}
}

// TestCommandWithoutBackend: a binary whose backend is not configured
// stops naming the variables; the pantry's needs no probe to start.
func TestCommandWithoutBackend(t *testing.T) {
	quiet := serve.Setup{Logger: slog.New(slog.DiscardHandler)}
	for _, tc := range []struct{ name, want string }{
		{svcRecipes, "the recipes service cannot run: set MEALIE_URL and MEALIE_API_TOKEN"},
		{svcLibrary, "the library service cannot run: set MEALIE_URL and MEALIE_API_TOKEN"},
		{svcPantry, "the pantry service cannot run: set FOOD_API_BASE and FOOD_API_TOKEN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			if _, err := Command(tc.name).Build(context.Background(), quiet); err == nil || err.Error() != tc.want {
				t.Errorf("build error = %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("pantry configured", func(t *testing.T) {
		clearEnv(t)
		t.Setenv("FOOD_API_BASE", "http://127.0.0.1:1/api")
		t.Setenv("FOOD_API_TOKEN", "t")
		// A setting only the Mealie services read does not stop it.
		t.Setenv("MEALIE_VERIFY_SSL", "perhaps")
		svcs, err := Command(svcPantry).Build(context.Background(), quiet)
		if err != nil || len(svcs) != 1 {
			t.Fatalf("build = %v, %v; want the pantry service", svcs, err)
		}
	})
}

// TestCommandSaysWhenANeededServiceDoesNotAnswer: mealplan's binary
// serves whether or not recipes answers (in a stack it may still be
// starting), but says in one line where it looked and which variable to
// set when it does not; a recipes service that answers health gets no line.
func TestCommandSaysWhenANeededServiceDoesNotAnswer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + ln.Addr().String()
	ln.Close()
	path, h := recipesv1connect.NewRecipesServiceHandler(recipesv1connect.UnimplementedRecipesServiceHandler{})
	// Served as a service binary serves (h2c, so gRPC health answers).
	upLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		h := serve.Handler("", serve.Service{Name: recipesv1connect.RecipesServiceName, Path: path, Handler: h})
		_ = serve.Run(ctx, serve.NewServer(h, slog.New(slog.DiscardHandler)), upLn)
	}()
	t.Cleanup(func() { cancel(); <-done })
	upURL := "http://" + upLn.Addr().String()
	for _, tc := range []struct {
		name, recipesURL string
		wantLine         bool
	}{
		{"recipes down", gone, true},
		{"recipes up", upURL, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			t.Setenv("MEALIE_URL", fakeMealie(t, "v2.8.0", http.StatusOK))
			t.Setenv("MEALIE_API_TOKEN", "token")
			t.Setenv("SOUS_RECIPES_URL", tc.recipesURL)
			var logs strings.Builder
			svcs, err := Command(svcMealPlan).Build(context.Background(), serve.Setup{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil || len(svcs) != 1 {
				t.Fatalf("build = %v, %v; want the mealplan service", svcs, err)
			}
			line := "the recipes service does not answer at " + tc.recipesURL
			if got := strings.Contains(logs.String(), line); got != tc.wantLine {
				t.Errorf("log has %q: %v, want %v:\n%s", line, got, tc.wantLine, logs.String())
			}
			if tc.wantLine && !strings.Contains(logs.String(), "mealplan needs it; start it, or set SOUS_RECIPES_URL to where it runs") {
				t.Errorf("the line does not say what to set:\n%s", logs.String())
			}
		})
	}
}

// TestOwnURL: a binary that needs recipes and has no URL for it reaches
// recipes where its binary listens, a wildcard host (as compose sets
// 0.0.0.0:8080) read as loopback.
func TestOwnURL(t *testing.T) {
	svc, _ := lookup(svcRecipes)
	for _, tc := range []struct{ addr, want string }{
		{"", "http://127.0.0.1:8081"},
		{"0.0.0.0:8080", "http://127.0.0.1:8080"},
		{"[::]:9000", "http://[::1]:9000"},
		{"10.0.0.5:18181", "http://10.0.0.5:18181"},
	} {
		t.Setenv("SOUS_RECIPES_ADDR", tc.addr)
		if got := svc.ownURL(); got != tc.want {
			t.Errorf("SOUS_RECIPES_ADDR=%q: ownURL = %q, want %q", tc.addr, got, tc.want)
		}
	}
}
