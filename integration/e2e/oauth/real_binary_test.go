package oauth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	"github.com/souskitchen/sous/mcpfront/oauth"
)

// catalogJSON is a session's tools/list as JSON, for comparing two
// catalogs definition by definition.
func catalogJSON(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(res.Tools, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	b, err := json.MarshalIndent(res.Tools, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readOnlyCatalog is what `sous mcp --stdio` with MEALIE_READ_ONLY=true
// shows against em: the catalog an mcp:read token must see.
func readOnlyCatalog(t *testing.T, em *mealieemu.Server) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cmd := exec.Command(sousBinary(t), "mcp", "--stdio")
	cmd.Env = baseEnv("MEALIE_URL="+em.URL, "MEALIE_API_TOKEN="+em.Token, "MEALIE_READ_ONLY=true")
	cmd.Dir = t.TempDir()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "oauth-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	return catalogJSON(t, cs)
}

// The real `sous mcp --http` with OAuth against the Mealie emulator: the
// go-sdk client registers, runs PKCE and the consent page, and lists and
// calls tools. A read-and-write token sees the whole catalog; an mcp:read
// token sees exactly what read-only mode shows and its writes never reach
// Mealie. `sous oauth clients` lists both clients; after `sous oauth
// revoke`, the revoked client's token gets 401 with the metadata pointer.
func TestRealBinaryOAuth(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	st := startSousMCP(t, em)

	full, _ := connect(t, st.stack, "client_secret_post", func(cb *callback) auth.AuthorizationCodeFetcher {
		return formFetcher(cb, passphrase, []string{oauth.ScopeRead, oauth.ScopeWrite})
	})
	names := toolNames(t, full)
	for _, want := range []string{"create_recipe", "delete_recipe", "search_recipes", "manage_taxonomy"} {
		if !slices.Contains(names, want) {
			t.Errorf("a read-and-write token does not see %s: %v", want, names)
		}
	}
	if text, isErr := harness.Call(t, full, testTimeout, "search_recipes", map[string]any{"query": "soup"}); isErr {
		t.Fatalf("search_recipes: %s", text)
	}

	read, readHandler := connect(t, st.stack, "none", func(cb *callback) auth.AuthorizationCodeFetcher {
		return formFetcher(cb, passphrase, []string{oauth.ScopeRead})
	})
	if got, want := catalogJSON(t, read), readOnlyCatalog(t, em); got != want {
		t.Errorf("an mcp:read token's catalog differs from read-only mode's:\n got %s\nwant %s", got, want)
	}
	if text, isErr := harness.Call(t, read, testTimeout, "search_recipes", map[string]any{"query": "soup"}); isErr {
		t.Fatalf("search_recipes with mcp:read: %s", text)
	}
	before := len(em.Requests())
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"create_recipe", map[string]any{"name": "Nope"}},
		{"delete_recipe", map[string]any{"slug": "pancakes", "confirm_slug": "pancakes"}},
		{"manage_taxonomy", map[string]any{"resource": "tags", "action": "create", "name": "Nope"}},
	} {
		if text, isErr := harness.Call(t, read, testTimeout, c.tool, c.args); !isErr || text != "server is in read-only mode" {
			t.Errorf("%s with mcp:read: isError=%v %q", c.tool, isErr, text)
		}
	}
	for _, r := range em.Requests()[before:] {
		if r.Method != http.MethodGet {
			t.Errorf("an mcp:read token sent %s %s to Mealie", r.Method, r.Path)
		}
	}

	code, out := st.sousCmd(t, "", "oauth", "clients")
	if code != 0 || !strings.Contains(out, "go-sdk client_secret_post") || !strings.Contains(out, "go-sdk none") || !strings.Contains(out, "mcp:read mcp:write") {
		t.Fatalf("sous oauth clients exited %d:\n%s", code, out)
	}
	clients, err := oauth.ListClients(context.Background(), st.state)
	if err != nil {
		t.Fatal(err)
	}
	var readID string
	for _, c := range clients {
		if c.Name == "go-sdk none" {
			readID = c.ID
		}
	}
	tok := accessToken(t, readHandler)
	if code, _ := rawPost(t, st.mcpURL, tok); code != http.StatusOK {
		t.Fatalf("a live token: %d", code)
	}
	if code, out := st.sousCmd(t, "", "oauth", "revoke", readID); code != 0 || !strings.Contains(out, "revoked "+readID) {
		t.Fatalf("sous oauth revoke exited %d:\n%s", code, out)
	}
	code, hdr := rawPost(t, st.mcpURL, tok)
	if code != http.StatusUnauthorized || !strings.Contains(hdr.Get("WWW-Authenticate"), `resource_metadata="`+st.base+`/.well-known/oauth-protected-resource/mcp"`) {
		t.Fatalf("a revoked client's token: %d %q", code, hdr.Get("WWW-Authenticate"))
	}
	if code, out := st.sousCmd(t, "", "oauth", "revoke", readID); code == 0 || !strings.Contains(out, readID) {
		t.Errorf("revoking an unknown client exited %d:\n%s", code, out)
	}
	if code, out := st.sousCmd(t, passphrase+"\n", "oauth", "hash-passphrase"); code != 0 || !strings.HasPrefix(out, "$argon2id$") {
		t.Errorf("sous oauth hash-passphrase exited %d:\n%s", code, out)
	}
}

// A token from one sous is refused by another whose resource URL differs,
// though both share the signing key (one state file): 401 with the second
// server's metadata pointer. A token signed by a different key is refused
// the same way.
func TestRealBinaryForeignAudience(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	a := startSousMCP(t, em)
	_, h := connect(t, a.stack, "none", func(cb *callback) auth.AuthorizationCodeFetcher {
		return formFetcher(cb, passphrase, []string{oauth.ScopeRead, oauth.ScopeWrite})
	})
	tok := accessToken(t, h)

	bAddr := freeAddr(t)
	sameKey := startSous(t, []string{"mcp", "--http"}, bAddr, "MEALIE_URL="+em.URL, "MEALIE_API_TOKEN="+em.Token,
		"SOUS_OAUTH_STATE="+a.state, "SOUS_PUBLIC_URL=http://localhost:"+strings.Split(bAddr, ":")[1])
	otherKey := startSousMCP(t, em)
	for _, tc := range []struct {
		name    string
		st      *binStack
		pointer string
	}{
		{"same key, other audience", sameKey, "http://localhost:" + strings.Split(bAddr, ":")[1] + "/.well-known/oauth-protected-resource/mcp"},
		{"other key", otherKey, otherKey.base + "/.well-known/oauth-protected-resource/mcp"},
	} {
		code, hdr := rawPost(t, tc.st.mcpURL, tok)
		if code != http.StatusUnauthorized || !strings.Contains(hdr.Get("WWW-Authenticate"), `resource_metadata="`+tc.pointer+`"`) {
			t.Errorf("%s: %d %q", tc.name, code, hdr.Get("WWW-Authenticate"))
		}
	}
	if code, _ := rawPost(t, a.mcpURL, tok); code != http.StatusOK {
		t.Errorf("the token on its own server: %d", code)
	}
}

// OAuth and the path secret (or the static bearer token) cannot be
// combined: sous refuses to start with status 2 and names both variables.
func TestRealBinaryExclusiveModes(t *testing.T) {
	for _, kv := range []string{"FOOD_MCP_URL_SECRET=abcdefabcdefabcdef", "SOUS_MCP_BEARER_TOKEN=abcdefabcdefabcdef"} {
		cmd := exec.Command(sousBinary(t), "mcp", "--http", "--addr", "127.0.0.1:0")
		cmd.Env = baseEnv("SOUS_OAUTH_ISSUER=http://127.0.0.1:8765", kv)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		ee, ok := err.(*exec.ExitError)
		name, _, _ := strings.Cut(kv, "=")
		if !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), name) || !strings.Contains(string(out), "SOUS_OAUTH_ISSUER") {
			t.Errorf("%s with OAuth: %v\n%s", name, err, out)
		}
	}
}
