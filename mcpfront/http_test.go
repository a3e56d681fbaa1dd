package mcpfront

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestHTTPGuard(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tests := []struct {
		name     string
		opts     HTTPOptions
		path     string
		host     string
		origin   string
		auth     string
		wantCode int
	}{
		{name: "plain /mcp", path: "/mcp", wantCode: http.StatusOK},
		{name: "plain /mcp/", path: "/mcp/", wantCode: http.StatusOK},
		{name: "unknown path", path: "/other", wantCode: http.StatusNotFound},
		{name: "mcp prefix only", path: "/mcpx", wantCode: http.StatusNotFound},
		{name: "secret path", opts: HTTPOptions{PathSecret: "s3cret"}, path: "/mcp/s3cret", wantCode: http.StatusOK},
		{name: "secret path slash", opts: HTTPOptions{PathSecret: "s3cret"}, path: "/mcp/s3cret/", wantCode: http.StatusOK},
		{name: "wrong secret", opts: HTTPOptions{PathSecret: "s3cret"}, path: "/mcp/s3cre", wantCode: http.StatusNotFound},
		{name: "secret with suffix", opts: HTTPOptions{PathSecret: "s3cret"}, path: "/mcp/s3cret/x", wantCode: http.StatusNotFound},
		{name: "bare /mcp with secret set", opts: HTTPOptions{PathSecret: "s3cret"}, path: "/mcp", wantCode: http.StatusNotFound},
		{name: "bearer missing", opts: HTTPOptions{BearerToken: "tok"}, path: "/mcp", wantCode: http.StatusUnauthorized},
		{name: "bearer wrong", opts: HTTPOptions{BearerToken: "tok"}, path: "/mcp", auth: "Bearer nope", wantCode: http.StatusUnauthorized},
		{name: "bearer right", opts: HTTPOptions{BearerToken: "tok"}, path: "/mcp", auth: "Bearer tok", wantCode: http.StatusOK},
		{name: "foreign origin", path: "/mcp", origin: "https://evil.example", wantCode: http.StatusForbidden},
		{name: "loopback origin", path: "/mcp", origin: "http://localhost:6274", wantCode: http.StatusOK},
		{name: "public origin", opts: HTTPOptions{PublicURL: "https://kitchen.example.com"}, path: "/mcp", host: "kitchen.example.com", origin: "https://kitchen.example.com", wantCode: http.StatusOK},
		{name: "foreign host (rebinding)", path: "/mcp", host: "attacker.example", wantCode: http.StatusForbidden},
		{name: "public host", opts: HTTPOptions{PublicURL: "https://kitchen.example.com"}, path: "/mcp", host: "kitchen.example.com", wantCode: http.StatusOK},
		{name: "other host with public URL", opts: HTTPOptions{PublicURL: "https://kitchen.example.com"}, path: "/mcp", host: "attacker.example", wantCode: http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := HTTPHandler(server, tt.opts)
			req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8765"+tt.path, strings.NewReader(initBody))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.host != "" {
				req.Host = tt.host
			}
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.wantCode {
				t.Fatalf("status = %d, want %d; body %q", rec.Code, tt.wantCode, rec.Body.String())
			}
			if loc := rec.Header().Get("Location"); loc != "" {
				t.Errorf("answered with a redirect to %q", loc)
			}
			if tt.wantCode == http.StatusUnauthorized && !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("401 without WWW-Authenticate: Bearer")
			}
			if tt.wantCode == http.StatusOK && rec.Header().Get("X-Accel-Buffering") != "no" {
				t.Errorf("missing X-Accel-Buffering: no")
			}
			if tt.opts.PathSecret != "" && strings.Contains(rec.Body.String(), tt.opts.PathSecret) {
				t.Errorf("the secret appears in the answer")
			}
		})
	}
}

func TestPageHint(t *testing.T) {
	tests := []struct {
		page, shown, total, totalPages int
		want                           string
	}{
		{1, 5, 5, 1, ""},
		{1, 0, 0, 0, ""},
		{1, 20, 143, 8, "showing 20 of 143 — pass page=2"},
		{2, 20, 143, 8, "showing 20 of 143 (page 2 of 8) — pass page=3"},
		{8, 3, 143, 8, "showing 3 of 143 (page 8 of 8, the last)"},
		{9, 0, 143, 8, "page 9 is past the last page (8) of 143"},
	}
	for _, tt := range tests {
		if got := pageHint(tt.page, tt.shown, tt.total, tt.totalPages); got != tt.want {
			t.Errorf("pageHint(%d,%d,%d,%d) = %q, want %q", tt.page, tt.shown, tt.total, tt.totalPages, got, tt.want)
		}
	}
}
