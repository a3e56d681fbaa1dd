package oauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// Every document where claude.ai and Desktop look, without auth, and
// the 401 pointer that leads to them.
func TestDiscovery(t *testing.T) {
	for _, issuerPath := range []string{"", "/sous"} {
		t.Run("issuer path "+issuerPath, func(t *testing.T) {
			e := newEnv(t, issuerPath)
			st, hdr, _ := e.callMCP(http.MethodPost, "")
			if st != http.StatusUnauthorized {
				t.Fatalf("unauthenticated POST /mcp: %d", st)
			}
			want := fmt.Sprintf(`Bearer resource_metadata="%s", scope="mcp:read mcp:write"`, e.url("/.well-known/oauth-protected-resource/mcp"))
			if hdr != want {
				t.Fatalf("WWW-Authenticate = %s\nwant %s", hdr, want)
			}
			for _, m := range []string{http.MethodGet, http.MethodDelete} {
				if st, hdr, _ := e.callMCP(m, ""); st != http.StatusUnauthorized || hdr != want {
					t.Errorf("%s /mcp: %d %q", m, st, hdr)
				}
			}
			var prm struct {
				Resource             string   `json:"resource"`
				AuthorizationServers []string `json:"authorization_servers"`
				Scopes               []string `json:"scopes_supported"`
			}
			for _, p := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp/"} {
				st, h, body := get(t, nil, e.url(p))
				if st != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
					t.Fatalf("GET %s: %d %s", p, st, h.Get("Content-Type"))
				}
				json.Unmarshal([]byte(body), &prm)
				if prm.Resource != e.cfg.ResourceURL || !slices.Equal(prm.AuthorizationServers, []string{e.issuer}) {
					t.Errorf("GET %s: %+v", p, prm)
				}
			}
			asmPaths := []string{"/.well-known/oauth-authorization-server"}
			if issuerPath != "" {
				asmPaths = append(asmPaths, "/.well-known/oauth-authorization-server"+issuerPath)
			}
			for _, p := range asmPaths {
				st, h, body := get(t, nil, e.url(p))
				if st != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
					t.Fatalf("GET %s: %d", p, st)
				}
				var asm authServerMetadata
				json.Unmarshal([]byte(body), &asm)
				if asm.Issuer != e.issuer || asm.TokenEndpoint != e.issuer+"/token" || asm.AuthorizationEndpoint != e.issuer+"/authorize" ||
					asm.RegistrationEndpoint != e.issuer+"/register" || !slices.Equal(asm.CodeChallengeMethodsSupported, []string{"S256"}) ||
					!asm.AuthorizationResponseIssSupported {
					t.Errorf("GET %s: %+v", p, asm)
				}
				// The methods advertised are exactly the ones accepted.
				if !slices.Equal(asm.TokenEndpointAuthMethodsSupported, []string{"client_secret_post", "client_secret_basic", "none"}) {
					t.Errorf("auth methods %v", asm.TokenEndpointAuthMethodsSupported)
				}
			}
			// Browser-based clients may preflight the JSON endpoints.
			req, _ := http.NewRequest(http.MethodOptions, e.issuer+"/token", nil)
			if st, h, _ := do(t, nil, req); st != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("OPTIONS /token: %d %v", st, h)
			}
			// A path secret in the probe is not answered.
			if st, _, _ := get(t, nil, e.url("/.well-known/oauth-protected-resource/mcp/s3cret")); st != http.StatusNotFound {
				t.Errorf("probe with a secret: %d, want 404", st)
			}
		})
	}
}

// An expired or foreign-audience token gets 401 with the
// metadata pointer.
func TestProtectRefusals(t *testing.T) {
	e := newEnv(t, "")
	_, tok := e.login(ScopeRead)
	if st, _, body := e.callMCP(http.MethodPost, tok.AccessToken); st != 200 || body != "mcp:read" {
		t.Fatalf("valid token: %d %q", st, body)
	}
	// A token this issuer signed for another resource (same store, so the
	// same key and issuer; only the audience differs).
	foreignCfg := e.cfg
	foreignCfg.ResourceURL = "https://elsewhere.example/mcp"
	foreign, err := New(foreignCfg)
	if err != nil {
		t.Fatal(err)
	}
	claims, err := e.srv.parseAccess(tok.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	foreignTok, err := foreign.mint(claims.ClientID, claims.Family, ScopeRead, e.clock.Now())
	foreign.Close()
	if err != nil {
		t.Fatal(err)
	}
	pointer := fmt.Sprintf(`resource_metadata="%s"`, e.url("/.well-known/oauth-protected-resource/mcp"))
	for _, tc := range []struct {
		name, token string
		advance     time.Duration
	}{
		{"foreign audience", foreignTok, 0},
		{"garbage", "not-a-jwt", 0},
		{"expired", tok.AccessToken, AccessTokenTTL + time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.clock.Advance(tc.advance)
			st, hdr, _ := e.callMCP(http.MethodPost, tc.token)
			if st != 401 || !strings.Contains(hdr, pointer) || !strings.Contains(hdr, `error="invalid_token"`) {
				t.Fatalf("%d %q", st, hdr)
			}
		})
	}
}
