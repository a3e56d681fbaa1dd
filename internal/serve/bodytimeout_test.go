package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// testBodyTimeout is short so the slow-body tests end quickly; waitBound
// only keeps a broken build from hanging the run.
const (
	testBodyTimeout = 100 * time.Millisecond
	waitBound       = 20 * time.Second
)

// startServer serves h through newServer with testBodyTimeout on a
// loopback listener and returns its base URL.
func startServer(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, newServer(h, slog.New(slog.DiscardHandler), testBodyTimeout), ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String()
}

// bodyReader answers 200 after reading the whole body, and reports the
// read's error on errc.
func bodyReader(errc chan<- error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		errc <- err
		if err != nil {
			http.Error(w, err.Error(), http.StatusRequestTimeout)
		}
	})
}

// TestSlowBodyIsCut: a client that sends its headers and one byte of a
// longer body, then stalls, gets its body read ended by the deadline, on
// HTTP/1.1 and on h2c.
func TestSlowBodyIsCut(t *testing.T) {
	t.Run("http1", func(t *testing.T) {
		errc := make(chan error, 1)
		base := startServer(t, bodyReader(errc))
		conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nx")
		select {
		case err := <-errc:
			if err == nil {
				t.Fatal("the body read ended without an error")
			}
		case <-time.After(waitBound):
			t.Fatal("a stalled HTTP/1.1 body is still being waited for")
		}
	})
	t.Run("h2c", func(t *testing.T) {
		errc := make(chan error, 1)
		base := startServer(t, bodyReader(errc))
		pr, pw := io.Pipe()
		defer pw.Close()
		go func() { _, _ = pw.Write([]byte("x")) }()
		hc := HTTPClient(base)
		defer hc.CloseIdleConnections()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/", pr)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			if res, err := hc.Do(req); err == nil {
				res.Body.Close()
			}
		}()
		select {
		case err := <-errc:
			if err == nil {
				t.Fatal("the body read ended without an error")
			}
		case <-time.After(waitBound):
			t.Fatal("a stalled h2c body is still being waited for")
		}
	})
}

// streamChunks is how many chunks the streaming handler writes, one per
// testBodyTimeout, so the stream outlives the body deadline several times.
const streamChunks = 4

// streamer reads the body, then streams streamChunks lines, one per
// testBodyTimeout, and ends with "done" unless its context was cancelled.
func streamer() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rc := http.NewResponseController(w)
		for i := range streamChunks {
			fmt.Fprintf(w, "chunk %d\n", i)
			if err := rc.Flush(); err != nil {
				return
			}
			select {
			case <-r.Context().Done():
				fmt.Fprintf(w, "cancelled: %v\n", r.Context().Err())
				return
			case <-time.After(testBodyTimeout):
			}
		}
		fmt.Fprintln(w, "done")
	})
}

// TestStreamOutlivesBodyDeadline: a response that streams long after its
// body was read (a library sweep, an MCP event stream) is not cut by the
// body deadline, on HTTP/1.1 and h2c, with a body and without one.
func TestStreamOutlivesBodyDeadline(t *testing.T) {
	base := startServer(t, streamer())
	h1 := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	h2c := HTTPClient(base)
	t.Cleanup(h1.CloseIdleConnections)
	t.Cleanup(h2c.CloseIdleConnections)
	for _, tc := range []struct {
		name   string
		client *http.Client
		method string
		proto  int
	}{
		{"http1 POST", h1, http.MethodPost, 1},
		{"http1 GET", h1, http.MethodGet, 1},
		{"h2c POST", h2c, http.MethodPost, 2},
		{"h2c GET", h2c, http.MethodGet, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), waitBound)
			defer cancel()
			var body io.Reader
			if tc.method == http.MethodPost {
				body = strings.NewReader(`{"slug":"tomato-soup"}`)
			}
			req, err := http.NewRequestWithContext(ctx, tc.method, base+"/", body)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tc.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if res.ProtoMajor != tc.proto {
				t.Fatalf("spoke %s, want HTTP/%d", res.Proto, tc.proto)
			}
			var lines []string
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) {
				t.Fatalf("stream broke after %q: %v", lines, err)
			}
			if len(lines) != streamChunks+1 || lines[len(lines)-1] != "done" {
				t.Fatalf("stream = %q, want %d chunks and done", lines, streamChunks)
			}
		})
	}
}
