package stack

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/souskitchen/sous/internal/memnet"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/mcpfront"
)

// inProcessBase is the base URL of in-process clients; the transport dials
// the in-memory listener whatever the URL says.
const inProcessBase = "http://sous.in-process"

// ForToolsets maps the MCP toolsets enabled to the services whose clients
// their tools call (each service's toolsets, mcpfront.Services).
func ForToolsets(toolsets []string) []string {
	if len(toolsets) == 0 {
		toolsets = mcpfront.Toolsets
	}
	var out []string
	for _, svc := range serviceTable {
		if slices.ContainsFunc(toolsets, func(ts string) bool {
			return slices.Contains(svc.front.Toolsets, strings.ToLower(strings.TrimSpace(ts)))
		}) {
			out = append(out, svc.name())
		}
	}
	return out
}

// Mode is which kind of process a stack is for: it decides what happens
// to a service that cannot run here.
type Mode int

const (
	// Front is `sous mcp` and `sous demo`: a service with no backend is
	// off, with one log line naming the variables.
	Front Mode = iota
	// Serve is `sous serve`: every service asked for must run here, or it
	// is an error; the ones they call are built here too unless their URL
	// is set.
	Serve
	// Single is a service's own binary (Command): the one service runs
	// here, every other is reached by URL, a needed one at its own
	// binary's address when no URL is set.
	Single
)

// Stack is the services one sous process runs and the clients that reach
// every service it needs, in this process or remote.
type Stack struct {
	logger *slog.Logger

	// local are the services built here, mounted on the in-memory
	// listener ln that hc dials.
	local []serve.Service
	ln    *memnet.Listener
	hc    *http.Client

	// clients reach every service not off, remote or local.
	clients mcpfront.Backends
}

// logOff writes one line per backend that is not configured, naming the
// toolsets it turns off and the variables that would turn them on. off
// maps a backend's variables to the services off for want of it.
func logOff(logger *slog.Logger, off map[string][]string, enabled []string) {
	for _, be := range backends {
		var toolsets, urls []string
		for _, name := range off[be.vars] {
			svc, _ := lookup(name)
			urls = append(urls, svc.front.URLVar)
			for _, ts := range svc.front.Toolsets {
				if len(enabled) == 0 || slices.ContainsFunc(enabled, func(e string) bool { return strings.EqualFold(strings.TrimSpace(e), ts) }) {
					toolsets = append(toolsets, ts)
				}
			}
		}
		if len(toolsets) == 0 {
			continue
		}
		noun, pron := "toolset", "it"
		if len(toolsets) > 1 {
			noun, pron = "toolsets", "them"
		}
		logger.Info(fmt.Sprintf("%s %s off: set %s (or %s) to turn %s on", strings.Join(toolsets, ", "), noun, be.vars, strings.Join(urls, ", "), pron))
	}
}

// needed is want with the services they need, and apart the services
// that only serve as an optional use of those (serviceTable's needs and
// uses). Dependencies come before their users in the table, so walking
// it backwards reaches a dependency's own needs after it is added.
func needed(want []string) (need, optional map[string]bool) {
	need, optional = map[string]bool{}, map[string]bool{}
	for _, n := range want {
		need[n] = true
	}
	for i := len(serviceTable) - 1; i >= 0; i-- {
		if svc := serviceTable[i]; need[svc.name()] {
			for _, d := range svc.needs {
				need[d] = true
			}
		}
	}
	for _, svc := range serviceTable {
		if need[svc.name()] {
			for _, d := range svc.uses {
				if !need[d] {
					optional[d] = true
				}
			}
		}
	}
	for d := range optional {
		need[d] = true
	}
	return need, optional
}

// direct is want with the services they need or use themselves, the
// used ones apart: what a process needs that reaches every other service
// by URL.
func direct(want []string) (need, optional map[string]bool) {
	need, optional = map[string]bool{}, map[string]bool{}
	for _, n := range want {
		need[n] = true
	}
	for _, n := range want {
		svc, _ := lookup(n)
		for _, d := range svc.needs {
			need[d] = true
		}
		for _, d := range svc.uses {
			if !need[d] {
				need[d], optional[d] = true, true
			}
		}
	}
	return need, optional
}

// usedBy reports whether a service that uses (or, with hard, needs) name
// is in the given source.
func usedBy(name string, source map[string]string, hard bool, in ...string) bool {
	return slices.ContainsFunc(serviceTable, func(u service) bool {
		deps := u.uses
		if hard {
			deps = u.needs
		}
		return slices.Contains(deps, name) && slices.Contains(in, source[u.name()])
	})
}

// New decides, for each service in want and its dependencies, whether it
// is remote (its SOUS_<NAME>_URL is set), built here (its backend is
// configured), or off; builds the local ones; and returns the stack with a
// client for every service not off. mode says what becomes of a service
// that cannot run here (Front, Serve, Single).
func New(cfg Config, want []string, mode Mode, logger *slog.Logger) (*Stack, error) {
	s := &Stack{logger: logger, ln: memnet.New()}
	s.hc = serve.InProcessClient(s.ln.DialContext)
	for _, n := range want {
		if _, ok := lookup(n); !ok {
			return nil, fmt.Errorf("unknown service %q (valid: %s)", n, strings.Join(Names, ", "))
		}
	}
	cfg.single = mode == Single
	need, optional := needed(want)
	if mode == Single {
		// The others are remote and call what they call themselves.
		need, optional = direct(want)
	}
	source := map[string]string{} // name -> "remote", "local" or ""
	off := map[string][]string{}  // missing variables -> services off
	for _, svc := range serviceTable {
		n := svc.name()
		if !need[n] {
			continue
		}
		asked := mode != Front && slices.Contains(want, n)
		switch {
		case *svc.url(&cfg.Remotes) != "" && !asked:
			source[n] = "remote"
		case mode == Single && !asked && !optional[n]:
			// Needed and not named: where its own binary listens.
			*svc.url(&cfg.Remotes) = svc.ownURL()
			source[n] = "remote"
		case mode == Single && !asked:
			// Said below, as for the other modes.
		case svc.backend.configured(cfg):
			source[n] = "local"
		case asked:
			return nil, fmt.Errorf("the %s service cannot run: set %s", n, svc.backend.vars)
		case optional[n]:
			// Said below, once it is known whether a service using it runs.
		default:
			off[svc.backend.vars] = append(off[svc.backend.vars], n)
		}
	}
	if mode == Front {
		logOff(logger, off, cfg.Toolsets)
	}
	for _, svc := range serviceTable {
		if !optional[svc.name()] || source[svc.name()] != "" || !usedBy(svc.name(), source, false, "remote", "local") {
			continue
		}
		if mode == Single && !usedBy(svc.name(), source, false, "local") {
			continue
		}
		switch mode {
		case Front:
			logger.Info(svc.mcpOff)
		case Serve:
			logger.Info(svc.serveOff)
		case Single:
			// Info, as the other modes': running without the pantry is
			// a setup many choose, not a fault.
			logger.Info(svc.singleOff)
		}
	}
	for _, svc := range serviceTable {
		if source[svc.name()] == "" && usedBy(svc.name(), source, true, "local") {
			// Their backend is configured, so this one's is too; this is
			// only reached when it was itself refused above.
			var users []string
			for _, u := range serviceTable {
				if slices.Contains(u.needs, svc.name()) {
					users = append(users, u.name())
				}
			}
			return nil, fmt.Errorf("%s need the %s service", strings.Join(users, " and "), svc.name())
		}
	}
	// Remote services are dialled as cmd/mcpfront dials them; local ones
	// through the in-memory listener.
	remote := mcpfront.Remotes{Token: cfg.Remotes.Token}
	for _, svc := range serviceTable {
		if source[svc.name()] == "remote" {
			*svc.url(&remote) = *svc.url(&cfg.Remotes)
		}
	}
	s.clients = remote.Dial()
	for _, svc := range serviceTable {
		if source[svc.name()] == "local" {
			svc.front.Client(&s.clients, s.hc, inProcessBase)
		}
	}
	for _, svc := range serviceTable {
		if source[svc.name()] != "local" {
			continue
		}
		path, h, err := svc.build(cfg, s.clients, logger.With("service", svc.name()))
		if err != nil {
			return nil, fmt.Errorf("%s service: %w", svc.name(), err)
		}
		s.local = append(s.local, serve.Service{Name: svc.fqName, Path: path, Handler: h})
	}
	return s, nil
}

// Start serves the local services on the in-memory listener and returns a
// stop function.
func (s *Stack) Start() func() {
	if len(s.local) == 0 {
		return func() {}
	}
	srv := serve.NewServer(serve.Handler("", s.local...), s.logger)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = serve.Run(ctx, srv, s.ln)
	}()
	return func() { cancel(); <-done }
}

// Backends are the clients mcpfront's tools call.
func (s *Stack) Backends() mcpfront.Backends {
	return s.clients
}

// Local are the services built in this process, to serve on a listener of
// the caller's (serve.Handler) besides the in-memory one.
func (s *Stack) Local() []serve.Service {
	return s.local
}

// ServeServices are the services `sous serve` is asked to run: the
// --services list, or by default every service except the pantry when the
// food API is not configured. A homelab with only Mealie then serves the
// Mealie services (New says in one line what would turn the pantry
// on), while a pantry named in --services without its backend still stops
// sous with exit status 2.
func ServeServices(cfg Config, list string, explicit bool) []string {
	var names []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			if svc, ok := lookup(n); ok && !explicit && svc.optional && !svc.backend.configured(cfg) {
				continue
			}
			names = append(names, n)
		}
	}
	return names
}
