package oauth_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/souskitchen/sous/mcpfront/oauth"
)

// The go-sdk client completes the whole flow for each registration shape
// (a public client, client_secret_post and client_secret_basic), and the granted scope decides which tools it sees and may call:
// an mcp:read token cannot call a write tool.
func TestGoSDKClientFlow(t *testing.T) {
	for _, tc := range []struct {
		name       string
		authMethod string
		scopes     []string
		wantTools  []string
		canWrite   bool
	}{
		{"desktop none, read and write", "none", []string{oauth.ScopeRead, oauth.ScopeWrite}, []string{"create_recipe", "list_recipes"}, true},
		{"claude.ai client_secret_post, read only", "client_secret_post", []string{oauth.ScopeRead}, []string{"list_recipes"}, false},
		{"client_secret_basic, read and write", "client_secret_basic", []string{oauth.ScopeRead, oauth.ScopeWrite}, []string{"create_recipe", "list_recipes"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := startStack(t)
			cs, _ := connect(t, st, tc.authMethod, func(cb *callback) auth.AuthorizationCodeFetcher {
				return formFetcher(cb, passphrase, tc.scopes)
			})
			if got := toolNames(t, cs); !slices.Equal(got, tc.wantTools) {
				t.Fatalf("tools %v, want %v", got, tc.wantTools)
			}
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_recipes", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Fatalf("read tool: %v %+v", err, res)
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_recipe", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError == tc.canWrite {
				t.Fatalf("write tool: IsError=%v with scopes %v", res.IsError, tc.scopes)
			}
			if want := map[bool]int32{true: 1, false: 0}[tc.canWrite]; st.writes.Load() != want {
				t.Fatalf("the write tool ran %d times, want %d", st.writes.Load(), want)
			}
			if !tc.canWrite {
				text := res.Content[0].(*mcp.TextContent).Text
				if !strings.Contains(text, "read access only") {
					t.Errorf("refusal text %q", text)
				}
			}
		})
	}
}

// Discovery through mcpfront's handler: every unauthenticated request gets the
// 401 pointer, and following it leads to the authorization server.
func TestDiscoveryThroughMCPFront(t *testing.T) {
	st := startStack(t)
	for _, u := range []string{st.mcpURL, st.mcpURL + "/"} {
		code, h := rawPost(t, u, "")
		if code != http.StatusUnauthorized {
			t.Fatalf("POST %s without a token: %d", u, code)
		}
		want := fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp", scope="mcp:read mcp:write"`, st.base)
		if got := h.Get("WWW-Authenticate"); got != want {
			t.Fatalf("WWW-Authenticate %q\nwant %q", got, want)
		}
	}
	_, h := rawPost(t, st.mcpURL, "")
	pointer := strings.TrimSuffix(strings.TrimPrefix(strings.Split(h.Get("WWW-Authenticate"), ", ")[0], `Bearer resource_metadata="`), `"`)
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	getJSON(t, pointer, &prm)
	if prm.Resource != st.mcpURL || len(prm.AuthorizationServers) != 1 {
		t.Fatalf("PRM %+v", prm)
	}
	iss, _ := url.Parse(prm.AuthorizationServers[0])
	iss.Path = "/.well-known/oauth-authorization-server" + iss.Path
	var asm struct {
		Issuer string `json:"issuer"`
	}
	getJSON(t, iss.String(), &asm)
	if asm.Issuer != prm.AuthorizationServers[0] {
		t.Fatalf("issuer %q, PRM names %q", asm.Issuer, prm.AuthorizationServers[0])
	}
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// Must show: an expired token, and one revoked with its client, get 401
// with the metadata pointer from mcpfront's endpoint.
func TestExpiredAndRevokedThroughMCPFront(t *testing.T) {
	st := startStack(t)
	_, h := connect(t, st, "none", func(cb *callback) auth.AuthorizationCodeFetcher {
		return formFetcher(cb, passphrase, []string{oauth.ScopeRead})
	})
	tok := accessToken(t, h)
	if code, _ := rawPost(t, st.mcpURL, tok); code != http.StatusOK {
		t.Fatalf("fresh token: %d", code)
	}
	st.clock.Advance(oauth.AccessTokenTTL + time.Second)
	code, hdr := rawPost(t, st.mcpURL, tok)
	if code != http.StatusUnauthorized || !strings.Contains(hdr.Get("WWW-Authenticate"), `resource_metadata="`+st.base+`/.well-known/oauth-protected-resource/mcp"`) {
		t.Fatalf("expired token: %d %q", code, hdr.Get("WWW-Authenticate"))
	}

	st2 := startStack(t)
	_, h2 := connect(t, st2, "none", func(cb *callback) auth.AuthorizationCodeFetcher {
		return formFetcher(cb, passphrase, []string{oauth.ScopeRead})
	})
	tok2 := accessToken(t, h2)
	clients, err := oauth.ListClients(context.Background(), st2.state)
	if err != nil || len(clients) != 1 {
		t.Fatalf("clients %+v %v", clients, err)
	}
	if err := oauth.RevokeClient(context.Background(), st2.state, clients[0].ID); err != nil {
		t.Fatal(err)
	}
	if code, _ := rawPost(t, st2.mcpURL, tok2); code != http.StatusUnauthorized {
		t.Fatalf("token of a revoked client: %d", code)
	}
}

// A wrong passphrase never yields a code: the go-sdk client's flow fails.
func TestWrongPassphraseFailsTheFlow(t *testing.T) {
	st := startStack(t)
	cb := startCallback(t)
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{cb.URL}, TokenEndpointAuthMethod: "none",
		}},
		AuthorizationCodeFetcher: formFetcher(cb, "not the passphrase", []string{oauth.ScopeRead}),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "oauth-test", Version: "0"}, nil)
	if cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: st.mcpURL, OAuthHandler: handler}, nil); err == nil {
		cs.Close()
		t.Fatal("connected with a wrong passphrase")
	}
}
