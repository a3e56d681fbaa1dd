package serve_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// testAddrVar is the listen-address variable of the commands under test:
// a name of its own, so no real service's variable leaks in.
const testAddrVar = "SOUS_SERVETEST_ADDR"

// testAddr reads testAddrVar the way the service mains read theirs.
func testAddr(def string) func() string {
	return func() string { return env.String(testAddrVar, def) }
}

// startServer serves h (HTTP/1.1 and h2c, as in production) on a loopback
// port until the test ends, and returns its address.
func startServer(t *testing.T, h http.Handler) string {
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
	return ln.Addr().String()
}

// closedAddr returns a loopback address nothing listens on any more.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// notServing reports NOT_SERVING for everything.
type notServing struct{}

func (notServing) Check(context.Context, *grpchealth.CheckRequest) (*grpchealth.CheckResponse, error) {
	return &grpchealth.CheckResponse{Status: grpchealth.StatusNotServing}, nil
}

func notServingHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(grpchealth.NewHandler(notServing{}))
	return mux
}

// isolate runs the test from an empty directory, so no .env above the
// source tree fills variables in, and clears the variables Command reads.
func isolate(t *testing.T) {
	t.Helper()
	t.Chdir(t.TempDir())
	for _, v := range []string{testAddrVar, "MEALIE_LOG_LEVEL", "MEALIE_READ_ONLY", "SOUS_SERVICE_TOKEN"} {
		t.Setenv(v, "")
	}
}

func TestLocalURL(t *testing.T) {
	for _, tc := range []struct {
		addr, want string
		wantErr    bool
	}{
		{addr: "0.0.0.0:8080", want: "http://127.0.0.1:8080"},
		{addr: ":8080", want: "http://127.0.0.1:8080"},
		{addr: "[::]:8080", want: "http://[::1]:8080"},
		{addr: "127.0.0.1:8081", want: "http://127.0.0.1:8081"},
		{addr: "[::1]:8081", want: "http://[::1]:8081"},
		{addr: "recipes:8080", want: "http://recipes:8080"},
		{addr: "8080", wantErr: true},
		{addr: "", wantErr: true},
	} {
		got, err := serve.LocalURL(tc.addr)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("LocalURL(%q) = %q, %v; want %q, error %v", tc.addr, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestCheck(t *testing.T) {
	serving := "http://" + startServer(t, newHandler("tok"))
	for _, tc := range []struct {
		name, url, service string
		wantErr            string // "" for SERVING
	}{
		{name: "server as a whole", url: serving},
		{name: "one service", url: serving, service: recipesv1connect.RecipesServiceName},
		{name: "trailing slash", url: serving + "/"},
		{name: "unknown service", url: serving, service: "sous.nothing.v1.Nothing", wantErr: "not_found"},
		{name: "not serving", url: "http://" + startServer(t, notServingHandler()), wantErr: "status NOT_SERVING"},
		{name: "nothing listening", url: "http://" + closedAddr(t), wantErr: "unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := serve.Check(context.Background(), tc.url, tc.service)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("Check: %v, want SERVING", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tc.wantErr))):
				t.Errorf("Check: %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestCheckEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := serve.Check(ctx, "http://"+startServer(t, newHandler("")), "")
	if connect.CodeOf(err) != connect.CodeCanceled {
		t.Errorf("Check with an ended context: %v, want Canceled", err)
	}
}

func TestCommandRun(t *testing.T) {
	serving := startServer(t, newHandler("tok"))
	_, servingPort, _ := net.SplitHostPort(serving)
	notServingAddr := startServer(t, notServingHandler())
	down := closedAddr(t)
	errBuild := errors.New("Mealie answered 401: check MEALIE_API_TOKEN")

	for _, tc := range []struct {
		name       string
		args       []string
		env        map[string]string
		dotenv     string // the .env in the working directory
		buildErr   error
		wantCode   int
		wantStderr string // a regexp the whole of stderr must match
		wantBuild  bool
	}{
		{name: "healthcheck serving", args: []string{"--healthcheck"},
			env: map[string]string{testAddrVar: serving}, wantCode: serve.ExitOK, wantStderr: `^$`},
		{name: "healthcheck on a wildcard address reaches loopback", args: []string{"-healthcheck"},
			env: map[string]string{testAddrVar: "0.0.0.0:" + servingPort}, wantCode: serve.ExitOK, wantStderr: `^$`},
		{name: "healthcheck not serving", args: []string{"--healthcheck"},
			env:      map[string]string{testAddrVar: notServingAddr},
			wantCode: serve.ExitUnhealthy, wantStderr: `^svc: health check: status not_serving, want serving\n$`},
		{name: "healthcheck with nothing listening", args: []string{"--healthcheck"},
			env:      map[string]string{testAddrVar: down},
			wantCode: serve.ExitUnhealthy, wantStderr: `^svc: health check: [^\n]+\n$`},
		{name: "healthcheck on a bad address", args: []string{"--healthcheck"},
			env:      map[string]string{testAddrVar: "nowhere"},
			wantCode: serve.ExitUnhealthy, wantStderr: `^svc: health check: listen address "nowhere": [^\n]+\n$`},
		{name: "healthcheck reads the address from .env", args: []string{"--healthcheck"},
			dotenv: testAddrVar + "=" + serving + "\n", wantCode: serve.ExitOK, wantStderr: `^$`},
		{name: "healthcheck builds nothing", args: []string{"--healthcheck"},
			env: map[string]string{testAddrVar: serving, "MEALIE_READ_ONLY": "maybe"}, wantCode: serve.ExitOK, wantStderr: `^$`},
		{name: "unknown flag", args: []string{"--bogus"}, wantCode: serve.ExitStartup, wantStderr: `flag provided but not defined: -bogus`},
		{name: "stray argument", args: []string{"extra"}, wantCode: serve.ExitStartup, wantStderr: `^svc: unexpected argument "extra"\n$`},
		{name: "help", args: []string{"-h"}, wantCode: serve.ExitOK, wantStderr: `-healthcheck`},
		{name: "bad read-only flag", env: map[string]string{"MEALIE_READ_ONLY": "maybe"},
			wantCode: serve.ExitStartup, wantStderr: `^svc: MEALIE_READ_ONLY="maybe" is not a boolean[^\n]*\n$`},
		{name: "bad log level", env: map[string]string{"MEALIE_LOG_LEVEL": "loud"},
			wantCode: serve.ExitStartup, wantStderr: `^svc: MEALIE_LOG_LEVEL="loud" is not a level[^\n]*\n$`},
		{name: "build fails", env: map[string]string{"SOUS_SERVICE_TOKEN": "tok"}, buildErr: errBuild, wantBuild: true,
			wantCode: serve.ExitStartup, wantStderr: `^svc: Mealie answered 401: check MEALIE_API_TOKEN\n$`},
		{name: "build fails, no token warned", buildErr: errBuild, wantBuild: true,
			wantCode: serve.ExitStartup, wantStderr: `(?s)^[^\n]*level=WARN msg="SOUS_SERVICE_TOKEN is not set[^\n]*\nsvc: Mealie answered 401[^\n]*\n$`},
		{name: "address in use", env: map[string]string{testAddrVar: serving}, wantBuild: true,
			wantCode: serve.ExitStartup, wantStderr: `\nsvc: listen tcp [^\n]*\n$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			if tc.dotenv != "" {
				// godotenv fills only variables that are not set at all.
				_ = os.Unsetenv(testAddrVar)
				if err := os.WriteFile(".env", []byte(tc.dotenv), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			built := false
			c := serve.Command{Name: "svc", Addr: testAddr(down),
				Build: func(context.Context, serve.Setup) ([]serve.Service, error) {
					built = true
					return nil, tc.buildErr
				}}
			var stderr strings.Builder
			code := c.Run(context.Background(), tc.args, &stderr)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d", code, tc.wantCode)
			}
			if !regexp.MustCompile(tc.wantStderr).MatchString(stderr.String()) {
				t.Errorf("stderr %q, want it to match %q", stderr.String(), tc.wantStderr)
			}
			if built != tc.wantBuild {
				t.Errorf("Build called: %v, want %v", built, tc.wantBuild)
			}
		})
	}
}

// servingAddr matches the address ListenAndServe logs once it listens.
var servingAddr = regexp.MustCompile(`msg=serving addr=(\S+)`)

func TestCommandServes(t *testing.T) {
	isolate(t)
	t.Setenv(testAddrVar, "127.0.0.1:0")
	t.Setenv("SOUS_SERVICE_TOKEN", "tok")
	t.Setenv("MEALIE_READ_ONLY", "yes")
	t.Setenv("MEALIE_LOG_LEVEL", "debug")

	var got serve.Setup
	c := serve.Command{Name: "svc", Addr: testAddr("127.0.0.1:1"),
		Build: func(_ context.Context, s serve.Setup) ([]serve.Service, error) {
			got = s
			path, h := recipesv1connect.NewRecipesServiceHandler(statusService{})
			return []serve.Service{{Name: recipesv1connect.RecipesServiceName, Path: path, Handler: h}}, nil
		}}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := c.Run(ctx, nil, pw)
		_ = pw.Close()
		done <- code
	}()
	addrc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := servingAddr.FindStringSubmatch(sc.Text()); m != nil {
				addrc <- m[1]
			}
		}
		close(addrc)
	}()
	addr, ok := <-addrc
	if !ok {
		t.Fatalf("Run ended without serving: exit status %d", <-done)
	}
	if !got.ReadOnly || got.Token != "tok" || got.Logger == nil || !got.Logger.Enabled(ctx, slog.LevelDebug) {
		t.Errorf("Build got %+v, want read-only, token tok and a debug logger", got)
	}

	base := "http://" + addr
	if err := serve.Check(ctx, base, recipesv1connect.RecipesServiceName); err != nil {
		t.Errorf("health of the served service: %v", err)
	}
	hc := serve.HTTPClient(base)
	anon := recipesv1connect.NewRecipesServiceClient(hc, base, connect.WithGRPC())
	if _, err := anon.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{})); connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Errorf("GetStatus without the token: %v, want Unauthenticated", err)
	}
	authed := recipesv1connect.NewRecipesServiceClient(hc, base, connect.WithGRPC(),
		connect.WithInterceptors(svcauth.ClientInterceptor("tok")))
	if _, err := authed.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{})); err != nil {
		t.Errorf("GetStatus with the token: %v", err)
	}

	hc.CloseIdleConnections()
	cancel()
	if code := <-done; code != serve.ExitOK {
		t.Errorf("exit status after the context ended: %d, want 0", code)
	}
}
