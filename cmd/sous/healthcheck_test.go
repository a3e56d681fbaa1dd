package main

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"connectrpc.com/grpchealth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/mcpfront"
	"github.com/souskitchen/sous/mcpfront/oauth"
)

// testSecret is the MCP path secret under test: it must never reach stderr.
const testSecret = "s3cr3t-Path-9f"

// startTestServer serves h (HTTP/1.1 and h2c) on a loopback port until the
// test ends and returns its http:// base URL.
func startTestServer(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve.Run(ctx, serve.NewServer(h, slog.New(slog.DiscardHandler)), ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server shutdown: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// newTestOAuth opens an OAuth authorization server with its store in a
// temporary directory, as SOUS_OAUTH_ISSUER turns on.
func newTestOAuth(t *testing.T) *oauth.Server {
	t.Helper()
	dir := t.TempDir()
	pass := filepath.Join(dir, "passphrase")
	if err := os.WriteFile(pass, []byte("correct horse battery staple\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	as, err := oauth.New(oauth.Config{Issuer: "http://127.0.0.1:8765", PassphraseFile: pass, StatePath: filepath.Join(dir, "oauth.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = as.Close() })
	return as
}

// notServingChecker reports NOT_SERVING for everything.
type notServingChecker struct{}

func (notServingChecker) Check(context.Context, *grpchealth.CheckRequest) (*grpchealth.CheckResponse, error) {
	return &grpchealth.CheckResponse{Status: grpchealth.StatusNotServing}, nil
}

func TestHealthcheck(t *testing.T) {
	service := startTestServer(t, serve.Handler("svc-token"))
	notServing := http.NewServeMux()
	notServing.Handle(grpchealth.NewHandler(notServingChecker{}))
	sick := startTestServer(t, notServing)

	front := mcp.NewServer(&mcp.Implementation{Name: "sous-test", Version: "0"}, nil)
	mcpBase := startTestServer(t, mcpfront.HTTPHandler(front, mcpfront.HTTPOptions{PathSecret: testSecret, BearerToken: "mcp-token"}))
	openBase := startTestServer(t, mcpfront.HTTPHandler(front, mcpfront.HTTPOptions{}))
	oauthBase := startTestServer(t, mcpfront.HTTPHandler(front, mcpfront.HTTPOptions{OAuth: newTestOAuth(t)}))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	_ = ln.Close()

	for _, tc := range []struct {
		name       string
		args       []string
		bearer     string
		wantCode   int
		wantStderr string // a regexp the whole of stderr must match
	}{
		{name: "service serving", args: []string{service}, wantCode: exitHealthy, wantStderr: `^$`},
		{name: "service not serving", args: []string{sick},
			wantCode: exitUnhealthy, wantStderr: `^sous healthcheck: http://127\.0\.0\.1:\d+: status not_serving, want serving\n$`},
		{name: "service down", args: []string{down}, wantCode: exitUnhealthy, wantStderr: `^sous healthcheck: http://127\.0\.0\.1:\d+: [^\n]+\n$`},
		{name: "MCP with secret and token", args: []string{"--mcp", mcpBase + "/mcp/" + testSecret},
			bearer: "mcp-token", wantCode: exitHealthy, wantStderr: `^$`},
		{name: "MCP without auth", args: []string{"--mcp", openBase + "/mcp"}, wantCode: exitHealthy, wantStderr: `^$`},
		{name: "MCP with OAuth on: the challenge means up", args: []string{"--mcp", oauthBase + "/mcp"},
			wantCode: exitHealthy, wantStderr: `^$`},
		{name: "MCP with OAuth on, a stale token: still up", args: []string{"--mcp", oauthBase + "/mcp"},
			bearer: "not-an-access-token", wantCode: exitHealthy, wantStderr: `^$`},
		{name: "MCP with OAuth on, a wrong path", args: []string{"--mcp", oauthBase + "/mcp/" + testSecret},
			wantCode: exitUnhealthy, wantStderr: `^sous healthcheck: http://127\.0\.0\.1:\d+/…: [^\n]+\n$`},
		{name: "MCP without the token", args: []string{"--mcp", mcpBase + "/mcp/" + testSecret},
			wantCode: exitUnhealthy, wantStderr: `^sous healthcheck: http://127\.0\.0\.1:\d+/…: [^\n]+\n$`},
		{name: "MCP with a wrong secret", args: []string{"--mcp", mcpBase + "/mcp/" + testSecret + "x"},
			bearer: "mcp-token", wantCode: exitUnhealthy, wantStderr: `^sous healthcheck: http://127\.0\.0\.1:\d+/…: [^\n]+\n$`},
		{name: "MCP down", args: []string{"--mcp", down + "/mcp/" + testSecret + "?k=" + testSecret},
			wantCode: exitUnhealthy, wantStderr: `^sous healthcheck: http://127\.0\.0\.1:\d+/…: [^\n]+\n$`},
		{name: "MCP URL on a service", args: []string{"--mcp", service + "/mcp/" + testSecret},
			wantCode: exitUnhealthy, wantStderr: `^sous healthcheck: http://127\.0\.0\.1:\d+/…: [^\n]+\n$`},
		{name: "no URL", args: nil, wantCode: exitStartup, wantStderr: `^usage: sous healthcheck \[--mcp\] URL\n$`},
		{name: "two URLs", args: []string{service, service}, wantCode: exitStartup, wantStderr: `^usage: `},
		{name: "not http", args: []string{"ftp://127.0.0.1/" + testSecret}, wantCode: exitStartup,
			wantStderr: `^sous healthcheck: the URL must be http:// or https:// with a host\n$`},
		{name: "unparsable", args: []string{"http://127.0.0.1:x/%zz" + testSecret}, wantCode: exitStartup,
			wantStderr: `^sous healthcheck: the URL must be`},
		{name: "unknown flag", args: []string{"--bogus", service}, wantCode: exitStartup, wantStderr: `-bogus`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("SOUS_MCP_BEARER_TOKEN", tc.bearer)
			var stderr strings.Builder
			code := cmdHealthcheck(context.Background(), tc.args, &stderr)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d (stderr %q)", code, tc.wantCode, stderr.String())
			}
			if !regexp.MustCompile(tc.wantStderr).MatchString(stderr.String()) {
				t.Errorf("stderr %q, want it to match %q", stderr.String(), tc.wantStderr)
			}
			if strings.Contains(stderr.String(), testSecret) {
				t.Errorf("stderr %q shows the path secret", stderr.String())
			}
		})
	}
}

// TestHealthcheckFromRun checks the subcommand is wired into the command
// switch with its own exit statuses.
func TestHealthcheckFromRun(t *testing.T) {
	t.Chdir(t.TempDir())
	service := startTestServer(t, serve.Handler(""))
	var stdout, stderr strings.Builder
	if code := run([]string{"healthcheck", service}, strings.NewReader(""), &stdout, &stderr); code != exitHealthy {
		t.Errorf("sous healthcheck on a serving service: exit %d, stderr %q", code, stderr.String())
	}
}
