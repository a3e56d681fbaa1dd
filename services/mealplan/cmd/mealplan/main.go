// Command mealplan serves sous.mealplan.v1.MealPlanService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others. `mealplan --healthcheck`
// checks a running one (serve.Command).
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

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/internal/svcenv"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/mealplan"
)

func main() {
	serve.Main(serve.Command{Name: "mealplan", Build: build,
		Addr: func() string { return env.String("SOUS_MEALPLAN_ADDR", "127.0.0.1:8082") }})
}

func build(ctx context.Context, s serve.Setup) ([]serve.Service, error) {
	m, err := svcenv.LoadMealie()
	if err != nil {
		return nil, err
	}
	clientOpts := connect.WithInterceptors(svcauth.ClientInterceptor(s.Token))
	recipesURL := env.String("SOUS_RECIPES_URL", "")
	if recipesURL == "" {
		return nil, errors.New("SOUS_RECIPES_URL is required: recipe slugs are resolved by the recipes service")
	}
	cfg := mealplan.Config{
		MealieURL: m.URL, MealieToken: m.Token,
		InsecureSkipVerify: !m.VerifySSL, ReadOnly: s.ReadOnly, Logger: s.Logger,
		Recipes: recipesv1connect.NewRecipesServiceClient(serve.HTTPClient(recipesURL), recipesURL, clientOpts),
	}
	if pantryURL := env.String("SOUS_PANTRY_URL", ""); pantryURL != "" {
		cfg.Pantry = pantryv1connect.NewPantryServiceClient(serve.HTTPClient(pantryURL), pantryURL, clientOpts)
	} else {
		s.Logger.Warn("SOUS_PANTRY_URL is not set: shopping lists cannot skip what is in stock")
	}
	svc, err := mealplan.New(cfg)
	if err != nil {
		return nil, err
	}
	// The same startup probe as the recipes and library services: a wrong
	// URL or token, or a Mealie below 2.0, stops it here with one message.
	err = serve.Probe(ctx, s.Logger, func(ctx context.Context) (serve.Status, error) {
		st, err := svc.GetStatus(ctx, connect.NewRequest(&mealplanv1.GetStatusRequest{}))
		if err != nil {
			return serve.Status{}, err
		}
		return serve.Status{MealieVersion: st.Msg.MealieVersion, User: st.Msg.User}, nil
	})
	if err != nil {
		return nil, err
	}
	path, h := svc.Handler()
	return []serve.Service{{Name: mealplanv1connect.MealPlanServiceName, Path: path, Handler: h}}, nil
}
