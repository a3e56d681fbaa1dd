package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// The remote auth modes, as claude.ai and other clients meet them
// (both URL forms answer, never a redirect: TestPathSecret in
// integration/abuse).
const (
	testSecret = "k3tchen-path-s3cret-0123456789abcdef"
	testBearer = "bearer-t0ken-fedcba9876543210"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawPost sends one initialize request without following redirects.
func rawPost(t *testing.T, url string, headers map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	hc := &http.Client{Timeout: callTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); loc != "" || (res.StatusCode >= 300 && res.StatusCode < 400) {
		t.Errorf("%s answered a redirect (%d to %q)", url, res.StatusCode, loc)
	}
	return res
}

func TestPathSecret(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	addr, _ := startHTTPLogged(t, em, "FOOD_MCP_URL_SECRET="+testSecret)
	base := "http://" + addr
	for _, path := range []string{"/mcp/" + testSecret, "/mcp/" + testSecret + "/"} {
		cs, err := connectHTTP(t, base+path, nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		callOK(t, cs, "search_recipes", map[string]any{"query": "soup"})
	}
	for _, path := range []string{"/mcp", "/mcp/", "/mcp/" + testSecret[:len(testSecret)-1], "/mcp/" + testSecret + "x", "/mcp/" + testSecret + "/extra", "/"} {
		if res := rawPost(t, base+path, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s = %d, want 404", strings.Replace(path, testSecret, "<secret>", 1), res.StatusCode)
		}
	}
}

func TestBearer(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	addr, _ := startHTTPLogged(t, em, "SOUS_MCP_BEARER_TOKEN="+testBearer)
	url := "http://" + addr + "/mcp"
	for _, tc := range []struct {
		name string
		auth string
	}{{"missing", ""}, {"wrong", "Bearer nope"}, {"wrong scheme", "Basic " + testBearer}} {
		h := map[string]string{}
		if tc.auth != "" {
			h["Authorization"] = tc.auth
		}
		res := rawPost(t, url, h)
		if res.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s bearer: %d %q, want 401 with WWW-Authenticate: Bearer", tc.name, res.StatusCode, res.Header.Get("WWW-Authenticate"))
		}
	}
	if _, err := connectHTTP(t, url, nil); err == nil {
		t.Error("a client without the bearer connected")
	}
	cs, err := connectHTTP(t, url, map[string]string{"Authorization": "Bearer " + testBearer})
	if err != nil {
		t.Fatal(err)
	}
	callOK(t, cs, "get_recipe", map[string]any{"slug": "pancakes"})
}

func TestOriginAndHost(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	addr, _ := startHTTPLogged(t, em, "SOUS_PUBLIC_URL=https://kitchen.example.org")
	url := "http://" + addr + "/mcp"
	for _, tc := range []struct {
		name    string
		headers map[string]string
		want    int
	}{
		{"foreign Origin", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"public Origin", map[string]string{"Origin": "https://kitchen.example.org"}, http.StatusOK},
		{"loopback Origin", map[string]string{"Origin": "http://localhost:6274"}, http.StatusOK},
		{"no Origin", nil, http.StatusOK},
	} {
		if res := rawPost(t, url, tc.headers); res.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, res.StatusCode, tc.want)
		}
	}
	// A reverse proxy keeping the public Host is accepted; a foreign Host
	// (DNS rebinding) is not.
	for _, tc := range []struct {
		host string
		want int
	}{{"kitchen.example.org", http.StatusOK}, {"attacker.example", http.StatusForbidden}} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
		req.Host = tc.host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("Host %s: %d, want %d", tc.host, res.StatusCode, tc.want)
		}
	}
}

// TestNoSecretInLogs runs a full session with both secrets set, including
// refused requests and a failing tool, and checks the whole log for them.
func TestNoSecretInLogs(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	addr, logs := startHTTPLogged(t, em, "FOOD_MCP_URL_SECRET="+testSecret, "SOUS_MCP_BEARER_TOKEN="+testBearer, "MEALIE_LOG_LEVEL=debug")
	base := "http://" + addr
	cs, err := connectHTTP(t, base+"/mcp/"+testSecret, map[string]string{"Authorization": "Bearer " + testBearer})
	if err != nil {
		t.Fatal(err)
	}
	callOK(t, cs, "search_recipes", map[string]any{"query": "chili"})
	if _, isErr := callTool(t, cs, "get_recipe", map[string]any{"slug": "no-such-recipe"}); !isErr {
		t.Error("get_recipe of a missing slug succeeded")
	}
	rawPost(t, base+"/mcp/"+testSecret, map[string]string{"Origin": "https://evil.example", "Authorization": "Bearer " + testBearer})
	rawPost(t, base+"/mcp/"+testSecret, map[string]string{"Authorization": "Bearer wrong"})
	rawPost(t, base+"/mcp/"+testSecret+"/x", nil)
	cs.Close()
	got := logs.String()
	if got == "" {
		t.Fatal("no log captured")
	}
	for name, secret := range map[string]string{"the path secret": testSecret, "the bearer token": testBearer, "the Mealie token": em.Token} {
		if strings.Contains(got, secret) {
			t.Errorf("%s appears in the log", name)
		}
	}
}
