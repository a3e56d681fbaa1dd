package oauth

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/cookiejar"
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

// TestResourceCaseInsensitive: a resource whose scheme or host differs from
// ours only in case is ours (RFC 3986 §6.2.2.1), at authorize and at the
// token endpoint; a different path or host is still refused. Before the fix
// HTTP://127.0.0.1:<port>/mcp was refused as invalid_target.
func TestResourceCaseInsensitive(t *testing.T) {
	e := newEnv(t, "")
	ours, _ := url.Parse(e.cfg.ResourceURL)
	tests := []struct {
		name, resource string
		ok             bool
	}{
		{name: "as configured", resource: ours.String(), ok: true},
		{name: "upper-case scheme", resource: "HTTP://" + ours.Host + ours.Path, ok: true},
		{name: "upper-case scheme and host", resource: strings.ToUpper(ours.Scheme+"://"+ours.Host) + ours.Path, ok: true},
		{name: "trailing slash", resource: ours.String() + "/", ok: true},
		{name: "upper-case path", resource: ours.Scheme + "://" + ours.Host + strings.ToUpper(ours.Path), ok: false},
		{name: "other host", resource: ours.Scheme + "://other.example" + ours.Path, ok: false},
		{name: "with a query", resource: ours.String() + "?x=1", ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resourceMatches(strings.TrimSpace(tt.resource), e.cfg.ResourceURL); got != tt.ok {
				t.Errorf("resourceMatches(%q) = %v, want %v", tt.resource, got, tt.ok)
			}
			c := e.registerPublic()
			v, ch := pkce("case")
			jar, _ := cookiejar.New(nil)
			hc := noRedirect(jar)
			q := url.Values{"response_type": {"code"}, "client_id": {c.ClientID}, "redirect_uri": {c.RedirectURIs[0]},
				"code_challenge": {ch}, "code_challenge_method": {"S256"}, "state": {"s"}, "resource": {tt.resource}}
			st, _, body := get(t, hc, e.srv.endpoint("authorize")+"?"+q.Encode())
			if tt.ok != (st == http.StatusOK) || (!tt.ok && !strings.Contains(body, "invalid_target")) {
				t.Fatalf("GET /authorize with resource %q: %d, want accepted %v: %.200s", tt.resource, st, tt.ok, body)
			}
			if !tt.ok {
				return
			}
			code := e.authorize(c, c.RedirectURIs[0], ch, ScopeRead)
			st, tok := e.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {c.ClientID}, "code": {code},
				"code_verifier": {v}, "redirect_uri": {c.RedirectURIs[0]}, "resource": {tt.resource}})
			if st != http.StatusOK || tok.AccessToken == "" {
				t.Errorf("token with resource %q: %d %+v", tt.resource, st, tok)
			}
		})
	}
}

// TestRedirectURIOmitted: a client with one registered redirect URI may
// leave redirect_uri out of the authorization request (OAuth 2.1 §4.1.1);
// the token endpoint then accepts the code without it (or with that one
// URI), and refuses a code whose request named it when the token request
// does not. Before the fix leaving it out at both steps was invalid_grant.
func TestRedirectURIOmitted(t *testing.T) {
	tests := []struct {
		name                 string
		atAuthorize, atToken bool   // whether each step sends redirect_uri
		tokenRedirect        string // "" for the registered one
		ok                   bool
		errWant              string
	}{
		{name: "left out at both", ok: true},
		{name: "given at both", atAuthorize: true, atToken: true, ok: true},
		{name: "left out at authorize, given at token", atToken: true, ok: true},
		{name: "left out at authorize, another at token", atToken: true, tokenRedirect: "https://evil.example/cb", errWant: "invalid_grant"},
		{name: "given at authorize, left out at token", atAuthorize: true, errWant: "invalid_grant"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, "")
			c := e.registerPublic()
			v, ch := pkce("omit")
			redirect := ""
			if tt.atAuthorize {
				redirect = c.RedirectURIs[0]
			}
			cs := e.openConsent(c, redirect, ch, ScopeRead, "st")
			st, h, body := cs.submit(t, "approve", testPassphrase, ScopeRead)
			if st != http.StatusSeeOther {
				t.Fatalf("approve: %d %s", st, body)
			}
			loc, _ := url.Parse(h.Get("Location"))
			if got := loc.Scheme + "://" + loc.Host + loc.Path; got != c.RedirectURIs[0] {
				t.Fatalf("approve redirected to %s, want the registered %s", got, c.RedirectURIs[0])
			}
			form := url.Values{"grant_type": {"authorization_code"}, "client_id": {c.ClientID}, "code": {loc.Query().Get("code")}, "code_verifier": {v}}
			if tt.atToken {
				r := tt.tokenRedirect
				if r == "" {
					r = c.RedirectURIs[0]
				}
				form.Set("redirect_uri", r)
			}
			st, tok := e.token(form)
			if tt.ok && (st != http.StatusOK || tok.AccessToken == "") {
				t.Errorf("token: %d %+v, want tokens", st, tok)
			}
			if !tt.ok && (st != http.StatusBadRequest || tok.Error != tt.errWant) {
				t.Errorf("token: %d %+v, want 400 %s", st, tok, tt.errWant)
			}
		})
	}
}
