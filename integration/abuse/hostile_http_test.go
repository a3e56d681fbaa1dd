package abuse_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/souskitchen/sous/mcpfront"
)

// TestPathSecret: only /mcp/<secret> and /mcp/<secret>/ answer; a wrong,
// shortened, lengthened or missing secret, with or without the slash and
// with any method, gets exactly the answer of an unknown path, and nothing
// answers with a redirect: clients that follow one would leak the secret
// or lose the POST body.
func TestPathSecret(t *testing.T) {
	s := newHTTPStack(t, mcpfront.HTTPOptions{PathSecret: pathSecret}, mcpfront.Options{})
	refStatus, refHeader, refBody := rawDo(t, http.MethodPost, s.url+"/definitely/unknown", initBody, nil)
	if refStatus != http.StatusNotFound {
		t.Fatalf("unknown path: %d", refStatus)
	}
	for _, slash := range []string{"", "/"} {
		status, _, body := rawDo(t, http.MethodPost, s.url+"/mcp/"+pathSecret+slash, initBody, nil)
		if status != http.StatusOK || !strings.Contains(body, `"result"`) {
			t.Errorf("right secret%s: %d %s", slash, status, body)
		}
	}
	wrong := []string{
		"/mcp", "/mcp/", "/mcp/" + pathSecret[:len(pathSecret)-1], "/mcp/" + pathSecret + "x",
		"/mcp/" + strings.ToUpper(pathSecret), "/mcp/x" + pathSecret[1:], "/mcp/" + pathSecret + "/extra",
		"/mcp//" + pathSecret, "/MCP/" + pathSecret, "/.well-known/oauth-protected-resource/mcp/" + pathSecret,
	}
	for _, p := range wrong {
		for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
			for _, slash := range []string{"", "/"} {
				path := p + slash
				status, header, body := rawDo(t, method, s.url+path, initBody, nil)
				if status >= 300 && status < 400 {
					t.Errorf("%s %s: redirect %d to %q", method, path, status, header.Get("Location"))
				}
				if status != refStatus || body != refBody || header.Get("Content-Type") != refHeader.Get("Content-Type") {
					t.Errorf("%s %s: %d %q, want the unknown path's %d %q", method, path, status, body, refStatus, refBody)
				}
			}
		}
	}
	assertNoSecrets(t, s)
}

// TestBearer: a missing bearer, a wrong one, another scheme and the token
// sent without a scheme all get the same 401; the right one works. A
// wrong-secret refusal is identical whatever the guess, so a caller learns
// nothing from the difference (the comparison is constant-time in
// svcauth.Valid).
func TestBearer(t *testing.T) {
	s := newHTTPStack(t, mcpfront.HTTPOptions{BearerToken: bearerToken}, mcpfront.Options{})
	cases := map[string]map[string]string{
		"missing":            nil,
		"wrong":              {"Authorization": "Bearer " + strings.Repeat("x", len(bearerToken))},
		"prefix":             {"Authorization": "Bearer " + bearerToken[:8]},
		"longer":             {"Authorization": "Bearer " + bearerToken + "0"},
		"basic scheme":       {"Authorization": "Basic " + bearerToken},
		"no scheme":          {"Authorization": bearerToken},
		"token in the query": nil,
	}
	var refBody string
	for name, h := range cases {
		u := s.url + "/mcp"
		if name == "token in the query" {
			u += "?access_token=" + bearerToken
		}
		status, header, body := rawDo(t, http.MethodPost, u, initBody, h)
		if status != http.StatusUnauthorized {
			t.Errorf("%s: %d, want 401", name, status)
		}
		if header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: no WWW-Authenticate", name)
		}
		if refBody == "" {
			refBody = body
		} else if body != refBody {
			t.Errorf("%s: body %q differs from %q", name, body, refBody)
		}
	}
	cs, err := connectMCP(t, s.url+"/mcp/", map[string]string{"Authorization": "Bearer " + bearerToken})
	if err != nil {
		t.Fatalf("right bearer: %v", err)
	}
	if text, isErr := call(t, cs, "search_recipes", map[string]any{"limit": 2}); isErr {
		t.Fatalf("search_recipes: %s", text)
	}
	if _, err := connectMCP(t, s.url+"/mcp/", map[string]string{"Authorization": "Bearer nope"}); err == nil {
		t.Error("the go-sdk client connected with a wrong bearer")
	}
	assertNoSecrets(t, s)
}

// TestOriginAndHost: a browser page from a foreign origin is refused with
// 403 before authentication (so a CSRF probe is not mistaken for a bad
// token), as is a DNS-rebinding Host; no Origin (claude.ai's backend),
// loopback origins and the configured public origin pass
// (docs/security.md, "Hostile callers").
func TestOriginAndHost(t *testing.T) {
	s := newHTTPStack(t, mcpfront.HTTPOptions{BearerToken: bearerToken, PublicURL: "https://kitchen.example.org"}, mcpfront.Options{})
	auth := "Bearer " + bearerToken
	cases := []struct {
		name    string
		headers map[string]string
		want    int
	}{
		{"no origin", map[string]string{"Authorization": auth}, http.StatusOK},
		{"loopback origin", map[string]string{"Authorization": auth, "Origin": "http://localhost:3000"}, http.StatusOK},
		{"public origin", map[string]string{"Authorization": auth, "Origin": "https://kitchen.example.org"}, http.StatusOK},
		{"public host", map[string]string{"Authorization": auth, "Host": "kitchen.example.org"}, http.StatusOK},
		{"foreign origin", map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"foreign origin, no token", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"look-alike origin", map[string]string{"Authorization": auth, "Origin": "https://kitchen.example.org.evil.example"}, http.StatusForbidden},
		{"public host over http", map[string]string{"Authorization": auth, "Origin": "http://kitchen.example.org"}, http.StatusForbidden},
		{"null origin", map[string]string{"Authorization": auth, "Origin": "null"}, http.StatusForbidden},
		{"rebinding host", map[string]string{"Authorization": auth, "Host": "evil.example"}, http.StatusForbidden},
		{"rebinding host, foreign origin", map[string]string{"Authorization": auth, "Host": "evil.example", "Origin": "http://evil.example"}, http.StatusForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, _, body := rawDo(t, http.MethodPost, s.url+"/mcp", initBody, c.headers)
			if status != c.want {
				t.Errorf("%d %q, want %d", status, body, c.want)
			}
		})
	}
	assertNoSecrets(t, s)
}

// TestBodyCap: a request body past mcpfront.MaxRequestBody is refused
// without reaching a tool, so no backend is asked.
func TestBodyCap(t *testing.T) {
	s := newHTTPStack(t, mcpfront.HTTPOptions{}, mcpfront.Options{})
	s.mealie.ResetRequests()
	pad := strings.Repeat("a", mcpfront.MaxRequestBody)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_recipes","arguments":{"query":"%s"}}}`, pad)
	status, _, resp := rawDo(t, http.MethodPost, s.url+"/mcp", body, nil)
	if status < 400 || status >= 500 {
		t.Errorf("oversized body: %d %.200q, want a 4xx", status, resp)
	}
	if n := len(s.mealie.Requests()); n != 0 {
		t.Errorf("Mealie was asked %d times for an oversized call", n)
	}
	// Just under the cap is still read (and refused by the schema, for the
	// query's own cap), proving the cap is where it says.
	small := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_recipes","arguments":{"query":"%s"}}}`, strings.Repeat("a", 1000))
	status, _, resp = rawDo(t, http.MethodPost, s.url+"/mcp", small, nil)
	if status != http.StatusOK {
		t.Errorf("small body: %d %.200q", status, resp)
	}
}

// TestRateLimit: one client hammering the endpoint gets a clear 429.
func TestRateLimit(t *testing.T) {
	s := newHTTPStack(t, mcpfront.HTTPOptions{}, mcpfront.Options{})
	for i := 0; i < 1000; i++ {
		status, header, _ := rawDo(t, http.MethodPost, s.url+"/mcp", initBody, nil)
		if status == http.StatusTooManyRequests {
			if header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			return
		}
	}
	t.Error("1000 requests in a burst were never limited")
}

// TestSessionLogsNoSecret runs a whole session with every secret configured,
// a refused Origin, a refused Host, a wrong secret and a tool error, and
// greps everything logged at debug level for any secret.
func TestSessionLogsNoSecret(t *testing.T) {
	s := newHTTPStack(t, mcpfront.HTTPOptions{PathSecret: pathSecret, BearerToken: bearerToken}, mcpfront.Options{})
	auth := map[string]string{"Authorization": "Bearer " + bearerToken}
	cs, err := connectMCP(t, s.url+"/mcp/"+pathSecret, auth)
	if err != nil {
		t.Fatal(err)
	}
	call(t, cs, "search_recipes", map[string]any{"query": "pasta"})
	call(t, cs, "get_recipe", map[string]any{"slug": "no-such-recipe"})
	call(t, cs, "create_recipe", map[string]any{"name": "Secret-free soup"})
	call(t, cs, "library_stats", map[string]any{"resource": "tags"})
	rawDo(t, http.MethodPost, s.url+"/mcp/"+pathSecret, initBody, map[string]string{"Authorization": "Bearer " + bearerToken, "Origin": "https://evil.example"})
	rawDo(t, http.MethodPost, s.url+"/mcp/"+pathSecret, initBody, map[string]string{"Authorization": "Bearer " + bearerToken, "Host": "evil.example"})
	rawDo(t, http.MethodPost, s.url+"/mcp/wrong-"+pathSecret, initBody, auth)
	rawDo(t, http.MethodPost, s.url+"/mcp/"+pathSecret, initBody, map[string]string{"Authorization": "Bearer wrong-" + bearerToken})
	if s.logs.String() == "" {
		t.Fatal("nothing was logged: the sink is not wired, so the test proves nothing")
	}
	assertNoSecrets(t, s)
}

// assertNoSecrets fails when any configured secret appears in the logs.
func assertNoSecrets(t *testing.T, s *stack) {
	t.Helper()
	logs := s.logs.String()
	for name, secret := range map[string]string{"path secret": pathSecret, "bearer token": bearerToken, "Mealie token": mealieToken, "service token": serviceToken} {
		if n := strings.Count(logs, secret); n > 0 {
			for _, line := range strings.Split(logs, "\n") {
				if strings.Contains(line, secret) {
					t.Errorf("the %s is in a log line: %s", name, line)
				}
			}
		}
	}
}
