// The owner's answer to the consent page: the form POST with its Origin and
// CSRF checks, the wrong-passphrase limits, and the authorization code it
// issues with the 303 back to the client.

package oauth

import (
	"crypto/rand"
	"crypto/subtle"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// serveConsent handles the consent form: Deny, or Approve with the owner's
// passphrase. Success answers 303 to the redirect URI (never 307, which
// would re-POST to the client's callback). The CSRF binding is spent
// only on success; a wrong passphrase re-renders the same page.
func (s *Server) serveConsent(w http.ResponseWriter, r *http.Request) {
	// A second line behind the SameSite cookie and the CSRF token: a
	// browser names the page a form was posted from, and only the consent
	// page, served under the OAuth issuer, posts here.
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, s.issuer) {
		s.log.Warn("refused a consent form from another origin", "origin", o)
		s.errorPage(w, http.StatusForbidden, "This form was not sent from the consent page. Start the connection again from the app.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBody)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusBadRequest, "The form could not be read.")
		return
	}
	id := r.PostForm.Get("request")
	now := s.now()
	s.mu.Lock()
	p := s.pending[id]
	if p != nil && now.After(p.expires) {
		delete(s.pending, id)
		p = nil
	}
	s.mu.Unlock()
	if p == nil {
		s.errorPage(w, http.StatusBadRequest, "This consent page has expired. Start the connection again from the app.")
		return
	}
	ck, err := r.Cookie(consentCookie(p.id))
	if err != nil || subtle.ConstantTimeCompare([]byte(ck.Value), []byte(p.cookie)) != 1 ||
		subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(p.csrf)) != 1 {
		s.log.Warn("refused a consent form without its CSRF binding", "client_id", p.client.ID)
		s.errorPage(w, http.StatusForbidden, "This form was not sent from the consent page. Start the connection again from the app.")
		return
	}
	if r.PostForm.Get("action") == "deny" {
		if s.takePending(id) {
			s.log.Info("owner denied an OAuth client", "client_id", p.client.ID)
			s.redirect(w, r, p.redirectURI, url.Values{"error": {"access_denied"}, "error_description": {"the owner denied access"}}, p.state)
			return
		}
		s.errorPage(w, http.StatusBadRequest, "This consent page was already answered.")
		return
	}
	var granted []string
	for _, sc := range p.scopes {
		if slices.Contains(r.PostForm["scope"], sc) {
			granted = append(granted, sc)
		}
	}
	addr := addrKey(r)
	s.mu.Lock()
	limited := s.loginLimited(addr, p.client.ID, now)
	s.mu.Unlock()
	if limited != "" {
		s.log.Warn("refused a consent while wrong passphrases are rate-limited", "client_id", p.client.ID, "limit", limited)
		w.Header().Set("Retry-After", "60")
		s.renderConsent(w, http.StatusTooManyRequests, p, granted, loginLimitText[limited])
		return
	}
	if !s.pass.check(r.PostForm.Get("passphrase")) {
		s.mu.Lock()
		s.loginByAddr.spend(addr, now)
		s.loginByClient.spend(p.client.ID, now)
		s.loginGlobal.AllowN(now, 1)
		s.mu.Unlock()
		s.log.Warn("wrong OAuth passphrase on the consent page", "client_id", p.client.ID)
		s.renderConsent(w, http.StatusUnauthorized, p, granted, "Wrong passphrase.")
		return
	}
	if len(granted) == 0 {
		s.renderConsent(w, http.StatusBadRequest, p, granted, "Choose at least one permission, or Deny.")
		return
	}
	if !s.takePending(id) {
		s.errorPage(w, http.StatusBadRequest, "This consent page was already answered.")
		return
	}
	code := rand.Text()
	_, err = s.st.db.ExecContext(r.Context(), `INSERT INTO codes(hash, client_id, redirect_uri, challenge, scope, expires_at) VALUES(?,?,?,?,?,?)`,
		hashSecret(code), p.client.ID, p.redirectGiven, p.challenge, strings.Join(granted, " "), ms(now.Add(CodeTTL)))
	if err != nil {
		s.log.Error("storing an authorization code", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "The authorization server could not store the grant.")
		return
	}
	s.log.Info("owner approved an OAuth client", "client_id", p.client.ID, "name", p.client.Name, "scope", strings.Join(granted, " "))
	s.redirect(w, r, p.redirectURI, url.Values{"code": {code}}, p.state)
}

// loginLimitText words each wrong-passphrase limit for the consent page.
var loginLimitText = map[string]string{
	"address": "Too many wrong passphrases from this network. Wait a few minutes, then try again.",
	"client":  "Too many wrong passphrases for this app. Wait a few minutes, or remove the connection in the app and add it again.",
	"global":  "Too many wrong passphrases. Wait a few minutes, then try again.",
}

// loginLimited names the wrong-passphrase limit that is exhausted for a
// consent from addr for clientID ("address", "client" or "global"), or ""
// when none is. While one is, every attempt it covers is refused, right or
// wrong, so a guesser learns nothing past it. The caller holds s.mu.
func (s *Server) loginLimited(addr, clientID string, now time.Time) string {
	switch {
	case s.loginByAddr.empty(addr, now):
		return "address"
	case s.loginByClient.empty(clientID, now):
		return "client"
	case s.loginGlobal.TokensAt(now) < 1:
		return "global"
	}
	return ""
}

// takePending removes a pending request; false if another answer won.
func (s *Server) takePending(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.pending[id]
	delete(s.pending, id)
	return ok
}

// redirect answers 303 See Other to target with params, state and iss
// (RFC 9207) added to its query.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, target string, params url.Values, state string) {
	u, _ := url.Parse(target)
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	if state != "" {
		q.Set("state", state)
	}
	q.Set("iss", s.issuer)
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// sameOrigin reports whether an Origin header names the OAuth issuer's origin
// (scheme and host, port included). "null", sent by sandboxed and opaque
// origins, never matches.
func sameOrigin(origin, issuer string) bool {
	o, err := url.Parse(origin)
	if err != nil || o.Host == "" {
		return false
	}
	i, err := url.Parse(issuer)
	if err != nil {
		return false
	}
	return strings.EqualFold(o.Scheme, i.Scheme) && strings.EqualFold(o.Host, i.Host)
}
