package mcpfront

import (
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimitEnv is the variable that sets the per-client rate limit of the
// MCP HTTP listener, in requests a minute; "0" or "off" turns it off.
const RateLimitEnv = "SOUS_MCP_RATE_LIMIT"

// Rate limit defaults.
const (
	// DefaultRateLimit is the requests a minute one client may send, on
	// average. claude.ai re-initializes before most tool calls (sessions
	// are stateless, see HTTPHandler), so one call is three or four requests:
	// 600 a minute is two or three calls a second, kept up, which no
	// conversation needs, while a runaway loop or a guessing script is
	// slowed to a crawl.
	DefaultRateLimit = 600
	// rateBurstSeconds is how many seconds' worth of requests a client may
	// send at once: a model fanning out a dozen parallel tool calls stays
	// well inside it (100 requests at the default).
	rateBurstSeconds = 10
	// minRateBurst keeps a very low limit usable: one tool call is a few
	// requests in a row.
	minRateBurst = 10
	// rateIdle is how long a client's bucket is kept after its last
	// request; a bucket idle that long is full again, so dropping it
	// changes nothing.
	rateIdle = 10 * time.Minute
	// rateSweepEvery bounds how often idle buckets are dropped; the sweep
	// runs inside a request, so no goroutine outlives the handler.
	rateSweepEvery = time.Minute
)

// RateLimitFromEnv reads RateLimitEnv: unset is DefaultRateLimit, "0" or
// "off" is 0 (no limit), otherwise a whole number of requests a minute.
// Its error names the variable; LoadConfig makes it a startup failure.
func RateLimitFromEnv() (int, error) {
	// The literal name, not RateLimitEnv, so the documentation check
	// (integration/e2e) finds the variable.
	v := strings.TrimSpace(os.Getenv("SOUS_MCP_RATE_LIMIT"))
	switch strings.ToLower(v) {
	case "":
		return DefaultRateLimit, nil
	case "0", "off":
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s must be a whole number of requests a minute, or off; got %q", RateLimitEnv, v)
	}
	return n, nil
}

// withRateLimit wraps next with the per-client rate limit RateLimitEnv
// sets. LoadConfig refuses a value it cannot read at startup; for a caller
// that builds the handler without LoadConfig, such a value is logged and
// the default used, so a typo never leaves the listener unlimited.
func withRateLimit(next http.Handler, log *slog.Logger) http.Handler {
	perMinute, err := RateLimitFromEnv()
	if err != nil {
		log.Warn("ignoring the rate limit setting", "error", err, "using", DefaultRateLimit)
		perMinute = DefaultRateLimit
	}
	if perMinute == 0 {
		return next
	}
	return newRateLimiter(next, perMinute, log)
}

// rateLimiter answers a client past its rate with 429 Too Many Requests,
// Retry-After and one sentence saying the limit. A client is its remote
// IP address: behind a reverse proxy every client shares the proxy's, so
// the limit then holds for all of them together (X-Forwarded-For is not
// trusted: any caller can write it).
type rateLimiter struct {
	next      http.Handler
	log       *slog.Logger
	perMinute int
	limit     rate.Limit
	burst     int

	mu        sync.Mutex
	clients   map[string]*rateClient
	lastSweep time.Time
}

// rateClient is one client's token bucket and when it was last used.
type rateClient struct {
	lim  *rate.Limiter
	seen time.Time
}

func newRateLimiter(next http.Handler, perMinute int, log *slog.Logger) *rateLimiter {
	perSecond := float64(perMinute) / 60
	return &rateLimiter{
		next: next, log: log, perMinute: perMinute,
		limit: rate.Limit(perSecond), burst: max(minRateBurst, int(perSecond*rateBurstSeconds)),
		clients: map[string]*rateClient{}, lastSweep: time.Now(),
	}
}

func (l *rateLimiter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	res := l.reserve(clientKey(r), now)
	if delay := res.DelayFrom(now); delay > 0 {
		// Not waiting: give the token back so refusals do not push the
		// client's next allowed request further out.
		res.CancelAt(now)
		secs := int(math.Ceil(delay.Seconds()))
		l.log.Warn("rate limited a client", "client", clientKey(r), "retry_after_s", secs)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		http.Error(w, fmt.Sprintf("too many requests from this client (the limit is %d a minute); retry after %d s", l.perMinute, secs), http.StatusTooManyRequests)
		return
	}
	l.next.ServeHTTP(w, r)
}

// reserve takes a token from key's bucket, creating it on first use and
// dropping buckets idle past rateIdle at most once per rateSweepEvery.
func (l *rateLimiter) reserve(key string, now time.Time) *rate.Reservation {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) >= rateSweepEvery {
		for k, c := range l.clients {
			if now.Sub(c.seen) >= rateIdle {
				delete(l.clients, k)
			}
		}
		l.lastSweep = now
	}
	c := l.clients[key]
	if c == nil {
		c = &rateClient{lim: rate.NewLimiter(l.limit, l.burst)}
		l.clients[key] = c
	}
	c.seen = now
	return c.lim.ReserveN(now, 1)
}

// clientKey is the request's remote IP address, without the port (a
// client opens many connections).
func clientKey(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}
