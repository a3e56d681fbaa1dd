package oauth

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Addresses the lockout tests play (RFC 5737 documentation ranges).
const (
	attackerAddr = "203.0.113.9:40000"
	ownerAddr    = "198.51.100.2:50000"
)

// wrongFrom opens a consent page for c from addr and sends n wrong
// passphrases, returning the page.
func (e *env) wrongFrom(t *testing.T, addr string, c regResult, n int) *consent {
	t.Helper()
	_, ch := pkce("w")
	cs, st, body := e.tryConsentFrom(addr, c, c.RedirectURIs[0], ch, "", "s")
	if cs == nil {
		t.Fatalf("GET /authorize from %s: %d %s", addr, st, body)
	}
	for i := range n {
		cs.submit(t, "approve", fmt.Sprintf("guess %d", i), ScopeRead)
	}
	return cs
}

// ownerApproves reports whether the owner, at addr with a client of their
// own, gets a code with the right passphrase.
func (e *env) ownerApproves(t *testing.T, addr string, c regResult) (int, string) {
	t.Helper()
	_, ch := pkce("o")
	cs, st, body := e.tryConsentFrom(addr, c, c.RedirectURIs[0], ch, "", "s")
	if cs == nil {
		return st, body
	}
	st, _, body = cs.submit(t, "approve", testPassphrase, ScopeRead)
	return st, body
}

// Wrong passphrases from one address lock out that address, not
// the owner elsewhere, however long the guesser keeps at it, and a forged
// X-Forwarded-For does not move the guesser to another address.
func TestWrongPassphraseLockoutIsPerAddress(t *testing.T) {
	e := newEnv(t, "")
	mine, theirs := e.registerPublic(), e.registerPublic()
	e.wrongFrom(t, attackerAddr, theirs, LoginBurst)
	// A quarter of an hour of guessing every ten seconds from the one address, each
	// on a fresh consent page so none expires under it.
	for range 90 {
		e.clock.Advance(10 * time.Second)
		e.wrongFrom(t, attackerAddr, theirs, 1)
	}
	if st, body := e.ownerApproves(t, ownerAddr, mine); st != http.StatusSeeOther {
		t.Fatalf("owner after a quarter of an hour of guessing from elsewhere: %d %s", st, body)
	}
	// Still limited at its own address, and the right passphrase is refused
	// there too, so guessing past the limit reveals nothing.
	cs := e.wrongFrom(t, attackerAddr, theirs, LoginBurst)
	st, _, body := cs.submit(t, "approve", testPassphrase, ScopeRead)
	if st != http.StatusTooManyRequests || !strings.Contains(body, "from this network") {
		t.Fatalf("right passphrase from the limited address: %d", st)
	}
	f := cs.client.Transport
	cs.client.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("X-Forwarded-For", "198.51.100.77")
		r.Header.Set("X-Real-IP", "198.51.100.77")
		r.Header.Set("Forwarded", "for=198.51.100.77")
		return f.RoundTrip(r)
	})
	if st, _, _ := cs.submit(t, "approve", testPassphrase, ScopeRead); st != http.StatusTooManyRequests {
		t.Fatalf("a forged X-Forwarded-For lifted the limit: %d", st)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Wrong passphrases for one client spread over many addresses
// lock out that client only; the owner's other client still connects.
func TestWrongPassphraseLockoutIsPerClient(t *testing.T) {
	e := newEnv(t, "")
	mine, theirs := e.registerPublic(), e.registerPublic()
	for i := range LoginBurst {
		e.wrongFrom(t, fmt.Sprintf("203.0.113.%d:1", 10+i), theirs, 1)
	}
	st, body := e.ownerApproves(t, "203.0.113.99:1", theirs)
	if st != http.StatusTooManyRequests || !strings.Contains(body, "for this app") {
		t.Fatalf("the guessed-at client from a fresh address: %d", st)
	}
	if st, body := e.ownerApproves(t, ownerAddr, mine); st != http.StatusSeeOther {
		t.Fatalf("owner's own client: %d %s", st, body)
	}
}

// A ceiling on all wrong passphrases together still holds a
// guesser spread over many addresses and clients, and refills.
func TestWrongPassphraseGlobalCeiling(t *testing.T) {
	e := newEnv(t, "")
	mine := e.registerPublic()
	var clients []regResult
	for range LoginGlobalBurst/LoginBurst + 1 {
		clients = append(clients, e.registerPublic())
	}
	for i := range LoginGlobalBurst {
		e.wrongFrom(t, fmt.Sprintf("203.0.113.%d:1", 100+i), clients[i/LoginBurst], 1)
	}
	st, body := e.ownerApproves(t, ownerAddr, mine)
	if st != http.StatusTooManyRequests || !strings.Contains(body, "Too many wrong passphrases") {
		t.Fatalf("past the global ceiling: %d", st)
	}
	e.clock.Advance(LoginGlobalEvery)
	if st, body := e.ownerApproves(t, ownerAddr, mine); st != http.StatusSeeOther {
		t.Fatalf("after the refill: %d %s", st, body)
	}
}

// One address cannot fill the pending consents, a client cannot
// hold more than its share, and abandoned pages expire within ConsentTTL.
func TestPendingConsentCaps(t *testing.T) {
	e := newEnv(t, "")
	mine, a, b, d := e.registerPublic(), e.registerPublic(), e.registerPublic(), e.registerPublic()
	_, ch := pkce("p")
	for i := range 3 * MaxPendingPerAddress {
		c := a
		if i%2 == 1 {
			c = b
		}
		if cs, st, _ := e.tryConsentFrom(attackerAddr, c, c.RedirectURIs[0], ch, "", "s"); cs == nil {
			t.Fatalf("page %d from one address: %d (it should replace that address's oldest)", i, st)
		}
	}
	e.srv.mu.Lock()
	held := len(e.srv.pending)
	e.srv.mu.Unlock()
	if held != MaxPendingPerAddress {
		t.Errorf("one address holds %d pages, want %d", held, MaxPendingPerAddress)
	}
	if st, body := e.ownerApproves(t, ownerAddr, mine); st != http.StatusSeeOther {
		t.Fatalf("owner while one address floods /authorize: %d %s", st, body)
	}

	// One client from many addresses: refused past its share, others not.
	for i := range MaxPendingPerClient {
		if cs, st, _ := e.tryConsentFrom(fmt.Sprintf("203.0.113.%d:1", 50+i), d, d.RedirectURIs[0], ch, "", "s"); cs == nil {
			t.Fatalf("page %d for one client: %d", i, st)
		}
	}
	if cs, st, body := e.tryConsentFrom("203.0.113.200:1", d, d.RedirectURIs[0], ch, "", "s"); cs != nil || st != http.StatusServiceUnavailable || !strings.Contains(body, "for this app") {
		t.Fatalf("page past the client's share: %d", st)
	}
	if st, body := e.ownerApproves(t, ownerAddr, mine); st != http.StatusSeeOther {
		t.Fatalf("owner while a client is at its share: %d %s", st, body)
	}
	e.clock.Advance(ConsentTTL + time.Second)
	if cs, st, _ := e.tryConsentFrom("203.0.113.200:1", d, d.RedirectURIs[0], ch, "", "s"); cs == nil {
		t.Fatalf("after ConsentTTL the client's pages expired: %d", st)
	}
}

// The server-wide cap still bounds memory, and one address
// cannot reach it alone.
func TestPendingConsentGlobalCap(t *testing.T) {
	if MaxPendingConsents/MaxPendingPerAddress < 16 {
		t.Fatalf("MaxPendingConsents %d is within reach of %d addresses", MaxPendingConsents, MaxPendingConsents/MaxPendingPerAddress)
	}
	e := newEnv(t, "")
	now := e.clock.Now()
	for i := range MaxPendingConsents {
		p := &pendingConsent{id: fmt.Sprintf("p%04d", i), client: &client{ID: fmt.Sprint(i / MaxPendingPerClient)},
			addr: fmt.Sprint("a", i/MaxPendingPerAddress), expires: now.Add(ConsentTTL)}
		if msg := e.srv.addPending(p); msg != "" {
			t.Fatalf("pending %d: %s", i, msg)
		}
	}
	p := &pendingConsent{id: "one-more", client: &client{ID: "fresh"}, addr: "fresh", expires: now.Add(ConsentTTL)}
	if msg := e.srv.addPending(p); !strings.Contains(msg, "Too many consent pages") {
		t.Fatalf("past the cap: %q", msg)
	}
}

func TestAddrKey(t *testing.T) {
	tests := []struct{ remote, want string }{
		{"203.0.113.9:1234", "203.0.113.9"},
		{"[::ffff:203.0.113.9]:1234", "203.0.113.9"},
		{"[2001:db8:1:2:3:4:5:6]:1234", "2001:db8:1::/48"},
		{"[2001:db8:1:ffff::1]:99", "2001:db8:1::/48"},
		{"[fe80::1%eth0]:1", "fe80::/48"},
		{"@", "@"},
	}
	for _, tc := range tests {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = tc.remote
		r.Header.Set("X-Forwarded-For", "198.51.100.1")
		if got := addrKey(r); got != tc.want {
			t.Errorf("addrKey(%q) = %q, want %q", tc.remote, got, tc.want)
		}
	}
}

// registerFrom registers a public client as if from addr ("host:port"),
// with extra request headers, and returns the status and OAuth error code.
func (e *env) registerFrom(t *testing.T, addr string, hdr map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.url("/register"),
		strings.NewReader(`{"redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"none"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(testRemoteAddr, addr)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	st, h, body := do(t, nil, req)
	if st == http.StatusTooManyRequests && h.Get("Retry-After") == "" {
		t.Errorf("429 from %s without Retry-After", addr)
	}
	return st, body
}

// Registrations from one address spend that address's limit,
// not the owner's elsewhere, however long the caller keeps at it; its /48
// neighbours share it; a forged X-Forwarded-For does not move the caller
// to another address.
func TestRegisterLimitIsPerAddress(t *testing.T) {
	if RegisterBurst >= RegisterGlobalBurst || RegisterGlobalEvery >= RegisterEvery {
		t.Fatalf("one address (%d, then one per %s) can drain the ceiling (%d, one per %s)",
			RegisterBurst, RegisterEvery, RegisterGlobalBurst, RegisterGlobalEvery)
	}
	e := newEnv(t, "")
	const v6 = "[2001:db8:1:2::9]:40000"
	for _, addr := range []string{attackerAddr, v6} {
		for i := range RegisterBurst {
			if st, body := e.registerFrom(t, addr, nil); st != http.StatusCreated {
				t.Fatalf("registration %d from %s: %d %s", i, addr, st, body)
			}
		}
	}
	// An hour of registering every ten seconds from the two addresses.
	for range 360 {
		e.clock.Advance(10 * time.Second)
		e.registerFrom(t, attackerAddr, nil)
		e.registerFrom(t, v6, nil)
	}
	if st, body := e.registerFrom(t, ownerAddr, nil); st != http.StatusCreated {
		t.Fatalf("owner after an hour of registrations from elsewhere: %d %s", st, body)
	}
	if st, body := e.registerFrom(t, "[2001:db8:2::1]:1", nil); st != http.StatusCreated {
		t.Fatalf("another /48 after an hour of registrations from elsewhere: %d %s", st, body)
	}
	forged := map[string]string{"X-Forwarded-For": "198.51.100.77", "X-Real-IP": "198.51.100.77", "Forwarded": "for=198.51.100.77"}
	for _, addr := range []string{attackerAddr, "[2001:db8:1:ffff::1]:1"} {
		st, body := e.registerFrom(t, addr, forged)
		if st != http.StatusTooManyRequests || !strings.Contains(body, "from this network address") {
			t.Fatalf("%s with a forged X-Forwarded-For: %d %s", addr, st, body)
		}
	}
	// The limit refills: after RegisterEvery the address may register once.
	e.clock.Advance(RegisterEvery)
	if st, body := e.registerFrom(t, attackerAddr, nil); st != http.StatusCreated {
		t.Fatalf("after a refill: %d %s", st, body)
	}
}

// A ceiling on all registrations together still holds a caller
// spread over many addresses, and refills.
func TestRegisterGlobalCeiling(t *testing.T) {
	e := newEnv(t, "")
	for i := range RegisterGlobalBurst {
		addr := fmt.Sprintf("203.0.113.%d:1", 10+i/RegisterBurst)
		if st, body := e.registerFrom(t, addr, nil); st != http.StatusCreated {
			t.Fatalf("registration %d from %s: %d %s", i, addr, st, body)
		}
	}
	st, body := e.registerFrom(t, ownerAddr, nil)
	if st != http.StatusTooManyRequests || strings.Contains(body, "from this network address") {
		t.Fatalf("past the global ceiling: %d %s", st, body)
	}
	e.clock.Advance(RegisterGlobalEvery)
	if st, body := e.registerFrom(t, ownerAddr, nil); st != http.StatusCreated {
		t.Fatalf("after the ceiling refilled: %d %s", st, body)
	}
}
