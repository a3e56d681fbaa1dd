package main

import (
	"log/slog"
	"net/http"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/svcenv"
	"github.com/souskitchen/sous/mcpfront"
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/library"
	"github.com/souskitchen/sous/services/mealplan"
	"github.com/souskitchen/sous/services/pantry"
	"github.com/souskitchen/sous/services/recipes"
)

// The services sous runs, by the names --services and the log lines use.
const (
	svcPantry   = "pantry"
	svcRecipes  = "recipes"
	svcMealPlan = "mealplan"
	svcLibrary  = "library"
)

// backend is what a service needs to run in this process: the variables a
// line names when they are missing, and whether a configuration sets them.
type backend struct {
	vars       string
	configured func(config) bool
}

var (
	mealieBackend  = backend{svcenv.MealieVars, func(c config) bool { return c.Mealie.Configured() }}
	foodAPIBackend = backend{svcenv.FoodAPIVars, func(c config) bool { return c.FoodAPI.Configured() }}
)

// backends are the backends in the order their "toolsets off" lines come
// (logOff).
var backends = []backend{mealieBackend, foodAPIBackend}

// service is one row of the service table: everything newStack,
// servicesForToolsets, logOff and serveServices decide about a service is
// read from here, so adding a service is adding a row.
type service struct {
	name string
	// toolsets are the MCP toolsets whose tools call the service
	// (mcpfront.Toolsets; shopping lives in mealplan).
	toolsets []string
	// urlVar is the variable naming a remote instance, and url points at
	// its value in a Remotes (mcpfront.LoadConfig reads it).
	urlVar string
	url    func(*mcpfront.Remotes) *string
	// backend is what running it here takes.
	backend backend
	// needs are the services it cannot work without; uses are those it
	// works better with (docs/design.md, "One direction of dependency").
	needs, uses []string
	// optional marks a service others only use: the default `sous serve`
	// leaves it out when its backend is missing, and serveOff (for `sous
	// serve`) or mcpOff (for the MCP front) is logged instead when a
	// service that uses it runs without it.
	optional         bool
	serveOff, mcpOff string
	// fqName is the Connect service name, the health check's and
	// reflection's key.
	fqName string
	// inProcess sets the service's client in b to one that reaches it
	// over hc, the in-memory listener's client.
	inProcess func(b *mcpfront.Backends, hc connect.HTTPClient)
	// build constructs the service from the configuration, calling the
	// other services through b.
	build func(cfg config, b mcpfront.Backends, log *slog.Logger) (string, http.Handler, error)
}

// serviceTable lists the services in the order they are built: a
// service's dependencies come before it (mealplan and library call
// recipes; recipes and mealplan call the pantry).
var serviceTable = []service{
	{
		name: svcPantry, toolsets: []string{mcpfront.ToolsetPantry},
		urlVar: "SOUS_PANTRY_URL", url: func(r *mcpfront.Remotes) *string { return &r.PantryURL },
		backend:  foodAPIBackend,
		optional: true,
		serveOff: "pantry service off: set FOOD_API_BASE and FOOD_API_TOKEN to serve it (or SOUS_PANTRY_URL to use a remote one); until then recipes and mealplan run without the pantry (no suggest_recipes from_pantry, no skipping in-stock items when shopping)",
		mcpOff:   "no pantry configured: suggest_recipes(from_pantry) and skipping in-stock items when shopping are off; set FOOD_API_BASE and FOOD_API_TOKEN (or SOUS_PANTRY_URL) to turn them on",
		fqName:   pantryv1connect.PantryServiceName,
		inProcess: func(b *mcpfront.Backends, hc connect.HTTPClient) {
			b.Pantry = pantryv1connect.NewPantryServiceClient(hc, inProcessBase)
		},
		build: func(cfg config, _ mcpfront.Backends, log *slog.Logger) (string, http.Handler, error) {
			return handler(pantry.New(pantry.Config{FoodAPIBase: cfg.FoodAPI.Base, FoodAPIToken: cfg.FoodAPI.Token, ReadOnly: cfg.ReadOnly, Logger: log}))
		},
	},
	{
		name: svcRecipes, toolsets: []string{mcpfront.ToolsetRecipes},
		urlVar: "SOUS_RECIPES_URL", url: func(r *mcpfront.Remotes) *string { return &r.RecipesURL },
		backend: mealieBackend, uses: []string{svcPantry},
		fqName: recipesv1connect.RecipesServiceName,
		inProcess: func(b *mcpfront.Backends, hc connect.HTTPClient) {
			b.Recipes = recipesv1connect.NewRecipesServiceClient(hc, inProcessBase)
		},
		build: func(cfg config, b mcpfront.Backends, log *slog.Logger) (string, http.Handler, error) {
			return handler(recipes.New(recipes.Config{
				MealieURL: cfg.Mealie.URL, MealieToken: cfg.Mealie.Token, InsecureSkipVerify: !cfg.Mealie.VerifySSL,
				ReadOnly: cfg.ReadOnly, Logger: log, Pantry: b.Pantry,
				PantrySetting:    svcenv.FoodAPIVars,
				KeepUnknownFoods: !cfg.CreateFoods,
			}))
		},
	},
	{
		name: svcMealPlan, toolsets: []string{mcpfront.ToolsetMealPlan, mcpfront.ToolsetShopping},
		urlVar: "SOUS_MEALPLAN_URL", url: func(r *mcpfront.Remotes) *string { return &r.MealPlanURL },
		backend: mealieBackend, needs: []string{svcRecipes}, uses: []string{svcPantry},
		fqName: mealplanv1connect.MealPlanServiceName,
		inProcess: func(b *mcpfront.Backends, hc connect.HTTPClient) {
			b.MealPlan = mealplanv1connect.NewMealPlanServiceClient(hc, inProcessBase)
		},
		build: func(cfg config, b mcpfront.Backends, log *slog.Logger) (string, http.Handler, error) {
			return handler(mealplan.New(mealplan.Config{
				MealieURL: cfg.Mealie.URL, MealieToken: cfg.Mealie.Token, InsecureSkipVerify: !cfg.Mealie.VerifySSL,
				Recipes: b.Recipes, Pantry: b.Pantry, ReadOnly: cfg.ReadOnly, Logger: log,
				// sous runs the pantry itself from the food API's settings.
				PantrySetting: svcenv.FoodAPIVars,
			}))
		},
	},
	{
		name: svcLibrary, toolsets: []string{mcpfront.ToolsetLibrary},
		urlVar: "SOUS_LIBRARY_URL", url: func(r *mcpfront.Remotes) *string { return &r.LibraryURL },
		backend: mealieBackend, needs: []string{svcRecipes},
		fqName: libraryv1connect.LibraryServiceName,
		inProcess: func(b *mcpfront.Backends, hc connect.HTTPClient) {
			b.Library = libraryv1connect.NewLibraryServiceClient(hc, inProcessBase)
		},
		build: func(cfg config, b mcpfront.Backends, log *slog.Logger) (string, http.Handler, error) {
			return handler(library.New(library.Config{
				MealieURL: cfg.Mealie.URL, MealieToken: cfg.Mealie.Token, InsecureSkipVerify: !cfg.Mealie.VerifySSL,
				Recipes: b.Recipes, AllowPrivateLinks: cfg.LinkAllowPrivate, ReadOnly: cfg.ReadOnly, Logger: log,
			}))
		},
	},
}

// serviceNames are the services `sous serve` can run, in build order.
var serviceNames = func() []string {
	names := make([]string, len(serviceTable))
	for i, svc := range serviceTable {
		names[i] = svc.name
	}
	return names
}()

// lookup returns the row of the service called name.
func lookup(name string) (service, bool) {
	for _, svc := range serviceTable {
		if svc.name == name {
			return svc, true
		}
	}
	return service{}, false
}

// handler is the Connect path and handler of a service New just built,
// or New's error.
func handler[S interface {
	Handler(...connect.HandlerOption) (string, http.Handler)
}](svc S, err error) (string, http.Handler, error) {
	if err != nil {
		return "", nil, err
	}
	path, h := svc.Handler()
	return path, h, nil
}
