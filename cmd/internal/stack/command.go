package stack

import (
	"context"
	"errors"
	"fmt"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/mcpfront"
)

// Command is the binary that serves the service called name on its own,
// for a deployment that runs each service in its own container
// (cmd/recipes and the others; deploy/compose.yaml). It is `sous serve`
// cut to one service, read from the same table: the same configuration
// and builder, the other services reached by URL (Single), and, for a
// Mealie-backed service, a startup probe through the service itself.
func Command(name string) serve.Command {
	svc, ok := lookup(name)
	if !ok {
		panic("stack: no service " + name)
	}
	return serve.Command{Name: name, Addr: svc.addr, Build: func(ctx context.Context, s serve.Setup) ([]serve.Service, error) {
		return buildSingle(ctx, svc, s)
	}}
}

// buildSingle builds svc alone from the environment and, where its backend
// asks for it, probes it before it serves.
func buildSingle(ctx context.Context, svc service, s serve.Setup) ([]serve.Service, error) {
	cfg, err := loadSettings(mcpfront.Config{ReadOnly: s.ReadOnly, Remotes: mcpfront.LoadRemotes()}, svc)
	if err != nil {
		return nil, err
	}
	st, err := New(cfg, []string{svc.name()}, Single, s.Logger)
	if err != nil {
		return nil, err
	}
	if svc.backend.probe {
		if err := probe(ctx, st, svc, s); err != nil {
			return nil, err
		}
	}
	checkNeeds(ctx, cfg, svc, s)
	return st.Local(), nil
}

// checkNeeds asks each service svc needs for its health (serve.Check, no
// token, bounded) and says in one line when one does not answer: the
// binary serves all the same (in a stack the other may still be starting),
// but a wrong or forgotten SOUS_<NAME>_URL would otherwise show only as a
// failure of every call that needs it.
func checkNeeds(ctx context.Context, cfg Config, svc service, s serve.Setup) {
	for _, n := range svc.needs {
		need, _ := lookup(n)
		url := *need.url(&cfg.Remotes)
		if url == "" {
			url = need.ownURL()
		}
		if err := serve.Check(ctx, url, need.fqName); err != nil {
			why := err.Error()
			if ce := new(connect.Error); errors.As(err, &ce) {
				why = ce.Message() // without connect's "unavailable: "
			}
			s.Logger.Warn(fmt.Sprintf("the %s service does not answer at %s (%s): %s needs it; start it, or set %s to where it runs",
				n, url, why, svc.name(), need.front.URLVar))
		}
	}
}

// probe reads the service's status through its own Connect client, in
// process, as any caller would (mcpfront.Probe), and logs what it
// connected to.
func probe(ctx context.Context, st *Stack, svc service, s serve.Setup) error {
	stop := st.Start()
	defer stop()
	// Its connection closed first, the in-memory server stops at once
	// rather than waiting out HTTP/2's graceful close.
	defer st.hc.CloseIdleConnections()
	var b mcpfront.Backends
	svc.front.Client(&b, st.hc, inProcessBase)
	ctx, cancel := context.WithTimeout(ctx, serve.StartupProbeTimeout)
	defer cancel()
	line, err := mcpfront.Probe(ctx, b)
	if err != nil {
		return err
	}
	s.Logger.Info(line)
	return nil
}
