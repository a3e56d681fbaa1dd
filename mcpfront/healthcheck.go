package mcpfront

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/version"
)

// pingProtocolVersion is the MCP version the probe speaks: protocol
// 2026-07-28 removes ping (the go-sdk server answers it "method not found"
// there), so the probe makes the initialize handshake of 2025-11-25, the
// latest version that has it and the one most clients still use.
const pingProtocolVersion = "2025-11-25"

// Ping is the health check of a running front: it connects an MCP client
// to the Streamable HTTP endpoint (the initialize handshake at
// pingProtocolVersion) and sends a ping, within serve.HealthTimeout, with
// "Authorization: Bearer <bearer>" when bearer is set. It asks for no
// standalone SSE stream and makes no retries: a probe is one short
// exchange. `sous healthcheck --mcp` and `mcpfront --healthcheck` run it.
//
// With OAuth on (SOUS_OAUTH_ISSUER) the endpoint wants an access token a
// probe cannot get without a person at the consent page; it answers 401
// with the RFC 9728 challenge (WWW-Authenticate naming resource_metadata)
// instead. The front listens only after its startup probe passed, so that
// answer from the endpoint means it is up, and counts as healthy. A plain
// 401 (a wrong SOUS_MCP_BEARER_TOKEN) or a 404 (a wrong path secret) does
// not.
//
// Its error names the endpoint as RedactURLError does, so it never shows
// the path, which may hold FOOD_MCP_URL_SECRET.
func Ping(ctx context.Context, endpoint, bearer string) error {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// url.Parse's error quotes the whole URL: say only what is wrong.
		return fmt.Errorf("the MCP endpoint must be an http:// or https:// URL with a host")
	}
	if err := ping(ctx, endpoint, bearer); err != nil {
		return RedactURLError(u, err)
	}
	return nil
}

func ping(ctx context.Context, endpoint, bearer string) error {
	ctx, cancel := context.WithTimeout(ctx, serve.HealthTimeout)
	defer cancel()
	base := http.DefaultTransport.(*http.Transport).Clone()
	defer base.CloseIdleConnections()
	rt := &probeTransport{base: base}
	if bearer != "" {
		rt.authorization = "Bearer " + bearer
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "sous-healthcheck", Version: version.Version}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:             endpoint,
		HTTPClient:           &http.Client{Transport: rt},
		MaxRetries:           -1,
		DisableStandaloneSSE: true,
	}, &mcp.ClientSessionOptions{ProtocolVersion: pingProtocolVersion})
	if err != nil {
		if rt.oauthChallenge.Load() {
			return nil
		}
		return err
	}
	defer func() { _ = cs.Close() }()
	return cs.Ping(ctx, nil)
}

// probeTransport adds the Authorization header, if any, to every request,
// and notes whether an answer was OAuth's 401 challenge.
type probeTransport struct {
	base          http.RoundTripper
	authorization string
	// oauthChallenge is set by a 401 whose WWW-Authenticate names
	// resource_metadata (RFC 9728, section 5.1).
	oauthChallenge atomic.Bool
}

func (t *probeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.authorization != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", t.authorization)
	}
	res, err := t.base.RoundTrip(r)
	if err == nil && res.StatusCode == http.StatusUnauthorized {
		for _, v := range res.Header.Values("WWW-Authenticate") {
			if strings.Contains(strings.ToLower(v), "resource_metadata=") {
				t.oauthChallenge.Store(true)
			}
		}
	}
	return res, err
}

// RedactURLError is err from a call to u, for one line of a health check's
// output: "<scheme>://<host>/…: <err>", with every form of u's path, query
// and fragment that err quotes (net/http quotes the whole URL) replaced by
// "…", since they may hold FOOD_MCP_URL_SECRET. "/…" is left off the
// prefix when u has nothing after its host.
func RedactURLError(u *url.URL, err error) error {
	return fmt.Errorf("%s: %s", redactedURL(u), redact(err.Error(), u))
}

// redactedURL is u without its path, query and fragment: scheme and host,
// then "/…" when anything followed them.
func redactedURL(u *url.URL) string {
	s := u.Scheme + "://" + u.Host
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		s += "/…"
	}
	return s
}

// redact replaces, in an error message, every form of u's path, query and
// fragment that a library may have quoted with "…", keeping the "/", "?"
// or "#" that starts it.
func redact(msg string, u *url.URL) string {
	type part struct{ prefix, text string }
	var parts []part
	for _, p := range []string{u.Path, u.EscapedPath()} {
		if p != "" && p != "/" {
			parts = append(parts, part{"/", p})
		}
	}
	if u.RawQuery != "" {
		parts = append(parts, part{"?", "?" + u.RawQuery})
	}
	for _, f := range []string{u.Fragment, u.EscapedFragment()} {
		if f != "" {
			parts = append(parts, part{"#", "#" + f})
		}
	}
	// Longest first, so a part of a longer form never leaves the rest behind.
	sort.Slice(parts, func(i, j int) bool { return len(parts[i].text) > len(parts[j].text) })
	for _, p := range parts {
		msg = strings.ReplaceAll(msg, p.text, p.prefix+"…")
	}
	return msg
}

// HealthEndpoint is the MCP endpoint a health check on the same host
// pings for a front configured by c and listening on addr (host:port): the
// loopback address for a wildcard host (serve.LocalURL), then "/mcp", then
// "/<FOOD_MCP_URL_SECRET>" when that is set.
func HealthEndpoint(c Config, addr string) (string, error) {
	base, err := serve.LocalURL(addr)
	if err != nil {
		return "", err
	}
	endpoint := base + "/mcp"
	if c.URLSecret != "" {
		endpoint += "/" + url.PathEscape(c.URLSecret)
	}
	return endpoint, nil
}
