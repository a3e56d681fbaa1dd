// Package oauthtest is what the tests of package oauth and the end-to-end
// OAuth suite (integration/e2e/oauth) both need to drive the authorization
// server: a clock they move by hand and the reading of the consent form.
//
// It is apart from package oauth so the server exports nothing for tests,
// and it imports nothing of sous, so package oauth's own tests can import
// it. integration/e2e/layering_test.go keeps it out of product code.
package oauthtest

import (
	"regexp"
	"sync"
	"time"
)

// Clock is a settable clock for oauth.Config.Now: expiry, refill and
// grace-window tests advance it instead of sleeping.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock that reads start until it is advanced.
func NewClock(start time.Time) *Clock { return &Clock{t: start} }

// Now is the clock's time; it has oauth.Config.Now's signature.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

var (
	reRequest = regexp.MustCompile(`name="request" value="([^"]+)"`)
	reCSRF    = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
)

// ConsentForm reads the hidden fields of a consent page (consent.html in
// package oauth) that its form posts back: the pending request's id and
// its CSRF token. ok is false when the page has no form, as an error page
// has not.
func ConsentForm(page string) (request, csrf string, ok bool) {
	m1, m2 := reRequest.FindStringSubmatch(page), reCSRF.FindStringSubmatch(page)
	if m1 == nil || m2 == nil {
		return "", "", false
	}
	return m1[1], m2[1], true
}
