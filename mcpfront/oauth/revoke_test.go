package oauth

import (
	"net/http"
	"net/url"
	"testing"
)

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
