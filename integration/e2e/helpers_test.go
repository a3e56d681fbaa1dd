package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/foodapiproc"
	"github.com/souskitchen/sous/internal/mealieemu"
)

// callTimeout bounds one tool call.
const callTimeout = 30 * time.Second

// callTool calls a tool and returns its one text block and isError
// (harness.Call: a protocol error, a structuredContent copy or more than
// one block fails the test).
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	return harness.Call(t, cs, callTimeout, name, args)
}

// callOK calls a tool that must succeed and decodes its JSON answer.
func callOK(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	text, isErr := callTool(t, cs, name, args)
	if isErr {
		t.Fatalf("%s(%v) failed: %s", name, args, text)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%s: answer is not a JSON object: %s", name, text)
	}
	return v
}

// items returns an answer's "items" list as objects.
func items(t *testing.T, v map[string]any) []map[string]any {
	t.Helper()
	raw, ok := v["items"].([]any)
	if !ok {
		t.Fatalf("answer has no items list: %v", v)
	}
	var out []map[string]any
	for _, it := range raw {
		m, ok := it.(map[string]any)
		if !ok {
			t.Fatalf("item is %T", it)
		}
		out = append(out, m)
	}
	return out
}

// toolNames lists a session's tools.
func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// foodEnv is the environment naming a running food API.
func foodEnv(f *foodapiproc.FoodAPI) []string {
	return []string{"FOOD_API_BASE=" + f.BaseURL, "FOOD_API_TOKEN=" + f.Token}
}

// logBuffer collects a process's stderr and mirrors it to the test log.
type logBuffer struct {
	t  *testing.T
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.t.Log("sous:", strings.TrimRight(string(p), "\n"))
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runSous runs a sous command to its end (for commands that must fail at
// startup) and returns its exit code, stdout and stderr.
func runSous(t *testing.T, em *mealieemu.Server, args []string, extra ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, sousBin, args...)
	cmd.Env = sousEnv(em, extra...)
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// startHTTPLogged is startHTTP keeping the whole stderr of the process, for
// tests that inspect the log.
func startHTTPLogged(t *testing.T, em *mealieemu.Server, extra ...string) (string, *logBuffer) {
	t.Helper()
	cmd := exec.Command(sousBin, "mcp", "--http", "--addr", "127.0.0.1:0")
	cmd.Env = sousEnv(em, extra...)
	cmd.Dir = t.TempDir()
	logs := &logBuffer{t: t}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopProcess(cmd) })
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if m := addrLine.FindStringSubmatch(logs.String()); m != nil {
			return m[1], logs
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("sous mcp --http did not report its address")
	return "", nil
}

// stopProcess interrupts a sous process and waits for it, killing it after
// a grace period.
func stopProcess(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(interrupt)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// connectHTTP connects the go-sdk client to a running sous at url, with
// extra headers on every request.
func connectHTTP(t *testing.T, url string, headers map[string]string) (*mcp.ClientSession, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	t.Cleanup(cancel)
	hc := &http.Client{Transport: headerTransport{headers: headers, next: http.DefaultTransport}, Timeout: sessionTimeout}
	client := mcp.NewClient(&mcp.Implementation{Name: "sous-e2e", Version: "test"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.next.RoundTrip(r)
}

// interrupt is how sous is asked to stop.
var interrupt = os.Interrupt
