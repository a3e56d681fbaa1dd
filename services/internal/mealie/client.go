// Package mealie is sous's HTTP client for Mealie: bearer auth, the 15 s
// timeout, retries for reads only, error mapping to Connect codes with one
// plain sentence each, and the typed payloads sous reads. It knows nothing
// of MCP. It lives under services/internal so that only the Mealie-backed
// services can import it (docs/design.md, "One direction of dependency").
package mealie

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/souskitchen/sous/internal/backend"
)

// Limits and retry policy (docs/security.md, "Faults in the backends").
const (
	// Timeout bounds one request to Mealie: a homelab Mealie waking from
	// sleep answers well inside it, a dead one does not hold a call longer.
	Timeout = 15 * time.Second
	// ReadRetries is how many times a GET is retried after a transport
	// error or a 5xx: the homelab "container just woke up" case. Writes are
	// never retried: Mealie has no idempotency key and a retried create
	// duplicates the recipe.
	ReadRetries = 2
	// DefaultBackoff is the base of the linear backoff between GET attempts
	// (attempt n waits n times this).
	DefaultBackoff = 300 * time.Millisecond
	// maxErrorBody caps how much of an error body is read to build a message.
	maxErrorBody = 64 << 10
	// MaxResponseBody caps a successful response body: the largest payload
	// sous reads is a 500-item taxonomy page or a recipe list page, a few
	// MiB at most.
	MaxResponseBody = 32 << 20
)

// Config configures a Client.
type Config struct {
	// BaseURL is Mealie's base URL, such as "https://mealie.example.com";
	// trailing slashes are stripped. Required, http or https.
	BaseURL string
	// Token is a Mealie API token (user settings -> API tokens). Required.
	Token string
	// InsecureSkipVerify disables TLS verification, for self-signed
	// certificates (MEALIE_VERIFY_SSL=false).
	InsecureSkipVerify bool
	// Backoff overrides DefaultBackoff (tests use a small one).
	Backoff time.Duration
	// HTTPClient overrides the transport; its Timeout is replaced by Timeout.
	HTTPClient *http.Client
	// Logger receives one debug line per request; nil discards.
	Logger *slog.Logger
}

// Client calls one Mealie instance. It is safe for concurrent use.
type Client struct {
	base  string
	token string
	http  *http.Client
	retry backend.Retry
	log   *slog.Logger
	cache *caches
}

// New validates cfg and returns a Client. A missing or non-http(s) URL, or
// a missing token, is an error naming the variable a user sets.
func New(cfg Config) (*Client, error) {
	base, ok := backend.BaseURL(cfg.BaseURL)
	if !ok {
		return nil, fmt.Errorf("MEALIE_URL must be an http(s) URL, got %q", cfg.BaseURL)
	}
	if strings.TrimSpace(cfg.Token) == "" {
		return nil, errors.New("MEALIE_API_TOKEN is required")
	}
	// Redirects are not followed, for reads or writes: Mealie's API does
	// not redirect, so a 3xx means MEALIE_URL points at something else (a
	// login page, http:// to https://, a path prefix), and following it
	// would resend a write, token and all, wherever the answer says (Go
	// turns a redirected POST into a GET, and keeps the body on 307/308).
	// once answers a 3xx with redirectError instead.
	hc := backend.HTTPClient(backend.ClientOptions{
		Base:               cfg.HTTPClient,
		Timeout:            Timeout,
		InsecureSkipVerify: cfg.InsecureSkipVerify, // the user's explicit MEALIE_VERIFY_SSL=false
		NoRedirects:        true,
	})
	backoff := cfg.Backoff
	if backoff == 0 {
		backoff = DefaultBackoff
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	c := &Client{base: base, token: strings.TrimSpace(cfg.Token), http: hc, log: logger, cache: newCaches()}
	c.retry = backend.Retry{
		Reads:   ReadRetries,
		Backoff: backoff,
		Retryable: func(err error) bool {
			var me *Error
			return !errors.As(err, &me) || me.retryable()
		},
		Interrupted: func(err error) error { return unreachable(c.base, err) },
	}
	return c, nil
}

// BaseURL returns Mealie's base URL without a trailing slash.
func (c *Client) BaseURL() string { return c.base }

// Request is one call to Mealie.
type Request struct {
	// Method is the HTTP method.
	Method string
	// Path starts with "/api/".
	Path string
	// Query is added to the URL.
	Query url.Values
	// Body is sent as JSON when non-nil.
	Body any
	// Resource names what a 404 is about, such as "recipe 'pad-thai'"; the
	// error then reads "recipe 'pad-thai' not found".
	Resource string
	// Reads marks a POST that changes nothing (the ingredient parser), so it
	// does not clear the detail cache.
	Reads bool
	// Subject names what a write makes or changes, such as "recipe 'Lost
	// soup'", for the message when its outcome is unknown (see lostAnswer);
	// empty falls back to Resource.
	Subject string
}

// Do sends req and decodes a JSON answer into out (when out is non-nil). GETs
// are retried ReadRetries times on transport errors and 5xx with linear
// backoff; other methods are sent exactly once. Errors are *Error.
func (c *Client) Do(ctx context.Context, req Request, out any) error {
	body, err := c.Raw(ctx, req)
	if err != nil {
		return err
	}
	if out == nil || len(body) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return &Error{Kind: KindProtocol, Message: fmt.Sprintf("Mealie answered %s %s with a payload sous cannot read: %v", req.Method, req.Path, err)}
	}
	return nil
}

// Raw is Do without decoding: it returns the response body.
func (c *Client) Raw(ctx context.Context, req Request) ([]byte, error) {
	var payload []byte
	if req.Body != nil {
		var err error
		if payload, err = json.Marshal(req.Body); err != nil {
			return nil, fmt.Errorf("encoding %s %s: %w", req.Method, req.Path, err)
		}
	}
	return c.send(ctx, req, "application/json", payload)
}

// Upload sends a multipart form (a recipe image) exactly once.
func (c *Client) Upload(ctx context.Context, req Request, contentType string, body []byte) ([]byte, error) {
	return c.send(ctx, req, contentType, body)
}

func (c *Client) send(ctx context.Context, req Request, contentType string, payload []byte) ([]byte, error) {
	if req.Method != http.MethodGet && !req.Reads {
		// Any write may change any recipe (a tag rename, a food merge): the
		// detail cache is cleared wholesale, before and after, whatever the
		// outcome, because a failed write may still have committed.
		c.cache.clearDetails()
		defer c.cache.clearDetails()
	}
	u := backend.URL(c.base, req.Path, req.Query)
	return c.retry.Do(ctx, req.Method == http.MethodGet, func() ([]byte, error) {
		return c.once(ctx, req, u, contentType, payload)
	})
}

func (c *Client) once(ctx context.Context, req Request, u, contentType string, payload []byte) ([]byte, error) {
	hreq, err := backend.NewRequest(ctx, req.Method, u, "Bearer "+c.token, contentType, payload)
	if err != nil {
		return nil, &Error{Kind: KindProtocol, Message: fmt.Sprintf("building request: %v", err)}
	}
	start := time.Now()
	// sent records that the whole request went out: a write that fails
	// after that may have been applied (lostAnswer).
	resp, sent, err := backend.Send(c.http, hreq)
	if err != nil {
		if sent && req.Method != http.MethodGet && !req.Reads {
			return nil, lostAnswer(c.base, req, err)
		}
		return nil, unreachable(c.base, err)
	}
	if resp.StatusCode >= 500 {
		// Mealie closes the connection after a bare 500 (an unhandled
		// exception) without saying so, and the next request sent on it
		// reads "connection reset by peer": seen on 2.0, a parser call
		// right after nlp's 500. Dropping the idle connections, after this
		// body is closed (defers run last-first), sends the next request
		// on a fresh one.
		defer c.http.CloseIdleConnections()
	}
	defer resp.Body.Close()
	c.log.Debug("mealie", "method", req.Method, "path", req.Path, "status", resp.StatusCode, "ms", time.Since(start).Milliseconds())
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		// An answer over the cap is cut there, and then fails to decode.
		body, _, err := backend.ReadAtMost(resp.Body, MaxResponseBody)
		if err != nil {
			return nil, unreachable(c.base, err)
		}
		return body, nil
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, redirectError(req, resp)
	}
	body, _, _ := backend.ReadAtMost(resp.Body, maxErrorBody)
	return nil, refine(req, statusError(resp.StatusCode, body, req.Resource))
}

// maxLocationChars caps how much of a redirect's Location a message quotes:
// enough to recognise the place, never a page of query string.
const maxLocationChars = 200

// redirectError is the protocol error for a 3xx answer (never followed,
// see New), naming the request and where it was sent. It is not retried:
// the same URL would redirect again.
func redirectError(req Request, resp *http.Response) *Error {
	where := "elsewhere"
	if loc := resp.Header.Get("Location"); loc != "" {
		if u, err := resp.Request.URL.Parse(loc); err == nil {
			loc = u.Redacted()
		}
		if r := []rune(loc); len(r) > maxLocationChars {
			loc = string(r[:maxLocationChars]) + "…"
		}
		where = "to " + loc
	}
	return &Error{Kind: KindProtocol, Status: resp.StatusCode, Message: fmt.Sprintf(
		"Mealie redirected %s %s %s (%d) — is MEALIE_URL the base URL?", req.Method, req.Path, where, resp.StatusCode)}
}
