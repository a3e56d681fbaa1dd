// Command mealplan serves sous.mealplan.v1.MealPlanService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others.
//
// Environment: MEALIE_URL, MEALIE_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_VERIFY_SSL, MEALIE_LOG_LEVEL, TZ (the zone "today" is resolved in),
// SOUS_RECIPES_URL (required: slugs are resolved there), SOUS_PANTRY_URL
// (optional: without it shopping needs skip_in_stock=false),
// SOUS_SERVICE_TOKEN (guards this service and is presented to the others),
// and SOUS_MEALPLAN_ADDR (default 127.0.0.1:8082).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/logs"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/mealplan"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mealplan:", err)
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
	token := env.String("SOUS_SERVICE_TOKEN", "")
	if token == "" {
		logger.Warn("SOUS_SERVICE_TOKEN is not set: the service accepts any caller")
	}
	clientOpts := connect.WithInterceptors(svcauth.ClientInterceptor(token))
	recipesURL := env.String("SOUS_RECIPES_URL", "")
	if recipesURL == "" {
		return errors.New("SOUS_RECIPES_URL is required: recipe slugs are resolved by the recipes service")
	}
	cfg := mealplan.Config{
		MealieURL: env.String("MEALIE_URL", ""), MealieToken: env.String("MEALIE_API_TOKEN", ""),
		InsecureSkipVerify: !verify, ReadOnly: readOnly, Logger: logger,
		Recipes: recipesv1connect.NewRecipesServiceClient(serve.HTTPClient(recipesURL), recipesURL, clientOpts),
	}
	if pantryURL := env.String("SOUS_PANTRY_URL", ""); pantryURL != "" {
		cfg.Pantry = pantryv1connect.NewPantryServiceClient(serve.HTTPClient(pantryURL), pantryURL, clientOpts)
	} else {
		logger.Warn("SOUS_PANTRY_URL is not set: shopping lists cannot skip what is in stock")
	}
	svc, err := mealplan.New(cfg)
	if err != nil {
		return err
	}
	path, h := svc.Handler()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve.ListenAndServe(ctx, env.String("SOUS_MEALPLAN_ADDR", "127.0.0.1:8082"),
		serve.Handler(token, serve.Service{Name: mealplanv1connect.MealPlanServiceName, Path: path, Handler: h}), logger)
}
