package pantry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Limits and retry policy of the food API client. The food API runs beside
// sous on the same host (spec §2: 127.0.0.1:8042), so every call is short.
const (
	// Timeout bounds one request to the food API: a SQLite-backed view on
	// loopback answers in milliseconds, so 15 s only trips on a hung server.
	Timeout = 15 * time.Second
	// ReadRetries is how many times a GET is retried after a transport
	// error or a 5xx, for a food API that is restarting. Writes are never
	// retried (DESIGN.md, "Safety lines"): a retried bulk add or cook log
	// could apply twice.
	ReadRetries = 2
	// DefaultBackoff is the base of the linear backoff between GET attempts
	// (attempt n waits n times this).
	DefaultBackoff = 300 * time.Millisecond
	// maxErrorBody caps how much of an error body is read: the API's error
	// shape is one sentence plus a few close matches.
	maxErrorBody = 64 << 10
	// maxResponseBody caps a successful body: the largest answer is the
	// whole pantry or every meta-recipe, tens of KiB for a household.
	maxResponseBody = 8 << 20
)

// foodClient calls the Django food API with its DRF token. It knows nothing
// of Connect beyond the error codes in error.go, and is safe for concurrent
// use.
type foodClient struct {
	base    string
	token   string
	http    *http.Client
	backoff time.Duration
	log     *slog.Logger
}

// newFoodClient validates the base URL and token, naming the variables a
// user sets when either is wrong.
func newFoodClient(base, token string, hc *http.Client, logger *slog.Logger) (*foodClient, error) {
	b := strings.TrimRight(strings.TrimSpace(base), "/")
	u, err := url.Parse(b)
	if b == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("FOOD_API_BASE must be an http(s) URL such as http://127.0.0.1:8042/api, got %q", base)
	}
	if strings.TrimSpace(token) == "" {
		return nil, errors.New("FOOD_API_TOKEN is required")
	}
	c := &http.Client{}
	if hc != nil {
		*c = *hc
	}
	c.Timeout = Timeout
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &foodClient{base: b, token: strings.TrimSpace(token), http: c, backoff: DefaultBackoff, log: logger}, nil
}

// get decodes GET base+path?query into out, retrying transport errors and
// 5xx answers ReadRetries times.
func (c *foodClient) get(ctx context.Context, path string, query url.Values, out any) error {
	return c.do(ctx, http.MethodGet, path, query, nil, out)
}

// send makes one write (POST, PUT or PATCH) with a JSON body, exactly once.
func (c *foodClient) send(ctx context.Context, method, path string, body, out any) error {
	return c.do(ctx, method, path, nil, body, out)
}

func (c *foodClient) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("encoding %s %s: %w", method, path, err)
		}
	}
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	attempts := 1
	if method == http.MethodGet {
		attempts += ReadRetries
	}
	var last error
	for attempt := range attempts {
		if attempt > 0 {
			t := time.NewTimer(time.Duration(attempt) * c.backoff)
			select {
			case <-ctx.Done():
				t.Stop()
				return c.unreachable(ctx.Err())
			case <-t.C:
			}
		}
		raw, err := c.once(ctx, method, u, payload)
		if err == nil {
			if out == nil || len(raw) == 0 {
				return nil
			}
			if err := json.Unmarshal(raw, out); err != nil {
				return &apiError{kind: kindProtocol, msg: fmt.Sprintf("the food API answered %s %s with a payload sous cannot read", method, path)}
			}
			return nil
		}
		last = err
		var ae *apiError
		if errors.As(err, &ae) && !ae.retryable() || ctx.Err() != nil {
			return err
		}
	}
	return last
}

func (c *foodClient) once(ctx context.Context, method, u string, payload []byte) ([]byte, error) {
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, fmt.Errorf("building %s %s: %w", method, u, err)
	}
	req.Header.Set("Authorization", "Token "+c.token)
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		c.log.Debug("food API request failed", "method", method, "url", u, "err", err)
		return nil, c.unreachable(err)
	}
	defer resp.Body.Close()
	c.log.Debug("food API request", "method", method, "url", u, "status", resp.StatusCode, "took", time.Since(start))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody+1))
		if err != nil {
			return nil, c.unreachable(err)
		}
		if len(raw) > maxResponseBody {
			return nil, &apiError{kind: kindProtocol, msg: fmt.Sprintf("the food API's answer to %s is larger than %d MiB", req.URL.Path, maxResponseBody>>20)}
		}
		return raw, nil
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	return nil, statusError(resp.StatusCode, raw)
}

// unreachable is the error of a call that got no HTTP answer. The cause is
// kept short: url.Error repeats the method and URL, which the sentence
// already names.
func (c *foodClient) unreachable(err error) *apiError {
	cause := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) {
		cause = ue.Err.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		cause = "no answer in time"
	}
	if i := strings.LastIndex(cause, ": "); i >= 0 {
		cause = cause[i+2:]
	}
	return &apiError{kind: kindUnreachable, msg: fmt.Sprintf("food API unreachable at %s (%s)", c.base, cause)}
}
