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
	"time"

	"github.com/souskitchen/sous/internal/backend"
	"github.com/souskitchen/sous/services/internal/apiclient"
)

// Limits and retry policy (docs/security.md, "Faults in the backends"),
// the same for both backends (apiclient) but for the cap on an answer.
const (
	// Timeout bounds one request to Mealie: a homelab Mealie waking from
	// sleep answers well inside it, a dead one does not hold a call longer.
	Timeout = apiclient.Timeout
	// ReadRetries is how many times a GET is retried after a transport
	// error or a 5xx; writes are never retried: Mealie has no idempotency
	// key and a retried create duplicates the recipe.
	ReadRetries = apiclient.ReadRetries
	// DefaultBackoff is the base of the linear backoff between GET attempts.
	DefaultBackoff = apiclient.DefaultBackoff
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
	// conn is unexported so that no service reaches the token.
	conn  *apiclient.Conn
	cache *caches
}

// New validates cfg and returns a Client. A missing or non-http(s) URL, or
// a missing token, is an error naming the variable a user sets. Redirects
// are not followed (apiclient.New): once answers a 3xx with redirectError.
func New(cfg Config) (*Client, error) {
	conn, err := apiclient.New(apiclient.Settings{
		BaseURL: cfg.BaseURL, Token: cfg.Token, URLVar: "MEALIE_URL", TokenVar: "MEALIE_API_TOKEN",
		InsecureSkipVerify: cfg.InsecureSkipVerify, Backoff: cfg.Backoff, HTTPClient: cfg.HTTPClient, Logger: cfg.Logger,
		Retryable: func(err error) bool {
			var me *Error
			return !errors.As(err, &me) || me.retryable()
		},
	})
	if err != nil {
		return nil, err
	}
	conn.Retry.Interrupted = func(err error) error { return unreachable(conn.Base, err) }
	return &Client{conn: conn, cache: newCaches()}, nil
}

// BaseURL returns Mealie's base URL without a trailing slash.
func (c *Client) BaseURL() string { return c.conn.Base }

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
	payload, err := apiclient.Encode(req.Method, req.Path, req.Body)
	if err != nil {
		return nil, err
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
	return c.conn.Send(ctx, req.Method, req.Path, req.Query, func(u string) ([]byte, error) {
		return c.once(ctx, req, u, contentType, payload)
	})
}

func (c *Client) once(ctx context.Context, req Request, u, contentType string, payload []byte) ([]byte, error) {
	hreq, err := backend.NewRequest(ctx, req.Method, u, "Bearer "+c.conn.Token, contentType, payload)
	if err != nil {
		return nil, &Error{Kind: KindProtocol, Message: fmt.Sprintf("building request: %v", err)}
	}
	start := time.Now()
	// sent records that the whole request went out: a write that fails
	// after that may have been applied (lostAnswer).
	resp, sent, err := backend.Send(c.conn.HTTP, hreq)
	if err != nil {
		if sent && req.Method != http.MethodGet && !req.Reads {
			return nil, lostAnswer(c.conn.Base, req, err)
		}
		return nil, unreachable(c.conn.Base, err)
	}
	if resp.StatusCode >= 500 {
		// Mealie closes the connection after a bare 500 (an unhandled
		// exception) without saying so, and the next request sent on it
		// reads "connection reset by peer": seen on 2.0, a parser call
		// right after nlp's 500. Dropping the idle connections, after this
		// body is closed (defers run last-first), sends the next request
		// on a fresh one.
		defer c.conn.HTTP.CloseIdleConnections()
	}
	defer resp.Body.Close()
	c.conn.Log.Debug("mealie", "method", req.Method, "path", req.Path, "status", resp.StatusCode, "ms", time.Since(start).Milliseconds())
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		// An answer over the cap is cut there, and then fails to decode.
		body, _, err := backend.ReadAtMost(resp.Body, MaxResponseBody)
		if err != nil {
			return nil, unreachable(c.conn.Base, err)
		}
		return body, nil
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, redirectError(req, resp)
	}
	body, _, _ := backend.ReadAtMost(resp.Body, apiclient.MaxErrorBody)
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
