// Package apiclient is what sous's two HTTP backend clients share: the
// Mealie client (services/internal/mealie) and the food API client
// (services/pantry). Both bound one request by Timeout, retry reads only,
// never follow a redirect and send one token with every request; Conn
// holds that, and each client keeps what is its own (its error kinds and
// sentences, its caches). It lives under services/internal, the one place
// services share code (integration/e2e/layering_test.go).
package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/souskitchen/sous/internal/backend"
)

// Limits and retry policy of both backends (docs/security.md, "Faults in
// the backends").
const (
	// Timeout bounds one request: a homelab Mealie waking from sleep, or
	// the food API on loopback, answers well inside it; a dead one does not
	// hold a call longer.
	Timeout = 15 * time.Second
	// ReadRetries is how many times a GET is retried after a transport
	// error or a 5xx: the "container just woke up" or "restarting" case.
	// Writes are never retried (docs/design.md, "Safety lines"): neither
	// backend has an idempotency key, and a retried create duplicates the
	// recipe, a retried cook log takes stock twice.
	ReadRetries = 2
	// DefaultBackoff is the base of the linear backoff between GET
	// attempts (attempt n waits n times this).
	DefaultBackoff = 300 * time.Millisecond
	// MaxErrorBody caps how much of an error body is read to build a
	// message.
	MaxErrorBody = 64 << 10
)

// Settings are what a Conn is built from.
type Settings struct {
	// BaseURL is the backend's base URL; trailing slashes are stripped.
	// Required, http or https.
	BaseURL string
	// Token is the backend's API token. Required.
	Token string
	// URLVar and TokenVar name the variables a user sets them with, for
	// New's errors; URLExample, when set, shows a URL that would do.
	URLVar, URLExample, TokenVar string
	// InsecureSkipVerify disables TLS verification (the user's explicit
	// choice, such as MEALIE_VERIFY_SSL=false).
	InsecureSkipVerify bool
	// Backoff overrides DefaultBackoff.
	Backoff time.Duration
	// HTTPClient overrides the transport; its Timeout is replaced by
	// Timeout.
	HTTPClient *http.Client
	// Logger receives the client's debug lines; nil discards.
	Logger *slog.Logger
	// Retryable says whether a failed read may be tried again.
	Retryable func(error) bool
}

// Conn is one backend: its base URL, token, HTTP client, read retry and
// logger. The client that embeds it sets Retry.Interrupted, whose error
// names the backend in its own words.
type Conn struct {
	// Base is the base URL without a trailing slash.
	Base string
	// Token is sent with every request, after the client's scheme
	// ("Bearer", "Token").
	Token string
	// HTTP never follows redirects (see New).
	HTTP *http.Client
	// Retry retries reads and sends writes once.
	Retry backend.Retry
	// Log receives one debug line per request.
	Log *slog.Logger
}

// New validates s and returns a Conn. A missing or non-http(s) URL, or a
// missing token, is an error naming the variable a user sets.
func New(s Settings) (*Conn, error) {
	base, ok := backend.BaseURL(s.BaseURL)
	if !ok {
		example := ""
		if s.URLExample != "" {
			example = " such as " + s.URLExample
		}
		return nil, fmt.Errorf("%s must be an http(s) URL%s, got %q", s.URLVar, example, s.BaseURL)
	}
	if strings.TrimSpace(s.Token) == "" {
		return nil, fmt.Errorf("%s is required", s.TokenVar)
	}
	// Redirects are not followed, for reads or writes: neither API
	// redirects, so a 3xx means the URL points at something else (a login
	// page, http:// to https://, a path prefix), and following it would
	// resend a write, token and all, wherever the answer says (Go turns a
	// redirected POST into a GET, and keeps the body on 307/308). Each
	// client answers a 3xx with its own redirect error instead.
	hc := backend.HTTPClient(backend.ClientOptions{
		Base:               s.HTTPClient,
		Timeout:            Timeout,
		InsecureSkipVerify: s.InsecureSkipVerify,
		NoRedirects:        true,
	})
	backoff := s.Backoff
	if backoff == 0 {
		backoff = DefaultBackoff
	}
	logger := s.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Conn{
		Base: base, Token: strings.TrimSpace(s.Token), HTTP: hc, Log: logger,
		Retry: backend.Retry{Reads: ReadRetries, Backoff: backoff, Retryable: s.Retryable},
	}, nil
}

// Encode is a request's JSON body, nil when body is.
func Encode(method, path string, body any) ([]byte, error) {
	if body == nil {
		return nil, nil
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encoding %s %s: %w", method, path, err)
	}
	return payload, nil
}

// Send runs once for the request's URL through the retry: a GET is retried
// (Retry), anything else is sent exactly once.
func (c *Conn) Send(ctx context.Context, method, path string, query url.Values, once func(u string) ([]byte, error)) ([]byte, error) {
	u := backend.URL(c.Base, path, query)
	return c.Retry.Do(ctx, method == http.MethodGet, func() ([]byte, error) { return once(u) })
}
