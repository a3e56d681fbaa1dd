package mcpfront

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/mcpfront/oauth"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// This file runs the front: the service-agnostic steps every binary that
// serves it takes (`sous mcp`, `sous demo`, cmd/mcpfront). Reach the
// services (Remotes.Dial, RemoteBackends, or in-process clients a caller
// builds), check them and build the servers (Start), then serve over
// Streamable HTTP (ListenAndServe) or stdio (RunStdio).

// Dial returns Connect clients of the services whose URL is set, each
// presenting r.Token as its bearer token; the others stay nil, which turns
// their toolsets off. Nothing is contacted until the first call (see Probe).
func (r Remotes) Dial() Backends {
	var b Backends
	for _, s := range Services() {
		if u := *s.URL(&r); u != "" {
			s.Client(&b, serve.HTTPClient(u), u, connect.WithInterceptors(
				svcauth.ClientInterceptor(r.Token),
				remoteErrors{name: s.Name, url: u, urlVar: s.URLVar, tokenSet: r.Token != ""}))
		}
	}
	return b
}

// Service is one sous service as the front reaches it. The table of them
// (Services) is the one place a service's URL variable, toolsets and
// client are declared: the front reads it, and so does the binaries'
// service table (cmd/internal/stack), which adds what it takes to run a
// service in-process.
type Service struct {
	// Name is the short name --services and the log lines use.
	Name string
	// URLVar is the variable naming a remote instance's URL.
	URLVar string
	// Toolsets are the toolsets whose tools call the service (shopping
	// lives in mealplan).
	Toolsets []string
	// URL points at the service's URL in a Remotes.
	URL func(*Remotes) *string
	// Client sets the service's client in b to one that reaches base
	// through hc.
	Client func(b *Backends, hc connect.HTTPClient, base string, opts ...connect.ClientOption)
}

// Services returns the services in the order the front's log lines name
// them.
func Services() []Service {
	return []Service{
		{"recipes", "SOUS_RECIPES_URL", []string{ToolsetRecipes}, func(r *Remotes) *string { return &r.RecipesURL },
			func(b *Backends, hc connect.HTTPClient, base string, opts ...connect.ClientOption) {
				b.Recipes = recipesv1connect.NewRecipesServiceClient(hc, base, opts...)
			}},
		{"mealplan", "SOUS_MEALPLAN_URL", []string{ToolsetMealPlan, ToolsetShopping}, func(r *Remotes) *string { return &r.MealPlanURL },
			func(b *Backends, hc connect.HTTPClient, base string, opts ...connect.ClientOption) {
				b.MealPlan = mealplanv1connect.NewMealPlanServiceClient(hc, base, opts...)
			}},
		{"library", "SOUS_LIBRARY_URL", []string{ToolsetLibrary}, func(r *Remotes) *string { return &r.LibraryURL },
			func(b *Backends, hc connect.HTTPClient, base string, opts ...connect.ClientOption) {
				b.Library = libraryv1connect.NewLibraryServiceClient(hc, base, opts...)
			}},
		{"pantry", "SOUS_PANTRY_URL", []string{ToolsetPantry}, func(r *Remotes) *string { return &r.PantryURL },
			func(b *Backends, hc connect.HTTPClient, base string, opts ...connect.ClientOption) {
				b.Pantry = pantryv1connect.NewPantryServiceClient(hc, base, opts...)
			}},
	}
}

// RemoteBackends dials (Remotes.Dial) the services that the toolsets
// enabled call (empty toolsets means all of them, as in Options), and only
// those: a service a remote service calls in turn is that service's
// concern. Each enabled toolset whose service URL is unset is off, with one
// Info line per service naming the variable that turns it on. Unknown
// toolset names are left for NewServer to refuse.
func RemoteBackends(r Remotes, toolsets []string, logger *slog.Logger) Backends {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	enabled := func(ts string) bool {
		return len(toolsets) == 0 || slices.ContainsFunc(toolsets, func(e string) bool { return strings.EqualFold(strings.TrimSpace(e), ts) })
	}
	want := r
	for _, s := range Services() {
		var on []string
		for _, ts := range s.Toolsets {
			if enabled(ts) {
				on = append(on, ts)
			}
		}
		if len(on) == 0 {
			*s.URL(&want) = ""
			continue
		}
		if *s.URL(&want) == "" {
			noun, pron := "toolset", "it"
			if len(on) > 1 {
				noun, pron = "toolsets", "them"
			}
			logger.Info(fmt.Sprintf("%s %s off: set %s to turn %s on", strings.Join(on, ", "), noun, s.URLVar, pron))
		}
	}
	return want.Dial()
}

// ErrNoBackends is Probe's error when b holds no client at all. Callers
// wrap it with the variables that configure their backends.
var ErrNoBackends = errors.New("no backend is configured")

// Probe checks every backend in b through its service (GetStatus) before
// any transport starts, and returns the one startup line: "connected to
// Mealie <version> as <user>; food API ok", either part alone when only
// that backend is configured (TestDialAndProbe in run_test.go). A failure is one
// sentence naming the service ("recipes service: ..."); no client at all
// is ErrNoBackends.
func Probe(ctx context.Context, b Backends) (string, error) {
	var mealieLine string
	mealie := func(version, user string) {
		if mealieLine == "" {
			mealieLine = fmt.Sprintf("connected to Mealie %s as %s", version, user)
		}
	}
	if b.Recipes != nil {
		st, err := b.Recipes.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{}))
		if err != nil {
			return "", probeFailure("recipes", err)
		}
		mealie(st.Msg.GetMealieVersion(), st.Msg.GetUser())
	}
	if b.MealPlan != nil {
		st, err := b.MealPlan.GetStatus(ctx, connect.NewRequest(&mealplanv1.GetStatusRequest{}))
		if err != nil {
			return "", probeFailure("mealplan", err)
		}
		mealie(st.Msg.GetMealieVersion(), st.Msg.GetUser())
	}
	if b.Library != nil {
		st, err := b.Library.GetStatus(ctx, connect.NewRequest(&libraryv1.GetStatusRequest{}))
		if err != nil {
			return "", probeFailure("library", err)
		}
		mealie(st.Msg.GetMealieVersion(), st.Msg.GetUser())
	}
	var parts []string
	if mealieLine != "" {
		parts = append(parts, mealieLine)
	}
	if b.Pantry != nil {
		if _, err := b.Pantry.GetStatus(ctx, connect.NewRequest(&pantryv1.GetStatusRequest{})); err != nil {
			return "", probeFailure("pantry", err)
		}
		parts = append(parts, "food API ok")
	}
	if len(parts) == 0 {
		return "", ErrNoBackends
	}
	return strings.Join(parts, "; "), nil
}

// connectMessage is a Connect error's plain message, without the code
// prefix its Error() adds.
func connectMessage(err error) string {
	var ce *connect.Error
	if errors.As(err, &ce) {
		if ce.Message() != "" {
			return ce.Message()
		}
		return ce.Code().String()
	}
	return err.Error()
}

// Servers are the MCP servers one front serves.
type Servers struct {
	// Server has the catalog the configuration selects.
	Server *mcp.Server
	// Read, with OAuth on and the front not already read-only, is the
	// read-only server that mcp:read tokens talk to (HTTPOptions.ReadServer);
	// nil otherwise.
	Read *mcp.Server
}

// Start probes b (Probe), logs the startup line at Info, and builds the
// servers c selects (Servers). Its errors are Probe's and NewServer's.
func Start(ctx context.Context, c Config, b Backends, logger *slog.Logger) (Servers, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	line, err := Probe(ctx, b)
	if err != nil {
		return Servers{}, err
	}
	logger.Info(line)
	opts := c.Options(logger)
	var s Servers
	if s.Server, err = NewServer(b, opts); err != nil {
		return Servers{}, err
	}
	if c.OAuthIssuer != "" && !opts.ReadOnly {
		opts.ReadOnly = true
		if s.Read, err = NewServer(b, opts); err != nil {
			return Servers{}, err
		}
	}
	return s, nil
}

// ListenAndServe serves s over Streamable HTTP on c.Addr until ctx ends,
// with the auth c configures: the path secret, the static bearer token, or,
// with SOUS_OAUTH_ISSUER set, the OAuth authorization server on the same
// listener (see HTTPOptions). It warns once when the endpoint is bound
// beyond loopback with no auth. ready, if non-nil, is called with the
// address listened on before serving starts (":0" picks a port). Its
// errors are the OAuth store's, HTTPOptions.Check's, the listener's and
// the server's.
func ListenAndServe(ctx context.Context, c Config, s Servers, logger *slog.Logger, ready func(addr string)) error {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	as, err := openOAuth(c, logger)
	if err != nil {
		return err
	}
	if as != nil {
		defer as.Close()
		logger.Info("OAuth is on", "issuer", as.Issuer(), "resource", as.ResourceURL(), "state", c.OAuthState)
	}
	o := HTTPOptions{
		PathSecret: c.URLSecret, BearerToken: c.BearerToken, PublicURL: c.PublicURL, Logger: logger,
		OAuth: as, ReadServer: s.Read,
	}
	if err := o.Check(); err != nil {
		return err
	}
	h := HTTPHandler(s.Server, o)
	if c.URLSecret == "" && c.BearerToken == "" && as == nil && !loopbackAddr(c.Addr) {
		logger.Warn("the MCP endpoint is bound beyond loopback with no auth: set SOUS_OAUTH_ISSUER, FOOD_MCP_URL_SECRET or SOUS_MCP_BEARER_TOKEN", "addr", c.Addr)
	}
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(ln.Addr().String())
	}
	logger.Info("MCP over Streamable HTTP", "addr", ln.Addr().String())
	return serve.Run(ctx, serve.NewServer(h, logger), ln)
}

// loopbackAddr reports whether a listen address (host:port) binds loopback
// only; a wildcard host (":8765") does not.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && isLoopbackHost(host)
}

// stateDirMode keeps the OAuth store's directory private to the owner: it
// holds the token-signing key.
const stateDirMode = 0o700

// openOAuth opens the authorization server when c.OAuthIssuer is set, and
// returns nil otherwise. Tokens are bound to SOUS_PUBLIC_URL + "/mcp" when
// that is set, else to the OAuth issuer's /mcp.
func openOAuth(c Config, logger *slog.Logger) (*oauth.Server, error) {
	if c.OAuthIssuer == "" {
		return nil, nil
	}
	if c.OAuthState == "" {
		return nil, errors.New("SOUS_OAUTH_STATE is not set and no home directory gives SOUS_DATA_DIR a default")
	}
	if err := os.MkdirAll(filepath.Dir(c.OAuthState), stateDirMode); err != nil {
		return nil, fmt.Errorf("SOUS_OAUTH_STATE: %w", err)
	}
	resource, err := resourceURL(c.PublicURL)
	if err != nil {
		return nil, err
	}
	return oauth.New(oauth.Config{
		Issuer:         c.OAuthIssuer,
		ResourceURL:    resource,
		PassphraseFile: c.OAuthPassphraseFile,
		StatePath:      c.OAuthState,
		Logger:         logger,
	})
}

// resourceURL is the MCP URL clients paste, from SOUS_PUBLIC_URL ("" lets
// the oauth package use the OAuth issuer's).
func resourceURL(public string) (string, error) {
	if public == "" {
		return "", nil
	}
	u, err := url.Parse(public)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("SOUS_PUBLIC_URL %q is not an absolute URL", public)
	}
	return strings.TrimRight(public, "/") + "/mcp", nil
}

// RunStdio serves server over stdin and stdout until stdin ends or ctx is
// cancelled; both are a normal end (nil). Under stdio, stdout is the
// protocol: nothing else may write to it. Neither stream is closed.
func RunStdio(ctx context.Context, server *mcp.Server, stdin io.Reader, stdout io.Writer) error {
	err := server.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// nopWriteCloser leaves closing stdout to the process.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
