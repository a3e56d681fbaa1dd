package oauth

import (
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	_ "embed"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

//go:embed consent.html
var consentHTML string

var consentPage = template.Must(template.New("consent").Parse(consentHTML))

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

// scopeText describes each scope on the consent page.
var scopeText = map[string]string{
	ScopeRead:  "read recipes, meal plans, shopping lists and the pantry",
	ScopeWrite: "change them: create, edit and delete",
}

// consentView is the consent page's data.
type consentView struct {
	Nonce        string
	ClientName   string
	ClientID     string
	RedirectHost string
	Request      string
	CSRF         string
	Scopes       []scopeView
	Error        string
	Issuer       string
}

type scopeView struct {
	Name, Text string
	Checked    bool
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

// securityHeaders are set on every page. The CSP has no form-action: Chromium
// applies it to the redirect after the form post, which would block the
// 303 to the app's callback.
func securityHeaders(w http.ResponseWriter, nonce string) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'nonce-"+nonce+"'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	// same-origin, not no-referrer: under no-referrer a browser sends
	// "Origin: null" with the consent form, which serveConsent's Origin
	// check must refuse (TestBrowserConsent, TestBrowserDeny in
	// integration/e2e/oauth). The redirect to the app's callback is
	// cross-origin, so it still carries no Referer.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/html; charset=utf-8")
}

func (s *Server) renderConsent(w http.ResponseWriter, status int, p *pendingConsent, checked []string, msg string) {
	nonce := base64.RawURLEncoding.EncodeToString([]byte(rand.Text()))
	v := consentView{
		Nonce:        nonce,
		ClientName:   displayName(p.client.Name),
		ClientID:     p.client.ID,
		RedirectHost: redirectHost(p.redirectURI),
		Request:      p.id,
		CSRF:         p.csrf,
		Error:        msg,
		Issuer:       s.issuer,
	}
	if msg == "" {
		checked = p.scopes
	}
	for _, sc := range p.scopes {
		v.Scopes = append(v.Scopes, scopeView{Name: sc, Text: scopeText[sc], Checked: slices.Contains(checked, sc)})
	}
	securityHeaders(w, nonce)
	w.WriteHeader(status)
	consentPage.Execute(w, v)
}

func (s *Server) errorPage(w http.ResponseWriter, status int, msg string) {
	nonce := base64.RawURLEncoding.EncodeToString([]byte(rand.Text()))
	securityHeaders(w, nonce)
	w.WriteHeader(status)
	consentPage.Execute(w, consentView{Nonce: nonce, Error: msg, Issuer: s.issuer})
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

// codeRow is a stored authorization code.
type codeRow struct {
	clientID, redirectURI, challenge, scope string
	expires                                 int64
	used                                    sql.NullInt64
	family                                  sql.NullString
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
