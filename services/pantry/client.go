package pantry

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
	"github.com/souskitchen/sous/services/internal/apiclient"
)

// Limits and retry policy of the food API client, the same for both
// backends (apiclient) but for the cap on an answer. The food API runs
// beside sous on the same host (spec §2: 127.0.0.1:8042), so every call is
// short: a SQLite-backed view on loopback answers in milliseconds, so
// Timeout only trips on a hung server.
const (
	// Timeout bounds one request to the food API.
	Timeout = apiclient.Timeout
	// ReadRetries is how many times a GET is retried after a transport
	// error or a 5xx, for a food API that is restarting. Writes are never
	// retried (docs/design.md, "Safety lines"): a retried bulk add or cook
	// log could apply twice.
	ReadRetries = apiclient.ReadRetries
	// DefaultBackoff is the base of the linear backoff between GET attempts.
	DefaultBackoff = apiclient.DefaultBackoff
	// maxResponseBody caps a successful body: the largest answer is the
	// whole pantry or every meta-recipe, tens of KiB for a household.
	maxResponseBody = 8 << 20
)

// foodClient calls the Django food API with its DRF token. It knows nothing
// of Connect beyond the error codes in error.go, and is safe for concurrent
// use.
type foodClient struct {
	conn *apiclient.Conn
}

// newFoodClient validates the base URL and token, naming the variables a
// user sets when either is wrong. The food API never redirects, and a 3xx
// is not followed (apiclient.New): once answers it with redirectError, as
// the Mealie client does.
func newFoodClient(base, token string, hc *http.Client, logger *slog.Logger) (*foodClient, error) {
	conn, err := apiclient.New(apiclient.Settings{
		BaseURL: base, Token: token, URLVar: "FOOD_API_BASE", URLExample: "http://127.0.0.1:8042/api", TokenVar: "FOOD_API_TOKEN",
		HTTPClient: hc, Logger: logger,
		// Anything but an apiError that says otherwise is retried, as a
		// transport error is.
		Retryable: func(err error) bool {
			var ae *apiError
			return !errors.As(err, &ae) || ae.retryable()
		},
	})
	if err != nil {
		return nil, err
	}
	c := &foodClient{conn: conn}
	conn.Retry.Interrupted = func(err error) error { return c.unreachable(err) }
	return c, nil
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
	payload, err := apiclient.Encode(method, path, body)
	if err != nil {
		return err
	}
	raw, err := c.conn.Send(ctx, method, path, query, func(u string) ([]byte, error) {
		return c.once(ctx, method, u, payload)
	})
	if err != nil {
		return err
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &apiError{kind: kindProtocol, msg: fmt.Sprintf("the food API answered %s %s with a payload sous cannot read", method, path)}
	}
	return nil
}

func (c *foodClient) once(ctx context.Context, method, u string, payload []byte) ([]byte, error) {
	req, err := backend.NewRequest(ctx, method, u, "Token "+c.conn.Token, "application/json", payload)
	if err != nil {
		return nil, fmt.Errorf("building %s %s: %w", method, u, err)
	}
	start := time.Now()
	// sent records that the whole request went out: a write that fails
	// after that may have been applied (lostAnswer).
	resp, sent, err := backend.Send(c.conn.HTTP, req)
	if err != nil {
		c.conn.Log.Debug("food API request failed", "method", method, "url", u, "err", err)
		if sent && method != http.MethodGet {
			return nil, c.lostAnswer(req.URL.Path, err)
		}
		return nil, c.unreachable(err)
	}
	defer resp.Body.Close()
	c.conn.Log.Debug("food API request", "method", method, "url", u, "status", resp.StatusCode, "took", time.Since(start))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		raw, over, err := backend.ReadAtMost(resp.Body, maxResponseBody)
		if err != nil {
			if method != http.MethodGet {
				return nil, c.lostAnswer(req.URL.Path, err)
			}
			return nil, c.unreachable(err)
		}
		if over {
			return nil, &apiError{kind: kindProtocol, msg: fmt.Sprintf("the food API's answer to %s is larger than %d MiB", req.URL.Path, maxResponseBody>>20)}
		}
		return raw, nil
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, c.redirectError(method, req.URL.Path, resp.StatusCode)
	}
	raw, _, _ := backend.ReadAtMost(resp.Body, apiclient.MaxErrorBody)
	return nil, statusError(resp.StatusCode, raw)
}

// redirectError is the answer to a 3xx, which is never followed (see
// newFoodClient): FOOD_API_BASE most likely points at something other than
// the API. It is not retried: the same URL would redirect again.
func (c *foodClient) redirectError(method, path string, status int) *apiError {
	return &apiError{kind: kindProtocol, status: status, msg: fmt.Sprintf(
		"the food API redirected %s %s (%d) and sous does not follow redirects: is FOOD_API_BASE (%s) the API's base URL?", method, path, status, c.conn.Base)}
}

// checkBefore names, per write path, the read that shows whether a write
// whose answer was lost was applied.
var checkBefore = map[string]string{
	"set-state":          "get_pantry",
	"bulk-pantry-add":    "get_pantry",
	"log-cook":           "get_pantry and get_meta_recipes",
	"create-meta-recipe": "get_meta_recipes",
}

// lostAnswer is the error of a write the food API received but whose
// answer never came (the connection dropped, or Timeout passed): it may
// have been applied, and with no idempotency key a retry could apply it
// twice (a second cook log, stock taken twice). The sentence says so and
// names what to check first, instead of "unreachable", which invites the
// retry. It stays kindUnreachable (Unavailable); writes are never retried.
func (c *foodClient) lostAnswer(path string, err error) *apiError {
	check := "get_pantry and get_meta_recipes"
	trimmed := strings.Trim(path, "/")
	for suffix, tool := range checkBefore {
		if strings.HasSuffix(trimmed, suffix) {
			check = tool
		}
	}
	cause := c.unreachable(err).msg
	if i := strings.LastIndex(cause, "("); i >= 0 {
		cause = strings.TrimSuffix(cause[i+1:], ")")
	}
	return &apiError{kind: kindUnreachable, msg: fmt.Sprintf(
		"the food API may have saved this change: it got the request but its answer was lost (%s); check with %s before trying again, or it may be applied twice", cause, check)}
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
	return &apiError{kind: kindUnreachable, msg: fmt.Sprintf("food API unreachable at %s (%s)", c.conn.Base, cause)}
}
