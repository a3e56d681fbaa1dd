package recovery

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/emptypb"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{in: "no url here", want: "no url here"},
		{in: "GET https://mealie.example/api/recipes?token=abc failed", want: "GET https://mealie.example/… failed"},
		{in: "http://user:pw@127.0.0.1:9000/mcp/s3cret", want: "http://127.0.0.1:9000/…"},
		{in: `"https://a.example/x" and HTTPS://B.example`, want: `"https://a.example/…" and HTTPS://B.example/…`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestConnect: a panicking Connect handler answers CodeInternal naming the
// procedure, logs once at error level with the stack and without the
// secrets in the panic value, and the next call is served. Without the
// option the handler's panic reaches net/http, which drops the connection:
// the client sees Unavailable, not Internal.
func TestConnect(t *testing.T) {
	const procedure = "/test.v1.TestService/Boom"
	tests := []struct {
		name     string
		panicVal any
		leak     string
	}{
		{name: "string with a URL secret", panicVal: "reading https://u:pw@mealie.example/api?token=s3cr3t", leak: "s3cr3t"},
		{name: "a runtime error", panicVal: func() (v any) {
			defer func() { v = recover() }()
			deref(nil)
			return nil
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			calls := 0
			h := connect.NewUnaryHandler(procedure, func(context.Context, *connect.Request[emptypb.Empty]) (*connect.Response[emptypb.Empty], error) {
				calls++
				if calls == 1 {
					panic(tt.panicVal)
				}
				return connect.NewResponse(&emptypb.Empty{}), nil
			}, Connect(slog.New(slog.NewTextHandler(&logs, nil))))
			mux := http.NewServeMux()
			mux.Handle(procedure, h)
			srv := httptest.NewServer(mux)
			defer srv.Close()
			client := connect.NewClient[emptypb.Empty, emptypb.Empty](srv.Client(), srv.URL+procedure)
			_, err := client.CallUnary(t.Context(), connect.NewRequest(&emptypb.Empty{}))
			if connect.CodeOf(err) != connect.CodeInternal || !Recovered(err) {
				t.Fatalf("err = %v, want Internal with %q", err, Message(procedure))
			}
			if _, err := client.CallUnary(t.Context(), connect.NewRequest(&emptypb.Empty{})); err != nil {
				t.Errorf("call after the panic: %v", err)
			}
			out := logs.String()
			if strings.Count(out, "level=ERROR") != 1 || !strings.Contains(out, "runtime/debug.Stack") {
				t.Errorf("want one error record with a stack, got:\n%s", out)
			}
			if tt.leak != "" && (strings.Contains(out, tt.leak) || strings.Contains(out, "u:pw")) {
				t.Errorf("log carries a secret:\n%s", out)
			}
		})
	}
}

// deref reads through p, a nil pointer in the test: a runtime error panic.
func deref(p *int) int { return *p }
