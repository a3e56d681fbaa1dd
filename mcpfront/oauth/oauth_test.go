package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"
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

// Approve answers 303 with code, the original state and iss; Deny
// with access_denied; the CSP names no form-action; the CSRF binding holds.
func TestConsent(t *testing.T) {
	e := newEnv(t, "")
	c := e.registerPublic()
	_, ch := pkce("a")
	cs := e.openConsent(c, c.RedirectURIs[0], ch, "mcp:read mcp:write", "orig-state")
	for _, want := range []string{"Desktop", "127.0.0.1:33418", "mcp:read", "mcp:write"} {
		if !strings.Contains(cs.page, want) {
			t.Errorf("consent page lacks %q", want)
		}
	}
	st, h, _ := cs.submit(t, "approve", testPassphrase, ScopeRead, ScopeWrite)
	if st != http.StatusSeeOther {
		t.Fatalf("approve: %d, want 303", st)
	}
	loc, _ := url.Parse(h.Get("Location"))
	if q := loc.Query(); loc.Host != "127.0.0.1:33418" || loc.Path != "/callback" || q.Get("code") == "" || q.Get("state") != "orig-state" || q.Get("iss") != e.issuer {
		t.Errorf("redirect to %s", loc)
	}
	// The request is spent: a second Approve is refused.
	if st, _, _ := cs.submit(t, "approve", testPassphrase, ScopeRead); st != http.StatusBadRequest {
		t.Errorf("second approve: %d, want 400", st)
	}

	cs = e.openConsent(c, c.RedirectURIs[0], ch, "", "s2")
	st, h, page := get(t, cs.client, cs.action)
	if st != http.StatusOK {
		t.Fatalf("consent page: %d", st)
	}
	if csp := h.Get("Content-Security-Policy"); strings.Contains(csp, "form-action") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP %q", csp)
	}
	// Under no-referrer, by header or meta tag, a browser posts the form
	// with "Origin: null", which the consent handler's Origin check refuses.
	if rp := h.Get("Referrer-Policy"); rp != "same-origin" || strings.Contains(page, "no-referrer") {
		t.Errorf("consent page referrer policy %q (meta: %v), want same-origin: the form would post Origin: null", rp, strings.Contains(page, "no-referrer"))
	}
	for _, ck := range h.Values("Set-Cookie") {
		if strings.Contains(strings.ToLower(ck), "samesite=strict") {
			t.Errorf("cookie %q is SameSite=Strict", ck)
		}
	}
	st, h, _ = cs.submit(t, "deny", "")
	loc, _ = url.Parse(h.Get("Location"))
	if st != http.StatusSeeOther || loc.Query().Get("error") != "access_denied" || loc.Query().Get("state") != "s2" {
		t.Errorf("deny: %d %s", st, loc)
	}

	// Without the cookie, or with a wrong token, the form is refused and
	// the request stays usable.
	cs = e.openConsent(c, c.RedirectURIs[0], ch, "", "s3")
	f := url.Values{"request": {cs.request}, "csrf": {cs.csrf}, "action": {"approve"}, "passphrase": {testPassphrase}, "scope": {ScopeRead}}
	if st, _, _ := postForm(t, noRedirect(nil), cs.action, f); st != http.StatusForbidden {
		t.Errorf("without the cookie: %d, want 403", st)
	}
	f.Set("csrf", "forged")
	if st, _, _ := postForm(t, cs.client, cs.action, f); st != http.StatusForbidden {
		t.Errorf("forged csrf: %d, want 403", st)
	}
	if st, _, _ := cs.submit(t, "approve", testPassphrase, ScopeRead); st != http.StatusSeeOther {
		t.Errorf("the real form after refusals: %d, want 303", st)
	}
}

// Every fault of an authorization request gets an error page, never a
// redirect: with open registration, an error redirect to a registered
// address would make the server an open redirector (RFC 9700 §4.11.2).
// Before that rule the last five cases answered 303 to the client.
func TestAuthorizeRequestErrors(t *testing.T) {
	e := newEnv(t, "")
	c := e.registerPublic()
	_, ch := pkce("b")
	base := url.Values{"response_type": {"code"}, "client_id": {c.ClientID}, "redirect_uri": {c.RedirectURIs[0]},
		"code_challenge": {ch}, "code_challenge_method": {"S256"}, "state": {"x"}}
	for _, tc := range []struct {
		name    string
		set     map[string]string
		status  int
		errCode string
	}{
		{"unknown client", map[string]string{"client_id": "nope"}, 400, ""},
		{"unregistered redirect", map[string]string{"redirect_uri": "https://evil.example/cb"}, 400, ""},
		{"loopback port may vary", map[string]string{"redirect_uri": "http://127.0.0.1:5999/callback"}, 200, ""},
		{"fragment on a loopback redirect", map[string]string{"redirect_uri": "http://127.0.0.1:5999/callback#frag"}, 400, ""},
		{"empty fragment on a loopback redirect", map[string]string{"redirect_uri": "http://127.0.0.1:5999/callback#"}, 400, ""},
		{"plain PKCE", map[string]string{"code_challenge_method": "plain"}, 400, "invalid_request"},
		{"no PKCE", map[string]string{"code_challenge": "", "code_challenge_method": ""}, 400, "invalid_request"},
		{"token response", map[string]string{"response_type": "token"}, 400, "unsupported_response_type"},
		{"foreign resource", map[string]string{"resource": "https://other.example/mcp"}, 400, "invalid_target"},
		{"unknown scope only", map[string]string{"scope": "admin"}, 400, "invalid_scope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := url.Values{}
			for k, v := range base {
				q[k] = v
			}
			for k, v := range tc.set {
				q.Set(k, v)
			}
			st, h, body := get(t, nil, e.srv.endpoint("authorize")+"?"+q.Encode())
			if st != tc.status {
				t.Fatalf("status %d, want %d", st, tc.status)
			}
			if loc := h.Get("Location"); loc != "" {
				t.Errorf("redirected to %s", loc)
			}
			if tc.errCode != "" && !strings.Contains(body, tc.errCode) {
				t.Errorf("the error page does not name %s: %s", tc.errCode, body)
			}
		})
	}
}

// A wrong passphrase is refused and rate-limited.
func TestWrongPassphrase(t *testing.T) {
	e := newEnv(t, "")
	c := e.registerPublic()
	_, ch := pkce("c")
	cs := e.openConsent(c, c.RedirectURIs[0], ch, "", "s")
	for i := 0; i < LoginBurst; i++ {
		st, _, body := cs.submit(t, "approve", "wrong passphrase "+fmt.Sprint(i), ScopeRead)
		if st != http.StatusUnauthorized || !strings.Contains(body, "Wrong passphrase") {
			t.Fatalf("wrong passphrase %d: %d", i, st)
		}
	}
	// Now even the right passphrase is refused until the limiter refills.
	st, h, body := cs.submit(t, "approve", testPassphrase, ScopeRead)
	if st != http.StatusTooManyRequests || h.Get("Location") != "" || !strings.Contains(body, "Too many") {
		t.Fatalf("right passphrase while limited: %d %s", st, h.Get("Location"))
	}
	e.clock.Advance(LoginEvery)
	if st, _, _ := cs.submit(t, "approve", testPassphrase, ScopeRead); st != http.StatusSeeOther {
		t.Fatalf("after the refill: %d, want 303", st)
	}
}

// A code is single-use and bound to its PKCE verifier and
// redirect URI; a replayed code revokes what it granted.
func TestCodeBinding(t *testing.T) {
	e := newEnv(t, "")
	c := e.registerPublic()
	other := e.registerPublic()
	v, ch := pkce("d")
	redirect := c.RedirectURIs[0]
	exchange := func(code, clientID, verifier, redirect string) (int, tokenResult) {
		return e.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {clientID}, "code": {code},
			"code_verifier": {verifier}, "redirect_uri": {redirect}})
	}
	wrongV, _ := pkce("z")
	for _, tc := range []struct {
		name             string
		client, verifier string
		redirect         string
		wantErr          string
	}{
		{"wrong verifier", c.ClientID, wrongV, redirect, "invalid_grant"},
		{"wrong redirect", c.ClientID, v, "http://127.0.0.1:33418/other", "invalid_grant"},
		{"other client", other.ClientID, v, redirect, "invalid_grant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := e.authorize(c, redirect, ch, ScopeRead)
			if st, r := exchange(code, tc.client, tc.verifier, tc.redirect); st != 400 || r.Error != tc.wantErr {
				t.Fatalf("%d %+v", st, r)
			}
			// The failed attempt spent the code.
			if st, r := exchange(code, c.ClientID, v, redirect); st != 400 || r.Error != "invalid_grant" {
				t.Fatalf("the right exchange after a failed one: %d %+v", st, r)
			}
		})
	}
	t.Run("expired", func(t *testing.T) {
		code := e.authorize(c, redirect, ch, ScopeRead)
		e.clock.Advance(CodeTTL + time.Second)
		if st, r := exchange(code, c.ClientID, v, redirect); st != 400 || r.Error != "invalid_grant" {
			t.Fatalf("%d %+v", st, r)
		}
	})
	t.Run("replay revokes", func(t *testing.T) {
		code := e.authorize(c, redirect, ch, ScopeRead)
		st, tok := exchange(code, c.ClientID, v, redirect)
		if st != 200 {
			t.Fatalf("first exchange: %d %+v", st, tok)
		}
		if st, _, _ := e.callMCP(http.MethodPost, tok.AccessToken); st != 200 {
			t.Fatalf("fresh token: %d", st)
		}
		if st, r := exchange(code, c.ClientID, v, redirect); st != 400 || r.Error != "invalid_grant" {
			t.Fatalf("replay: %d %+v", st, r)
		}
		if st, _, _ := e.callMCP(http.MethodPost, tok.AccessToken); st != 401 {
			t.Fatalf("token of a replayed code: %d, want 401", st)
		}
		if st, r := e.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {c.ClientID}, "refresh_token": {tok.RefreshToken}}); st != 400 || r.Error != "invalid_grant" {
			t.Fatalf("refresh of a replayed code: %d %+v", st, r)
		}
	})
}

// claude.ai's client_secret_post, Basic for the same client, public
// clients without a secret, and 401 invalid_client after revocation.
func TestClientAuthentication(t *testing.T) {
	e := newEnv(t, "")
	st, conf := e.register(`{"client_name":"Claude","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"client_secret_post"}`)
	if st != 201 {
		t.Fatal(st)
	}
	v, ch := pkce("e")
	redirect := conf.RedirectURIs[0]
	code := e.authorize(conf, redirect, ch, ScopeRead, ScopeWrite)
	// Without the secret: 401 invalid_client, and the code survives.
	if st, r := e.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {conf.ClientID}, "code": {code}, "code_verifier": {v}, "redirect_uri": {redirect}}); st != 401 || r.Error != "invalid_client" {
		t.Fatalf("no secret: %d %+v", st, r)
	}
	if st, r := e.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {conf.ClientID}, "client_secret": {"wrong"}, "code": {code}, "code_verifier": {v}, "redirect_uri": {redirect}}); st != 401 || r.Error != "invalid_client" {
		t.Fatalf("wrong secret: %d %+v", st, r)
	}
	st, tok := e.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {conf.ClientID}, "client_secret": {conf.ClientSecret}, "code": {code}, "code_verifier": {v}, "redirect_uri": {redirect}})
	if st != 200 || tok.Scope != "mcp:read mcp:write" || tok.RefreshToken == "" || tok.ExpiresIn != int64(AccessTokenTTL/time.Second) {
		t.Fatalf("client_secret_post: %d %+v", st, tok)
	}
	// client_secret_basic works for the same client.
	req, _ := http.NewRequest(http.MethodPost, e.srv.endpoint("token"), strings.NewReader(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(conf.ClientID), url.QueryEscape(conf.ClientSecret))
	if st, _, body := do(t, nil, req); st != 200 {
		t.Fatalf("client_secret_basic refresh: %d %s", st, body)
	}

	clients, err := ListClients(context.Background(), e.cfg.StatePath)
	if err != nil || len(clients) != 1 || clients[0].Name != "Claude" || clients[0].LiveGrants != 1 || clients[0].Scope != "mcp:read mcp:write" {
		t.Fatalf("ListClients: %+v %v", clients, err)
	}
	_, pub := e.login(ScopeRead)
	if err := RevokeClient(context.Background(), e.cfg.StatePath, conf.ClientID); err != nil {
		t.Fatal(err)
	}
	if err := RevokeClient(context.Background(), e.cfg.StatePath, conf.ClientID); err == nil {
		t.Errorf("revoking twice reported no error")
	}
	if st, r := e.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {conf.ClientID}, "client_secret": {conf.ClientSecret}, "refresh_token": {tok.RefreshToken}}); st != 401 || r.Error != "invalid_client" {
		t.Fatalf("refresh by a revoked client: %d %+v, want 401 invalid_client", st, r)
	}
	if st, _, _ := e.callMCP(http.MethodPost, tok.AccessToken); st != 401 {
		t.Errorf("access token of a revoked client: %d, want 401", st)
	}
	if st, body, _ := e.callMCP(http.MethodPost, pub.AccessToken); st != 200 {
		t.Errorf("another client's token after the revocation: %d %s", st, body)
	}
}

// A replayed refresh token revokes its family; parallel
// refreshes inside the grace window all succeed with working tokens, and
// all of it survives a restart.
func TestRefreshRotation(t *testing.T) {
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			e := newEnv(t, "")
			c, tok := e.login(ScopeRead, ScopeWrite)
			refresh := func(rt string) (int, tokenResult) {
				return e.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {c.ClientID}, "refresh_token": {rt}})
			}
			const parallel = 4
			var (
				wg      sync.WaitGroup
				start   = make(chan struct{})
				results [parallel]tokenResult
				codes   [parallel]int
			)
			for i := range parallel {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					codes[i], results[i] = refresh(tok.RefreshToken)
				}()
			}
			close(start)
			wg.Wait()
			seen := map[string]bool{}
			for i := range parallel {
				if codes[i] != 200 || results[i].AccessToken == "" || results[i].RefreshToken == "" {
					t.Fatalf("parallel refresh %d: %d %+v", i, codes[i], results[i])
				}
				seen[results[i].AccessToken] = true
			}
			if len(seen) != parallel {
				t.Fatalf("%d distinct access tokens, want %d", len(seen), parallel)
			}
			if restart {
				e.start()
			}
			for i := range parallel {
				if st, _, _ := e.callMCP(http.MethodPost, results[i].AccessToken); st != 200 {
					t.Fatalf("access token %d from the burst: %d", i, st)
				}
			}
			// The next link of the chain works, then the old token is
			// replayed after the window: the whole family dies.
			st, next := refresh(results[0].RefreshToken)
			if st != 200 {
				t.Fatalf("refresh with the new token: %d %+v", st, next)
			}
			e.clock.Advance(RefreshGrace + time.Second)
			if restart {
				e.start()
			}
			if st, r := refresh(tok.RefreshToken); st != 400 || r.Error != "invalid_grant" {
				t.Fatalf("late replay: %d %+v, want 400 invalid_grant", st, r)
			}
			for _, at := range []string{next.AccessToken, results[1].AccessToken} {
				if st, _, _ := e.callMCP(http.MethodPost, at); st != 401 {
					t.Errorf("access token after the replay: %d, want 401", st)
				}
			}
			if st, r := refresh(next.RefreshToken); st != 400 || r.Error != "invalid_grant" {
				t.Errorf("refresh token of a revoked family: %d %+v", st, r)
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

// RFC 7009: revoking a refresh token kills the grant, access tokens too.
func TestRevoke(t *testing.T) {
	e := newEnv(t, "")
	c, tok := e.login(ScopeRead)
	st, _, _ := postForm(t, nil, e.srv.endpoint("revoke"), url.Values{"client_id": {c.ClientID}, "token": {tok.RefreshToken}})
	if st != 200 {
		t.Fatalf("revoke: %d", st)
	}
	if st, _, _ := e.callMCP(http.MethodGet, tok.AccessToken); st != 401 {
		t.Errorf("access token after revocation: %d", st)
	}
	if st, _, _ := postForm(t, nil, e.srv.endpoint("revoke"), url.Values{"client_id": {c.ClientID}, "token": {"unknown"}}); st != 200 {
		t.Errorf("unknown token: %d, want 200", st)
	}
	if st, _, _ := postForm(t, nil, e.srv.endpoint("revoke"), url.Values{"client_id": {"nobody"}, "token": {"x"}}); st != 401 {
		t.Errorf("unknown client: %d, want 401", st)
	}
}

func TestPassphraseFile(t *testing.T) {
	h, err := HashPassphrase(testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	p, err := parsePHC(h)
	if err != nil {
		t.Fatal(err)
	}
	if !p.check(testPassphrase) || p.check(testPassphrase+" ") {
		t.Fatal("hash check is wrong")
	}
	if _, err := HashPassphrase("short"); err == nil {
		t.Error("a short passphrase was accepted")
	}
	for _, bad := range []string{"$argon2id$v=19$m=0,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "$argon2i$v=19$m=1,t=1,p=1$x$y", "$argon2id$v=19$m=65536,t=3,p=4$!!$!!"} {
		if _, err := parsePHC(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	e := newEnv(t, "")
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"http issuer off loopback", func(c *Config) { c.Issuer = "http://kitchen.example.org" }},
		{"no passphrase file", func(c *Config) { c.PassphraseFile = "" }},
		{"missing passphrase file", func(c *Config) { c.PassphraseFile = c.StatePath + ".missing" }},
		{"no state path", func(c *Config) { c.StatePath = "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := e.cfg
			tc.edit(&cfg)
			if s, err := New(cfg); err == nil {
				s.Close()
				t.Fatal("accepted")
			}
		})
	}
}
