// Command recipes serves sous.recipes.v1.RecipesService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others. `recipes --healthcheck`
// checks a running one (serve.Command).
//
// Environment: MEALIE_URL, MEALIE_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_VERIFY_SSL, MEALIE_LOG_LEVEL, SOUS_SERVICE_TOKEN, and
// SOUS_RECIPES_ADDR (default 127.0.0.1:8081).
package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/serve"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/recipes"
)

// startupProbeTimeout bounds the startup probe: two reads, each retried on
// a waking server, fit well inside it.
const startupProbeTimeout = 60 * time.Second

func main() {
	serve.Main(serve.Command{Name: "recipes", Build: build,
		Addr: func() string { return env.String("SOUS_RECIPES_ADDR", "127.0.0.1:8081") }})
}

func build(ctx context.Context, s serve.Setup) ([]serve.Service, error) {
	verify, err := env.Bool("MEALIE_VERIFY_SSL", true)
	if err != nil {
		return nil, err
	}
	svc, err := recipes.New(recipes.Config{
		MealieURL: env.String("MEALIE_URL", ""), MealieToken: env.String("MEALIE_API_TOKEN", ""),
		InsecureSkipVerify: !verify, ReadOnly: s.ReadOnly, Logger: s.Logger,
	})
	if err != nil {
		return nil, err
	}
	// Probe before serving (seed, "Startup"): a wrong URL or token, or a
	// Mealie below 2.0, is one message and exit 2, not a failure per call.
	probeCtx, cancel := context.WithTimeout(ctx, startupProbeTimeout)
	st, err := svc.GetStatus(probeCtx, connect.NewRequest(&recipesv1.GetStatusRequest{}))
	cancel()
	if err != nil {
		var ce *connect.Error
		if errors.As(err, &ce) {
			return nil, errors.New(ce.Message())
		}
		return nil, err
	}
	s.Logger.Info(fmt.Sprintf("connected to Mealie %s as %s", st.Msg.MealieVersion, st.Msg.User))
	path, h := svc.Handler()
	return []serve.Service{{Name: recipesv1connect.RecipesServiceName, Path: path, Handler: h}}, nil
}
