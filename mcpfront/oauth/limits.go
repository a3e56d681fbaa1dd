package oauth

import (
	"net"
	"net/http"
	"net/netip"
	"time"

	"golang.org/x/time/rate"
)

// Who the consent page's and registration's limits are kept for. A single limit for everyone
// let any caller who can reach /authorize (registration is open) lock the
// owner out: five wrong passphrases, then one a minute, for as long as the
// caller kept at it. The limits are therefore kept per network address and
// per registered client, under a global ceiling one address cannot reach.
const (
	// LoginGlobalBurst and LoginGlobalEvery are the ceiling on wrong
	// passphrases from everyone together, which bounds a guesser spread over
	// many addresses to ~8,640 tries a day against a memory-hard hash. One
	// address gets LoginBurst and then one a minute, which never drains a
	// bucket of 30 refilling six a minute, so a single address cannot trip
	// it for the owner.
	LoginGlobalBurst = 30
	// LoginGlobalEvery is the refill interval of the global ceiling.
	LoginGlobalEvery = 10 * time.Second
	// RegisterGlobalBurst and RegisterGlobalEvery are the ceiling on
	// client registrations from everyone together, which bounds a caller
	// spread over many addresses to ~8,640 new clients a day (and the store
	// holds MaxClients). One address gets RegisterBurst and then one per
	// RegisterEvery (two a minute), which never drains a bucket of 100
	// refilling six a minute, so a single address cannot stop the owner
	// registering a new connector.
	RegisterGlobalBurst = 100
	// RegisterGlobalEvery is the refill interval of the registration
	// ceiling.
	RegisterGlobalEvery = 10 * time.Second
	// MaxPendingPerAddress caps the consent pages one network address holds
	// open; a new one past it replaces that address's oldest, so an address
	// can only ever crowd out itself. Eight is more tabs than an owner
	// connecting a few apps opens.
	MaxPendingPerAddress = 8
	// MaxPendingPerClient caps the consent pages open for one registered
	// client; past it /authorize for that client is refused until one is
	// answered or expires. A client id is unguessable, so this holds an
	// attacker's own clients to a few slots without touching the owner's.
	MaxPendingPerClient = 8
	// maxLimiterKeys caps the addresses and clients a keyed limiter tracks,
	// so a caller rotating addresses cannot grow memory without bound. A
	// full bucket is the same as none, so those are dropped first; past the
	// cap an untracked key is held by the global ceiling alone.
	maxLimiterKeys = 4096
	// ipv6SiteBits groups IPv6 addresses by their /48, the largest prefix
	// commonly delegated to one site: a caller holding a /64 or a /48 could
	// otherwise take a fresh limit for every address it owns.
	ipv6SiteBits = 48
)

// keyedLimiter is one token bucket per key (a network address or a client
// id), each refilling at every up to burst. Callers hold Server.mu.
type keyedLimiter struct {
	every time.Duration
	burst int
	m     map[string]*rate.Limiter
}

func newKeyedLimiter(every time.Duration, burst int) *keyedLimiter {
	return &keyedLimiter{every: every, burst: burst, m: map[string]*rate.Limiter{}}
}

// empty reports whether key's bucket has no token left at now; an
// untracked key has a full bucket.
func (k *keyedLimiter) empty(key string, now time.Time) bool {
	l := k.m[key]
	return l != nil && l.TokensAt(now) < 1
}

// spend takes one token from key's bucket, creating it on first use.
func (k *keyedLimiter) spend(key string, now time.Time) {
	l := k.m[key]
	if l == nil {
		if len(k.m) >= maxLimiterKeys {
			for kk, ll := range k.m {
				if ll.TokensAt(now) >= float64(k.burst) {
					delete(k.m, kk)
				}
			}
		}
		if len(k.m) >= maxLimiterKeys {
			return
		}
		l = rate.NewLimiter(rate.Every(k.every), k.burst)
		k.m[key] = l
	}
	l.AllowN(now, 1)
}

// addrKey is the network address a request came from: r.RemoteAddr without
// the port, an IPv6 address cut to its /48 (ipv6SiteBits). X-Forwarded-For
// and its kin are never read: any caller can write them. Behind a reverse
// proxy every caller shares the proxy's address, so the per-address limits
// then hold for all of them together and only the per-client ones set the
// owner apart.
func addrKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, _ := a.WithZone("").Prefix(ipv6SiteBits)
	return p.String()
}
