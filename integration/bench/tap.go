package bench

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
)

// Tap is a reverse proxy in front of a backend (the Mealie emulator or the
// food API) that counts what the backend answered, so a figure can set
// sous's answer beside the raw payload of the same data. It can also answer
// chosen paths with fixed bodies, to put a captured Mealie payload behind
// sous's real code path.
type Tap struct {
	// URL is the proxy's base address, to give sous as MEALIE_URL or
	// FOOD_API_BASE (with the target's path appended by the caller).
	URL string

	srv      *http.Server
	ln       net.Listener
	override map[string][]byte

	mu       sync.Mutex
	requests int
	bytes    int64
	bodies   bytes.Buffer
}

// maxKeptBodies bounds the answers a Tap keeps for token counting: the
// figures' raw payloads are tens of kilobytes, and a sweep through a tap
// must not hold a whole library.
const maxKeptBodies = 4 << 20

// StartTap proxies to target (scheme://host). override maps a URL path to
// the JSON body answered for a GET of it, with status 200.
func StartTap(target string, override map[string][]byte) (*Tap, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	t := &Tap{URL: "http://" + ln.Addr().String(), ln: ln, override: override}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(u) },
		ModifyResponse: func(resp *http.Response) error {
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				return err
			}
			t.count(body)
			resp.Body = io.NopCloser(bytes.NewReader(body))
			return nil
		},
	}
	t.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, ok := t.override[r.URL.Path]; ok && r.Method == http.MethodGet {
			t.count(body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
			return
		}
		rp.ServeHTTP(w, r)
	})}
	go func() { _ = t.srv.Serve(ln) }()
	return t, nil
}

// count records one answer at its compact JSON size: indentation is a
// transport detail, and mcp-mealie's figures are of compact payloads too. A body that
// is not JSON counts as sent.
func (t *Tap) count(body []byte) {
	var buf bytes.Buffer
	if json.Compact(&buf, body) != nil {
		buf.Reset()
		buf.Write(body)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.requests++
	t.bytes += int64(buf.Len())
	if t.bodies.Len() < maxKeptBodies {
		t.bodies.Write(buf.Bytes())
		t.bodies.WriteByte('\n')
	}
}

// Reset zeroes the counters.
func (t *Tap) Reset() {
	t.mu.Lock()
	t.requests, t.bytes = 0, 0
	t.bodies.Reset()
	t.mu.Unlock()
}

// Totals are the requests answered and their compact bytes since Reset.
func (t *Tap) Totals() (requests int, bytes int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.requests, t.bytes
}

// Bodies are the compact answers since Reset, one a line, for counting
// their tokens; past maxKeptBodies bytes later answers are not kept.
func (t *Tap) Bodies() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bodies.String()
}

// Close stops the proxy.
func (t *Tap) Close() { _ = t.srv.Close() }
