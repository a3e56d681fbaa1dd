package oauth

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestVerifierAlphabet: a code verifier is accepted only in RFC 7636 §4.1's
// form, even when its hash matches the challenge. Before the check the
// "!+ " verifier was accepted.
func TestVerifierAlphabet(t *testing.T) {
	tests := []struct {
		name     string
		verifier string
		ok       bool
	}{
		{name: "unreserved, 43", verifier: strings.Repeat("aZ0-._~", 7)[:43], ok: true},
		{name: "unreserved, 128", verifier: strings.Repeat("x", 128), ok: true},
		{name: "punctuation and a space", verifier: strings.Repeat("a", 40) + "!+ ", ok: false},
		{name: "non-ASCII", verifier: strings.Repeat("a", 42) + "é", ok: false},
		{name: "42 characters", verifier: strings.Repeat("a", 42), ok: false},
		{name: "129 characters", verifier: strings.Repeat("a", 129), ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, "")
			c := e.registerPublic()
			sum := sha256.Sum256([]byte(tt.verifier))
			code := e.authorize(c, c.RedirectURIs[0], base64.RawURLEncoding.EncodeToString(sum[:]), ScopeRead)
			st, tok := e.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {c.ClientID}, "code": {code},
				"code_verifier": {tt.verifier}, "redirect_uri": {c.RedirectURIs[0]}})
			if got := st == http.StatusOK && tok.AccessToken != ""; got != tt.ok {
				t.Errorf("exchange with verifier %q: %d %+v, want accepted %v", tt.verifier, st, tok, tt.ok)
			}
		})
	}
}

// TestConsentShowsWhatItIs: the consent page shows a redirect host in
// punycode, so a Cyrillic "а" cannot pass for claude.ai, and client names
// without format characters (a right-to-left override can turn a name
// around). Before the fix the page showed "clаude.ai" and kept U+202E.
func TestConsentShowsWhatItIs(t *testing.T) {
	tests := []struct {
		name, clientName, redirect string
		want, notWant              []string
	}{
		{
			name: "homograph host", clientName: "Claude", redirect: "https://cl\u0430ude.ai/api/mcp/auth_callback",
			want: []string{"xn--clude-"}, notWant: []string{"cl\u0430ude.ai"},
		},
		{
			name: "bidi override in the name", clientName: "Claude\u202e\u2066 evil\u2069", redirect: "https://claude.ai/api/mcp/auth_callback",
			want: []string{"Claude evil"}, notWant: []string{"\u202e", "\u2066", "\u2069"},
		},
		{
			name: "zero-width joiner in the name", clientName: "Cla\u200dude", redirect: "https://claude.ai/cb",
			want: []string{"Claude"}, notWant: []string{"\u200d"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, "")
			st, c := e.register(`{"client_name":"` + tt.clientName + `","redirect_uris":["` + tt.redirect + `"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none"}`)
			if st != http.StatusCreated {
				t.Fatalf("register: %d", st)
			}
			_, ch := pkce("h")
			cs := e.openConsent(c, tt.redirect, ch, "", "s")
			for _, w := range tt.want {
				if !strings.Contains(cs.page, w) {
					t.Errorf("the consent page lacks %q", w)
				}
			}
			for _, n := range tt.notWant {
				if strings.Contains(cs.page, n) {
					t.Errorf("the consent page shows %q", n)
				}
			}
		})
	}
}

// TestDisplayNameOfStoredClient: a name stored before registration dropped
// format characters is cleaned where it is shown.
func TestDisplayNameOfStoredClient(t *testing.T) {
	if got := displayName("Cl\u200baude\u202e"); got != "Claude" {
		t.Errorf("displayName = %q, want %q", got, "Claude")
	}
	if got := redirectHost("http://b\u00fccher.example:8080/cb"); got != "xn--bcher-kva.example:8080" {
		t.Errorf("redirectHost = %q", got)
	}
}

// TestConsentOrigin: a consent form posted from another origin is refused
// even with its cookie and CSRF token; one from the OAuth issuer's origin, or
// from a client that sends no Origin, is taken. Before the check the
// foreign post was approved.
func TestConsentOrigin(t *testing.T) {
	tests := []struct {
		name, origin string
		status       int
	}{
		{name: "foreign", origin: "https://evil.example", status: http.StatusForbidden},
		{name: "opaque", origin: "null", status: http.StatusForbidden},
		{name: "issuer's", origin: "SAME", status: http.StatusSeeOther},
		{name: "none", origin: "", status: http.StatusSeeOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, "")
			c := e.registerPublic()
			_, ch := pkce("o")
			cs := e.openConsent(c, c.RedirectURIs[0], ch, "", "s")
			origin := tt.origin
			if origin == "SAME" {
				u, _ := url.Parse(e.srv.Issuer())
				origin = u.Scheme + "://" + u.Host
			}
			f := url.Values{"request": {cs.request}, "csrf": {cs.csrf}, "action": {"approve"}, "passphrase": {testPassphrase}, "scope": {ScopeRead}}
			req, _ := http.NewRequest(http.MethodPost, cs.action, strings.NewReader(f.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if origin != "" {
				req.Header.Set("Origin", origin)
			}
			st, h, body := do(t, cs.client, req)
			if st != tt.status {
				t.Errorf("consent post with Origin %q: %d, want %d (%s %s)", origin, st, tt.status, h.Get("Location"), body)
			}
		})
	}
}
