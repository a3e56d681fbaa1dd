package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/mcpfront/oauth/oauthtest"
)

// testPassphrase is the owner passphrase of every test server.
const testPassphrase = "correct horse battery staple"

// env is a running authorization server plus a protected /mcp endpoint that
// answers 200 with the granted scopes.
type env struct {
	t      *testing.T
	srv    *Server
	http   *httptest.Server
	clock  *oauthtest.Clock
	cfg    Config
	mux    *http.ServeMux
	issuer string
}

// newEnv starts a server on 127.0.0.1. issuerPath is "" or "/sous".
func newEnv(t *testing.T, issuerPath string) *env {
	t.Helper()
	dir := t.TempDir()
	pf := filepath.Join(dir, "passphrase")
	if err := os.WriteFile(pf, []byte(testPassphrase+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, clock: oauthtest.NewClock(time.Now().Truncate(time.Second))}
	e.issuer = "http://" + ln.Addr().String() + issuerPath
	e.cfg = Config{
		Issuer:         e.issuer,
		ResourceURL:    "http://" + ln.Addr().String() + "/mcp",
		PassphraseFile: pf,
		StatePath:      filepath.Join(dir, "oauth.sqlite"),
		Now:            e.clock.Now,
	}
	e.http = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := r.Header.Get(testRemoteAddr); a != "" {
			r.RemoteAddr = a
		}
		e.mux.ServeHTTP(w, r)
	}))
	e.http.Listener.Close()
	e.http.Listener = ln
	e.start()
	e.http.Start()
	t.Cleanup(func() {
		e.http.Close()
		e.srv.Close()
	})
	return e
}

// start (re)creates the Server over the same store: a restart.
func (e *env) start() {
	e.t.Helper()
	if e.srv != nil {
		e.srv.Close()
	}
	srv, err := New(e.cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	mux := http.NewServeMux()
	srv.Routes(mux)
	mcp := srv.Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Join(ScopesFrom(r.Context()), " "))
	}))
	mux.Handle("/mcp", mcp)
	mux.Handle("/mcp/", mcp)
	e.srv, e.mux = srv, mux
}

func (e *env) url(p string) string { return "http://" + e.http.Listener.Addr().String() + p }

// noRedirect is a client that reports redirects instead of following them.
func noRedirect(jar http.CookieJar) *http.Client {
	return &http.Client{
		Jar:           jar,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// do sends a request and returns status, headers and body.
func do(t *testing.T, c *http.Client, req *http.Request) (int, http.Header, string) {
	t.Helper()
	if c == nil {
		c = noRedirect(nil)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func get(t *testing.T, c *http.Client, u string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	return do(t, c, req)
}

func postForm(t *testing.T, c *http.Client, u string, form url.Values) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return do(t, c, req)
}

// regResult is the part of a registration answer tests use.
type regResult struct {
	ClientID              string   `json:"client_id"`
	ClientSecret          string   `json:"client_secret"`
	ClientSecretExpiresAt *int64   `json:"client_secret_expires_at"`
	TokenEndpointAuth     string   `json:"token_endpoint_auth_method"`
	RedirectURIs          []string `json:"redirect_uris"`
	GrantTypes            []string `json:"grant_types"`
	ResponseTypes         []string `json:"response_types"`
	ClientName            string   `json:"client_name"`
	Error                 string   `json:"error"`
}

func (e *env) register(body string) (int, regResult) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.url("/register"), strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	st, _, b := do(e.t, nil, req)
	var r regResult
	json.Unmarshal([]byte(b), &r)
	return st, r
}

// registerPublic registers a desktop-style public client with a loopback
// callback.
func (e *env) registerPublic() regResult {
	e.t.Helper()
	st, r := e.register(`{"client_name":"Desktop","redirect_uris":["http://127.0.0.1:33418/callback"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none"}`)
	if st != http.StatusCreated {
		e.t.Fatalf("register: %d %+v", st, r)
	}
	return r
}

// pkce returns a verifier and its S256 challenge.
func pkce(base string) (verifier, challenge string) {
	verifier = strings.Repeat(base, 64)[:64]
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// consent is an opened consent page.
type consent struct {
	client  *http.Client
	action  string
	request string
	csrf    string
	page    string
}

// testRemoteAddr is a request header the test server turns into the
// request's RemoteAddr, so one test can play callers at several network
// addresses; the server under test never sees the header.
const testRemoteAddr = "X-Sous-Test-Remote-Addr"

// fromAddr sends every request as if from addr ("host:port").
type fromAddr string

func (f fromAddr) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(testRemoteAddr, string(f))
	return http.DefaultTransport.RoundTrip(r)
}

// openConsent GETs /authorize for client c and returns the consent form.
func (e *env) openConsent(c regResult, redirect, challenge, scope, state string) *consent {
	e.t.Helper()
	cs, st, body := e.tryConsentFrom("", c, redirect, challenge, scope, state)
	if st != http.StatusOK {
		e.t.Fatalf("GET /authorize: %d %s", st, body)
	}
	return cs
}

// tryConsentFrom GETs /authorize for client c as if from addr ("" is the
// test's own loopback address) and returns the consent form, or nil with
// the status and page when there is none.
func (e *env) tryConsentFrom(addr string, c regResult, redirect, challenge, scope, state string) (*consent, int, string) {
	e.t.Helper()
	jar, _ := cookiejar.New(nil)
	hc := noRedirect(jar)
	if addr != "" {
		hc.Transport = fromAddr(addr)
	}
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {c.ClientID},
		"redirect_uri":          {redirect},
		"code_challenge":        {challenge},
		"code_challenge_method": {"S256"},
		"state":                 {state},
		"resource":              {e.cfg.ResourceURL},
	}
	if scope != "" {
		q.Set("scope", scope)
	}
	u := e.srv.endpoint("authorize") + "?" + q.Encode()
	st, _, body := get(e.t, hc, u)
	if st != http.StatusOK {
		return nil, st, body
	}
	request, csrf, ok := oauthtest.ConsentForm(body)
	if !ok {
		e.t.Fatalf("consent page without its form: %s", body)
	}
	return &consent{client: hc, action: u, request: request, csrf: csrf, page: body}, st, body
}

// submit posts the consent form.
func (cs *consent) submit(t *testing.T, action, pass string, scopes ...string) (int, http.Header, string) {
	t.Helper()
	f := url.Values{"request": {cs.request}, "csrf": {cs.csrf}, "action": {action}, "passphrase": {pass}, "scope": scopes}
	return postForm(t, cs.client, cs.action, f)
}

// authorize runs the consent and returns the code.
func (e *env) authorize(c regResult, redirect, challenge string, scopes ...string) string {
	e.t.Helper()
	cs := e.openConsent(c, redirect, challenge, strings.Join(scopes, " "), "st-1")
	st, h, body := cs.submit(e.t, "approve", testPassphrase, scopes...)
	if st != http.StatusSeeOther {
		e.t.Fatalf("approve: %d %s", st, body)
	}
	loc, _ := url.Parse(h.Get("Location"))
	code := loc.Query().Get("code")
	if code == "" {
		e.t.Fatalf("approve redirected without a code: %s", loc)
	}
	return code
}

// tokenResult is a /token answer.
type tokenResult struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
	ExpiresIn    int64  `json:"expires_in"`
	Error        string `json:"error"`
}

func (e *env) token(form url.Values) (int, tokenResult) {
	e.t.Helper()
	st, _, body := postForm(e.t, nil, e.srv.endpoint("token"), form)
	var r tokenResult
	json.Unmarshal([]byte(body), &r)
	return st, r
}

// login registers a public client and runs the whole flow to tokens.
func (e *env) login(scopes ...string) (regResult, tokenResult) {
	e.t.Helper()
	c := e.registerPublic()
	v, ch := pkce("v")
	code := e.authorize(c, c.RedirectURIs[0], ch, scopes...)
	st, tok := e.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {c.ClientID}, "code": {code},
		"code_verifier": {v}, "redirect_uri": {c.RedirectURIs[0]}})
	if st != http.StatusOK {
		e.t.Fatalf("code exchange: %d %+v", st, tok)
	}
	return c, tok
}

// callMCP calls the protected endpoint with token and returns the status,
// the WWW-Authenticate header and the body.
func (e *env) callMCP(method, token string) (int, string, string) {
	e.t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), method, e.url("/mcp"), nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	st, h, body := do(e.t, nil, req)
	return st, h.Get("WWW-Authenticate"), body
}
