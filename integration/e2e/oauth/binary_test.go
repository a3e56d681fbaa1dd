package oauth_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// startTimeout bounds a sous process's start, probe included.
const startTimeout = 30 * time.Second

var (
	buildOnce sync.Once
	sousBin   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// sousBinary builds cmd/sous once, for the tests that run the real binary.
func sousBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "sous-oauth-")
		if buildErr != nil {
			return
		}
		sousBin = filepath.Join(binDir, "sous")
		out, err := exec.Command("go", "build", "-o", sousBin, "github.com/souskitchen/sous/cmd/sous").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building sous: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return sousBin
}

// freeAddr returns a loopback address nothing listens on. The issuer URL
// must name the port before sous binds it, so the port is chosen here.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// baseEnv is the test process's environment without any sous, Mealie or
// food API setting, plus extra.
func baseEnv(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MEALIE_") || strings.HasPrefix(k, "SOUS_") || strings.HasPrefix(k, "FOOD_") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}

// binStack is a running sous binary in OAuth mode.
type binStack struct {
	*stack
	env []string // the process's environment, for `sous oauth …`
}

// listening is the line sous logs once the MCP listener is up.
var listening = regexp.MustCompile(`msg="MCP over Streamable HTTP" addr=(\S+)`)

// startSous runs `sous <args> --addr <addr>` with OAuth on: issuer
// http://<addr>, a passphrase file holding the argon2id hash, and a fresh
// state file unless extra names one.
func startSous(t *testing.T, args []string, addr string, extra ...string) *binStack {
	t.Helper()
	bin := sousBinary(t)
	dir := t.TempDir()
	pf := passphraseFile(t, dir)
	env := baseEnv(append([]string{
		"SOUS_OAUTH_ISSUER=http://" + addr,
		"SOUS_OAUTH_PASSPHRASE_FILE=" + pf,
		"SOUS_DATA_DIR=" + filepath.Join(dir, "data"),
	}, extra...)...)
	cmd := exec.Command(bin, append(args, "--addr", addr)...)
	cmd.Env = env
	cmd.Dir = dir // no .env above a temp dir
	logs := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		t.Logf("sous %s output:\n%s", args[0], logs.String())
	})
	deadline := time.After(startTimeout)
	for !listening.MatchString(logs.String()) {
		select {
		case <-done:
			t.Fatalf("sous %s exited:\n%s", args[0], logs.String())
		case <-deadline:
			t.Fatalf("sous %s did not start within %v:\n%s", args[0], startTimeout, logs.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	state := filepath.Join(dir, "data", "oauth.sqlite")
	for _, kv := range extra {
		if v, ok := strings.CutPrefix(kv, "SOUS_OAUTH_STATE="); ok {
			state = v
		}
	}
	base := "http://" + addr
	return &binStack{stack: &stack{base: base, mcpURL: base + "/mcp", state: state}, env: env}
}

// startSousMCP runs `sous mcp --http` with OAuth against em.
func startSousMCP(t *testing.T, em *mealieemu.Server, extra ...string) *binStack {
	t.Helper()
	return startSous(t, []string{"mcp", "--http"}, freeAddr(t),
		append([]string{"MEALIE_URL=" + em.URL, "MEALIE_API_TOKEN=" + em.Token}, extra...)...)
}

// sousCmd runs `sous <args>` in st's environment and returns its exit
// status and output.
func (st *binStack) sousCmd(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, sousBinary(t), args...)
	cmd.Env = st.env
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// syncBuffer collects a process's output from its writer goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// lines calls f with each line r produces until f returns true or r ends.
func lines(r io.Reader, f func(string) bool) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if f(sc.Text()) {
			return
		}
	}
}
