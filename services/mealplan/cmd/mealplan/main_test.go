package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/souskitchen/sous/internal/serve"
)

// fakeMealie answers the two reads of the startup probe: /api/app/about with
// version and /api/users/self with selfStatus.
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

// TestBuildProbesMealie: the service refuses to start against a Mealie it
// cannot serve, with the probe's message, as the other Mealie-backed
// services do, and starts against one it can.
func TestBuildProbesMealie(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		selfStatus    int
		wantErr       string
	}{
		{name: "supported", version: "v2.8.0", selfStatus: http.StatusOK},
		{name: "Mealie 1.x", version: "v1.12.0", selfStatus: http.StatusOK, wantErr: "sous needs Mealie 2.0 or newer"},
		{name: "bad token", version: "v2.8.0", selfStatus: http.StatusUnauthorized, wantErr: "check MEALIE_API_TOKEN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("MEALIE_URL", fakeMealie(t, tc.version, tc.selfStatus))
			t.Setenv("MEALIE_API_TOKEN", "token")
			t.Setenv("MEALIE_VERIFY_SSL", "true")
			t.Setenv("SOUS_RECIPES_URL", "http://127.0.0.1:1")
			t.Setenv("SOUS_PANTRY_URL", "")
			svcs, err := build(context.Background(), serve.Setup{Logger: slog.New(slog.DiscardHandler)})
			if tc.wantErr == "" {
				if err != nil || len(svcs) != 1 {
					t.Fatalf("build = %d services, %v; want one service", len(svcs), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("build error = %v; want one containing %q", err, tc.wantErr)
			}
		})
	}
}
