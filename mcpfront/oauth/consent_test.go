package oauth

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

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
