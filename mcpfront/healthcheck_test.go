package mcpfront

import (
	"errors"
	"net/url"
	"testing"
)

func TestRedactURLError(t *testing.T) {
	for _, tc := range []struct {
		rawURL, msg, want string
	}{
		{rawURL: "http://h:1/mcp/abc", msg: `Post "http://h:1/mcp/abc": refused`, want: `http://h:1/…: Post "http://h:1/…": refused`},
		{rawURL: "http://h:1/mcp/a%20b", msg: `Post "http://h:1/mcp/a%20b": x; path /mcp/a b`, want: `http://h:1/…: Post "http://h:1/…": x; path /…`},
		{rawURL: "http://h:1/p?tok=abc#frag", msg: `Get "http://h:1/p?tok=abc#frag"`, want: `http://h:1/…: Get "http://h:1/…?…#…"`},
		{rawURL: "http://h:1/", msg: `Post "http://h:1/": refused`, want: `http://h:1: Post "http://h:1/": refused`},
		{rawURL: "http://h:1", msg: `Post "http://h:1": refused`, want: `http://h:1: Post "http://h:1": refused`},
	} {
		u, err := url.Parse(tc.rawURL)
		if err != nil {
			t.Fatal(err)
		}
		if got := RedactURLError(u, errors.New(tc.msg)).Error(); got != tc.want {
			t.Errorf("RedactURLError(%s, %q) = %q, want %q", tc.rawURL, tc.msg, got, tc.want)
		}
	}
}

func TestHealthEndpoint(t *testing.T) {
	for _, tc := range []struct {
		secret, addr, want string
	}{
		{"", "127.0.0.1:8765", "http://127.0.0.1:8765/mcp"},
		{"s3cr3t", "0.0.0.0:8765", "http://127.0.0.1:8765/mcp/s3cr3t"},
		{"a b", "[::]:9000", "http://[::1]:9000/mcp/a%20b"},
	} {
		got, err := HealthEndpoint(Config{URLSecret: tc.secret}, tc.addr)
		if err != nil || got != tc.want {
			t.Errorf("HealthEndpoint(%q, %s) = %q, %v; want %q", tc.secret, tc.addr, got, err, tc.want)
		}
	}
	if _, err := HealthEndpoint(Config{}, "no-port"); err == nil {
		t.Error("an address without a port was accepted")
	}
}

// Ping refuses what is not an http(s) URL without quoting it.
func TestPingBadEndpoint(t *testing.T) {
	err := Ping(t.Context(), "ftp://127.0.0.1/secret", "")
	if err == nil || err.Error() != "the MCP endpoint must be an http:// or https:// URL with a host" {
		t.Errorf("err = %v", err)
	}
}
