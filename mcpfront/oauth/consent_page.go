// The consent page: consent.html renders both the form the owner answers
// and every error page of the authorization endpoint, always under the
// security headers below.

package oauth

import (
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"html/template"
	"net/http"
	"slices"
)

//go:embed consent.html
var consentHTML string

var consentPage = template.Must(template.New("consent").Parse(consentHTML))

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
