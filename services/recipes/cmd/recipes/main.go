// Command recipes serves sous.recipes.v1.RecipesService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others.
//
// Environment: MEALIE_URL, MEALIE_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_VERIFY_SSL, MEALIE_LOG_LEVEL, SOUS_SERVICE_TOKEN, and
// SOUS_RECIPES_ADDR (default 127.0.0.1:8081).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/logs"
	"github.com/souskitchen/sous/internal/serve"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/recipes"
)

// startupProbeTimeout bounds the startup probe: two reads, each retried on
// a waking server, fit well inside it.
const startupProbeTimeout = 60 * time.Second

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "recipes:", err)
		os.Exit(2)
	}
}

func run() error {
	if wd, err := os.Getwd(); err == nil {
		if _, err := env.LoadDotEnv(wd); err != nil {
			return err
		}
	}
	logger, err := logs.New(os.Stderr, env.String("MEALIE_LOG_LEVEL", "info"))
	if err != nil {
		return err
	}
	readOnly, err1 := env.Bool("MEALIE_READ_ONLY", false)
	verify, err2 := env.Bool("MEALIE_VERIFY_SSL", true)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	svc, err := recipes.New(recipes.Config{
		MealieURL: env.String("MEALIE_URL", ""), MealieToken: env.String("MEALIE_API_TOKEN", ""),
		InsecureSkipVerify: !verify, ReadOnly: readOnly, Logger: logger,
	})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Probe before serving (seed, "Startup"): a wrong URL or token, or a
	// Mealie below 2.0, is one message and exit 2, not a failure per call.
	probeCtx, cancel := context.WithTimeout(ctx, startupProbeTimeout)
	st, err := svc.GetStatus(probeCtx, connect.NewRequest(&recipesv1.GetStatusRequest{}))
	cancel()
	if err != nil {
		var ce *connect.Error
		if errors.As(err, &ce) {
			return errors.New(ce.Message())
		}
		return err
	}
	logger.Info(fmt.Sprintf("connected to Mealie %s as %s", st.Msg.MealieVersion, st.Msg.User))
	path, h := svc.Handler()
	token := env.String("SOUS_SERVICE_TOKEN", "")
	if token == "" {
		logger.Warn("SOUS_SERVICE_TOKEN is not set: the service accepts any caller")
	}
	return serve.ListenAndServe(ctx, env.String("SOUS_RECIPES_ADDR", "127.0.0.1:8081"),
		serve.Handler(token, serve.Service{Name: recipesv1connect.RecipesServiceName, Path: path, Handler: h}), logger)
}
