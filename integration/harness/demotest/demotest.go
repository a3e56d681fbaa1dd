// Package demotest builds the sous binary and runs `sous demo` for tests
// that call its Connect API as another app would (the client examples, the
// documented commands): on loopback ports the kernel picks, with a fresh
// service token, bounded in time and stopped by its PID.
package demotest

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// StartTimeout bounds the demo's start, the food API's migrations included.
const StartTimeout = time.Minute

// stopGrace is how long the demo has to stop after an interrupt before it
// is killed.
const stopGrace = 10 * time.Second

// Build compiles cmd/sous into dir and returns the binary's path.
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "sous")
	build := exec.Command("go", "build", "-o", bin, "github.com/souskitchen/sous/cmd/sous")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", errors.New("building sous: " + err.Error())
	}
	return bin, nil
}

// Demo is a running `sous demo`.
type Demo struct {
	// ConnectURL is the Connect API's base URL, such as http://127.0.0.1:41234.
	ConnectURL string
	// Token is the SOUS_SERVICE_TOKEN every RPC but health needs; "" for a
	// demo started without one (StartWithoutToken).
	Token string
	// MCPURL is the MCP endpoint, such as http://127.0.0.1:41235/mcp.
	MCPURL string
	// MealieURL and MealieToken are the seeded Mealie emulator's, as the
	// banner prints them.
	MealieURL, MealieToken string
	// Banner is everything the demo printed up to "Press Ctrl-C to stop.".
	Banner string
}

var (
	connectLine = regexp.MustCompile(`Connect API:\s+(http://\S+)`)
	foodLine    = regexp.MustCompile(`Food API \(pantry\):\s+(\S+)`)
	mcpLine     = regexp.MustCompile(`MCP \(Streamable HTTP\):\s+(http://\S+)`)
	mealieLine  = regexp.MustCompile(`Mealie emulator:\s+(http://\S+)\s+\(API token: (\S+)\)`)
)

// Need skips the test when a file the Makefile installs is missing, except
// in CI, where make test-deps has installed it and a skip would hide the test.
func Need(t *testing.T, path, install string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing in CI: %s", path, install)
		}
		t.Skipf("%s is missing: run %s", path, install)
	}
}

// Start runs bin as `sous demo` from the checkout at root (where it finds
// the bundled food API) with the pantry on and a fresh service token, and
// stops it when the test ends.
func Start(t *testing.T, bin, root string) Demo {
	t.Helper()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return start(t, bin, root, hex.EncodeToString(b))
}

// StartWithoutToken is Start as `make demo` runs it: no SOUS_SERVICE_TOKEN,
// so the banner prints its commands without one.
func StartWithoutToken(t *testing.T, bin, root string) Demo {
	t.Helper()
	return start(t, bin, root, "")
}

func start(t *testing.T, bin, root, token string) Demo {
	t.Helper()
	Need(t, filepath.Join(root, "foodapi", ".venv", "bin", "python"), "make -C foodapi venv (the demo pantry)")
	cmd := exec.Command(bin, "demo", "--addr", "127.0.0.1:0", "--connect-addr", "127.0.0.1:0")
	cmd.Dir = root
	cmd.Env = CleanEnv()
	if token != "" {
		cmd.Env = append(cmd.Env, "SOUS_SERVICE_TOKEN="+token)
	}
	cmd.Stderr = testWriter{t}
	stdout, err := cmd.StdoutPipe()
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
		case <-time.After(stopGrace):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	banner := make(chan string, 1)
	go func() {
		var seen strings.Builder
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			seen.WriteString(sc.Text() + "\n")
			if strings.HasPrefix(sc.Text(), "Press Ctrl-C") {
				banner <- seen.String()
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case text := <-banner:
		m := connectLine.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("the demo banner names no Connect API:\n%s", text)
		}
		if f := foodLine.FindStringSubmatch(text); f == nil || !strings.HasPrefix(f[1], "http://") {
			t.Fatalf("the demo pantry is off, so nothing can skip what is in stock:\n%s", text)
		}
		mcp, mealie := mcpLine.FindStringSubmatch(text), mealieLine.FindStringSubmatch(text)
		if mcp == nil || mealie == nil {
			t.Fatalf("the demo banner names no MCP endpoint or no Mealie emulator:\n%s", text)
		}
		return Demo{ConnectURL: m[1], Token: token, MCPURL: mcp[1], MealieURL: mealie[1], MealieToken: mealie[2], Banner: text}
	case <-time.After(StartTimeout):
		t.Fatal("sous demo printed no banner")
	}
	return Demo{}
}

// CleanEnv is this process's environment without sous's, Mealie's and the
// food API's variables, so a developer's settings do not leak in.
func CleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MEALIE_") || strings.HasPrefix(k, "SOUS_") || strings.HasPrefix(k, "FOOD_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
