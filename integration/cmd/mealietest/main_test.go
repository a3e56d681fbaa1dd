package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// lockedBuffer is a stderr the test can read while run writes to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestServePrintsTokenAndServes(t *testing.T) {
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr, "--seed", "bench:50", "--mealie-version", "2.0"}, &stderr)
	}()
	defer func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("exit status %d", code)
			}
		case <-time.After(5 * time.Second):
			t.Error("serve did not stop after cancel")
		}
	}()

	var resp *http.Response
	deadline := time.Now().Add(5 * time.Second)
	for {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/api/recipes?perPage=1", nil)
		req.Header.Set("Authorization", "Bearer "+mealieemu.DefaultToken)
		var err error
		resp, err = http.DefaultClient.Do(req)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server never answered: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer resp.Body.Close()
	var page struct {
		Total int `json:"total"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		t.Fatal(err)
	}
	if page.Total != 50 {
		t.Errorf("total = %d, want 50 recipes from bench:50", page.Total)
	}
	var tokenLines int
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, mealieemu.DefaultToken) {
			tokenLines++
		}
	}
	if tokenLines != 1 {
		t.Errorf("stderr names the token on %d lines, want 1:\n%s", tokenLines, stderr.String())
	}
}

func TestServeWithTokenDoesNotPrintIt(t *testing.T) {
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--addr", addr, "--token", "s3cret"}, &stderr) }()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(stderr.String(), "emulator on") {
		if time.Now().After(deadline) {
			t.Fatal("server did not report readiness")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if strings.Contains(stderr.String(), "s3cret") {
		t.Errorf("stderr leaks the given token:\n%s", stderr.String())
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"bogus"}, {"serve", "--seed", "bench:x", "--addr", "127.0.0.1:0"}, {"serve", "--mealie-version", "9", "--addr", "127.0.0.1:0"}} {
		var stderr bytes.Buffer
		if code := run(context.Background(), args, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
		if stderr.Len() == 0 {
			t.Errorf("run(%q) printed nothing", args)
		}
	}
}

func TestServeWithFaults(t *testing.T) {
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr, "--seed", "empty",
			"--fault", "GET /api/users/self status=503 first=2", "--jitter", "1ms"}, &stderr)
	}()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(stderr.String(), "emulator on") {
		if time.Now().After(deadline) {
			t.Fatalf("server did not report readiness:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	var got []int
	for range 3 {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/api/users/self", nil)
		req.Header.Set("Authorization", "Bearer "+mealieemu.DefaultToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got = append(got, resp.StatusCode)
	}
	if want := []int{503, 503, 200}; !slices.Equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if !strings.Contains(stderr.String(), "fault GET /api/users/self status=503 first=2") {
		t.Errorf("stderr does not list the fault:\n%s", stderr.String())
	}
}

func TestBadFaultIsAUsageError(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--fault", "status=teapot"}, &stderr); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), "status=teapot") {
		t.Errorf("stderr does not name the bad field:\n%s", stderr.String())
	}
}
