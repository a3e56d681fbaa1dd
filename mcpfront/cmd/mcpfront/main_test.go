package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/mcpfront"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// testTimeout bounds one run of the front in a test, so a hang fails the
// test instead of stalling the suite.
const testTimeout = 30 * time.Second

// serviceToken is the SOUS_SERVICE_TOKEN the fake services require.
const serviceToken = "kitchen-door"

// The fake services answer GetStatus only: that is all the startup probe
// and tools/list need. statusErr, when set, is the probe's failure.
type (
	fakeRecipes struct {
		recipesv1connect.UnimplementedRecipesServiceHandler
		statusErr error
	}
	fakeMealPlan struct {
		mealplanv1connect.UnimplementedMealPlanServiceHandler
	}
	fakeLibrary struct {
		libraryv1connect.UnimplementedLibraryServiceHandler
	}
	fakePantry struct {
		pantryv1connect.UnimplementedPantryServiceHandler
	}
)

func (f fakeRecipes) GetStatus(context.Context, *connect.Request[recipesv1.GetStatusRequest]) (*connect.Response[recipesv1.GetStatusResponse], error) {
	if f.statusErr != nil {
		return nil, f.statusErr
	}
	return connect.NewResponse(&recipesv1.GetStatusResponse{MealieVersion: "v2.0.0", User: "cook"}), nil
}

func (fakeMealPlan) GetStatus(context.Context, *connect.Request[mealplanv1.GetStatusRequest]) (*connect.Response[mealplanv1.GetStatusResponse], error) {
	return connect.NewResponse(&mealplanv1.GetStatusResponse{MealieVersion: "v2.0.0", User: "cook"}), nil
}

func (fakeLibrary) GetStatus(context.Context, *connect.Request[libraryv1.GetStatusRequest]) (*connect.Response[libraryv1.GetStatusResponse], error) {
	return connect.NewResponse(&libraryv1.GetStatusResponse{MealieVersion: "v2.0.0", User: "cook"}), nil
}

func (fakePantry) GetStatus(context.Context, *connect.Request[pantryv1.GetStatusRequest]) (*connect.Response[pantryv1.GetStatusResponse], error) {
	return connect.NewResponse(&pantryv1.GetStatusResponse{}), nil
}

// startService serves one fake Connect service on a loopback port behind
// serviceToken, as a service's own binary would, and returns its base URL.
func startService(t *testing.T, name, path string, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	srv := serve.NewServer(serve.Handler(serviceToken, serve.Service{Name: name, Path: path, Handler: h}), slog.New(slog.DiscardHandler))
	go func() {
		defer close(done)
		_ = serve.Run(ctx, srv, ln)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String()
}

// services are the URLs of one set of fake services.
type services struct{ recipes, mealplan, library, pantry string }

func startServices(t *testing.T, recipes fakeRecipes) services {
	var s services
	p, h := recipesv1connect.NewRecipesServiceHandler(recipes)
	s.recipes = startService(t, recipesv1connect.RecipesServiceName, p, h)
	p, h = mealplanv1connect.NewMealPlanServiceHandler(fakeMealPlan{})
	s.mealplan = startService(t, mealplanv1connect.MealPlanServiceName, p, h)
	p, h = libraryv1connect.NewLibraryServiceHandler(fakeLibrary{})
	s.library = startService(t, libraryv1connect.LibraryServiceName, p, h)
	p, h = pantryv1connect.NewPantryServiceHandler(fakePantry{})
	s.pantry = startService(t, pantryv1connect.PantryServiceName, p, h)
	return s
}

// frontVars are every variable the front reads; isolate blanks them all
// (blank reads as unset) so the developer's environment cannot leak in,
// and moves to an empty directory so no .env is found.
var frontVars = []string{
	"SOUS_RECIPES_URL", "SOUS_MEALPLAN_URL", "SOUS_LIBRARY_URL", "SOUS_PANTRY_URL", "SOUS_SERVICE_TOKEN",
	"SOUS_TOOLSETS", "MEALIE_READ_ONLY", "MEALIE_LOG_LEVEL", "SOUS_IMAGE_DIR", "SOUS_MCP_ADDR",
	"FOOD_MCP_URL_SECRET", "SOUS_MCP_BEARER_TOKEN", "SOUS_PUBLIC_URL", "SOUS_DATA_DIR",
	"SOUS_OAUTH_ISSUER", "SOUS_OAUTH_PASSPHRASE_FILE", "SOUS_OAUTH_STATE", "SOUS_MCP_RATE_LIMIT",
}

func isolate(t *testing.T, vars map[string]string) {
	t.Helper()
	t.Chdir(t.TempDir())
	for _, v := range frontVars {
		t.Setenv(v, "")
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
}

// toolsetOf maps every catalog tool (upload_recipe_image aside, which needs
// SOUS_IMAGE_DIR) to its toolset.
func toolsetOf(t *testing.T) map[string]string {
	t.Helper()
	all := mcpfront.Remotes{RecipesURL: "http://a", MealPlanURL: "http://a", LibraryURL: "http://a", PantryURL: "http://a"}.Dial()
	tools, err := mcpfront.Select(all, mcpfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, tool := range tools {
		m[tool.Def.Name] = tool.Toolset
	}
	return m
}

// syncBuffer is stderr shared between the front and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// stdioSession runs the front over in-memory pipes with args and returns
// the tools it lists, its exit status once the client hangs up, and stderr.
func stdioSession(t *testing.T, args []string) (tools []*mcp.Tool, code int, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errBuf syncBuffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, args, inR, outW, &errBuf)
		_ = outW.Close()
		_ = inR.Close()
		done <- code
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err == nil {
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Errorf("tools/list: %v", err)
				break
			}
			tools = append(tools, tool)
		}
		_ = cs.Close()
	}
	_ = inW.Close()
	_ = outR.Close()
	select {
	case code = <-done:
	case <-ctx.Done():
		t.Fatalf("the front did not stop; stderr:\n%s", errBuf.String())
	}
	if err != nil && code == 0 {
		t.Fatalf("connect: %v; stderr:\n%s", err, errBuf.String())
	}
	return tools, code, errBuf.String()
}

// TestToolsetsFromConfig: which toolsets are on follows from the service
// URLs set and SOUS_TOOLSETS, with one line per service left out naming its
// variable, and the startup line saying what answered.
func TestToolsetsFromConfig(t *testing.T) {
	tests := []struct {
		name     string
		urls     func(services) map[string]string
		extra    map[string]string
		want     []string // toolsets on
		wantLog  []string
		readOnly bool
	}{
		{
			name: "every service", want: []string{"library", "mealplan", "pantry", "recipes", "shopping"},
			urls: func(s services) map[string]string {
				return map[string]string{"SOUS_RECIPES_URL": s.recipes, "SOUS_MEALPLAN_URL": s.mealplan, "SOUS_LIBRARY_URL": s.library, "SOUS_PANTRY_URL": s.pantry}
			},
			wantLog: []string{"connected to Mealie v2.0.0 as cook; food API ok"},
		},
		{
			name: "recipes alone: the others are off, each naming its variable", want: []string{"recipes"},
			urls: func(s services) map[string]string { return map[string]string{"SOUS_RECIPES_URL": s.recipes} },
			wantLog: []string{
				"mealplan, shopping toolsets off: set SOUS_MEALPLAN_URL to turn them on",
				"library toolset off: set SOUS_LIBRARY_URL to turn it on",
				"pantry toolset off: set SOUS_PANTRY_URL to turn it on",
				"connected to Mealie v2.0.0 as cook",
			},
		},
		{
			name: "shopping chosen: only mealplan is called", want: []string{"shopping"},
			urls:  func(s services) map[string]string { return map[string]string{"SOUS_MEALPLAN_URL": s.mealplan} },
			extra: map[string]string{"SOUS_TOOLSETS": "shopping"},
		},
		{
			name: "a chosen toolset without its URL is named; the rest run", want: []string{"pantry"},
			urls: func(s services) map[string]string {
				return map[string]string{"SOUS_PANTRY_URL": s.pantry, "SOUS_RECIPES_URL": ""}
			},
			extra:   map[string]string{"SOUS_TOOLSETS": "pantry, recipes"},
			wantLog: []string{"recipes toolset off: set SOUS_RECIPES_URL to turn it on", "food API ok"},
		},
		{
			name: "read-only mode lists read tools only", want: []string{"recipes"}, readOnly: true,
			urls:  func(s services) map[string]string { return map[string]string{"SOUS_RECIPES_URL": s.recipes} },
			extra: map[string]string{"MEALIE_READ_ONLY": "yes", "SOUS_TOOLSETS": "recipes"},
		},
	}
	svc := startServices(t, fakeRecipes{})
	toolsets := toolsetOf(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := tt.urls(svc)
			vars["SOUS_SERVICE_TOKEN"] = serviceToken
			for k, v := range tt.extra {
				vars[k] = v
			}
			isolate(t, vars)
			tools, code, stderr := stdioSession(t, []string{"--stdio"})
			if code != 0 {
				t.Fatalf("exit status %d; stderr:\n%s", code, stderr)
			}
			var on []string
			for _, tool := range tools {
				ts, ok := toolsets[tool.Name]
				if !ok {
					t.Errorf("tool %s is not in the catalog", tool.Name)
				}
				if !slices.Contains(on, ts) {
					on = append(on, ts)
				}
				if tt.readOnly && (tool.Annotations == nil || !tool.Annotations.ReadOnlyHint) {
					t.Errorf("read-only mode lists %s, which writes", tool.Name)
				}
			}
			slices.Sort(on)
			if !slices.Equal(on, tt.want) {
				t.Errorf("toolsets on = %v, want %v", on, tt.want)
			}
			for _, w := range tt.wantLog {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if got := strings.Count(stderr, "toolset"); got != countToolsetLines(tt.wantLog) {
				t.Errorf("%d lines mention toolsets, want %d:\n%s", got, countToolsetLines(tt.wantLog), stderr)
			}
		})
	}
}

func countToolsetLines(lines []string) int {
	n := 0
	for _, l := range lines {
		n += strings.Count(l, "toolset")
	}
	return n
}

// TestStartupFailure: a bad configuration or a failed probe is exit
// status 2 with one "mcpfront:" line on stderr, and nothing on stdout.
func TestStartupFailure(t *testing.T) {
	bad := startServices(t, fakeRecipes{statusErr: connect.NewError(connect.CodeUnauthenticated, errors.New("Mealie refused the API token"))})
	good := startServices(t, fakeRecipes{})
	tests := []struct {
		name string
		args []string
		vars map[string]string
		want string
	}{
		{"no service URL", []string{"--stdio"}, nil, "no backend is configured: set SOUS_RECIPES_URL"},
		{"a service's probe fails", nil, map[string]string{"SOUS_RECIPES_URL": bad.recipes, "SOUS_SERVICE_TOKEN": serviceToken}, "recipes service: Mealie refused the API token"},
		{"the wrong service token", nil, map[string]string{"SOUS_PANTRY_URL": good.pantry, "SOUS_SERVICE_TOKEN": "wrong"}, "pantry service:"},
		{"a service that is down", nil, map[string]string{"SOUS_LIBRARY_URL": "http://127.0.0.1:1"}, "library service:"},
		{"malformed boolean", nil, map[string]string{"SOUS_RECIPES_URL": good.recipes, "MEALIE_READ_ONLY": "perhaps"}, "MEALIE_READ_ONLY"},
		{"unknown toolset", nil, map[string]string{"SOUS_RECIPES_URL": good.recipes, "SOUS_SERVICE_TOKEN": serviceToken, "SOUS_TOOLSETS": "desserts"}, `unknown toolset "desserts"`},
		{"unreadable rate limit", []string{"--http"}, map[string]string{"SOUS_RECIPES_URL": good.recipes, "SOUS_SERVICE_TOKEN": serviceToken, "SOUS_MCP_RATE_LIMIT": "lots"}, `SOUS_MCP_RATE_LIMIT must be a whole number of requests a minute, or off; got "lots"`},
		{"OAuth beside the path secret", nil, map[string]string{"SOUS_RECIPES_URL": good.recipes, "SOUS_OAUTH_ISSUER": "https://kitchen.example", "FOOD_MCP_URL_SECRET": "s"}, "choose the path secret or OAuth"},
		{"both transports", []string{"--stdio", "--http"}, nil, "choose one of --stdio and --http"},
		{"a stray argument", []string{"serve"}, nil, `unexpected argument "serve"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t, tt.vars)
			var stdout, stderr bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			code := run(ctx, tt.args, strings.NewReader(""), &stdout, &stderr)
			if code != exitStartup {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitStartup, stderr.String())
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout carries %q", stdout.String())
			}
			var lines []string
			for _, l := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(l, "mcpfront:") {
					lines = append(lines, l)
				}
			}
			if len(lines) != 1 || !strings.Contains(lines[0], tt.want) {
				t.Errorf("stderr = %q, want one mcpfront: line with %q", stderr.String(), tt.want)
			}
		})
	}
}

// TestHTTP: --http serves on the address given, behind the bearer token,
// and stops cleanly with exit status 0 when its context ends.
func TestHTTP(t *testing.T) {
	svc := startServices(t, fakeRecipes{})
	isolate(t, map[string]string{
		"SOUS_RECIPES_URL": svc.recipes, "SOUS_SERVICE_TOKEN": serviceToken,
		"SOUS_MCP_BEARER_TOKEN": "front-door", "SOUS_MCP_ADDR": "127.0.0.1:1",
	})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(runCtx, []string{"--http", "--addr", "127.0.0.1:0"}, strings.NewReader(""), io.Discard, &stderr)
	}()

	// The front logs the address it listens on; --addr beats SOUS_MCP_ADDR.
	listening := regexp.MustCompile(`MCP over Streamable HTTP.*addr=(127\.0\.0\.1:\d+)`)
	var addr string
	for addr == "" {
		if m := listening.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
			break
		}
		select {
		case code := <-done:
			t.Fatalf("exit status %d before listening; stderr:\n%s", code, stderr.String())
		case <-ctx.Done():
			t.Fatalf("never listened; stderr:\n%s", stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}

	endpoint := "http://" + addr + "/mcp"
	resp, err := http.Post(endpoint, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the bearer token: status %d, want 401", resp.StatusCode)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearer{"front-door"}}}
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connect with the bearer token: %v", err)
	}
	n := 0
	for _, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	_ = cs.Close()
	if n == 0 {
		t.Error("no tools listed")
	}
	stop()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit status %d after shutdown; stderr:\n%s", code, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("did not stop")
	}
}

// bearer adds the MCP bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestBinary builds the command as a deployment does (go build, no
// Makefile) and checks the process's exit status for a start with nothing
// configured.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds the binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("skipping: no go command on PATH to build the binary")
	}
	bin := filepath.Join(t.TempDir(), "mcpfront")
	ctx, cancel := context.WithTimeout(context.Background(), 2*testTimeout)
	defer cancel()
	if out, err := exec.CommandContext(ctx, goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	version, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(version), "mcpfront ") {
		t.Errorf("--version = %q, %v", version, err)
	}
	cmd := exec.CommandContext(ctx, bin, "--stdio")
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitStartup {
		t.Errorf("with nothing configured: %v, want exit status %d; stderr:\n%s", err, exitStartup, stderr.String())
	}
}
