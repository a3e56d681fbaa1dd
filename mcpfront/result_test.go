package mcpfront

import (
	"strings"
	"testing"
	"unicode/utf8"
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
