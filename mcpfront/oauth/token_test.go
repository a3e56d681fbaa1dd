package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

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
