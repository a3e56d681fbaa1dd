package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/memnet"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/mcpfront"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/recipes"
)

// serviceNames are the services `sous serve` can run, in start order.
var serviceNames = []string{"recipes", "mealplan", "library", "pantry"}

// buildServices constructs the named services' handlers from cfg.
func buildServices(cfg config, names []string, logger *slog.Logger) ([]serve.Service, error) {
	var out []serve.Service
	for _, name := range names {
		switch name {
		case "recipes":
			if err := cfg.needMealie(); err != nil {
				return nil, err
			}
			svc, err := recipes.New(recipes.Config{
				MealieURL: cfg.MealieURL, MealieToken: cfg.MealieToken, InsecureSkipVerify: !cfg.MealieVerifySSL,
				ReadOnly: cfg.MealieReadOnly, Logger: logger.With("service", "recipes"),
			})
			if err != nil {
				return nil, err
			}
			path, h := svc.Handler()
			out = append(out, serve.Service{Name: recipesv1connect.RecipesServiceName, Path: path, Handler: h})
		case "mealplan", "library", "pantry":
			logger.Info("service not built into this release yet; skipping", "service", name)
		default:
			return nil, fmt.Errorf("unknown service %q (valid: %s)", name, strings.Join(serviceNames, ", "))
		}
	}
	return out, nil
}

// inProcess runs services on an in-memory listener and returns an HTTP
// client and base URL that reach them, and a stop function.
func inProcess(services []serve.Service, logger *slog.Logger) (*http.Client, string, func()) {
	ln := memnet.New()
	srv := serve.NewServer(serve.Handler("", services...), logger)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = serve.Run(ctx, srv, ln)
	}()
	return serve.InProcessClient(ln.DialContext), "http://sous.in-process", func() { cancel(); <-done }
}

// backends builds mcpfront's Connect clients: remote ones for every service
// whose SOUS_<NAME>_URL is set, in-process ones for the rest.
func backends(cfg config, logger *slog.Logger) (mcpfront.Backends, func(), error) {
	var b mcpfront.Backends
	stop := func() {}
	remoteOpts := []connect.ClientOption{connect.WithInterceptors(svcauth.ClientInterceptor(cfg.ServiceToken))}

	var local []string
	if cfg.RecipesURL != "" {
		b.Recipes = recipesv1connect.NewRecipesServiceClient(serve.HTTPClient(cfg.RecipesURL), cfg.RecipesURL, remoteOpts...)
	} else {
		local = append(local, "recipes")
	}
	if len(local) > 0 {
		services, err := buildServices(cfg, local, logger)
		if err != nil {
			return b, stop, err
		}
		hc, base, stopLocal := inProcess(services, logger)
		stop = stopLocal
		if b.Recipes == nil {
			b.Recipes = recipesv1connect.NewRecipesServiceClient(hc, base)
		}
	}
	return b, stop, nil
}

// probe checks every configured backend through its service before any
// transport starts, and returns the one startup line.
func probe(ctx context.Context, b mcpfront.Backends) (string, error) {
	var parts []string
	if b.Recipes != nil {
		st, err := b.Recipes.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{}))
		if err != nil {
			return "", fmt.Errorf("recipes service: %s", connectMessage(err))
		}
		parts = append(parts, fmt.Sprintf("connected to Mealie %s as %s", st.Msg.GetMealieVersion(), st.Msg.GetUser()))
	}
	if len(parts) == 0 {
		return "", errors.New("no backend is configured")
	}
	return strings.Join(parts, "; "), nil
}

func connectMessage(err error) string {
	var ce *connect.Error
	if errors.As(err, &ce) {
		return ce.Message()
	}
	return err.Error()
}
