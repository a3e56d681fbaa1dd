package backend

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

var errTransient = errors.New("transient")
var errFinal = errors.New("final")

func TestRetryAttempts(t *testing.T) {
	retryable := func(err error) bool { return errors.Is(err, errTransient) }
	tests := []struct {
		name string
		read bool
		// errs are the errors of successive attempts; past its end an
		// attempt succeeds.
		errs         []error
		wantAttempts int
		wantErr      error
	}{
		{"read succeeds first", true, nil, 1, nil},
		{"read succeeds on last retry", true, []error{errTransient, errTransient}, 3, nil},
		{"read gives up after retries", true, []error{errTransient, errTransient, errTransient, errTransient}, 3, errTransient},
		{"read stops on a final error", true, []error{errTransient, errFinal}, 2, errFinal},
		{"write is sent once on a retryable error", false, []error{errTransient}, 1, errTransient},
		{"write is sent once on success", false, nil, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Retry{Reads: 2, Retryable: retryable}
			var n int
			body, err := r.Do(context.Background(), tt.read, func() ([]byte, error) {
				n++
				if n <= len(tt.errs) {
					return nil, tt.errs[n-1]
				}
				return []byte("ok"), nil
			})
			if n != tt.wantAttempts {
				t.Errorf("attempts = %d, want %d", n, tt.wantAttempts)
			}
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr == nil && string(body) != "ok" {
				t.Errorf("body = %q, want ok", body)
			}
		})
	}
}

func TestRetryNilRetryableRetriesAll(t *testing.T) {
	var n int
	_, err := Retry{Reads: 2}.Do(context.Background(), true, func() ([]byte, error) { n++; return nil, errFinal })
	if n != 3 || !errors.Is(err, errFinal) {
		t.Errorf("attempts = %d, err = %v; want 3 and errFinal", n, err)
	}
}

// TestRetryBackoffCancelled: a context that ends during the backoff wait
// stops the loop without another attempt, with Interrupted's error. It runs
// in a synctest bubble, so "during the wait" is exact: synctest.Wait
// returns once Do is blocked on its timer.
func TestRetryBackoffCancelled(t *testing.T) {
	wrapped := errors.New("interrupted")
	tests := []struct {
		name        string
		interrupted func(error) error
		want        error
	}{
		{"mapped", func(err error) error { return errors.Join(wrapped, err) }, wrapped},
		{"bare", nil, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				r := Retry{Reads: 2, Backoff: time.Hour, Interrupted: tt.interrupted}
				var n atomic.Int32
				done := make(chan error)
				go func() {
					_, err := r.Do(ctx, true, func() ([]byte, error) { n.Add(1); return nil, errTransient })
					done <- err
				}()
				synctest.Wait()
				cancel()
				err := <-done
				if n.Load() != 1 {
					t.Errorf("attempts = %d, want 1", n.Load())
				}
				if !errors.Is(err, tt.want) {
					t.Errorf("err = %v, want %v", err, tt.want)
				}
			})
		})
	}
}

// TestRetryBackoffIsLinear: retry n starts n times Backoff after the one
// before, on synctest's clock (no real waiting, nothing timed).
func TestRetryBackoffIsLinear(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const backoff = 300 * time.Millisecond
		start := time.Now()
		var at []time.Duration
		_, _ = Retry{Reads: 3, Backoff: backoff}.Do(context.Background(), true, func() ([]byte, error) {
			at = append(at, time.Since(start))
			return nil, errTransient
		})
		want := []time.Duration{0, backoff, 3 * backoff, 6 * backoff}
		if !slices.Equal(at, want) {
			t.Errorf("attempts at %v, want %v", at, want)
		}
	})
}

// TestRetryStopsOnDeadContext: an attempt that fails because its context
// ended is not followed by another, whatever Retryable says.
func TestRetryStopsOnDeadContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var n int
	_, err := Retry{Reads: 2}.Do(ctx, true, func() ([]byte, error) { n++; return nil, errTransient })
	if n != 1 || !errors.Is(err, errTransient) {
		t.Errorf("attempts = %d, err = %v; want 1 and errTransient", n, err)
	}
}

func TestReadAtMost(t *testing.T) {
	tests := []struct {
		in       string
		max      int64
		want     string
		wantOver bool
	}{
		{"", 4, "", false},
		{"abc", 4, "abc", false},
		{"abcd", 4, "abcd", false},
		{"abcde", 4, "abcd", true},
		{strings.Repeat("x", 100), 4, "xxxx", true},
		{"a", 0, "", true},
	}
	for _, tt := range tests {
		body, over, err := ReadAtMost(strings.NewReader(tt.in), tt.max)
		if err != nil || string(body) != tt.want || over != tt.wantOver {
			t.Errorf("ReadAtMost(%d bytes, %d) = %q, %v, %v; want %q, %v", len(tt.in), tt.max, body, over, err, tt.want, tt.wantOver)
		}
	}
}

func TestBaseURL(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{"https://mealie.example.com", "https://mealie.example.com", true},
		{"  http://127.0.0.1:8042/api//  ", "http://127.0.0.1:8042/api", true},
		{"", "", false},
		{"mealie.example.com", "", false},
		{"ftp://example.com", "", false},
		{"http://", "", false},
		{"http://[::1", "", false},
	}
	for _, tt := range tests {
		got, ok := BaseURL(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("BaseURL(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestURL(t *testing.T) {
	if got := URL("http://h/api", "/x", nil); got != "http://h/api/x" {
		t.Errorf("URL without query = %q", got)
	}
	if got := URL("http://h/api", "/x", url.Values{"q": {"a b"}}); got != "http://h/api/x?q=a+b" {
		t.Errorf("URL with query = %q", got)
	}
}

func TestHTTPClient(t *testing.T) {
	base := &http.Client{Timeout: 1}
	hc := HTTPClient(ClientOptions{Base: base, Timeout: 42})
	if hc == base || hc.Timeout != 42 || base.Timeout != 1 {
		t.Errorf("Base was not copied: got %p timeout %v, base %p timeout %v", hc, hc.Timeout, base, base.Timeout)
	}
	hc = HTTPClient(ClientOptions{InsecureSkipVerify: true})
	tr, ok := hc.Transport.(*http.Transport)
	if !ok || tr == http.DefaultTransport || tr.TLSClientConfig == nil || !tr.TLSClientConfig.InsecureSkipVerify {
		t.Errorf("InsecureSkipVerify did not give an own transport that skips verification: %#v", hc.Transport)
	}
}

// TestRedirects: NoRedirects answers the 3xx itself; without it the
// client follows as net/http does.
func TestRedirects(t *testing.T) {
	var followed atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/elsewhere" {
			followed.Add(1)
			_, _ = io.WriteString(w, "{}")
			return
		}
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	}))
	defer srv.Close()
	for _, no := range []bool{true, false} {
		hc := HTTPClient(ClientOptions{Base: srv.Client(), NoRedirects: no})
		req, err := NewRequest(context.Background(), http.MethodGet, srv.URL+"/api", "Bearer t", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, _, err := Send(hc, req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := http.StatusOK
		if no {
			want = http.StatusFound
		}
		if resp.StatusCode != want {
			t.Errorf("NoRedirects=%v: status %d, want %d", no, resp.StatusCode, want)
		}
	}
	if followed.Load() != 1 {
		t.Errorf("redirect followed %d times, want 1", followed.Load())
	}
}

// TestSend checks the headers NewRequest sets and that Send reports a
// request written whole, and one that never left, as such.
func TestSend(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	defer srv.Close()
	req, err := NewRequest(context.Background(), http.MethodPost, srv.URL, "Token s", "application/json", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp, sent, err := Send(srv.Client(), req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !sent {
		t.Error("sent = false for a request the server read")
	}
	for k, v := range map[string]string{"Authorization": "Token s", "Accept": "application/json", "Content-Type": "application/json"} {
		if got.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, got.Get(k), v)
		}
	}

	srv.Close() // nothing listens now: the request cannot be written
	req, _ = NewRequest(context.Background(), http.MethodPost, srv.URL, "Token s", "application/json", []byte(`{}`))
	if _, sent, err := Send(srv.Client(), req); err == nil || sent {
		t.Errorf("to a closed server: sent = %v, err = %v; want false and an error", sent, err)
	}
}
