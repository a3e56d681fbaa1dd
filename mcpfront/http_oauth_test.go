package mcpfront

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/mcpfront/oauth"
)

// newOAuth is an authorization server for issuer with a fresh store.
func newOAuth(t *testing.T, issuer string) *oauth.Server {
	t.Helper()
	dir := t.TempDir()
	pf := filepath.Join(dir, "passphrase")
	if err := os.WriteFile(pf, []byte("a passphrase long enough\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := oauth.New(oauth.Config{Issuer: issuer, PassphraseFile: pf, StatePath: filepath.Join(dir, "oauth.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The OAuth mode on mcpfront's listener: /mcp needs a token and points at
// the metadata, the discovery documents answer on the same listener behind
// the Host guard, and nothing answers with a redirect.
func TestHTTPGuardOAuth(t *testing.T) {
	as := newOAuth(t, "https://kitchen.example.com")
	server := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := HTTPHandler(server, HTTPOptions{OAuth: as})
	const host = "kitchen.example.com"
	tests := []struct {
		name     string
		method   string
		path     string
		host     string
		origin   string
		auth     string
		wantCode int
	}{
		{name: "mcp without a token", method: "POST", path: "/mcp", wantCode: http.StatusUnauthorized},
		{name: "mcp/ without a token", method: "POST", path: "/mcp/", wantCode: http.StatusUnauthorized},
		{name: "mcp GET without a token", method: "GET", path: "/mcp", wantCode: http.StatusUnauthorized},
		{name: "mcp with a forged token", method: "POST", path: "/mcp", auth: "Bearer eyJhbGciOiJub25lIn0.e30.", wantCode: http.StatusUnauthorized},
		{name: "protected-resource metadata", method: "GET", path: "/.well-known/oauth-protected-resource/mcp", wantCode: http.StatusOK},
		{name: "protected-resource metadata root", method: "GET", path: "/.well-known/oauth-protected-resource", wantCode: http.StatusOK},
		{name: "authorization-server metadata", method: "GET", path: "/.well-known/oauth-authorization-server", wantCode: http.StatusOK},
		{name: "metadata from a browser elsewhere", method: "GET", path: "/.well-known/oauth-authorization-server", origin: "https://claude.ai", wantCode: http.StatusOK},
		{name: "unclean well-known path", method: "GET", path: "/.well-known//oauth-authorization-server", wantCode: http.StatusNotFound},
		{name: "dot segment", method: "GET", path: "/x/../.well-known/oauth-authorization-server", wantCode: http.StatusNotFound},
		{name: "unknown path", method: "GET", path: "/other", wantCode: http.StatusNotFound},
		{name: "metadata on a foreign host", method: "GET", path: "/.well-known/oauth-authorization-server", host: "attacker.example", wantCode: http.StatusForbidden},
		{name: "mcp with a foreign origin", method: "POST", path: "/mcp", origin: "https://evil.example", wantCode: http.StatusForbidden},
		{name: "register needs a body", method: "POST", path: "/register", wantCode: http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "https://"+host+tt.path, strings.NewReader(initBody))
			req.URL.Path = tt.path // keep unclean paths as sent
			req.Host = host
			if tt.host != "" {
				req.Host = tt.host
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.wantCode {
				t.Fatalf("status = %d, want %d; body %q", rec.Code, tt.wantCode, rec.Body.String())
			}
			if loc := rec.Header().Get("Location"); loc != "" {
				t.Errorf("answered with a redirect to %q", loc)
			}
			if tt.wantCode == http.StatusUnauthorized {
				want := `Bearer resource_metadata="https://kitchen.example.com/.well-known/oauth-protected-resource/mcp"`
				if got := rec.Header().Get("WWW-Authenticate"); !strings.HasPrefix(got, want) {
					t.Errorf("WWW-Authenticate %q, want the prefix %q", got, want)
				}
			}
		})
	}
}

func TestHTTPOptionsCheck(t *testing.T) {
	as := newOAuth(t, "http://127.0.0.1:8765")
	tests := []struct {
		name string
		o    HTTPOptions
		want []string // variables the error names; nil: no error
	}{
		{name: "oauth alone", o: HTTPOptions{OAuth: as}},
		{name: "secret alone", o: HTTPOptions{PathSecret: "s"}},
		{name: "secret and bearer", o: HTTPOptions{PathSecret: "s", BearerToken: "b"}},
		{name: "oauth and secret", o: HTTPOptions{OAuth: as, PathSecret: "s"}, want: []string{"FOOD_MCP_URL_SECRET", "SOUS_OAUTH_ISSUER"}},
		{name: "oauth and bearer", o: HTTPOptions{OAuth: as, BearerToken: "b"}, want: []string{"SOUS_MCP_BEARER_TOKEN", "SOUS_OAUTH_ISSUER"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.o.Check()
			if (err != nil) != (tt.want != nil) {
				t.Fatalf("Check() = %v", err)
			}
			for _, v := range tt.want {
				if !strings.Contains(err.Error(), v) {
					t.Errorf("%q does not name %s", err, v)
				}
			}
		})
	}
}
