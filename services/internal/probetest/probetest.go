// Package probetest is the startup-probe test of the commands that serve a
// Mealie-backed service on its own (services/*/cmd/*): each refuses to
// start against a Mealie it cannot serve, with the probe's message
// (mealie.Client.Probe), and starts against one it can. It is test
// machinery, linked by tests only (integration/e2e/layering_test.go).
package probetest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Build runs a command's build function (serve.Command.Build) and says how
// many services it built.
type Build func(context.Context) (int, error)

// Count is the Build of a command's build function given setup (a
// serve.Setup): generic, so that this package needs nothing of
// internal/serve and its dependencies.
func Count[Setup, Service any](build func(context.Context, Setup) ([]Service, error), setup Setup) Build {
	return func(ctx context.Context) (int, error) {
		svcs, err := build(ctx, setup)
		return len(svcs), err
	}
}

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

// BuildProbesMealie runs build against a supported Mealie, a Mealie 1.x
// and a bad token, with the MEALIE_* variables set and env (the command's
// other variables) besides, and wants one service from the first and the
// probe's message from the others.
func BuildProbesMealie(t *testing.T, build Build, env map[string]string) {
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
			for k, v := range env {
				t.Setenv(k, v)
			}
			n, err := build(context.Background())
			if tc.wantErr == "" {
				if err != nil || n != 1 {
					t.Fatalf("build = %d services, %v; want one service", n, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("build error = %v; want one containing %q", err, tc.wantErr)
			}
		})
	}
}
