// Package backend is the HTTP plumbing sous's backend clients share (the
// Mealie client in services/internal/mealie and the food API client in
// services/pantry): base URL validation, the http.Client they use, the
// read-only retry loop with linear backoff, a record of whether a request
// went out whole, and capped body reads. It knows no backend: error
// wording, status mapping and auth schemes stay with each client, which
// passes them in as functions or header values.
package backend

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// BaseURL trims spaces and trailing slashes from raw and reports whether
// what is left is an absolute http(s) URL with a host. Callers word the
// error themselves, naming the variable a user sets.
func BaseURL(raw string) (string, bool) {
	base := strings.TrimRight(strings.TrimSpace(raw), "/")
	u, err := url.Parse(base)
	if base == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	return base, true
}

// URL joins a base from BaseURL, a path and an optional query.
func URL(base, path string, query url.Values) string {
	u := base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// ClientOptions configures HTTPClient.
type ClientOptions struct {
	// Base is copied when non-nil (its Transport is kept, so tests can pass
	// an httptest server's client); nil means a clone of
	// http.DefaultTransport, so each backend has its own connection pool.
	Base *http.Client
	// Timeout replaces Base's Timeout: it bounds one attempt, body included.
	Timeout time.Duration
	// InsecureSkipVerify disables TLS verification on the cloned default
	// transport (a self-signed certificate the user opted into). It has no
	// effect when Base is set.
	InsecureSkipVerify bool
	// NoRedirects answers a 3xx as it is instead of following it, for a
	// backend whose API never redirects: following would resend a write,
	// token and all, wherever the answer says.
	NoRedirects bool
}

// HTTPClient returns the *http.Client a backend client uses; see
// ClientOptions.
func HTTPClient(o ClientOptions) *http.Client {
	hc := &http.Client{}
	if o.Base != nil {
		c := *o.Base
		hc = &c
	} else {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		if o.InsecureSkipVerify {
			tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the user's explicit opt-out
		}
		hc.Transport = tr
	}
	hc.Timeout = o.Timeout
	if o.NoRedirects {
		hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return hc
}

// Retry is a backend's retry policy: reads are retried, writes never (no
// backend sous talks to has an idempotency key, so a retried create or
// stock change may apply twice).
type Retry struct {
	// Reads is how many times a read is retried after a retryable error,
	// so a read makes at most Reads+1 attempts.
	Reads int
	// Backoff is the base of the linear backoff: retry n waits n times it.
	// Zero retries at once.
	Backoff time.Duration
	// Retryable reports whether an attempt's error may succeed on another
	// try (a transport error, a 5xx). Nil retries every error.
	Retryable func(error) bool
	// Interrupted turns the context's error into the one to return when
	// the context ends during a backoff wait. Nil returns it as it is.
	Interrupted func(error) error
}

// Do runs call once, or for a read up to Reads+1 times while its error is
// retryable and ctx lives, and returns the first success or the last error.
func (r Retry) Do(ctx context.Context, read bool, call func() ([]byte, error)) ([]byte, error) {
	attempts := 1
	if read {
		attempts += r.Reads
	}
	var last error
	for attempt := range attempts {
		if attempt > 0 {
			t := time.NewTimer(time.Duration(attempt) * r.Backoff)
			select {
			case <-ctx.Done():
				t.Stop()
				if r.Interrupted != nil {
					return nil, r.Interrupted(ctx.Err())
				}
				return nil, ctx.Err()
			case <-t.C:
			}
		}
		body, err := call()
		if err == nil {
			return body, nil
		}
		last = err
		if r.Retryable != nil && !r.Retryable(err) || ctx.Err() != nil {
			return nil, err
		}
	}
	return nil, last
}

// NewRequest builds a request with the Authorization header auth (such as
// "Bearer <token>"), Accept: application/json, and, when payload is
// non-nil, that body with contentType.
func NewRequest(ctx context.Context, method, u, auth, contentType string, payload []byte) (*http.Request, error) {
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", contentType)
	}
	return req, nil
}

// Send does req with hc and also reports whether the whole request was
// written: a write that fails after that may have been applied even though
// no answer came, which a caller must not hide behind "unreachable".
func Send(hc *http.Client, req *http.Request) (resp *http.Response, sent bool, err error) {
	var wrote atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		WroteRequest: func(info httptrace.WroteRequestInfo) { wrote.Store(info.Err == nil) },
	}))
	resp, err = hc.Do(req)
	return resp, wrote.Load(), err
}

// ReadAtMost reads r up to max bytes. over reports that r held more: the
// body is then the first max bytes, and the caller decides whether a cut
// answer is an error.
func ReadAtMost(r io.Reader, max int64) (body []byte, over bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(body)) > max {
		return body[:max], true, err
	}
	return body, false, err
}
