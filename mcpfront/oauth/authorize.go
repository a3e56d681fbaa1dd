// The authorization endpoint: checking an authorization request (client,
// redirect URI, PKCE, resource, scope) and holding it as a pending consent
// until the owner answers it (consent.go).

package oauth

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// pendingConsent is an authorization request waiting for the owner's
// answer. It lives in memory: a restart mid-consent just means starting the
// connection again.
type pendingConsent struct {
	id          string
	csrf        string // hidden form field
	cookie      string // cookie value, bound to this request
	client      *client
	redirectURI string
	// redirectGiven is the redirect_uri the request carried, "" when it
	// left it out (allowed with one registered URI, OAuth 2.1 §4.1.1):
	// the code stores it, and the token endpoint wants it back as given
	// (see exchangeCode).
	redirectGiven string
	state         string
	challenge     string
	scopes        []string
	expires       time.Time
	addr          string // addrKey of the request that opened it
	seq           uint64 // opening order, to find an address's oldest
}

// pkceChallengeLen is the length of a base64url SHA-256 (RFC 7636 §4.2).
const pkceChallengeLen = 43

// maxState caps the client's opaque state echoed back in the redirect.
const maxState = 1024

// serveAuthorize validates an authorization request and shows the consent
// page. An unknown client or redirect URI is shown as an error page and
// never redirected to (RFC 6749 §4.1.2.1); so is every other fault (see
// fail).
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	c, ok, err := s.loadClient(r.Context(), q.Get("client_id"))
	if err != nil {
		s.log.Error("reading an OAuth client", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "The authorization server could not read its store.")
		return
	}
	if !ok {
		s.errorPage(w, http.StatusBadRequest, "This app is not registered here (or was revoked). Remove the connection in the app and add it again.")
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" && len(c.Reg.RedirectURIs) == 1 {
		redirect = c.Reg.RedirectURIs[0]
	}
	if !redirectMatches(c.Reg.RedirectURIs, redirect) {
		s.errorPage(w, http.StatusBadRequest, "The app asked to return to an address it did not register.")
		return
	}
	state := q.Get("state")
	// A faulty request is answered with an error page, not an error
	// redirect: registration is open, so anyone can register a client with
	// an https address of theirs and send a victim a deliberately broken
	// request for the server to bounce them to it (RFC 9700 §4.11.2, an
	// open redirector). The only redirect left is the owner's answer on
	// the consent page.
	fail := func(code, desc string) {
		s.log.Warn("refused an authorization request", "client_id", c.ID, "error", code, "reason", desc)
		s.errorPage(w, http.StatusBadRequest, "The app sent an authorization request this server cannot accept ("+code+": "+desc+"). Tell the app's developer, or remove the connection in the app and add it again.")
	}
	switch {
	case len(state) > maxState:
		fail("invalid_request", "state is too long")
		return
	case q.Get("response_type") != "code":
		fail("unsupported_response_type", "only response_type=code is supported")
		return
	case q.Get("code_challenge_method") != "S256":
		fail("invalid_request", "PKCE with code_challenge_method=S256 is required")
		return
	case !validChallenge(q.Get("code_challenge")):
		fail("invalid_request", "code_challenge must be a base64url SHA-256")
		return
	}
	if res := q.Get("resource"); res != "" && !resourceMatches(res, s.resource) {
		fail("invalid_target", "this server grants access to "+s.resource+" only")
		return
	}
	requested := q.Get("scope")
	if requested == "" {
		requested = c.Reg.Scope
	}
	scopes, _ := scopeList(requested)
	if requested == "" {
		scopes = allScopes
	}
	if len(scopes) == 0 {
		fail("invalid_scope", "request mcp:read and/or mcp:write")
		return
	}
	p := &pendingConsent{
		id:            rand.Text(),
		csrf:          rand.Text(),
		cookie:        rand.Text(),
		client:        c,
		redirectURI:   redirect,
		redirectGiven: q.Get("redirect_uri"),
		state:         state,
		challenge:     q.Get("code_challenge"),
		scopes:        scopes,
		expires:       s.now().Add(ConsentTTL),
		addr:          addrKey(r),
	}
	if msg := s.addPending(p); msg != "" {
		s.log.Warn("refused a consent page", "client_id", c.ID, "reason", msg)
		s.errorPage(w, http.StatusServiceUnavailable, msg)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name:     consentCookie(p.id),
		Value:    p.cookie,
		Path:     "/",
		MaxAge:   int(ConsentTTL / time.Second),
		HttpOnly: true,
		Secure:   s.secureCookie,
		// Lax, not Strict: the page is reached by a cross-site navigation
		// from the app; the POST is same-site anyway.
		SameSite: http.SameSiteLaxMode,
	})
	s.renderConsent(w, http.StatusOK, p, p.scopes, "")
}

// consentCookie names the cookie of one consent request, so two open
// consent tabs do not overwrite each other's CSRF binding.
func consentCookie(id string) string { return "sous_consent_" + id[:10] }

// addPending stores p, dropping expired requests first. An address at
// MaxPendingPerAddress loses its own oldest request; a client at
// MaxPendingPerClient, or the server at MaxPendingConsents, is refused
// with the returned sentence ("" when p was stored).
func (s *Server) addPending(p *pendingConsent) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var fromAddr, forClient int
	var oldest *pendingConsent
	for id, q := range s.pending {
		if now.After(q.expires) {
			delete(s.pending, id)
			continue
		}
		if q.client.ID == p.client.ID {
			forClient++
		}
		if q.addr == p.addr {
			fromAddr++
			if oldest == nil || q.seq < oldest.seq {
				oldest = q
			}
		}
	}
	evict := fromAddr >= MaxPendingPerAddress && oldest != nil
	if evict && oldest.client.ID == p.client.ID {
		forClient--
	}
	switch {
	case forClient >= MaxPendingPerClient:
		return "Too many consent pages are open for this app. Answer or close them, or try again in a few minutes."
	case evict:
		delete(s.pending, oldest.id)
	case len(s.pending) >= MaxPendingConsents:
		return "Too many consent pages are open. Close some and try again in a few minutes."
	}
	s.pendingSeq++
	p.seq = s.pendingSeq
	s.pending[p.id] = p
	return ""
}

// validChallenge checks a PKCE S256 challenge's shape.
func validChallenge(c string) bool {
	if len(c) != pkceChallengeLen {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(c)
	return err == nil
}

// resourceMatches compares an RFC 8707 resource parameter with ours. Scheme
// and host compare case-insensitively, as RFC 3986 §6.2.2.1 makes them
// (HTTP://127.0.0.1:8080/mcp is our resource); the rest compares exactly,
// tolerating only a trailing slash (clients differ).
func resourceMatches(presented, ours string) bool {
	presented = strings.TrimSuffix(presented, "/")
	if presented == ours {
		return true
	}
	p, err := url.Parse(presented)
	if err != nil {
		return false
	}
	o, err := url.Parse(ours)
	if err != nil {
		return false
	}
	return strings.EqualFold(p.Scheme, o.Scheme) && strings.EqualFold(p.Host, o.Host) &&
		p.User == nil && o.User == nil && p.EscapedPath() == o.EscapedPath() &&
		p.RawQuery == o.RawQuery && p.Fragment == o.Fragment && !p.ForceQuery
}
