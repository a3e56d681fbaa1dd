package library

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
)

// TestGuardFollowsRedirects: a page that passes the guard and redirects
// into loopback, the cloud metadata address or a name resolving to
// loopback is refused at the redirect's hop, and the internal server is
// never reached. The "public" first hop is a loopback server the test's
// Control func lets through; every other address meets the real guard.
func TestGuardFollowsRedirects(t *testing.T) {
	var internalHits atomic.Int32
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		internalHits.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(internal.Close)

	targets := map[string]string{
		"/to-loopback":  internal.URL + "/secret",
		"/to-metadata":  "http://169.254.169.254/latest/meta-data/",
		"/to-localhost": "http://localhost:" + strings.TrimPrefix(internal.URL, "http://127.0.0.1:") + "/secret",
		"/to-ipv6-loop": "http://[::1]:" + strings.TrimPrefix(internal.URL, "http://127.0.0.1:") + "/secret",
	}
	public := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to, ok := targets[r.URL.Path]; ok {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(public.Close)
	publicAddr := public.Listener.Addr().String()

	control := func(network, address string, c syscall.RawConn) error {
		if address == publicAddr {
			return nil // stands in for a public site
		}
		return guardControl(network, address, c)
	}
	checker := newGuardedLinkChecker(control, 2*time.Second)

	if v := checker.probe(context.Background(), public.URL+"/plain"); v.status != libraryv1.LinkStatus_LINK_STATUS_OK {
		t.Fatalf("the stand-in public page itself: %+v, want OK", v)
	}
	for path := range targets {
		t.Run(path, func(t *testing.T) {
			v := checker.probe(context.Background(), public.URL+path)
			if v.status != libraryv1.LinkStatus_LINK_STATUS_REFUSED {
				t.Errorf("redirect %s: %+v, want refused by the guard", path, v)
			}
		})
	}
	if n := internalHits.Load(); n != 0 {
		t.Errorf("the internal server was reached %d times", n)
	}
}
