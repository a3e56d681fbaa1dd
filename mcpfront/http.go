package mcpfront

import (
	"crypto/subtle"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/mcpfront/oauth"
)

// MaxRequestBody caps an MCP request body: the largest legitimate call (a
// recipe with a hundred ingredient lines) is a few KiB.
const MaxRequestBody = 1 << 20

// HTTPOptions configure the Streamable HTTP endpoint and its auth.
type HTTPOptions struct {
	// PathSecret (FOOD_MCP_URL_SECRET), when set, moves the endpoint to
	// /mcp/<secret> and /mcp/<secret>/ and makes every other path 404: the
	// claude.ai authless-connector form of the pantry spec (§4).
	PathSecret string
	// BearerToken (SOUS_MCP_BEARER_TOKEN), when set, requires
	// "Authorization: Bearer <token>" on every request.
	BearerToken string
	// PublicURL (SOUS_PUBLIC_URL) is the URL clients use, such as
	// "https://kitchen.example.com"; its host and origin are allowed besides
	// loopback ones, for a reverse proxy that keeps the public Host.
	PublicURL string
	// OAuth, when set (SOUS_OAUTH_ISSUER), is the third auth mode: the
	// same listener serves the discovery documents and the authorization
	// server's endpoints, and /mcp requires an access token issued by it
	// (answering 401 with the RFC 9728 metadata pointer otherwise). It
	// excludes PathSecret and BearerToken (see [HTTPOptions.Check]).
	OAuth *oauth.Server
	// ReadServer, with OAuth, is the server an access token without
	// mcp:write talks to: build it with [NewServer] and Options.ReadOnly,
	// so such a token sees exactly what read-only mode shows (manage_taxonomy
	// in its list-only form included). Nil serves every token from the main
	// server, where read tokens still see and call only read tools.
	ReadServer *mcp.Server
	// Logger receives request logs; the path secret never reaches it.
	Logger *slog.Logger
}

// Check reports options that cannot be combined, naming the variables
// that set them: the path secret and OAuth (a client that authenticates
// with OAuth needs no secret URL, and keeping both would leave the secret
// as a bypass), and the static bearer token and OAuth (both would claim
// the same Authorization header).
func (o HTTPOptions) Check() error {
	if o.OAuth == nil {
		return nil
	}
	var errs []error
	if o.PathSecret != "" {
		errs = append(errs, errors.New("FOOD_MCP_URL_SECRET and SOUS_OAUTH_ISSUER are both set: choose the path secret or OAuth, not both"))
	}
	if o.BearerToken != "" {
		errs = append(errs, errors.New("SOUS_MCP_BEARER_TOKEN and SOUS_OAUTH_ISSUER are both set: choose the bearer token or OAuth, not both"))
	}
	return errors.Join(errs...)
}

// HTTPHandler serves server over Streamable HTTP. Sessions are stateless:
// claude.ai does not echo Mcp-Session-Id and re-initializes before most
// calls. No path ever answers with a redirect (docs/configuration.md,
// FOOD_MCP_URL_SECRET).
//
// With o.OAuth set, server gets middleware confining mcp:read tokens to
// read tools, whatever o.ReadServer holds. It panics on options
// [HTTPOptions.Check] refuses: callers check them at startup.
//
// Every request, OAuth's endpoints included, first passes a per-client rate
// limit (a client is its remote IP address) read from SOUS_MCP_RATE_LIMIT,
// DefaultRateLimit requests a minute when unset, none when "off"; a client
// past it is answered 429 with Retry-After. LoadConfig refuses a value that
// cannot be read; a handler built without LoadConfig logs it and uses the
// default.
func HTTPHandler(server *mcp.Server, o HTTPOptions) http.Handler {
	if err := o.Check(); err != nil {
		panic(err)
	}
	pick := func(*http.Request) *mcp.Server { return server }
	if o.OAuth != nil {
		readOnly := map[string]bool{}
		for _, t := range catalog() {
			readOnly[t.Def.Name] = t.ReadOnly()
		}
		server.AddReceivingMiddleware(oauth.ScopeFilter(func(name string) bool { return readOnly[name] }))
		if ro := o.ReadServer; ro != nil {
			pick = func(r *http.Request) *mcp.Server {
				if !oauth.CanWrite(auth.TokenInfoFromContext(r.Context())) {
					return ro
				}
				return server
			}
		}
	}
	streamable := mcp.NewStreamableHTTPHandler(pick, &mcp.StreamableHTTPOptions{
		Stateless: true,
		// Host and Origin are checked below, against SOUS_PUBLIC_URL too;
		// the SDK's own check knows only loopback names and would refuse
		// a reverse proxy that keeps the public Host.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        MaxRequestBody,
	})
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var inner http.Handler = viewSessions(streamable, &viewClients{})
	g := &guard{next: inner, o: o, log: logger}
	if o.PublicURL != "" {
		if u, err := url.Parse(o.PublicURL); err == nil && u.Host != "" {
			g.publicHost = strings.ToLower(u.Host)
			g.publicOrigin = strings.ToLower(u.Scheme + "://" + u.Host)
		}
	}
	if o.OAuth != nil {
		// The bearer check runs inside the Host/Origin guard, so a
		// rebinding page learns nothing, not even the metadata pointer.
		g.next = o.OAuth.Protect(inner)
		g.oauthMux = http.NewServeMux()
		o.OAuth.Routes(g.oauthMux)
		if u, err := url.Parse(o.OAuth.Issuer()); err == nil {
			g.issuerHost = strings.ToLower(u.Host)
			if g.publicHost == "" {
				g.publicHost = g.issuerHost
				g.publicOrigin = strings.ToLower(u.Scheme + "://" + u.Host)
			}
		}
	}
	return withRateLimit(g, logger)
}

type guard struct {
	next         http.Handler
	o            HTTPOptions
	log          *slog.Logger
	publicHost   string
	publicOrigin string
	// oauthMux serves the discovery documents and the authorization
	// server's endpoints in OAuth mode; issuerHost is the OAuth issuer's host,
	// allowed besides the public one.
	oauthMux   *http.ServeMux
	issuerHost string
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	mcpPath := g.pathOK(r.URL.Path)
	if !mcpPath && (g.oauthMux == nil || !cleanPath(r.URL.Path)) {
		// Same answer for a wrong secret as for any unknown path. An
		// unclean path would get ServeMux's 301 to its clean form: no
		// path answers with a redirect, so it is a 404 instead.
		http.NotFound(w, r)
		return
	}
	if !g.hostOK(r.Host) {
		g.log.Warn("refused a request with a foreign Host", "host", r.Host)
		http.Error(w, "forbidden host", http.StatusForbidden)
		return
	}
	if !mcpPath {
		// Discovery, registration, consent, token and revocation: open to
		// any Origin by design (browser-based clients call them
		// cross-origin; the consent form carries its own CSRF token).
		g.oauthMux.ServeHTTP(w, r)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !g.originOK(origin, r.Host) {
		g.log.Warn("refused a request with a foreign Origin", "origin", origin)
		http.Error(w, "forbidden origin", http.StatusForbidden)
		return
	}
	if g.o.BearerToken != "" && !svcauth.Valid(r.Header.Get("Authorization"), []byte(g.o.BearerToken)) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="sous"`)
		http.Error(w, "a bearer token is required", http.StatusUnauthorized)
		return
	}
	// Streamed answers must not be buffered by nginx (pantry spec §3).
	w.Header().Set("X-Accel-Buffering", "no")
	g.next.ServeHTTP(w, r)
}

// cleanPath reports whether p is already in the form ServeMux would
// redirect to (a trailing slash kept).
func cleanPath(p string) bool {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c == p
}

// pathOK accepts /mcp and /mcp/ without a secret, and exactly
// /mcp/<secret> and /mcp/<secret>/ with one, comparing in constant time.
func (g *guard) pathOK(p string) bool {
	if g.o.PathSecret == "" {
		return p == "/mcp" || p == "/mcp/"
	}
	rest, ok := strings.CutPrefix(p, "/mcp/")
	if !ok {
		return false
	}
	rest = strings.TrimSuffix(rest, "/")
	return subtle.ConstantTimeCompare([]byte(rest), []byte(g.o.PathSecret)) == 1
}

func isLoopbackHost(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.Trim(h, "[]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// hostOK guards against DNS rebinding: a loopback Host, the public URL's
// host, or any host when the server was deliberately bound elsewhere and the
// Host is the address it answers on.
func (g *guard) hostOK(host string) bool {
	if isLoopbackHost(host) {
		return true
	}
	if g.publicHost != "" {
		return strings.EqualFold(host, g.publicHost) || (g.issuerHost != "" && strings.EqualFold(host, g.issuerHost))
	}
	// Without SOUS_PUBLIC_URL only an IP literal is accepted: a DNS name
	// pointing a browser at this server is exactly the rebinding attack.
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	return net.ParseIP(strings.Trim(h, "[]")) != nil
}

// originOK accepts an Origin that is loopback, the public URL's origin, or
// the server's own Host (MCP spec, Streamable HTTP security warning).
func (g *guard) originOK(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if isLoopbackHost(u.Host) {
		return true
	}
	if g.publicOrigin != "" && strings.EqualFold(u.Scheme+"://"+u.Host, g.publicOrigin) {
		return true
	}
	return strings.EqualFold(u.Host, host) && g.publicHost == ""
}
