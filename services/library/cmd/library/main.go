// Command library serves sous.library.v1.LibraryService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others.
//
// Environment: MEALIE_URL, MEALIE_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_VERIFY_SSL, MEALIE_LOG_LEVEL, SOUS_SERVICE_TOKEN, SOUS_RECIPES_URL
// (the recipes service, default http://127.0.0.1:8081),
// SOUS_LINKCHECK_ALLOW_PRIVATE, and SOUS_LIBRARY_ADDR (default
// 127.0.0.1:8083).
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
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/library"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "library:", err)
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
	allowPrivate, err3 := env.Bool("SOUS_LINKCHECK_ALLOW_PRIVATE", false)
	if err := errors.Join(err1, err2, err3); err != nil {
		return err
	}
	token := env.String("SOUS_SERVICE_TOKEN", "")
	recipesURL := env.String("SOUS_RECIPES_URL", "http://127.0.0.1:8081")
	recipesClient := recipesv1connect.NewRecipesServiceClient(serve.HTTPClient(recipesURL), recipesURL,
		connect.WithInterceptors(svcauth.ClientInterceptor(token)))
	svc, err := library.New(library.Config{
		MealieURL: env.String("MEALIE_URL", ""), MealieToken: env.String("MEALIE_API_TOKEN", ""),
		InsecureSkipVerify: !verify, Recipes: recipesClient, AllowPrivateLinks: allowPrivate,
		ReadOnly: readOnly, Logger: logger,
	})
	if err != nil {
		return err
	}
	path, h := svc.Handler()
	if token == "" {
		logger.Warn("SOUS_SERVICE_TOKEN is not set: the service accepts any caller")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve.ListenAndServe(ctx, env.String("SOUS_LIBRARY_ADDR", "127.0.0.1:8083"),
		serve.Handler(token, serve.Service{Name: libraryv1connect.LibraryServiceName, Path: path, Handler: h}), logger)
}
