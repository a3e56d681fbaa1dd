package oauth

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// The registration shapes of claude.ai, Desktop and Claude Code, and
// what must be refused.
func TestRegister(t *testing.T) {
	e := newEnv(t, "")
	for _, tc := range []struct {
		name       string
		body       string
		status     int
		errCode    string
		wantSecret bool
		method     string
	}{
		{"claude.ai", `{"client_name":"Claude","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"client_secret_post"}`,
			201, "", true, "client_secret_post"},
		{"claude.com callback", `{"client_name":"Claude","redirect_uris":["https://claude.com/api/mcp/auth_callback"],"token_endpoint_auth_method":"client_secret_post"}`,
			201, "", true, "client_secret_post"},
		{"desktop none", `{"client_name":"Claude Code","redirect_uris":["http://localhost/callback"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none"}`,
			201, "", false, "none"},
		{"ipv6 loopback", `{"redirect_uris":["http://[::1]:5000/cb"],"token_endpoint_auth_method":"none"}`, 201, "", false, "none"},
		{"default method is basic", `{"redirect_uris":["https://app.example/cb"]}`, 201, "", true, "client_secret_basic"},
		{"http off loopback", `{"redirect_uris":["http://evil.example/cb"],"token_endpoint_auth_method":"none"}`, 400, "invalid_redirect_uri", false, ""},
		{"custom scheme", `{"redirect_uris":["myapp://cb"],"token_endpoint_auth_method":"none"}`, 400, "invalid_redirect_uri", false, ""},
		{"fragment", `{"redirect_uris":["https://app.example/cb#x"]}`, 400, "invalid_redirect_uri", false, ""},
		{"no redirect", `{"client_name":"x"}`, 400, "invalid_redirect_uri", false, ""},
		{"private_key_jwt", `{"redirect_uris":["https://app.example/cb"],"token_endpoint_auth_method":"private_key_jwt"}`, 400, "invalid_client_metadata", false, ""},
		{"implicit grant", `{"redirect_uris":["https://app.example/cb"],"grant_types":["implicit"]}`, 400, "invalid_client_metadata", false, ""},
		{"token response type", `{"redirect_uris":["https://app.example/cb"],"response_types":["token"]}`, 400, "invalid_client_metadata", false, ""},
		{"not json", `redirect_uris=https://app.example/cb`, 400, "invalid_client_metadata", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, r := e.register(tc.body)
			if st != tc.status || r.Error != tc.errCode {
				t.Fatalf("status %d error %q, want %d %q", st, r.Error, tc.status, tc.errCode)
			}
			if st != 201 {
				return
			}
			if (r.ClientSecret != "") != tc.wantSecret || r.TokenEndpointAuth != tc.method || r.ClientID == "" {
				t.Errorf("got %+v", r)
			}
			if tc.wantSecret && (r.ClientSecretExpiresAt == nil || *r.ClientSecretExpiresAt != 0) {
				t.Errorf("client_secret_expires_at = %v, want 0", r.ClientSecretExpiresAt)
			}
			if !slices.Contains(r.ResponseTypes, "code") || !slices.Contains(r.GrantTypes, "authorization_code") || len(r.RedirectURIs) == 0 {
				t.Errorf("metadata not echoed: %+v", r)
			}
		})
	}
}

func TestRegisterRateLimit(t *testing.T) {
	e := newEnv(t, "")
	body := `{"redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"none"}`
	for i := 0; i < RegisterBurst; i++ {
		if st, r := e.register(body); st != 201 {
			t.Fatalf("registration %d: %d %+v", i, st, r)
		}
	}
	if st, _ := e.register(body); st != http.StatusTooManyRequests {
		t.Fatalf("registration past the burst: %d, want 429", st)
	}
	e.clock.Advance(RegisterEvery)
	if st, _ := e.register(body); st != 201 {
		t.Fatalf("after the refill: %d", st)
	}
}

func TestRegisterCapEvictsUnusedClients(t *testing.T) {
	e := newEnv(t, "")
	// The cap, not the rate, is under test.
	e.srv.regByAddr = newKeyedLimiter(RegisterEvery, 2*MaxClients)
	e.srv.regGlobal = rate.NewLimiter(rate.Inf, 0)
	live, _ := e.login(ScopeRead)
	body := `{"redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"none"}`
	var first string
	for i := 1; i < MaxClients+5; i++ {
		e.clock.Advance(time.Millisecond) // distinct creation times
		st, r := e.register(body)
		if st != 201 {
			t.Fatalf("registration %d: %d %+v", i, st, r)
		}
		if first == "" {
			first = r.ClientID
		}
	}
	clients, err := ListClients(context.Background(), e.cfg.StatePath)
	if err != nil {
		t.Fatal(err)
	}
	if len(clients) != MaxClients {
		t.Fatalf("%d clients stored, want the cap %d", len(clients), MaxClients)
	}
	var ids []string
	for _, c := range clients {
		ids = append(ids, c.ID)
	}
	if !slices.Contains(ids, live.ClientID) {
		t.Errorf("the client holding a live grant was evicted")
	}
	if slices.Contains(ids, first) {
		t.Errorf("the oldest unused client was kept")
	}
}
