// Package oauth is sous's single-user OAuth 2.1 authorization server and the
// resource-server side of the MCP endpoint.
//
// claude.ai's custom connectors authenticate a remote MCP server with OAuth or
// not at all (they cannot send a static bearer header), so a homelab owner
// who wants revocable, per-client access needs an authorization server. This
// package is that server, for exactly one user: the owner, who proves who
// they are with a passphrase on a server-rendered consent page. It serves
//
//   - RFC 9728 protected-resource metadata and RFC 8414 authorization-server
//     metadata, where claude.ai and Claude Desktop look for them
//     (docs/clients.md, "OAuth");
//   - RFC 7591 dynamic client registration honouring the requested
//     token_endpoint_auth_method;
//   - the authorization-code grant with PKCE S256 only, answered by a consent
//     page whose Approve is a 303 redirect;
//   - access tokens (EdDSA-signed JWTs bound to the MCP resource URL) and
//     rotating refresh tokens with reuse detection and a grace window for
//     parallel refreshes (TestRefreshRotation in token_test.go);
//   - RFC 7009 revocation.
//
// State (clients, grant families, codes, refresh tokens and the signing key)
// lives in one SQLite file, so restarts keep every grant.
package oauth

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Scopes granted by this server. mcp:read allows the read-only tools (those
// annotated ReadOnlyHint); mcp:write adds every other tool.
const (
	ScopeRead  = "mcp:read"
	ScopeWrite = "mcp:write"
)

// allScopes is the order scopes are advertised and displayed in.
var allScopes = []string{ScopeRead, ScopeWrite}

const (
	// AccessTokenTTL is how long an access token is accepted. Short, so a
	// leaked token is worth little; clients refresh silently, and the grace
	// window below keeps their parallel refreshes from killing the grant.
	AccessTokenTTL = 30 * time.Minute
	// RefreshTokenTTL is how long an unused refresh token stays valid; each
	// rotation starts a new one, so a connector used once a month keeps
	// working.
	RefreshTokenTTL = 60 * 24 * time.Hour
	// RefreshGrace is how long a just-rotated refresh token may still be
	// presented: MCP hosts refresh from several parallel tool calls with the
	// same token, in bursts seen up to 76 s apart. Inside
	// the window each such refresh gets its own live pair; after it, a
	// replay revokes the whole family.
	RefreshGrace = 2 * time.Minute
	// CodeTTL bounds an authorization code's life: the client exchanges it
	// within a second of the redirect, and RFC 6749 §4.1.2 asks for short.
	CodeTTL = time.Minute
	// ConsentTTL bounds how long a consent page may sit open before Approve:
	// enough to find and type the passphrase, short enough that slots taken
	// by requests nobody answers come back soon.
	ConsentTTL = 5 * time.Minute
	// MaxPendingConsents caps consent pages open at once, so anonymous
	// /authorize requests cannot grow memory without bound (a few hundred
	// bytes each). It is kept far above MaxPendingPerAddress, so one
	// address cannot fill it: that takes 128 addresses.
	MaxPendingConsents = 1024
	// MaxClients caps registered clients. Each connector or desktop app
	// registers once (and again after losing its state); a few dozen is a
	// busy household. At the cap, the oldest client without a live grant
	// is evicted; if every client has one, registration is refused.
	MaxClients = 200
	// RegisterBurst and RegisterEvery rate-limit anonymous registrations
	// from one network address (addrKey): enough for several apps
	// connecting at once, too slow to fill the store quickly. They are kept
	// per address so that one caller spending them does not stop the owner
	// registering a new connector; RegisterGlobalBurst bounds all addresses
	// together (limits.go).
	RegisterBurst = 20
	// RegisterEvery is the refill interval of the per-address registration
	// limiter.
	RegisterEvery = 30 * time.Second
	// LoginBurst wrong passphrases from one network address, or for one
	// registered client, are allowed before the consent page refuses every
	// attempt from that address or for that client, right or wrong, until
	// its limiter refills by one attempt per LoginEvery: a guesser at one
	// address gets ~1,440 tries a day against a memory-hard hash, and
	// LoginGlobalBurst bounds all addresses together (limits.go).
	LoginBurst = 5
	// LoginEvery is the refill interval of the wrong-passphrase limiters.
	LoginEvery = time.Minute
	// maxFormBody caps /register, /token, /revoke and consent bodies; the
	// largest legitimate one is a registration of a few hundred bytes.
	maxFormBody = 64 << 10
)

// Config configures a [Server].
type Config struct {
	// Issuer (SOUS_OAUTH_ISSUER) is the public URL of the authorization
	// server, such as "https://kitchen.example.org"; it must be https, or
	// http on a loopback host for local testing. It may carry a path
	// ("https://home.example.org/sous"); endpoints then live under it.
	Issuer string
	// ResourceURL is the canonical MCP URL clients are told to paste, such
	// as "https://kitchen.example.org/mcp". Tokens are bound to it. Empty
	// means Issuer + "/mcp".
	ResourceURL string
	// PassphraseFile (SOUS_OAUTH_PASSPHRASE_FILE) holds the owner's
	// passphrase: preferably its argon2id hash as printed by
	// [HashPassphrase], or the passphrase itself, which is then hashed in
	// memory and never kept in clear.
	PassphraseFile string
	// StatePath is the SQLite file holding clients, grants and the signing
	// key; it is created if missing.
	StatePath string
	// Logger receives one line per grant, refusal and revocation; nil
	// discards. Secrets and tokens never reach it.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now. Tests move it to expire tokens.
	Now func() time.Time
}

// Server is the authorization server and the bearer-token check for the MCP
// endpoint. It is safe for concurrent use. Close it to release the store.
type Server struct {
	issuer       string
	issuerPath   string
	resource     string
	secureCookie bool
	log          *slog.Logger
	now          func() time.Time
	st           *store
	keys         *signer
	pass         *passphrase

	mu         sync.Mutex
	pending    map[string]*pendingConsent
	pendingSeq uint64
	// Wrong passphrases are counted per network address, per client and
	// for everyone together (limits.go).
	loginByAddr   *keyedLimiter
	loginByClient *keyedLimiter
	loginGlobal   *rate.Limiter
	// Registrations are limited per network address and for everyone
	// together (limits.go).
	regByAddr *keyedLimiter
	regGlobal *rate.Limiter
}

// New opens (or creates) the state store, loads the passphrase and the
// signing key, and returns a Server. It fails on a non-https, non-loopback
// issuer, a missing passphrase file or an unusable store.
func New(cfg Config) (*Server, error) {
	iss, err := canonicalURL(cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("SOUS_OAUTH_ISSUER: %w", err)
	}
	res := cfg.ResourceURL
	if res == "" {
		res = iss + "/mcp"
	}
	res, err = canonicalURL(res)
	if err != nil {
		return nil, fmt.Errorf("resource URL: %w", err)
	}
	if cfg.StatePath == "" {
		return nil, errors.New("the OAuth state path is empty")
	}
	pass, err := loadPassphrase(cfg.PassphraseFile)
	if err != nil {
		return nil, err
	}
	st, err := openStore(cfg.StatePath)
	if err != nil {
		return nil, err
	}
	keys, err := loadSigner(st)
	if err != nil {
		st.close()
		return nil, err
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	u, _ := url.Parse(iss)
	s := &Server{
		issuer:        iss,
		issuerPath:    u.Path,
		resource:      res,
		secureCookie:  u.Scheme == "https",
		log:           logger,
		now:           now,
		st:            st,
		keys:          keys,
		pass:          pass,
		pending:       map[string]*pendingConsent{},
		loginByAddr:   newKeyedLimiter(LoginEvery, LoginBurst),
		loginByClient: newKeyedLimiter(LoginEvery, LoginBurst),
		loginGlobal:   rate.NewLimiter(rate.Every(LoginGlobalEvery), LoginGlobalBurst),
		regByAddr:     newKeyedLimiter(RegisterEvery, RegisterBurst),
		regGlobal:     rate.NewLimiter(rate.Every(RegisterGlobalEvery), RegisterGlobalBurst),
	}
	return s, nil
}

// Close releases the state store.
func (s *Server) Close() error { return s.st.close() }

// Issuer returns the canonical issuer URL, as served in the metadata.
func (s *Server) Issuer() string { return s.issuer }

// ResourceURL returns the canonical MCP URL tokens are bound to.
func (s *Server) ResourceURL() string { return s.resource }

// ResourceMetadataURL returns the path-inserted RFC 9728 document URL that
// every 401 points at (claude.ai and Desktop look there).
func (s *Server) ResourceMetadataURL() string {
	u, _ := url.Parse(s.resource)
	u.Path = "/.well-known/oauth-protected-resource" + u.Path
	return u.String()
}

// endpoint returns the absolute public URL of an endpoint under the OAuth issuer.
func (s *Server) endpoint(name string) string { return s.issuer + "/" + name }

// Routes registers the discovery documents and the authorization-server
// endpoints on mux. The MCP endpoint itself is not registered: wrap it with
// [Server.Protect]. Paths (issuer path P, resource path R):
//
//	/.well-known/oauth-protected-resource, …/oauth-protected-resource{R}, {R}/
//	/.well-known/oauth-authorization-server, …/oauth-authorization-server{P}
//	{P}/register, {P}/authorize, {P}/token, {P}/revoke
//
// With a path issuer the endpoints are also registered without P, for a
// proxy that strips the prefix (discovery clients accept either a 404 or the same handler).
func (s *Server) Routes(mux *http.ServeMux) {
	ru, _ := url.Parse(s.resource)
	prm := s.protectedResourceHandler()
	mux.Handle("GET /.well-known/oauth-protected-resource", prm)
	if ru.Path != "" {
		mux.Handle("GET /.well-known/oauth-protected-resource"+ru.Path, prm)
		mux.Handle("GET /.well-known/oauth-protected-resource"+ru.Path+"/{$}", prm)
	}
	asm := http.HandlerFunc(s.serveAuthServerMetadata)
	mux.Handle("GET /.well-known/oauth-authorization-server", asm)
	prefixes := []string{s.issuerPath}
	if s.issuerPath != "" {
		mux.Handle("GET /.well-known/oauth-authorization-server"+s.issuerPath, asm)
		mux.Handle("GET "+s.issuerPath+"/.well-known/oauth-authorization-server", asm)
		prefixes = append(prefixes, "")
	}
	for _, p := range prefixes {
		mux.HandleFunc("GET "+p+"/authorize", s.serveAuthorize)
		mux.HandleFunc("POST "+p+"/authorize", s.serveConsent)
		for name, h := range map[string]http.HandlerFunc{"register": s.serveRegister, "token": s.serveToken, "revoke": s.serveRevoke} {
			mux.Handle("POST "+p+"/"+name, corsOpen(h))
			mux.Handle("OPTIONS "+p+"/"+name, corsOpen(h))
		}
	}
}

// corsOpen lets browser-based MCP clients (the MCP Inspector's web UI)
// call the JSON endpoints cross-origin. They carry no cookies and every
// request authenticates itself, so any origin may call them; the consent
// page is not covered and cannot be framed.
func corsOpen(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "POST, OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// canonicalURL checks that raw is an absolute https URL, or http on a
// loopback host, and returns it with a lower-case scheme and host and no
// trailing slash, query or fragment: the form RFC 8414 issuers and RFC 9728
// resources are compared in byte for byte.
func canonicalURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not an absolute URL", raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && isLoopback(u.Hostname()):
	default:
		return "", fmt.Errorf("%q must be https (http only on a loopback host)", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%q must not carry a query, fragment or user", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}
