package main

import (
	"bytes"
	"strings"
	"testing"
)

// A setting sous cannot read stops every command that loads the
// configuration: exit status 2 and one stderr line naming the variable,
// before anything listens or reaches Mealie.
func TestBadSettingFailsStartup(t *testing.T) {
	tests := []struct {
		name string
		args []string
		vars map[string]string
		want string
	}{
		{"rate limit, mcp", []string{"mcp", "--http"}, map[string]string{"SOUS_MCP_RATE_LIMIT": "fast"}, `SOUS_MCP_RATE_LIMIT must be a whole number of requests a minute, or off; got "fast"`},
		{"negative rate limit, serve", []string{"serve"}, map[string]string{"SOUS_MCP_RATE_LIMIT": "-5"}, "SOUS_MCP_RATE_LIMIT"},
		{"read-only flag, mcp", []string{"mcp"}, map[string]string{"MEALIE_READ_ONLY": "perhaps"}, "MEALIE_READ_ONLY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir()) // no .env upward
			for _, v := range []string{"SOUS_MCP_RATE_LIMIT", "MEALIE_READ_ONLY", "SOUS_TOOLSETS", "SOUS_OAUTH_ISSUER",
				"FOOD_MCP_URL_SECRET", "SOUS_MCP_BEARER_TOKEN", "MEALIE_VERIFY_SSL", "SOUS_LINKCHECK_ALLOW_PRIVATE"} {
				t.Setenv(v, "")
			}
			// A Mealie that cannot answer: reaching it would be a different
			// failure than the one wanted.
			t.Setenv("MEALIE_URL", "http://127.0.0.1:1")
			t.Setenv("MEALIE_API_TOKEN", "t")
			for k, v := range tt.vars {
				t.Setenv(k, v)
			}
			var stdout, stderr bytes.Buffer
			code := run(tt.args, strings.NewReader(""), &stdout, &stderr)
			if code != exitStartup {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", code, exitStartup, stderr.String())
			}
			lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "sous: ") || !strings.Contains(lines[0], tt.want) {
				t.Errorf("stderr = %q, want one sous: line with %q", stderr.String(), tt.want)
			}
		})
	}
}
