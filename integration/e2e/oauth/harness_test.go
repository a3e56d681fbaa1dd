// Package oauth_test drives sous's OAuth mode end to end: the go-sdk MCP
// client's own OAuth handler (discovery from the 401, dynamic registration,
// PKCE, consent, token exchange) against mcpfront's Streamable HTTP handler
// wrapped in the oauth package's Protect, with the consent page answered
// over plain HTTP or, in browser_test.go, by headless Chromium.
package oauth_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/souskitchen/sous/mcpfront"
	"github.com/souskitchen/sous/mcpfront/oauth"
	"github.com/souskitchen/sous/mcpfront/oauth/oauthtest"
)

// passphrase is the owner passphrase of every test stack.
const passphrase = "a kitchen passphrase for tests"

// testTimeout bounds every flow.
const testTimeout = 60 * time.Second

// passphraseFile writes the argon2id hash of passphrase into dir, as
// `sous oauth passphrase` would, and returns the file's path.
func passphraseFile(t *testing.T, dir string) string {
	t.Helper()
	pf := filepath.Join(dir, "passphrase")
	hash, err := oauth.HashPassphrase(passphrase)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pf, []byte(hash+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return pf
}

// stack is sous's OAuth mode in one process: the authorization server's
// routes plus /mcp served by mcpfront.HTTPHandler behind oauth.Protect, over
// a small MCP server with one read tool and one write tool.
type stack struct {
	base   string
	mcpURL string
	oauth  *oauth.Server
	clock  *oauthtest.Clock
	writes atomic.Int32 // calls that reached the write tool
	state  string
}

// readOnlyTools is what oauth.ScopeFilter consults; it agrees with the
// tools' annotations below.
var readOnlyTools = map[string]bool{"list_recipes": true, "create_recipe": false}

func startStack(t *testing.T) *stack {
	t.Helper()
	dir := t.TempDir()
	pf := passphraseFile(t, dir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &stack{base: "http://" + ln.Addr().String(), clock: oauthtest.NewClock(time.Now()), state: filepath.Join(dir, "oauth.sqlite")}
	s.mcpURL = s.base + "/mcp"
	s.oauth, err = oauth.New(oauth.Config{
		Issuer:         s.base,
		ResourceURL:    s.mcpURL,
		PassphraseFile: pf,
		StatePath:      s.state,
		Now:            s.clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}

	server := mcp.NewServer(&mcp.Implementation{Name: "sous-oauth-test", Version: "0"}, nil)
	mcp.AddTool(server, &mcp.Tool{
		Name: "list_recipes", Description: "List recipes.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"items":["soup"]}`}}}, nil, nil
	})
	mcp.AddTool(server, &mcp.Tool{
		Name: "create_recipe", Description: "Create a recipe.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false},
	}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		s.writes.Add(1)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"created":"soup"}`}}}, nil, nil
	})
	server.AddReceivingMiddleware(oauth.ScopeFilter(func(name string) bool { return readOnlyTools[name] }))

	mux := http.NewServeMux()
	s.oauth.Routes(mux)
	h := s.oauth.Protect(mcpfront.HTTPHandler(server, mcpfront.HTTPOptions{PublicURL: s.base}))
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		s.oauth.Close()
	})
	return s
}

// callback is a loopback listener standing in for a client's redirect URI.
// It records the method and query of every request.
type callback struct {
	URL  string
	hits chan callbackHit
}

type callbackHit struct {
	Method string
	Query  url.Values
}

func startCallback(t *testing.T) *callback {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cb := &callback{URL: "http://" + ln.Addr().String() + "/callback", hits: make(chan callbackHit, 4)}
	hs := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case cb.hits <- callbackHit{r.Method, r.URL.Query()}:
		default:
		}
		io.WriteString(w, "<!doctype html><title>done</title><p>You can close this tab.</p>")
	})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return cb
}

// wait returns the next callback hit, or fails after d.
func (cb *callback) wait(d time.Duration) (callbackHit, error) {
	select {
	case h := <-cb.hits:
		return h, nil
	case <-time.After(d):
		return callbackHit{}, errors.New("the redirect never reached the callback")
	}
}

// result turns a callback hit into the go-sdk's authorization result.
func (h callbackHit) result() (*auth.AuthorizationResult, error) {
	if h.Method != http.MethodGet {
		return nil, fmt.Errorf("the callback got a %s; a browser must arrive with GET (303)", h.Method)
	}
	if e := h.Query.Get("error"); e != "" {
		return nil, fmt.Errorf("authorization refused: %s", e)
	}
	return &auth.AuthorizationResult{Code: h.Query.Get("code"), State: h.Query.Get("state"), Iss: h.Query.Get("iss")}, nil
}

// formFetcher answers the consent page over plain HTTP as the owner would:
// it keeps the cookie, types the passphrase, ticks scopes and approves; the
// 303 is then followed to the callback.
func formFetcher(cb *callback, pass string, scopes []string) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		jar, _ := cookiejar.New(nil)
		hc := &http.Client{Jar: jar, Timeout: 20 * time.Second}
		resp, err := hc.Get(args.URL)
		if err != nil {
			return nil, err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		request, csrf, ok := oauthtest.ConsentForm(string(body))
		if resp.StatusCode != http.StatusOK || !ok {
			return nil, fmt.Errorf("consent page: %d %s", resp.StatusCode, body)
		}
		form := url.Values{"request": {request}, "csrf": {csrf}, "action": {"approve"}, "passphrase": {pass}, "scope": scopes}
		resp, err = hc.PostForm(args.URL, form)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if !strings.HasPrefix(resp.Request.URL.String(), cb.URL) {
			return nil, fmt.Errorf("the consent page answered %d without redirecting", resp.StatusCode)
		}
		h, err := cb.wait(5 * time.Second)
		if err != nil {
			return nil, fmt.Errorf("%w (consent answered %d)", err, resp.StatusCode)
		}
		return h.result()
	}
}

// connect runs the go-sdk client's OAuth flow against st, registering with
// authMethod, and returns the session and the handler holding the tokens.
func connect(t *testing.T, st *stack, authMethod string, fetch func(cb *callback) auth.AuthorizationCodeFetcher) (*mcp.ClientSession, *auth.AuthorizationCodeHandler) {
	t.Helper()
	cb := startCallback(t)
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:              "go-sdk " + authMethod,
			RedirectURIs:            []string{cb.URL},
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			TokenEndpointAuthMethod: authMethod,
		}},
		AuthorizationCodeFetcher: fetch(cb),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "oauth-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: st.mcpURL, OAuthHandler: handler}, nil)
	if err != nil {
		t.Fatalf("connecting through OAuth: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, handler
}

// toolNames lists the session's tools, sorted.
func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	return names
}

// accessToken is the token the handler currently holds.
func accessToken(t *testing.T, h *auth.AuthorizationCodeHandler) string {
	t.Helper()
	ts, err := h.TokenSource(context.Background())
	if err != nil || ts == nil {
		t.Fatalf("no token source: %v", err)
	}
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}

// rawPost sends an MCP initialize with an optional bearer token.
func rawPost(t *testing.T, u, token string) (int, http.Header) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}
