// Command pantry serves sous.pantry.v1.PantryService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others. `pantry --healthcheck`
// checks a running one (serve.Command).
//
// Environment: FOOD_API_BASE, FOOD_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_LOG_LEVEL, SOUS_SERVICE_TOKEN, and SOUS_PANTRY_ADDR (default
// 127.0.0.1:8084).
package main

import (
	"context"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcenv"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/services/pantry"
)

func main() {
	serve.Main(serve.Command{Name: "pantry", Build: build,
		Addr: func() string { return env.String("SOUS_PANTRY_ADDR", "127.0.0.1:8084") }})
}

func build(_ context.Context, s serve.Setup) ([]serve.Service, error) {
	f := svcenv.LoadFoodAPI()
	svc, err := pantry.New(pantry.Config{
		FoodAPIBase: f.Base, FoodAPIToken: f.Token,
		ReadOnly: s.ReadOnly, Logger: s.Logger,
	})
	if err != nil {
		return nil, err
	}
	path, h := svc.Handler()
	return []serve.Service{{Name: pantryv1connect.PantryServiceName, Path: path, Handler: h}}, nil
}
