package pantry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// dropping is a food API that reads each request whole, as if it applied
// it, and then drops the connection without an answer.
func dropping(t *testing.T) (*foodClient, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		conn.Close()
	}))
	t.Cleanup(srv.Close)
	c, err := newFoodClient(srv.URL+"/api/", "secret-token", srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.conn.Retry.Backoff = 0
	return c, &calls
}

// TestLostAnswer: a write whose answer never came says it may have been
// saved and what to check, and is sent once; a read that fails the same
// way is "unreachable" and retried.
func TestLostAnswer(t *testing.T) {
	tests := []struct {
		name, method, path string
		want               []string
		calls              int32
	}{
		{name: "set_item_state", method: http.MethodPost, path: "/pantry/set-state/", want: []string{"may have saved", "check with get_pantry before"}, calls: 1},
		{name: "add_to_pantry", method: http.MethodPost, path: "/bulk-pantry-add/", want: []string{"may have saved", "check with get_pantry before"}, calls: 1},
		{name: "log_cook", method: http.MethodPost, path: "/log-cook/", want: []string{"may have saved", "get_pantry and get_meta_recipes"}, calls: 1},
		{name: "create_meta_recipe", method: http.MethodPost, path: "/create-meta-recipe/", want: []string{"may have saved", "check with get_meta_recipes"}, calls: 1},
		{name: "update a meta-recipe", method: http.MethodPut, path: "/create-meta-recipe/", want: []string{"may have saved", "get_meta_recipes"}, calls: 1},
		{name: "a read", method: http.MethodGet, path: "/pantry/", want: []string{"unreachable"}, calls: 1 + ReadRetries},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, calls := dropping(t)
			var err error
			if tt.method == http.MethodGet {
				err = c.get(context.Background(), tt.path, nil, nil)
			} else {
				err = c.send(context.Background(), tt.method, tt.path, map[string]any{"x": 1}, nil)
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if got := calls.Load(); got != tt.calls {
				t.Errorf("%d requests, want %d", got, tt.calls)
			}
		})
	}
}

// TestRedirectRefused: a 3xx is never followed, for a write or a read: the
// place it points at gets nothing, token included, and the error names
// FOOD_API_BASE.
func TestRedirectRefused(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	t.Cleanup(other.Close)
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			t.Run(http.StatusText(status)+" "+method, func(t *testing.T) {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, other.URL+"/api/log-cook/", status)
				}))
				t.Cleanup(srv.Close)
				c, err := newFoodClient(srv.URL+"/api/", "secret-token", srv.Client(), nil)
				if err != nil {
					t.Fatal(err)
				}
				c.conn.Retry.Backoff = 0
				if method == http.MethodGet {
					err = c.get(context.Background(), "/pantry/", nil, nil)
				} else {
					err = c.send(context.Background(), method, "/log-cook/", map[string]any{}, nil)
				}
				if err == nil || !strings.Contains(err.Error(), "FOOD_API_BASE") {
					t.Errorf("err = %v, want a refusal naming FOOD_API_BASE", err)
				}
				if n := elsewhere.Load(); n != 0 {
					t.Errorf("the redirect target got %d requests", n)
				}
			})
		}
	}
}
