package main

import (
	"context"
	"io"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"
)

// frontSecret is the path secret of the front under test: it must never
// reach the health check's stderr.
const frontSecret = "s3cr3t-Front-7c"

// TestHealthcheckFlag: --healthcheck pings the front serving --http with
// the same configuration (address, path secret, bearer token): 0 and
// silence when it answers, 1 and one line without the secret when it does
// not, 2 only for a command-line mistake.
func TestHealthcheckFlag(t *testing.T) {
	svc := startServices(t, fakeRecipes{})
	vars := map[string]string{
		"SOUS_RECIPES_URL": svc.recipes, "SOUS_SERVICE_TOKEN": serviceToken,
		"FOOD_MCP_URL_SECRET": frontSecret, "SOUS_MCP_BEARER_TOKEN": "front-door",
	}
	isolate(t, vars)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	var frontErr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(runCtx, []string{"--http", "--addr", "127.0.0.1:0"}, strings.NewReader(""), io.Discard, &frontErr)
	}()
	defer func() {
		stop()
		select {
		case <-done:
		case <-ctx.Done():
			t.Error("the front did not stop")
		}
	}()
	listening := regexp.MustCompile(`MCP over Streamable HTTP.*addr=(127\.0\.0\.1:\d+)`)
	var addr string
	for addr == "" {
		if m := listening.FindStringSubmatch(frontErr.String()); m != nil {
			addr = m[1]
			break
		}
		select {
		case code := <-done:
			t.Fatalf("exit status %d before listening; stderr:\n%s", code, frontErr.String())
		case <-ctx.Done():
			t.Fatalf("never listened; stderr:\n%s", frontErr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := ln.Addr().String()
	_ = ln.Close()

	for _, tc := range []struct {
		name       string
		args       []string
		vars       map[string]string
		wantCode   int
		wantStderr string // a regexp the whole of stderr must match
	}{
		{"the front answers", []string{"--healthcheck", "--addr", addr}, nil, exitHealthy, `^$`},
		{"SOUS_MCP_ADDR when no --addr", []string{"--healthcheck"}, map[string]string{"SOUS_MCP_ADDR": addr}, exitHealthy, `^$`},
		{"a wrong bearer token", []string{"--healthcheck", "--addr", addr}, map[string]string{"SOUS_MCP_BEARER_TOKEN": "wrong"},
			exitUnhealthy, `^mcpfront: health check: http://127\.0\.0\.1:\d+/…: [^\n]+\n$`},
		{"a wrong path secret", []string{"--healthcheck", "--addr", addr}, map[string]string{"FOOD_MCP_URL_SECRET": frontSecret + "x"},
			exitUnhealthy, `^mcpfront: health check: http://127\.0\.0\.1:\d+/…: [^\n]+\n$`},
		{"nothing listening", []string{"--healthcheck", "--addr", down}, nil,
			exitUnhealthy, `^mcpfront: health check: http://127\.0\.0\.1:\d+/…: [^\n]+\n$`},
		{"a configuration no front runs with", []string{"--healthcheck", "--addr", addr}, map[string]string{"SOUS_MCP_RATE_LIMIT": "lots"},
			exitUnhealthy, `^mcpfront: health check: SOUS_MCP_RATE_LIMIT [^\n]+\n$`},
		{"with a transport", []string{"--healthcheck", "--http"}, nil, exitStartup, `^mcpfront: --healthcheck checks a running front`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.vars {
				t.Setenv(k, v)
			}
			var stdout, stderr strings.Builder
			code := run(ctx, tc.args, strings.NewReader(""), &stdout, &stderr)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d (stderr %q)", code, tc.wantCode, stderr.String())
			}
			if !regexp.MustCompile(tc.wantStderr).MatchString(stderr.String()) {
				t.Errorf("stderr %q, want it to match %q", stderr.String(), tc.wantStderr)
			}
			if strings.Contains(stderr.String(), frontSecret) || stdout.Len() > 0 {
				t.Errorf("stderr %q shows the path secret, or stdout %q is not empty", stderr.String(), stdout.String())
			}
		})
	}
}
