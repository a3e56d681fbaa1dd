package mealie

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestRedirectsAreNotFollowed: a 3xx from MEALIE_URL (a login page, a
// path prefix, http to https) is never followed, for reads or writes: the
// answer is one protocol error naming the request and where it was sent,
// nothing reaches the target, and a read is not retried.
func TestRedirectsAreNotFollowed(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.Method+" "+r.URL.Path]++
		mu.Unlock()
		if strings.HasPrefix(r.URL.Path, "/api/") {
			code := map[string]int{
				http.MethodGet: http.StatusTemporaryRedirect, http.MethodPost: http.StatusFound,
				http.MethodPut: http.StatusPermanentRedirect, http.MethodDelete: http.StatusMovedPermanently,
				http.MethodPatch: http.StatusSeeOther,
			}[r.Method]
			http.Redirect(w, r, "/mealie"+r.URL.Path+"?token=secret", code)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	})
	c, srv := newTestClient(t, h)
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		t.Run(method, func(t *testing.T) {
			req := Request{Method: method, Path: "/api/recipes/soup", Resource: "recipe 'soup'"}
			if method != http.MethodGet && method != http.MethodDelete {
				req.Body = map[string]string{"name": "Soup"}
			}
			_, err := c.Raw(context.Background(), req)
			var me *Error
			if !errors.As(err, &me) || me.Kind != KindProtocol {
				t.Fatalf("got %v, want a protocol error", err)
			}
			want := "Mealie redirected " + method + " /api/recipes/soup to " + srv.URL + "/mealie/api/recipes/soup?token=secret"
			if !strings.HasPrefix(me.Message, want) || !strings.HasSuffix(me.Message, "— is MEALIE_URL the base URL?") {
				t.Errorf("message %q, want it to start %q and ask about MEALIE_URL", me.Message, want)
			}
			mu.Lock()
			defer mu.Unlock()
			if n := hits[method+" /api/recipes/soup"]; n != 1 {
				t.Errorf("sent %d times, want once (a redirect is not retried)", n)
			}
			for k, n := range hits {
				if strings.Contains(k, " /mealie") {
					t.Errorf("the redirect was followed: %s ×%d", k, n)
				}
			}
		})
	}
}

// TestRedirectErrorClipsLocation: a huge Location is cut in the message,
// and a missing one still gives the sentence.
func TestRedirectErrorClipsLocation(t *testing.T) {
	long := "/" + strings.Repeat("a", 5000)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("bare") != "" {
			w.WriteHeader(http.StatusFound)
			return
		}
		w.Header().Set("Location", long)
		w.WriteHeader(http.StatusFound)
	})
	c, _ := newTestClient(t, h)
	_, err := c.Raw(context.Background(), Request{Method: http.MethodGet, Path: "/api/app/about"})
	if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), "…") {
		t.Errorf("long Location: %d bytes: %.120v", len(err.Error()), err)
	}
	_, err = c.Raw(context.Background(), Request{Method: http.MethodGet, Path: "/api/app/about", Query: map[string][]string{"bare": {"1"}}})
	if err == nil || err.Error() != "Mealie redirected GET /api/app/about elsewhere (302) — is MEALIE_URL the base URL?" {
		t.Errorf("no Location: %v", err)
	}
}
