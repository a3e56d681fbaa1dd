package mcpfront

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestClipError: a refusal quoting a huge or multi-byte value comes back
// short, valid UTF-8, still naming the parameter and the value's length;
// short messages are untouched.
func TestClipError(t *testing.T) {
	huge := strings.Repeat("a", 1<<20)
	for _, tt := range []struct {
		name, msg string
		keep      []string
	}{
		{"short", `slug "toast" not found`, []string{`slug "toast" not found`}},
		{"validator", `invalid arguments: validating /properties/query: maxLength: "` + huge + `" contains 1048576 Unicode code points, more than 200`,
			[]string{"/properties/query", "(1048576 bytes)", "more than 200"}},
		{"multi-byte", `foods: "` + strings.Repeat("é", 500) + `"`, []string{"foods: "}},
		{"escaped quotes", `name "` + strings.Repeat(`a\"`, 100) + `" is long`, []string{"is long"}},
		{"unquoted", "cookbook " + huge + " not found", []string{"cookbook "}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := clipError(tt.msg)
			if len(got) > maxErrorText+len("…") {
				t.Errorf("%d bytes", len(got))
			}
			if !utf8.ValidString(got) {
				t.Errorf("not valid UTF-8: %q", got)
			}
			for _, k := range tt.keep {
				if !strings.Contains(got, k) {
					t.Errorf("lost %q: %.200s", k, got)
				}
			}
		})
	}
}

// TestToolErrorEmptyMessage: a Connect error that carries only its code
// reaches the model as a sentence, not as the code's one word; a message
// the service wrote is passed as written.
func TestToolErrorEmptyMessage(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"unavailable", connect.NewError(connect.CodeUnavailable, nil), "the service is unavailable; try again in a moment"},
		{"internal", connect.NewError(connect.CodeInternal, nil), "the service failed (internal) without saying why"},
		{"written", connect.NewError(connect.CodeUnavailable, errors.New("Mealie is unreachable at http://m:9000")), "Mealie is unreachable at http://m:9000"},
		{"plain", errors.New("start_date is not a date"), "start_date is not a date"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := toolError(tt.err)
			if !res.IsError || len(res.Content) != 1 {
				t.Fatalf("%+v", res)
			}
			if got := res.Content[0].(*mcp.TextContent).Text; got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
