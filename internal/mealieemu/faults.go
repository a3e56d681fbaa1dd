package mealieemu

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FaultRule is one misbehaviour injected in front of the emulator, for tests
// and benchmarks of clients that must survive a flaky Mealie: a homelab
// container that has just woken up, a reverse proxy answering 502, a link that
// drops connections or trickles bytes, a write that lands after the client has
// given up.
//
// A rule matches a request by Method and PathPrefix. Whether a matching
// request is hit is decided by FirstN and Rate; a hit request gets every effect
// the rule names, in this order: Delay+Jitter, then Reset or Status (the
// request is not handled), or else the request is handled and its answer is
// held back by LateAnswer, dropped by Reset, or trickled over SlowBody.
//
// The zero rule matches everything and does nothing.
type FaultRule struct {
	// Method restricts the rule to one HTTP method, e.g. "POST"; empty matches
	// every method.
	Method string
	// PathPrefix restricts the rule to paths that start with it, e.g.
	// "/api/recipes"; empty matches every path. The query string is ignored.
	PathPrefix string
	// FirstN, when positive, limits the rule to the first N matching requests
	// since it was installed ("the container just woke up"); later requests
	// pass untouched. Zero means every matching request is a candidate.
	FirstN int
	// Rate, when in (0, 1), is the probability that a candidate request is
	// hit, drawn from the server's fault generator (WithFaultSeed makes it
	// repeatable). Zero, or 1 and above, hits every candidate.
	Rate float64
	// Delay holds a hit request this long before it is handled. A client that
	// gives up meanwhile leaves no write behind; the log records status 499.
	Delay time.Duration
	// Jitter adds a uniformly random extra delay in [0, Jitter) to Delay.
	Jitter time.Duration
	// Status, when non-zero, answers a hit request with this status instead of
	// handling it. The body is Body, or FastAPI's {"detail": "<status text>"}.
	Status int
	// Body replaces the body of a Status answer; it is sent as JSON when it
	// starts with '{' or '[', as HTML when it starts with '<', else as text.
	Body string
	// Reset drops the connection without any answer (a TCP reset where the
	// listener allows it). Alone, the request is not handled; with
	// LateAnswer, it is handled first, so the write lands and the client sees
	// only the reset.
	Reset bool
	// SlowBody trickles the answer's body over this duration, in
	// slowBodyChunks writes, after sending the headers at once.
	SlowBody time.Duration
	// LateAnswer handles a hit request at once (its write takes effect) and
	// holds the answer back this long. A client whose timeout is shorter sees
	// a timeout for a write that happened: the case that makes a naive retry
	// create duplicates.
	LateAnswer time.Duration
}

// slowBodyChunks is how many pieces a SlowBody answer is cut into: enough for
// a client to see bytes arrive over time, few enough that a small body still
// gets several.
const slowBodyChunks = 16

// statusClientClosed is what the log records for a request whose client went
// away before the answer: nginx's 499 convention.
const statusClientClosed = 499

// WithFault installs fault rules from the start; see FaultRule. Rules are
// evaluated in order and every matching rule that hits contributes its
// effects (delays add up; the first Status or Reset wins).
func WithFault(rules ...FaultRule) Option {
	return func(c *config) { c.faults = append(c.faults, rules...) }
}

// WithFaultSeed seeds the generator behind Rate and Jitter, so a flaky run
// repeats exactly. Without it the seed is fixed too (0), so two runs with the
// same requests in the same order hit the same ones.
func WithFaultSeed(seed uint64) Option { return func(c *config) { c.faultSeed = seed } }

// SetFaults replaces the server's fault rules at runtime, e.g. to take a
// running Mealie down in the middle of a test. FirstN counts restart. With no
// rules the server behaves normally again.
func (s *Server) SetFaults(rules ...FaultRule) { s.faults.set(rules) }

// AddFault adds one rule to the server's fault rules at runtime, keeping the
// others and their counts.
func (s *Server) AddFault(rule FaultRule) { s.faults.add(rule) }

// ClearFaults removes every fault rule; WithLatency still applies.
func (s *Server) ClearFaults() { s.faults.set(nil) }

// Faults returns a copy of the rules in force.
func (s *Server) Faults() []FaultRule { return s.faults.list() }

// faultSet is the server's rules with their per-rule counts, and the random
// generator behind Rate and Jitter.
type faultSet struct {
	mu    sync.Mutex
	rules []*faultState
	rng   *rand.Rand
}

type faultState struct {
	FaultRule
	seen int
}

func newFaultSet(seed uint64, rules []FaultRule) *faultSet {
	f := &faultSet{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	f.set(rules)
	return f
}

func (f *faultSet) set(rules []FaultRule) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = nil
	for _, r := range rules {
		f.rules = append(f.rules, &faultState{FaultRule: r})
	}
}

func (f *faultSet) add(r FaultRule) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append(f.rules, &faultState{FaultRule: r})
}

func (f *faultSet) list() []FaultRule {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]FaultRule, len(f.rules))
	for i, r := range f.rules {
		out[i] = r.FaultRule
	}
	return out
}

// faultPlan is what the rules decided for one request.
type faultPlan struct {
	delay  time.Duration
	status int
	body   string
	reset  bool
	slow   time.Duration
	late   time.Duration
	names  []string
}

func (p faultPlan) String() string { return strings.Join(p.names, "+") }

// plan counts the request against every matching rule and combines the
// effects of those that hit.
func (f *faultSet) plan(method, path string) faultPlan {
	f.mu.Lock()
	defer f.mu.Unlock()
	var p faultPlan
	for _, r := range f.rules {
		if r.Method != "" && !strings.EqualFold(r.Method, method) {
			continue
		}
		if !strings.HasPrefix(path, r.PathPrefix) {
			continue
		}
		r.seen++
		if r.FirstN > 0 && r.seen > r.FirstN {
			continue
		}
		if r.Rate > 0 && r.Rate < 1 && f.rng.Float64() >= r.Rate {
			continue
		}
		d := r.Delay
		if r.Jitter > 0 {
			d += time.Duration(f.rng.Int64N(int64(r.Jitter)))
		}
		if d > 0 {
			p.delay += d
			p.names = append(p.names, "delay")
		}
		if r.Status != 0 && p.status == 0 && !p.reset {
			p.status, p.body = r.Status, r.Body
			p.names = append(p.names, "status "+strconv.Itoa(r.Status))
		}
		if r.Reset && p.status == 0 && !p.reset {
			p.reset = true
			p.names = append(p.names, "reset")
		}
		if r.SlowBody > p.slow {
			p.slow = r.SlowBody
			p.names = append(p.names, "slow body")
		}
		if r.LateAnswer > 0 {
			p.late += r.LateAnswer
			p.names = append(p.names, "late answer")
		}
	}
	return p
}

// sleepCtx waits d or until ctx ends; it reports whether the full wait passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// writeFaultStatus answers a Status fault.
func writeFaultStatus(w http.ResponseWriter, status int, body string) {
	if body == "" {
		writeDetail(w, status, http.StatusText(status))
		return
	}
	ct := "text/plain; charset=utf-8"
	switch body[0] {
	case '{', '[':
		ct = "application/json"
	case '<':
		ct = "text/html; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// resetConnection drops the client's connection without an answer. On a TCP
// connection it sets SO_LINGER to 0 so the close sends a reset, which is what
// a crashed upstream looks like; where the connection cannot be taken over it
// aborts the handler, which net/http turns into an abrupt close.
func resetConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// bufferedWriter holds a handler's answer so a fault can delay, drop or
// trickle it.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newBufferedWriter() *bufferedWriter {
	return &bufferedWriter{header: http.Header{}, status: http.StatusOK}
}

func (b *bufferedWriter) Header() http.Header         { return b.header }
func (b *bufferedWriter) Write(p []byte) (int, error) { return b.body.Write(p) }
func (b *bufferedWriter) WriteHeader(code int)        { b.status = code }

// flushTo sends the held answer, spreading the body over slow when positive.
// It stops early when ctx ends (the client went away).
func (b *bufferedWriter) flushTo(ctx context.Context, w http.ResponseWriter, slow time.Duration) {
	for k, v := range b.header {
		w.Header()[k] = v
	}
	body := b.body.Bytes()
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(b.status)
	if slow <= 0 || len(body) == 0 {
		_, _ = w.Write(body)
		return
	}
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	size := (len(body) + slowBodyChunks - 1) / slowBodyChunks
	pieces := (len(body) + size - 1) / size
	pause := slow / time.Duration(pieces)
	for len(body) > 0 {
		n := min(size, len(body))
		if _, err := w.Write(body[:n]); err != nil {
			return
		}
		_ = rc.Flush()
		body = body[n:]
		if len(body) > 0 && !sleepCtx(ctx, pause) {
			return
		}
	}
}

// ParseFaultRule reads a rule from the command line's --fault syntax: fields
// separated by spaces, an upper-case word being the method, a word starting
// with '/' the path prefix, and key=value pairs for the rest:
//
//	POST /api/recipes status=503 first=3
//	/api/foods rate=0.2 status=500
//	delay=200ms jitter=100ms
//	PATCH /api/recipes late=5s
//	GET /api/recipes slow=2s
//	reset first=1
//
// Keys: status, body, first, rate, delay, jitter, slow, late, reset (alone or
// =true/false). Durations use Go's syntax (150ms, 2s). It returns an error
// naming the field it cannot read.
func ParseFaultRule(spec string) (FaultRule, error) {
	var r FaultRule
	for _, f := range strings.Fields(spec) {
		key, val, hasVal := strings.Cut(f, "=")
		var err error
		switch {
		case !hasVal && strings.HasPrefix(f, "/"):
			r.PathPrefix = f
		case !hasVal && f == "reset":
			r.Reset = true
		case !hasVal && f == strings.ToUpper(f) && isLetters(f):
			r.Method = f
		case !hasVal:
			err = fmt.Errorf("unknown word")
		case key == "status":
			r.Status, err = strconv.Atoi(val)
			if err == nil && (r.Status < 100 || r.Status > 599) {
				err = fmt.Errorf("not an HTTP status")
			}
		case key == "body":
			r.Body = val
		case key == "first":
			r.FirstN, err = strconv.Atoi(val)
		case key == "rate":
			r.Rate, err = strconv.ParseFloat(val, 64)
			if err == nil && (r.Rate < 0 || r.Rate > 1) {
				err = fmt.Errorf("not in [0,1]")
			}
		case key == "delay":
			r.Delay, err = time.ParseDuration(val)
		case key == "jitter":
			r.Jitter, err = time.ParseDuration(val)
		case key == "slow":
			r.SlowBody, err = time.ParseDuration(val)
		case key == "late":
			r.LateAnswer, err = time.ParseDuration(val)
		case key == "reset":
			r.Reset, err = strconv.ParseBool(val)
		default:
			err = fmt.Errorf("unknown key")
		}
		if err != nil {
			return FaultRule{}, fmt.Errorf("mealieemu: fault %q: field %q: %v", spec, f, err)
		}
	}
	return r, nil
}

func isLetters(s string) bool {
	for _, c := range s {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return s != ""
}

// String renders the rule in ParseFaultRule's syntax (without Body).
func (r FaultRule) String() string {
	var parts []string
	add := func(cond bool, s string) {
		if cond {
			parts = append(parts, s)
		}
	}
	add(r.Method != "", r.Method)
	add(r.PathPrefix != "", r.PathPrefix)
	add(r.Status != 0, "status="+strconv.Itoa(r.Status))
	add(r.FirstN != 0, "first="+strconv.Itoa(r.FirstN))
	add(r.Rate != 0, "rate="+strconv.FormatFloat(r.Rate, 'g', -1, 64))
	add(r.Delay != 0, "delay="+r.Delay.String())
	add(r.Jitter != 0, "jitter="+r.Jitter.String())
	add(r.SlowBody != 0, "slow="+r.SlowBody.String())
	add(r.LateAnswer != 0, "late="+r.LateAnswer.String())
	add(r.Reset, "reset")
	return strings.Join(parts, " ")
}
