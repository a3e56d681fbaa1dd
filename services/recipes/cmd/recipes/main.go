// Command recipes serves sous.recipes.v1.RecipesService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others. `recipes --healthcheck`
// checks a running one (serve.Command).
//
// Environment: MEALIE_URL, MEALIE_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_VERIFY_SSL, MEALIE_LOG_LEVEL, SOUS_SERVICE_TOKEN, SOUS_CREATE_FOODS
// (false keeps an unknown food's words in the line's note), and
// SOUS_RECIPES_ADDR (default 127.0.0.1:8081).
package main

import (
	"context"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcenv"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/recipes"
)

func main() {
	serve.Main(serve.Command{Name: "recipes", Build: build,
		Addr: func() string { return env.String("SOUS_RECIPES_ADDR", "127.0.0.1:8081") }})
}

func build(ctx context.Context, s serve.Setup) ([]serve.Service, error) {
	m, err := svcenv.LoadMealie()
	if err != nil {
		return nil, err
	}
	createFoods, err := svcenv.CreateFoods()
	if err != nil {
		return nil, err
	}
	svc, err := recipes.New(recipes.Config{
		MealieURL: m.URL, MealieToken: m.Token,
		InsecureSkipVerify: !m.VerifySSL, ReadOnly: s.ReadOnly, Logger: s.Logger, KeepUnknownFoods: !createFoods,
	})
	if err != nil {
		return nil, err
	}
	err = serve.Probe(ctx, s.Logger, func(ctx context.Context) (serve.Status, error) {
		st, err := svc.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{}))
		if err != nil {
			return serve.Status{}, err
		}
		return serve.Status{MealieVersion: st.Msg.MealieVersion, User: st.Msg.User}, nil
	})
	if err != nil {
		return nil, err
	}
	path, h := svc.Handler()
	return []serve.Service{{Name: recipesv1connect.RecipesServiceName, Path: path, Handler: h}}, nil
}
