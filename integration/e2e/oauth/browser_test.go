package oauth_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	"github.com/souskitchen/sous/mcpfront/oauth"
)

// browserDir holds the playwright-core script and its node_modules.
const browserDir = "../browser"

// browserTimeout bounds one Chromium run: start, consent, redirect.
const browserTimeout = 60 * time.Second

// chromiumPath is Debian's chromium unless CHROMIUM_PATH says otherwise.
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM_PATH"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// needBrowser skips with one line when node, playwright-core or Chromium is
// missing (make test-deps installs playwright-core, .ci/run Chromium).
func needBrowser(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: install Node 20 or newer (README.md, Quick start)")
	}
	if _, err := os.Stat(filepath.Join(browserDir, "node_modules", "playwright-core")); err != nil {
		t.Skip("integration/e2e/browser/node_modules is missing: run make test-deps (npm ci --prefix integration/e2e/browser)")
	}
	if _, err := os.Stat(chromiumPath()); err != nil {
		t.Skip("chromium is not installed at " + chromiumPath() + ": run apt-get install chromium (as root), or set CHROMIUM_PATH to a Chromium binary")
	}
}

// browserReport is consent.mjs's output line.
type browserReport struct {
	Reached       string   `json:"reached"`
	ConsoleErrors []string `json:"consoleErrors"`
	ClientName    string   `json:"clientName"`
	RedirectHost  string   `json:"redirectHost"`
	StayedAt      string   `json:"stayedAt"`
}

// runBrowser answers the consent page at authURL in headless Chromium.
func runBrowser(ctx context.Context, authURL, callbackURL, action, pass, screenshot string) (browserReport, error) {
	ctx, cancel := context.WithTimeout(ctx, browserTimeout)
	defer cancel()
	args := []string{"consent.mjs", authURL, callbackURL, action, pass}
	if screenshot != "" {
		args = append(args, screenshot)
	}
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = browserDir
	cmd.Env = append(os.Environ(), "CHROMIUM_PATH="+chromiumPath())
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	runErr := cmd.Run()
	var rep browserReport
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &rep); err != nil {
		return rep, fmt.Errorf("consent.mjs: %v; stdout %q; stderr %s", runErr, out.String(), stderr.String())
	}
	for _, e := range rep.ConsoleErrors {
		if strings.Contains(e, "form-action") || strings.Contains(e, "Refused") {
			return rep, fmt.Errorf("the browser refused the redirect: %s", e)
		}
	}
	if runErr != nil {
		return rep, fmt.Errorf("the browser never reached the callback (stayed at %s): %v", rep.StayedAt, runErr)
	}
	return rep, nil
}

// artifactsDir is the repository's git-ignored test-artifacts directory.
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../../test-artifacts")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Must show: headless Chromium registers nothing itself but answers the
// consent page the go-sdk client opened: it types the passphrase, approves,
// is redirected with a GET to the loopback callback within 5 s, and the
// resulting token lists tools through the go-sdk client. It runs against
// the in-process stack and against the real `sous mcp --http` over the
// Mealie emulator; the latter's consent page is kept as
// test-artifacts/oauth-consent.png (docs/img holds a reviewed copy).
func TestBrowserConsent(t *testing.T) {
	needBrowser(t)
	for _, tc := range []struct {
		name  string
		start func(t *testing.T) *stack
		shot  string
		want  []string // tools the token must list
	}{
		{"in process", startStack, "oauth-consent-inprocess.png", []string{"create_recipe", "list_recipes"}},
		{"sous binary", func(t *testing.T) *stack {
			return startSousMCP(t, mealietest.NewServer(t, mealieemu.WithSeed("demo"))).stack
		}, "oauth-consent.png", []string{"create_recipe", "search_recipes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.start(t)
			shot := filepath.Join(artifactsDir(t), tc.shot)
			os.Remove(shot)
			var rep browserReport
			cs, _ := connect(t, st, "none", func(cb *callback) auth.AuthorizationCodeFetcher {
				return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
					var err error
					rep, err = runBrowser(ctx, args.URL, cb.URL, "approve", passphrase, shot)
					if err != nil {
						return nil, err
					}
					h, err := cb.wait(5 * time.Second)
					if err != nil {
						return nil, err
					}
					return h.result()
				}
			})
			got := toolNames(t, cs)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Fatalf("tools %v lack %s", got, w)
				}
			}
			if rep.ClientName != "go-sdk none" || !strings.HasPrefix(rep.RedirectHost, "127.0.0.1:") {
				t.Errorf("the consent page showed client %q, redirect host %q", rep.ClientName, rep.RedirectHost)
			}
			if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
				t.Errorf("no screenshot at %s: %v", shot, err)
			}
		})
	}
}

// The consent page's other answer: Deny sends the browser back with error=access_denied
// and the original state, by GET.
func TestBrowserDeny(t *testing.T) {
	needBrowser(t)
	st := startStack(t)
	cb := startCallback(t)
	body := fmt.Sprintf(`{"client_name":"Deny test","redirect_uris":[%q],"token_endpoint_auth_method":"none"}`, cb.URL)
	resp, err := http.Post(st.base+"/register", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()
	sum := sha256.Sum256([]byte(strings.Repeat("v", 50)))
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {cb.URL}, "state": {"deny-state"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}, "scope": {oauth.ScopeRead}}
	if _, err := runBrowser(context.Background(), st.base+"/authorize?"+q.Encode(), cb.URL, "deny", "", ""); err != nil {
		t.Fatal(err)
	}
	h, err := cb.wait(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if h.Method != http.MethodGet || h.Query.Get("error") != "access_denied" || h.Query.Get("state") != "deny-state" || h.Query.Get("code") != "" {
		t.Fatalf("callback got %s %v", h.Method, h.Query)
	}
	if _, err := h.result(); err == nil {
		t.Fatal("a denial turned into a result")
	}
}
