package oauth

import (
	"net/url"
	"strings"
	"testing"
)

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
