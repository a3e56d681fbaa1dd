package e2e

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// sessionTimeout bounds every end-to-end session.
const sessionTimeout = 60 * time.Second

// sousEnv is the environment for a sous process against em (nil: none, for
// sous demo, which brings its own): the parent's
// environment minus anything sous reads, so a developer's own .env or
// variables cannot leak into the test.
func sousEnv(em *mealieemu.Server, extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MEALIE_") || strings.HasPrefix(k, "SOUS_") || strings.HasPrefix(k, "FOOD_") {
			continue
		}
		out = append(out, kv)
	}
	if em != nil {
		out = append(out, "MEALIE_URL="+em.URL, "MEALIE_API_TOKEN="+em.Token)
	}
	return append(out, extra...)
}

// stdioSession starts `sous mcp --stdio` and connects the go-sdk client.
func stdioSession(t *testing.T, em *mealieemu.Server, extra ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	t.Cleanup(cancel)
	cmd := exec.Command(sousBin, "mcp", "--stdio")
	cmd.Env = sousEnv(em, extra...)
	cmd.Dir = t.TempDir() // no .env above a temp dir
	cmd.Stderr = testWriter{t}
	client := mcp.NewClient(&mcp.Implementation{Name: "sous-e2e", Version: "test"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting over stdio: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

var addrLine = regexp.MustCompile(`msg="MCP over Streamable HTTP" addr=(\S+)`)

// httpSession starts `sous mcp --http` on a free loopback port and connects
// the go-sdk client over Streamable HTTP at path (which "%s" in path gets
// the address).
func httpSession(t *testing.T, em *mealieemu.Server, path string, extra ...string) *mcp.ClientSession {
	t.Helper()
	addr := startHTTP(t, em, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "sous-e2e", Version: "test"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + path}, nil)
	if err != nil {
		t.Fatalf("connecting over HTTP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// startHTTP runs `sous mcp --http --addr 127.0.0.1:0` and returns the
// address it listens on, read from its log.
func startHTTP(t *testing.T, em *mealieemu.Server, extra ...string) string {
	t.Helper()
	cmd := exec.Command(sousBin, "mcp", "--http", "--addr", "127.0.0.1:0")
	cmd.Env = sousEnv(em, extra...)
	cmd.Dir = t.TempDir()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			t.Log("sous:", line)
			if m := addrLine.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case addr := <-found:
		return addr
	case <-time.After(30 * time.Second):
		t.Fatal("sous mcp --http did not report its address")
		return ""
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log("sous:", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

var _ io.Writer = testWriter{}
