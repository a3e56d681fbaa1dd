package mealieemu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultToken is the API token a server accepts unless WithToken says
// otherwise. It is fixed so that a demo stack and its docs can name it.
const DefaultToken = "mealietest-demo-token-0f3c9a1e"

// maxBodyBytes bounds a request body the emulator reads; real Mealie accepts
// image uploads of a few megabytes, and nothing sous sends is larger.
const maxBodyBytes = 16 << 20

// shutdownTimeout bounds Close; the emulator holds no slow resources, so a
// second is plenty for in-flight requests to finish.
const shutdownTimeout = time.Second

// Server is a running emulator. URL has no trailing slash; Token is a valid API
// token.
type Server struct {
	// URL is the base address, e.g. "http://127.0.0.1:41234".
	URL string
	// Token is a bearer token the server accepts.
	Token string

	cfg   config
	store *store
	http  *http.Server
	ln    net.Listener
	done  chan struct{}

	logMu sync.Mutex
	log   []Request
	// logGen counts ResetRequests calls, so a request in flight across one
	// does not fill in the status of another request's entry.
	logGen int

	faults *faultSet

	// interleaves are third writers waiting for a request (Interleave).
	interleaves interleaves

	closeOnce sync.Once
}

// Request is one entry of the request log: what was asked and how the emulator
// answered.
type Request struct {
	// Method is the HTTP method, e.g. "PATCH".
	Method string
	// Path is the URL path without the query, e.g. "/api/recipes/soup".
	Path string
	// RawQuery is the query string without '?'.
	RawQuery string
	// Status is the answer's status: 0 while the request is being handled or
	// when a Reset fault dropped it unhandled, 499 when the client went away
	// before it was handled. A request handled before its answer was held
	// back or dropped (LateAnswer, Reset with LateAnswer) keeps the status
	// Mealie decided on: its write took effect.
	Status int
	// Body is the request body as received.
	Body []byte
	// Header is the request's headers (Authorization included).
	Header http.Header
	// Time is when the request arrived, on the server's clock (WithClock).
	Time time.Time
	// Fault names the fault effects that hit the request, e.g. "status 503"
	// or "delay+late answer"; empty when none did.
	Fault string
}

// Option configures a server.
type Option func(*config)

type config struct {
	seed      string
	version   string
	token     string
	addr      string
	latency   time.Duration
	faults    []FaultRule
	faultSeed uint64
	now       func() time.Time
	pages     map[string]string
	// noNLPModel: see WithoutNLPModel.
	noNLPModel bool
}

// WithSeed selects the initial data: "demo" (the default) for a realistic
// household library, "bench:N" for N generated recipes ("bench:N:long" with
// descriptions of about 1,200 characters, ":dup" with every second recipe a
// copy), "household" for 40 recipes imported from public recipe pages with
// the messy food names of a real library (household/README.md), "empty" for
// a fresh install.
func WithSeed(seed string) Option { return func(c *config) { c.seed = seed } }

// WithVersion selects the Mealie version to emulate: "2.0", "2.8" (the
// default), "3.11" or "3.20", or "2.8-pg" or "3.20-pg" for that Mealie on
// PostgreSQL, whose search is pg_trgm's (search.go).
func WithVersion(v string) Option { return func(c *config) { c.version = v } }

// WithToken sets the API token the server accepts (default DefaultToken).
func WithToken(tok string) Option { return func(c *config) { c.token = tok } }

// WithAddr sets the listen address (default "127.0.0.1:0").
func WithAddr(addr string) Option { return func(c *config) { c.addr = addr } }

// WithLatency delays every response by d, to exercise client timeouts and
// concurrency. A request whose client goes away during the delay is dropped.
func WithLatency(d time.Duration) Option { return func(c *config) { c.latency = d } }

// WithClock sets the clock used for timestamps of writes and for the meal plans
// the demo seed places in the current week (default time.Now).
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithWebPage registers the HTML a URL import of pageURL reads, since the
// emulator fetches nothing from the network. A URL import of any other public
// address fails as an unreachable page does.
func WithWebPage(pageURL, html string) Option {
	return func(c *config) {
		if c.pages == nil {
			c.pages = map[string]string{}
		}
		c.pages[pageURL] = html
	}
}

// WithoutNLPModel makes the 2.0 profile's nlp parser (the default parser)
// fail with an unhandled 500, as a Mealie 2.0 run without the CRF++ model
// its Docker build downloads does. Other profiles need no model and are not
// affected.
func WithoutNLPModel() Option { return func(c *config) { c.noNLPModel = true } }

// Start starts a server outside a test. The caller must Close it.
func Start(opts ...Option) (*Server, error) {
	cfg := config{seed: "demo", version: "2.8", token: DefaultToken, addr: "127.0.0.1:0", now: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	prof, err := lookupProfile(cfg.version)
	if err != nil {
		return nil, err
	}
	st := newStore(prof, cfg.now)
	if err := st.seed(cfg.seed); err != nil {
		return nil, err
	}
	// The configured token is the install's first API token, named as the
	// recorded instances name theirs; GET /api/users/self lists it
	// (testdata/recordings/<version>/TestAboutAndAuth.json in the contract
	// package).
	st.nextTokenID++
	st.apiTokens = append(st.apiTokens, &apiToken{ID: st.nextTokenID, Name: "sous", Token: cfg.token})
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return nil, fmt.Errorf("mealieemu: listen: %w", err)
	}
	s := &Server{
		URL:   "http://" + ln.Addr().String(),
		Token: cfg.token,
		cfg:   cfg,
		store: st,
		ln:    ln,
		done:  make(chan struct{}),
	}
	s.faults = newFaultSet(cfg.faultSeed, cfg.faults)
	s.http = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.http.Serve(ln)
	}()
	return s, nil
}

// Close stops the server and waits for it to finish.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if err := s.http.Shutdown(ctx); err != nil {
			_ = s.http.Close()
		}
		<-s.done
	})
}

// Requests returns a copy of the request log, oldest first.
func (s *Server) Requests() []Request {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return append([]Request(nil), s.log...)
}

// ResetRequests empties the request log. Requests still in flight are not
// logged again.
func (s *Server) ResetRequests() {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	s.log = nil
	s.logGen++
}

// Version is the Mealie version profile the server emulates ("2.0", "2.8",
// "3.11", "3.20", "2.8-pg", "3.20-pg").
func (s *Server) Version() string { return s.store.profile.name }

// Handler returns the emulator's HTTP handler, for mounting it without a
// listener. Requests through it are logged and authenticated like any other.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.routes(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil {
			r.Body = http.NoBody
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes))
		if err != nil {
			http.Error(w, "reading body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r = r.WithContext(context.WithValue(r.Context(), profileKey{}, s.store.profile))
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		entry := Request{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Body: body, Header: r.Header.Clone(), Time: s.cfg.now()}
		plan := faultPlan{}
		if s.faults != nil {
			plan = s.faults.plan(r.Method, r.URL.Path)
		}
		entry.Fault = plan.String()
		// The entry is logged on arrival, so a test sees a request whose
		// answer a fault is still holding back; its status is filled in when
		// the answer is decided.
		s.logMu.Lock()
		idx, gen := len(s.log), s.logGen
		s.log = append(s.log, entry)
		s.logMu.Unlock()
		setStatus := func(code int) {
			s.logMu.Lock()
			if gen == s.logGen && idx < len(s.log) {
				s.log[idx].Status = code
			}
			s.logMu.Unlock()
		}
		defer func() { setStatus(rec.status) }()
		if !sleepCtx(r.Context(), s.cfg.latency+plan.delay) {
			rec.status = statusClientClosed
			return
		}
		before, after := s.interleaves.take(r)
		for _, fn := range before {
			fn()
		}
		if len(after) > 0 {
			buf := newBufferedWriter()
			s.dispatch(mux, buf, r)
			rec.status = buf.status
			for _, fn := range after {
				fn()
			}
			buf.flushTo(r.Context(), w, 0)
			return
		}
		switch {
		case plan.reset && plan.late == 0:
			rec.status = 0
			resetConnection(w)
			return
		case plan.status != 0:
			writeFaultStatus(rec, plan.status, plan.body)
			return
		case plan.reset || plan.late > 0 || plan.slow > 0:
			buf := newBufferedWriter()
			s.dispatch(mux, buf, r)
			// The write has landed whatever happens to the answer: the log
			// keeps the status Mealie decided on.
			rec.status = buf.status
			setStatus(buf.status)
			if !sleepCtx(r.Context(), plan.late) {
				return
			}
			if plan.reset {
				resetConnection(w)
				return
			}
			buf.flushTo(r.Context(), w, plan.slow)
			return
		}
		s.dispatch(mux, rec, r)
	})
}

// profileKey carries the server's profile in a request's context, for
// helpers that see the request but not the store.
type profileKey struct{}

// profileOf returns the profile the request is served under.
func profileOf(r *http.Request) profile {
	p, _ := r.Context().Value(profileKey{}).(profile)
	return p
}

// dispatch routes a request, turning the router's own 404 and 405 into
// Mealie's JSON bodies (services/library/testdata/cookbooks__get_unknown.json)
// and enforcing authentication on every route that needs it.
func (s *Server) dispatch(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	h, pattern := mux.Handler(r)
	if pattern == "" {
		probe := &probeWriter{header: http.Header{}}
		h.ServeHTTP(probe, r)
		if probe.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", probe.header.Get("Allow"))
			writeDetail(w, http.StatusMethodNotAllowed, "Method Not Allowed")
			return
		}
		writeDetail(w, http.StatusNotFound, "Not Found")
		return
	}
	if !isPublic(r.URL.Path) {
		if status, detail := s.authenticate(r); status != 0 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			writeDetail(w, status, detail)
			return
		}
	}
	mux.ServeHTTP(w, r)
}

// isPublic reports whether a path answers without a token: the about routes,
// login, and media files (TestAboutAndAuth and
// TestRecipeImageFromUnreachableURL in integration/contract call them
// without a token).
func isPublic(path string) bool {
	return strings.HasPrefix(path, "/api/app/about") || path == "/api/auth/token" ||
		strings.HasPrefix(path, "/api/media/")
}

// authenticate checks the bearer token or the login cookie. A token that was
// minted and then deleted gets "Unauthorized"; anything else unknown gets
// "Could not validate credentials"
// (services/internal/mealie/testdata/users_self__bad_token_401.json).
func (s *Server) authenticate(r *http.Request) (int, string) {
	tok := ""
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, rest, ok := strings.Cut(h, " ")
		if ok && strings.EqualFold(scheme, "bearer") {
			tok = strings.TrimSpace(rest)
		}
	} else if c, err := r.Cookie("mealie.access_token"); err == nil {
		tok = c.Value
	}
	if tok == "" {
		return http.StatusUnauthorized, "Could not validate credentials"
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.sessions[tok] {
		return 0, ""
	}
	for _, t := range st.apiTokens {
		if t.Token == tok {
			if t.Deleted {
				return http.StatusUnauthorized, "Unauthorized"
			}
			return 0, ""
		}
	}
	return http.StatusUnauthorized, "Could not validate credentials"
}

// statusRecorder remembers the status written, for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

// Unwrap lets http.ResponseController reach the connection, for flushes of
// slow bodies.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// probeWriter captures what the router's fallback handler would answer.
type probeWriter struct {
	header http.Header
	status int
}

func (p *probeWriter) Header() http.Header         { return p.header }
func (p *probeWriter) Write(b []byte) (int, error) { return len(b), nil }
func (p *probeWriter) WriteHeader(code int)        { p.status = code }

// errUnknownSeed is returned for a seed name the emulator does not know.
var errUnknownSeed = errors.New("mealieemu: unknown seed (want demo, household, empty, bench:N, bench:N:long or bench:N:long:dup)")
