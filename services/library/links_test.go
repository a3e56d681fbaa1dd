package library

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"connectrpc.com/connect"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// TestRefusedKind covers every block of the IANA special-purpose
// registries that is not globally routable, at both ends where the block
// is wider than one address, the IPv6 forms that embed IPv4, and public
// addresses (including their embedded forms) that must stay allowed; the
// table is testdata/special-purpose-addresses.tsv.
func TestRefusedKind(t *testing.T) {
	data, err := os.ReadFile("testdata/special-purpose-addresses.tsv")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\n")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		addr, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("testdata line %q has no tab", line)
		}
		n++
		if got := refusedKind(netip.MustParseAddr(addr)); got != want {
			t.Errorf("refusedKind(%s) = %q, want %q", addr, got, want)
		}
	}
	if n < 75 {
		t.Fatalf("read %d addresses from testdata, want the whole table", n)
	}
	if got := refusedKind(netip.Addr{}); got == "" {
		t.Error("the zero address is allowed")
	}
}

// TestGuardControlRefusesEverySpecialRange: the dialer's hook refuses a
// connection to each new range at connect time, with the address named.
func TestGuardControlRefusesEverySpecialRange(t *testing.T) {
	for _, addr := range []string{"100.100.100.100:443", "198.18.0.1:80", "192.0.0.1:80", "240.0.0.1:80",
		"255.255.255.255:80", "0.1.2.3:80", "224.0.0.251:80", "[64:ff9b::a00:1]:443", "[::a00:1]:80",
		"[2002:c0a8:101::1]:80", "[2001:0:4136:e378:8000:63bf:80ff:fffe]:80", "[fec0::1]:80"} {
		err := guardControl("tcp", addr, nil)
		var ge *guardError
		if !errors.As(err, &ge) {
			t.Errorf("guardControl(%s) = %v, want a refusal", addr, err)
		}
	}
	if err := guardControl("tcp", "93.184.216.34:443", nil); err != nil {
		t.Errorf("guardControl(public) = %v", err)
	}
}

// linkSite is a loopback test site with dead, redirecting, 403 and slow
// pages; it records the most requests it saw at once and any credentials.
type linkSite struct {
	srv       *httptest.Server
	inFlight  atomic.Int32
	peak      atomic.Int32
	sawAuth   atomic.Bool
	release   chan struct{}
	closeOnce sync.Once
}

func newLinkSite(t *testing.T) *linkSite {
	s := &linkSite{release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/dead", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusMovedPermanently) })
	mux.HandleFunc("/moved-dead", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/dead", http.StatusFound) })
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/forbidden", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) })
	mux.HandleFunc("/no-head", func(w http.ResponseWriter, r *http.Request) {
		// Answers HEAD 405 but GET 200: the fallback must find it ok.
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-s.release:
		case <-r.Context().Done():
		}
	})
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.Header.Get("Cookie") != "" {
			s.sawAuth.Store(true)
		}
		n := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for {
			p := s.peak.Load()
			if n <= p || s.peak.CompareAndSwap(p, n) {
				break
			}
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		s.closeOnce.Do(func() { close(s.release) })
		s.srv.Close()
	})
	return s
}

func checkLinks(t *testing.T, h *harness, req *libraryv1.CheckRecipeLinksRequest) *libraryv1.CheckRecipeLinksResult {
	t.Helper()
	s, err := h.client.CheckRecipeLinks(context.Background(), connect.NewRequest(req))
	if err != nil {
		t.Fatal(err)
	}
	res, _ := collect(t, s, (*libraryv1.CheckRecipeLinksResponse).GetResult, (*libraryv1.CheckRecipeLinksResponse).GetProgress)
	return res
}

func TestCheckRecipeLinksAgainstLoopbackSite(t *testing.T) {
	site := newLinkSite(t)
	h := newHarness(t, func(c *Config) {
		c.AllowPrivateLinks = true
		// Short, so the slow page times out; the site holds it until the
		// test ends.
		c.LinkTimeout = 300 * time.Millisecond
	})
	pages := map[string]string{
		"a-ok": "/ok", "b-dead": "/dead", "c-gone": "/gone", "d-moved": "/moved", "e-moved-dead": "/moved-dead",
		"f-forbidden": "/forbidden", "g-no-head": "/no-head", "h-slow": "/slow", "i-loop": "/loop",
	}
	for slug, path := range pages {
		h.addRecipe(&recipesv1.Recipe{Slug: slug, Name: slug, SourceUrl: site.srv.URL + path, HasImage: slug != "b-dead"})
	}
	// More pages than the per-host limit, to see it hold.
	for _, slug := range []string{"j1", "j2", "j3", "j4", "j5", "j6"} {
		h.addRecipe(&recipesv1.Recipe{Slug: slug, Name: slug, SourceUrl: site.srv.URL + "/ok", HasImage: true})
	}
	h.addRecipe(&recipesv1.Recipe{Slug: "k-no-source", Name: "No Source", HasImage: true})
	h.addRecipe(&recipesv1.Recipe{Slug: "l-ftp", Name: "Ftp", SourceUrl: "ftp://example.org/x", HasImage: true})

	res := checkLinks(t, h, &libraryv1.CheckRecipeLinksRequest{})
	got := map[string]*libraryv1.LinkResult{}
	for _, it := range res.Items {
		got[it.Slug] = it
	}
	for slug, want := range map[string]struct {
		status libraryv1.LinkStatus
		code   int32
	}{
		"b-dead":       {libraryv1.LinkStatus_LINK_STATUS_BROKEN, 404},
		"c-gone":       {libraryv1.LinkStatus_LINK_STATUS_BROKEN, 410},
		"e-moved-dead": {libraryv1.LinkStatus_LINK_STATUS_BROKEN, 404},
		"f-forbidden":  {libraryv1.LinkStatus_LINK_STATUS_UNVERIFIED, 403},
		"h-slow":       {libraryv1.LinkStatus_LINK_STATUS_ERROR, 0},
		"i-loop":       {libraryv1.LinkStatus_LINK_STATUS_ERROR, 302},
		"l-ftp":        {libraryv1.LinkStatus_LINK_STATUS_REFUSED, 0},
	} {
		it := got[slug]
		if it == nil || it.Status != want.status || it.HttpStatus != want.code {
			t.Errorf("%s: %v, want %v %d", slug, it, want.status, want.code)
		}
	}
	for _, slug := range []string{"a-ok", "d-moved", "g-no-head", "j1"} {
		if got[slug] != nil {
			t.Errorf("%s should be ok: %v", slug, got[slug])
		}
	}
	c := res.Counts
	if c.Ok != 9 || c.Broken != 3 || c.Unverified != 1 || c.Error != 2 || c.Refused != 1 || c.NoSource != 1 || c.NoImage != 1 {
		t.Errorf("counts = %v", c)
	}
	if len(res.NoImage) != 1 || res.NoImage[0].Slug != "b-dead" {
		t.Errorf("no image = %v", res.NoImage)
	}
	if p := site.peak.Load(); p > perHostLimit {
		t.Errorf("%d requests at once to one host, limit %d", p, perHostLimit)
	}
	if site.sawAuth.Load() {
		t.Error("a probe carried credentials")
	}
}

func TestCheckRecipeLinksGuardRefusesInternalAddresses(t *testing.T) {
	site := newLinkSite(t)
	h := newHarness(t, nil) // the default: private addresses refused
	h.addRecipe(&recipesv1.Recipe{Slug: "loopback", Name: "Loopback", SourceUrl: site.srv.URL + "/ok", HasImage: true})
	h.addRecipe(&recipesv1.Recipe{Slug: "metadata", Name: "Metadata", SourceUrl: "http://169.254.169.254/latest/meta-data/", HasImage: true})
	h.addRecipe(&recipesv1.Recipe{Slug: "localhost", Name: "Localhost", SourceUrl: "http://localhost:1/", HasImage: true})

	res := checkLinks(t, h, &libraryv1.CheckRecipeLinksRequest{CheckImages: new(false)})
	if len(res.Items) != 3 {
		t.Fatalf("items = %v", res.Items)
	}
	for _, it := range res.Items {
		if it.Status != libraryv1.LinkStatus_LINK_STATUS_REFUSED {
			t.Errorf("%s: %v", it.Slug, it)
		}
	}
	if res.Counts.Refused != 3 {
		t.Errorf("counts = %v", res.Counts)
	}
	if site.peak.Load() != 0 {
		t.Error("the loopback site was reached despite the guard")
	}
	for _, it := range res.Items {
		if it.Slug == "metadata" && it.Message != "resolves to link-local address 169.254.169.254; set SOUS_LINKCHECK_ALLOW_PRIVATE=true to probe it" {
			t.Errorf("message = %q", it.Message)
		}
	}
}
