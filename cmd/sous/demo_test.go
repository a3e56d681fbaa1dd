package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBanner: every command the demo prints carries what the listener
// requires, and the Inspector's version is pinned (an unpinned npx on Node
// 20 gets an Inspector without --header that cannot reach /mcp/<secret>).
func TestBanner(t *testing.T) {
	base := banner{mcpAddr: "127.0.0.1:8765", connectAddr: "127.0.0.1:8080", mealieURL: "http://127.0.0.1:1", mealieToken: "m", food: "off",
		grpcurl: "GOWORK=off go tool -modfile=tools/go.mod grpcurl"}
	secret, bearer, svc := base, base, base
	secret.pathSecret, bearer.bearer, svc.serviceToken = true, true, true
	tests := []struct {
		name    string
		b       banner
		want    []string
		wantNot []string
	}{
		{"no auth", base, []string{
			`npx -y @modelcontextprotocol/inspector@2.12.0 --cli "http://127.0.0.1:8765/mcp" --transport http --method tools/list`,
			`claude mcp add --transport http sous "http://127.0.0.1:8765/mcp"` + "\n",
			"\n  GOWORK=off go tool -modfile=tools/go.mod grpcurl -plaintext 127.0.0.1:8080 list\n",
		}, []string{"Authorization", "in that shell"}},
		{"path secret", secret, []string{
			`MCP (Streamable HTTP):  http://127.0.0.1:8765/mcp/$FOOD_MCP_URL_SECRET`,
			`--cli "http://127.0.0.1:8765/mcp/$FOOD_MCP_URL_SECRET" --transport http --method tools/list`,
			`(with FOOD_MCP_URL_SECRET set in that shell`,
		}, []string{"Authorization"}},
		{"bearer", bearer, []string{
			`--cli "http://127.0.0.1:8765/mcp" --transport http --header "Authorization: Bearer $SOUS_MCP_BEARER_TOKEN" --method tools/list`,
			`claude mcp add --transport http sous "http://127.0.0.1:8765/mcp" --header "Authorization: Bearer $SOUS_MCP_BEARER_TOKEN"`,
			`(with SOUS_MCP_BEARER_TOKEN set in that shell`,
		}, []string{"SOUS_SERVICE_TOKEN"}},
		{"service token", svc, []string{
			`grpcurl -plaintext -H "Authorization: Bearer $SOUS_SERVICE_TOKEN" 127.0.0.1:8080 list` + "\n",
			`(with SOUS_SERVICE_TOKEN set in that shell`,
		}, []string{"SOUS_MCP_BEARER_TOKEN"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			writeBanner(&out, tt.b)
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("banner lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(out.String(), w) {
					t.Errorf("banner has %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestGrpcurlPin: the grpcurl the banner runs with go run outside a
// checkout is the one tools/go.mod pins for go tool.
func TestGrpcurlPin(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "tools", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "github.com/fullstorydev/grpcurl " + grpcurlVersion + " "; !strings.Contains(string(b), want) {
		t.Errorf("tools/go.mod does not require %q: keep grpcurlVersion and tools/go.mod together", want)
	}
}

func TestGrpcurlCommand(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir, want string
	}{
		{root, "GOWORK=off go tool -modfile=tools/go.mod grpcurl"},
		{".", "GOWORK=off go tool -C " + shellQuote(root) + " -modfile=tools/go.mod grpcurl"},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			t.Chdir(tt.dir)
			if got := grpcurlCommand(); got != tt.want {
				t.Errorf("grpcurlCommand() in %s = %q, want %q", tt.dir, got, tt.want)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/home/you/src/sous", "/home/you/src/sous"},
		{"/home/you/my sous", "'/home/you/my sous'"},
		{"/tmp/it's", `'/tmp/it'\''s'`},
	}
	for _, tt := range tests {
		if got := shellQuote(tt.in); got != tt.want {
			t.Errorf("shellQuote(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
