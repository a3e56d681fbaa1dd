package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/version"
)

// Exit statuses of `sous healthcheck`: Docker reads 0 as healthy and 1 as
// unhealthy, and reserves 2, which is left to command-line mistakes only.
const (
	exitHealthy   = 0
	exitUnhealthy = 1
)

// cmdHealthcheck checks a running sous server, for container health checks
// in images without a shell:
//
//	sous healthcheck URL         gRPC health (grpc.health.v1.Health/Check) of
//	                             a Connect service at URL, h2c for http://
//	sous healthcheck --mcp URL   an MCP ping over Streamable HTTP to the MCP
//	                             endpoint URL, with "Authorization: Bearer
//	                             $SOUS_MCP_BEARER_TOKEN" when that is set;
//	                             with OAuth on, its 401 challenge counts as
//	                             up (see mcpPing)
//
// It prints nothing when healthy and one line to stderr otherwise, never
// with the URL's path or query, which may hold FOOD_MCP_URL_SECRET. It
// returns the exit status.
func cmdHealthcheck(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	mcpMode := fs.Bool("mcp", false, "URL is an MCP endpoint: send an MCP ping")
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitHealthy
		}
		return exitStartup
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: sous healthcheck [--mcp] URL")
		return exitStartup
	}
	u, err := url.Parse(fs.Arg(0))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// url.Parse's error quotes the whole URL: say only what is wrong.
		fmt.Fprintln(stderr, "sous healthcheck: the URL must be http:// or https:// with a host")
		return exitStartup
	}
	if *mcpMode {
		err = mcpPing(ctx, u.String(), env.String("SOUS_MCP_BEARER_TOKEN", ""))
	} else {
		err = serve.Check(ctx, u.String(), "")
	}
	if err != nil {
		fmt.Fprintf(stderr, "sous healthcheck: %s: %s\n", redactedURL(u), redact(err.Error(), u))
		return exitUnhealthy
	}
	return exitHealthy
}

// pingProtocolVersion is the MCP version the probe speaks: protocol
// 2026-07-28 removes ping (the go-sdk server answers it "method not found"
// there), so the probe makes the initialize handshake of 2025-11-25, the
// latest version that has it and the one most clients still use.
const pingProtocolVersion = "2025-11-25"

// mcpPing connects an MCP client to the Streamable HTTP endpoint (the
// initialize handshake at pingProtocolVersion) and sends a ping, within
// serve.HealthTimeout. It asks for no standalone SSE stream and makes no
// retries: a probe is one short exchange.
//
// With OAuth on (SOUS_OAUTH_ISSUER) the endpoint wants an access token a
// probe cannot get without a person at the consent page; it answers 401
// with the RFC 9728 challenge (WWW-Authenticate naming resource_metadata)
// instead. The front listens only after its startup probe passed, so that
// answer from the endpoint means it is up, and counts as healthy. A plain
// 401 (a wrong SOUS_MCP_BEARER_TOKEN) or a 404 (a wrong path secret) does
// not.
func mcpPing(ctx context.Context, endpoint, bearer string) error {
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
// fragment that a library may have quoted (net/http quotes the whole URL)
// with "…", keeping the "/", "?" or "#" that starts it.
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
