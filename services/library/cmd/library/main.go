// Command library serves sous.library.v1.LibraryService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others. `library --healthcheck`
// checks a running one (serve.Command).
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

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/internal/svcenv"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/library"
)

func main() {
	serve.Main(serve.Command{Name: "library", Build: build,
		Addr: func() string { return env.String("SOUS_LIBRARY_ADDR", "127.0.0.1:8083") }})
}

func build(ctx context.Context, s serve.Setup) ([]serve.Service, error) {
	m, err1 := svcenv.LoadMealie()
	allowPrivate, err2 := svcenv.LinkAllowPrivate()
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	recipesURL := env.String("SOUS_RECIPES_URL", "http://127.0.0.1:8081")
	recipesClient := recipesv1connect.NewRecipesServiceClient(serve.HTTPClient(recipesURL), recipesURL,
		connect.WithInterceptors(svcauth.ClientInterceptor(s.Token)))
	svc, err := library.New(library.Config{
		MealieURL: m.URL, MealieToken: m.Token,
		InsecureSkipVerify: !m.VerifySSL, Recipes: recipesClient, AllowPrivateLinks: allowPrivate,
		ReadOnly: s.ReadOnly, Logger: s.Logger,
	})
	if err != nil {
		return nil, err
	}
	err = serve.Probe(ctx, s.Logger, func(ctx context.Context) (serve.Status, error) {
		st, err := svc.GetStatus(ctx, connect.NewRequest(&libraryv1.GetStatusRequest{}))
		if err != nil {
			return serve.Status{}, err
		}
		return serve.Status{MealieVersion: st.Msg.MealieVersion, User: st.Msg.User}, nil
	})
	if err != nil {
		return nil, err
	}
	path, h := svc.Handler()
	return []serve.Service{{Name: libraryv1connect.LibraryServiceName, Path: path, Handler: h}}, nil
}
