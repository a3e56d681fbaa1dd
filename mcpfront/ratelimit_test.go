package mcpfront

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestRateLimiter: a client past its burst gets 429 with Retry-After and
// a sentence naming the limit; another client is not affected.
func TestRateLimiter(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	l := newRateLimiter(ok, 60, slog.New(slog.DiscardHandler))
	do := func(addr string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		l.ServeHTTP(w, r)
		return w
	}
	for i := range l.burst {
		if w := do("192.0.2.1:1000"); w.Code != http.StatusNoContent {
			t.Fatalf("request %d inside the burst: %d", i+1, w.Code)
		}
	}
	w := do("192.0.2.1:2000") // another port, same client
	if w.Code != http.StatusTooManyRequests {
		t.Fatalf("past the burst: %d, want 429", w.Code)
	}
	if s, err := strconv.Atoi(w.Header().Get("Retry-After")); err != nil || s < 1 {
		t.Errorf("Retry-After = %q", w.Header().Get("Retry-After"))
	}
	if !strings.Contains(w.Body.String(), "60 a minute") {
		t.Errorf("body = %q", w.Body.String())
	}
	if w := do("192.0.2.2:1000"); w.Code != http.StatusNoContent {
		t.Errorf("another client was limited: %d", w.Code)
	}
}

func TestRateLimitFromEnv(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want int
		err  bool
	}{
		{"", DefaultRateLimit, false},
		{"off", 0, false},
		{"0", 0, false},
		{" 120 ", 120, false},
		{"-1", 0, true},
		{"10/s", 0, true},
	} {
		t.Setenv(RateLimitEnv, tt.v)
		got, err := RateLimitFromEnv()
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("%q: got %d, %v", tt.v, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), RateLimitEnv) {
			t.Errorf("%q: the error does not name the variable: %v", tt.v, err)
		}
	}
}
