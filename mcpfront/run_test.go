package mcpfront

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/serve"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// statusRecipes and the like answer GetStatus only, for the probe; err,
// when set, is the answer.
type (
	statusRecipes struct {
		recipesv1connect.UnimplementedRecipesServiceHandler
		err error
	}
	statusLibrary struct {
		libraryv1connect.UnimplementedLibraryServiceHandler
	}
	statusPantry struct {
		pantryv1connect.UnimplementedPantryServiceHandler
	}
)

func (s statusRecipes) GetStatus(context.Context, *connect.Request[recipesv1.GetStatusRequest]) (*connect.Response[recipesv1.GetStatusResponse], error) {
	if s.err != nil {
		return nil, s.err
	}
	return connect.NewResponse(&recipesv1.GetStatusResponse{MealieVersion: "v2.0.0", User: "cook"}), nil
}

func (statusLibrary) GetStatus(context.Context, *connect.Request[libraryv1.GetStatusRequest]) (*connect.Response[libraryv1.GetStatusResponse], error) {
	return connect.NewResponse(&libraryv1.GetStatusResponse{MealieVersion: "v2.1.0", User: "librarian"}), nil
}

func (statusPantry) GetStatus(context.Context, *connect.Request[pantryv1.GetStatusRequest]) (*connect.Response[pantryv1.GetStatusResponse], error) {
	return connect.NewResponse(&pantryv1.GetStatusResponse{}), nil
}

// statusServer serves the status fakes on a loopback port as the services'
// own binaries do (h2c, behind token), and returns its base URL.
func statusServer(t *testing.T, token string, recipes statusRecipes) string {
	t.Helper()
	rp, rh := recipesv1connect.NewRecipesServiceHandler(recipes)
	lp, lh := libraryv1connect.NewLibraryServiceHandler(statusLibrary{})
	pp, ph := pantryv1connect.NewPantryServiceHandler(statusPantry{})
	h := serve.Handler(token,
		serve.Service{Name: recipesv1connect.RecipesServiceName, Path: rp, Handler: rh},
		serve.Service{Name: libraryv1connect.LibraryServiceName, Path: lp, Handler: lh},
		serve.Service{Name: pantryv1connect.PantryServiceName, Path: pp, Handler: ph},
	)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = serve.Run(ctx, serve.NewServer(h, slog.New(slog.DiscardHandler)), ln)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String()
}

// closedURL is the base URL of a loopback port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + ln.Addr().String()
	ln.Close()
	return u
}

// TestRemoteErrorsInTools: a call to a remote service that does not answer
// is a tool error naming the service and its URL, unary or streaming, and
// one the service wrote itself is left as written.
func TestRemoteErrorsInTools(t *testing.T) {
	gone := closedURL(t)
	down := statusServer(t, "", statusRecipes{err: connect.NewError(connect.CodeUnavailable, errors.New("Mealie is unreachable at http://m:9000"))})
	b := Remotes{RecipesURL: gone, LibraryURL: gone}.Dial()
	_, err := b.Recipes.GetRecipe(t.Context(), connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "soup"}))
	want := "the recipes service does not answer at " + gone + " ("
	if text := toolResultText(toolError(err)); !strings.HasPrefix(text, want) || !strings.HasSuffix(text, "); try again in a moment") {
		t.Errorf("unary: tool error %q, want it to start %q", text, want)
	}
	stream, err := b.Library.LibraryStats(t.Context(), connect.NewRequest(&libraryv1.LibraryStatsRequest{}))
	if err == nil {
		for stream.Receive() {
		}
		err = stream.Err()
	}
	if text := toolResultText(toolError(err)); !strings.HasPrefix(text, "the library service does not answer at "+gone) {
		t.Errorf("stream: tool error %q", text)
	}
	_, err = Remotes{RecipesURL: down}.Dial().Recipes.GetStatus(t.Context(), connect.NewRequest(&recipesv1.GetStatusRequest{}))
	if text := toolResultText(toolError(err)); text != "Mealie is unreachable at http://m:9000" {
		t.Errorf("service's own Unavailable: %q", text)
	}
}

// toolResultText is a tool result's one text block.
func toolResultText(r *mcp.CallToolResult) string {
	return r.Content[0].(*mcp.TextContent).Text
}

func TestRemoteBackends(t *testing.T) {
	all := Remotes{RecipesURL: "http://r", MealPlanURL: "http://m", LibraryURL: "http://l", PantryURL: "http://p", Token: "t"}
	tests := []struct {
		name     string
		remotes  Remotes
		toolsets []string
		wantOn   string // initials of the clients present, in Backends order
		wantLog  []string
	}{
		{name: "every URL, every toolset", remotes: all, wantOn: "rmlp"},
		{name: "only the toolsets' services are dialled", remotes: all, toolsets: []string{"Shopping ", "pantry"}, wantOn: "mp"},
		{
			name: "no URL: one line per service", remotes: Remotes{}, wantOn: "",
			wantLog: []string{
				"recipes toolset off: set SOUS_RECIPES_URL to turn it on",
				"mealplan, shopping toolsets off: set SOUS_MEALPLAN_URL to turn them on",
				"library toolset off: set SOUS_LIBRARY_URL to turn it on",
				"pantry toolset off: set SOUS_PANTRY_URL to turn it on",
			},
		},
		{
			name: "a toolset chosen names only itself", remotes: Remotes{LibraryURL: "http://l"}, toolsets: []string{"shopping", "library"}, wantOn: "l",
			wantLog: []string{"shopping toolset off: set SOUS_MEALPLAN_URL to turn it on"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			b := RemoteBackends(tt.remotes, tt.toolsets, slog.New(slog.NewTextHandler(&logs, nil)))
			var on string
			for i, present := range []bool{b.Recipes != nil, b.MealPlan != nil, b.Library != nil, b.Pantry != nil} {
				if present {
					on += string("rmlp"[i])
				}
			}
			if on != tt.wantOn {
				t.Errorf("clients present = %q, want %q", on, tt.wantOn)
			}
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			if logs.Len() == 0 {
				lines = nil
			}
			if len(lines) != len(tt.wantLog) {
				t.Fatalf("log lines = %q, want %q", lines, tt.wantLog)
			}
			for i, w := range tt.wantLog {
				if !strings.Contains(lines[i], w) {
					t.Errorf("log line %d = %q, want %q", i, lines[i], w)
				}
			}
		})
	}
}

// TestDialAndProbe reaches services over h2c with the service token, as
// cmd/mcpfront does, and checks the startup line and failures.
func TestDialAndProbe(t *testing.T) {
	const token = "kitchen-door"
	good := statusServer(t, token, statusRecipes{})
	bad := statusServer(t, token, statusRecipes{err: connect.NewError(connect.CodeUnauthenticated, errors.New("Mealie refused the API token"))})
	bare := statusServer(t, token, statusRecipes{err: connect.NewError(connect.CodeUnavailable, nil)})
	gone := closedURL(t)
	tests := []struct {
		name    string
		remotes Remotes
		want    string
		wantErr string
	}{
		{name: "Mealie and the food API", remotes: Remotes{RecipesURL: good, LibraryURL: good, PantryURL: good, Token: token}, want: "connected to Mealie v2.0.0 as cook; food API ok"},
		{name: "the first Mealie service answers for Mealie", remotes: Remotes{LibraryURL: good, Token: token}, want: "connected to Mealie v2.1.0 as librarian"},
		{name: "the food API alone", remotes: Remotes{PantryURL: good, Token: token}, want: "food API ok"},
		{name: "a service's message, without the code", remotes: Remotes{RecipesURL: bad, PantryURL: good, Token: token}, wantErr: "recipes service: Mealie refused the API token"},
		{name: "a code without a message", remotes: Remotes{RecipesURL: bare, Token: token}, wantErr: "recipes service: unavailable"},
		{name: "the wrong token", remotes: Remotes{PantryURL: good, Token: "wrong"},
			wantErr: "pantry service: the pantry service refused this SOUS_SERVICE_TOKEN: it must be the token the services were started with"},
		{name: "no token where the services want one", remotes: Remotes{LibraryURL: good},
			wantErr: "library service: the library service wants a service token and none is set here: set SOUS_SERVICE_TOKEN"},
		{name: "a service that does not answer", remotes: Remotes{RecipesURL: gone, Token: token},
			wantErr: "recipes service: the recipes service does not answer at " + gone + " ("},
		{name: "a service that does not answer says what to do", remotes: Remotes{LibraryURL: gone, Token: token},
			wantErr: "library service: the library service does not answer at " + gone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, err := Probe(t.Context(), tt.remotes.Dial())
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if line != tt.want {
				t.Errorf("line = %q, want %q", line, tt.want)
			}
		})
	}
	_, err := Probe(t.Context(), Remotes{LibraryURL: gone}.Dial())
	if err == nil || !strings.HasSuffix(err.Error(), "): start it, or unset SOUS_LIBRARY_URL to turn its toolsets off") {
		t.Errorf("unreachable library: err = %v, want the variable to unset", err)
	}
	if _, err := Probe(t.Context(), Backends{}); !errors.Is(err, ErrNoBackends) {
		t.Errorf("no backends: err = %v, want ErrNoBackends", err)
	}
}

func TestStart(t *testing.T) {
	url := statusServer(t, "", statusRecipes{})
	b := Remotes{RecipesURL: url}.Dial()
	tests := []struct {
		name     string
		cfg      Config
		wantRead bool
	}{
		{"no OAuth: one server", Config{}, false},
		{"OAuth: a read-only server for mcp:read tokens", Config{OAuthIssuer: "https://kitchen.example"}, true},
		{"OAuth, already read-only: one server", Config{OAuthIssuer: "https://kitchen.example", ReadOnly: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			s, err := Start(t.Context(), tt.cfg, b, slog.New(slog.NewTextHandler(&logs, nil)))
			if err != nil {
				t.Fatal(err)
			}
			if s.Server == nil || (s.Read != nil) != tt.wantRead {
				t.Errorf("servers = %+v, want a read server: %v", s, tt.wantRead)
			}
			if !strings.Contains(logs.String(), "connected to Mealie v2.0.0 as cook") {
				t.Errorf("no startup line:\n%s", logs.String())
			}
		})
	}
	if _, err := Start(t.Context(), Config{}, Backends{}, nil); !errors.Is(err, ErrNoBackends) {
		t.Errorf("no backends: err = %v", err)
	}
}

// serveOnce runs ListenAndServe in the background and returns the address
// it listens on; the server stops when the test ends.
func serveOnce(t *testing.T, c Config, s Servers) string {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- ListenAndServe(ctx, c, s, nil, func(a string) { addrs <- a }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ListenAndServe: %v", err)
		}
	})
	select {
	case a := <-addrs:
		return a
	case err := <-done:
		t.Fatalf("ListenAndServe: %v", err)
	}
	return ""
}

func TestListenAndServe(t *testing.T) {
	s, err := Start(t.Context(), Config{}, Remotes{RecipesURL: statusServer(t, "", statusRecipes{})}.Dial(), nil)
	if err != nil {
		t.Fatal(err)
	}
	status := func(method, url string) int {
		req := httptest.NewRequestWithContext(t.Context(), method, url, strings.NewReader(`{}`))
		req.RequestURI = ""
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}

	t.Run("path secret", func(t *testing.T) {
		addr := serveOnce(t, Config{Addr: "127.0.0.1:0", URLSecret: "s3cret"}, s)
		if got := status(http.MethodPost, "http://"+addr+"/mcp"); got != http.StatusNotFound {
			t.Errorf("/mcp without the secret: %d, want 404", got)
		}
	})
	t.Run("OAuth on the same listener", func(t *testing.T) {
		dir := t.TempDir()
		pass := filepath.Join(dir, "passphrase")
		if err := os.WriteFile(pass, []byte("correct horse battery staple\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		state := filepath.Join(dir, "state", "oauth.sqlite")
		addr := serveOnce(t, Config{Addr: "127.0.0.1:0", OAuthIssuer: "http://127.0.0.1", OAuthPassphraseFile: pass, OAuthState: state}, s)
		if got := status(http.MethodPost, "http://"+addr+"/mcp"); got != http.StatusUnauthorized {
			t.Errorf("/mcp without a token: %d, want 401", got)
		}
		if got := status(http.MethodGet, "http://"+addr+"/.well-known/oauth-authorization-server"); got != http.StatusOK {
			t.Errorf("authorization server metadata: %d, want 200", got)
		}
		st, err := os.Stat(filepath.Dir(state))
		if err != nil || st.Mode().Perm() != stateDirMode {
			t.Errorf("state directory: %v, %v; want mode %o", st, err, stateDirMode)
		}
	})
	t.Run("OAuth without a state path", func(t *testing.T) {
		err := ListenAndServe(t.Context(), Config{Addr: "127.0.0.1:0", OAuthIssuer: "http://127.0.0.1"}, s, nil, nil)
		if err == nil || !strings.Contains(err.Error(), "SOUS_OAUTH_STATE") {
			t.Errorf("err = %v", err)
		}
	})
}

// TestRunStdio: stdin ending and the context ending are both a normal
// end.
func TestRunStdio(t *testing.T) {
	s, err := Start(t.Context(), Config{}, Remotes{RecipesURL: statusServer(t, "", statusRecipes{})}.Dial(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := RunStdio(t.Context(), s.Server, strings.NewReader(""), io.Discard); err != nil {
		t.Errorf("stdin ending: err = %v, want nil", err)
	}
	stdin, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := RunStdio(ctx, s.Server, stdin, io.Discard); err != nil {
		t.Errorf("context ending: err = %v, want nil", err)
	}
}
