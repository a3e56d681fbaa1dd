package serve_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"

	"github.com/souskitchen/sous/internal/serve"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// getStatusPath is a guarded RPC, called with the Connect protocol's JSON.
const getStatusPath = "/" + recipesv1connect.RecipesServiceName + "/GetStatus"

// postStatus calls GetStatus on base with the given Host and Origin ("" for
// none) and returns the HTTP status.
func postStatus(t *testing.T, c *http.Client, base, host, origin string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+getStatusPath, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestLoopbackHostAndOrigin: with no service token, a listener on loopback
// answers only loopback Hosts and Origins, so a page that rebinds its own
// name to 127.0.0.1 cannot call the services.
func TestLoopbackHostAndOrigin(t *testing.T) {
	srv := httptest.NewServer(newHandler(""))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, tc := range []struct {
		name, host, origin string
		want               int
	}{
		{"the listen address", "", "", http.StatusOK},
		{"localhost", "localhost:" + port, "", http.StatusOK},
		{"localhost, another port", "LocalHost:9", "", http.StatusOK},
		{"localhost without a port", "localhost", "", http.StatusOK},
		{"localhost with a trailing dot", "localhost.:" + port, "", http.StatusOK},
		{"another loopback address", "127.0.0.2:" + port, "", http.StatusOK},
		{"IPv6 loopback", "[::1]:" + port, "", http.StatusOK},
		{"IPv6 loopback without a port", "[::1]", "", http.StatusOK},
		{"loopback origin", "", "http://127.0.0.1:3000", http.StatusOK},
		{"localhost origin", "", "https://localhost", http.StatusOK},
		{"rebinding Host", "rebind.attacker.example", "", http.StatusForbidden},
		{"rebinding Host with the port", "rebind.attacker.example:" + port, "", http.StatusForbidden},
		{"localhost look-alike", "localhost.attacker.example:" + port, "", http.StatusForbidden},
		{"subdomain of localhost", "evil.localhost:" + port, "", http.StatusForbidden},
		{"LAN address", "192.168.1.10:" + port, "", http.StatusForbidden},
		{"wildcard address", "0.0.0.0:" + port, "", http.StatusForbidden},
		{"foreign origin", "", "https://attacker.example", http.StatusForbidden},
		{"null origin", "", "null", http.StatusForbidden},
		{"origin with another scheme", "", "file://127.0.0.1", http.StatusForbidden},
		{"origin look-alike", "", "http://127.0.0.1.attacker.example", http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := postStatus(t, srv.Client(), srv.URL, tc.host, tc.origin); got != tc.want {
				t.Errorf("Host %q Origin %q: status %d, want %d", tc.host, tc.origin, got, tc.want)
			}
		})
	}
}

// TestHealthOutsideTheHostGuard: a health probe is answered whatever the
// listen address is called (compose's `--healthcheck` dials 127.0.0.1, a
// probe may name the host), and health leaks nothing to a rebinding page.
func TestHealthOutsideTheHostGuard(t *testing.T) {
	srv := httptest.NewServer(newHandler("tok"))
	t.Cleanup(srv.Close)
	hc := &http.Client{Transport: hostRoundTripper{host: "sous-host.lan", next: srv.Client().Transport}}
	health := grpchealth.NewClient(hc, srv.URL)
	res, err := health.Check(context.Background(), &grpchealth.CheckRequest{})
	if err != nil || res.Status != grpchealth.StatusServing {
		t.Fatalf("health with a foreign Host: %+v %v", res, err)
	}
}

// TestBeyondLoopbackKeepsAnyHost: a connection that arrived on a
// non-loopback address (a container on 0.0.0.0 reached as recipes:8081) is
// not Host-checked; the token is what guards it there.
func TestBeyondLoopbackKeepsAnyHost(t *testing.T) {
	h := newHandler("")
	for _, local := range []string{"10.1.2.3", "172.18.0.4", "fd00::4"} {
		req := httptest.NewRequest(http.MethodPost, "http://recipes:8081"+getStatusPath, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "https://attacker.example")
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey,
			&net.TCPAddr{IP: net.ParseIP(local), Port: 8081}))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("local address %s, Host recipes:8081: status %d, want 200: %s", local, rec.Code, rec.Body)
		}
	}
	// An IPv4-mapped loopback local address, as a dual-stack listener sees
	// 127.0.0.1, is loopback.
	req := httptest.NewRequest(http.MethodPost, "http://rebind.attacker.example"+getStatusPath, strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey,
		&net.TCPAddr{IP: net.ParseIP("::ffff:127.0.0.1"), Port: 8081}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("mapped loopback, rebinding Host: status %d, want 403", rec.Code)
	}
}

// hostRoundTripper sends every request with Host (HTTP/2's :authority) set
// to host.
type hostRoundTripper struct {
	host string
	next http.RoundTripper
}

func (h hostRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Host = h.host
	return h.next.RoundTrip(r)
}

// TestRebindingOverH2C: the real server (NewServer, Run) on a loopback
// listener refuses a gRPC call over h2c whose :authority is a rebinding
// name, and answers one whose authority is the listen address.
func TestRebindingOverH2C(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve.Run(ctx, serve.NewServer(newHandler(""), slog.New(slog.DiscardHandler)), ln) }()
	t.Cleanup(func() { cancel(); <-done })
	base := "http://" + ln.Addr().String()
	hc := serve.HTTPClient(base)
	t.Cleanup(hc.CloseIdleConnections)

	ok := recipesv1connect.NewRecipesServiceClient(hc, base, connect.WithGRPC())
	if _, err := ok.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{})); err != nil {
		t.Fatalf("GetStatus at the listen address: %v", err)
	}
	rebound := recipesv1connect.NewRecipesServiceClient(
		&http.Client{Transport: hostRoundTripper{host: "rebind.attacker.example:80", next: hc.Transport}},
		base, connect.WithGRPC())
	_, err = rebound.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{}))
	if connect.CodeOf(err) != connect.CodePermissionDenied {
		t.Fatalf("GetStatus with a rebinding authority: %v, want PermissionDenied", err)
	}
	if err := serve.Check(ctx, base, ""); err != nil {
		t.Fatalf("serve.Check, as --healthcheck runs it: %v", err)
	}
}
