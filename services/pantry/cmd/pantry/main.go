// Command pantry serves sous.pantry.v1.PantryService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others.
//
// Environment: FOOD_API_BASE, FOOD_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_LOG_LEVEL, SOUS_SERVICE_TOKEN, and SOUS_PANTRY_ADDR (default
// 127.0.0.1:8084).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/logs"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/services/pantry"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pantry:", err)
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
	readOnly, err := env.Bool("MEALIE_READ_ONLY", false)
	if err != nil {
		return err
	}
	svc, err := pantry.New(pantry.Config{
		FoodAPIBase: env.String("FOOD_API_BASE", ""), FoodAPIToken: env.String("FOOD_API_TOKEN", ""),
		ReadOnly: readOnly, Logger: logger,
	})
	if err != nil {
		return err
	}
	path, h := svc.Handler()
	token := env.String("SOUS_SERVICE_TOKEN", "")
	if token == "" {
		logger.Warn("SOUS_SERVICE_TOKEN is not set: the service accepts any caller")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve.ListenAndServe(ctx, env.String("SOUS_PANTRY_ADDR", "127.0.0.1:8084"),
		serve.Handler(token, serve.Service{Name: pantryv1connect.PantryServiceName, Path: path, Handler: h}), logger)
}
