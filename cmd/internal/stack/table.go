// Package stack is the one table of sous's services (serviceTable) and
// what every binary decides from it: `sous serve`, `sous mcp` and `sous
// demo` (cmd/sous), and each service's own binary (cmd/recipes and the
// others, Command). For a set of services it says which run in this
// process, which are reached by URL and which are off, builds the local
// ones over an in-memory listener, and hands back the Connect clients the
// MCP front's tools call (New).
package stack

import (
	"log/slog"
	"net/http"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/serve"
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

// The services, by the names --services and the log lines use
// (mcpfront.Services).
const (
	svcPantry   = "pantry"
	svcRecipes  = "recipes"
	svcMealPlan = "mealplan"
	svcLibrary  = "library"
)

// setting is one group of variables a service reads (internal/svcenv),
// read into a Config. Each row lists its own, so a service's binary reads
// only what it uses: the pantry never fails on a malformed
// MEALIE_VERIFY_SSL.
type setting struct {
	load func(*Config) error
}

var (
	mealieSetting  = &setting{func(c *Config) (err error) { c.Mealie, err = svcenv.LoadMealie(); return err }}
	foodAPISetting = &setting{func(c *Config) error { c.FoodAPI = svcenv.LoadFoodAPI(); return nil }}
	createFoods    = &setting{func(c *Config) (err error) { c.CreateFoods, err = svcenv.CreateFoods(); return err }}
	linkPrivate    = &setting{func(c *Config) (err error) { c.LinkAllowPrivate, err = svcenv.LinkAllowPrivate(); return err }}
)

// backend is what a service needs to run in this process: the variables a
// line names when they are missing, the setting that reads them, whether
// a configuration sets them, and whether a service's own binary checks it
// before serving.
type backend struct {
	vars       string
	setting    *setting
	configured func(Config) bool
	// probe: a Mealie-backed binary reads Mealie's version and user once
	// at startup (mcpfront.Probe), so a wrong URL or token, or a Mealie
	// below 2.0, stops it with one message.
	probe bool
}

var (
	mealieBackend  = backend{svcenv.MealieVars, mealieSetting, func(c Config) bool { return c.Mealie.Configured() }, true}
	foodAPIBackend = backend{svcenv.FoodAPIVars, foodAPISetting, func(c Config) bool { return c.FoodAPI.Configured() }, false}
)

// backends are the backends in the order their "toolsets off" lines come
// (logOff).
var backends = []*backend{&mealieBackend, &foodAPIBackend}

// service is one row of the service table: everything New, ForToolsets,
// ServeServices and Command decide about a service is read from here (and
// from the front's columns, mcpfront.Services), so adding a service is
// adding a row.
type service struct {
	// front is the service as the MCP front reaches it: name, URL
	// variable, toolsets and client.
	front mcpfront.Service
	// backend is what running it here takes; reads are the settings it
	// reads besides the backend's.
	backend *backend
	reads   []*setting
	// needs are the services it cannot work without; uses are those it
	// works better with (docs/design.md, "One direction of dependency").
	needs, uses []string
	// optional marks a service others only use: the default `sous serve`
	// leaves it out when its backend is missing, and one of the lines
	// below is logged when a service that uses it runs without it:
	// serveOff for `sous serve`, mcpOff for the MCP front, singleOff for a
	// service's own binary.
	optional                    bool
	serveOff, mcpOff, singleOff string
	// fqName is the Connect service name, the health check's and
	// reflection's key.
	fqName string
	// addr is the listen address of the service's own binary; a binary
	// that needs this service and has no URL for it reaches it there.
	addr func() string
	// build constructs the service from the configuration, calling the
	// other services through b.
	build func(cfg Config, b mcpfront.Backends, log *slog.Logger) (string, http.Handler, error)
}

// name is the service's short name.
func (s service) name() string { return s.front.Name }

// ownURL is where the service's own binary answers on this host, for a
// binary that needs it and has no URL for it: its listen address, a
// wildcard host (0.0.0.0 in a container) read as loopback (serve.LocalURL).
func (s service) ownURL() string {
	u, err := serve.LocalURL(s.addr())
	if err != nil {
		return "http://" + s.addr()
	}
	return u
}

// url points at the service's URL in r.
func (s service) url(r *mcpfront.Remotes) *string { return s.front.URL(r) }

// serviceTable lists the services in the order they are built: a
// service's dependencies come before it (mealplan and library call
// recipes; recipes and mealplan call the pantry).
var serviceTable = []service{
	{
		front:     front(svcPantry),
		backend:   &foodAPIBackend,
		optional:  true,
		serveOff:  "pantry service off: set FOOD_API_BASE and FOOD_API_TOKEN to serve it (or SOUS_PANTRY_URL to use a remote one); until then recipes and mealplan run without the pantry (no suggest_recipes from_pantry, no skipping in-stock items when shopping)",
		mcpOff:    "no pantry configured: suggest_recipes(from_pantry) and skipping in-stock items when shopping are off; set FOOD_API_BASE and FOOD_API_TOKEN (or SOUS_PANTRY_URL) to turn them on",
		singleOff: "SOUS_PANTRY_URL is not set: running without the pantry (no suggest_recipes from_pantry, no skipping in-stock items when shopping)",
		fqName:    pantryv1connect.PantryServiceName,
		addr:      func() string { return env.String("SOUS_PANTRY_ADDR", "127.0.0.1:8084") },
		build: func(cfg Config, _ mcpfront.Backends, log *slog.Logger) (string, http.Handler, error) {
			return handler(pantry.New(pantry.Config{FoodAPIBase: cfg.FoodAPI.Base, FoodAPIToken: cfg.FoodAPI.Token, ReadOnly: cfg.ReadOnly, Logger: log}))
		},
	},
	{
		front:   front(svcRecipes),
		backend: &mealieBackend, reads: []*setting{createFoods}, uses: []string{svcPantry},
		fqName: recipesv1connect.RecipesServiceName,
		addr:   func() string { return env.String("SOUS_RECIPES_ADDR", "127.0.0.1:8081") },
		build: func(cfg Config, b mcpfront.Backends, log *slog.Logger) (string, http.Handler, error) {
			return handler(recipes.New(recipes.Config{
				MealieURL: cfg.Mealie.URL, MealieToken: cfg.Mealie.Token, InsecureSkipVerify: !cfg.Mealie.VerifySSL,
				ReadOnly: cfg.ReadOnly, Logger: log, Pantry: b.Pantry,
				PantrySetting:    pantrySetting(cfg),
				KeepUnknownFoods: !cfg.CreateFoods,
			}))
		},
	},
	{
		front:   front(svcMealPlan),
		backend: &mealieBackend, needs: []string{svcRecipes}, uses: []string{svcPantry},
		fqName: mealplanv1connect.MealPlanServiceName,
		addr:   func() string { return env.String("SOUS_MEALPLAN_ADDR", "127.0.0.1:8082") },
		build: func(cfg Config, b mcpfront.Backends, log *slog.Logger) (string, http.Handler, error) {
			return handler(mealplan.New(mealplan.Config{
				MealieURL: cfg.Mealie.URL, MealieToken: cfg.Mealie.Token, InsecureSkipVerify: !cfg.Mealie.VerifySSL,
				Recipes: b.Recipes, Pantry: b.Pantry, ReadOnly: cfg.ReadOnly, Logger: log,
				PantrySetting: pantrySetting(cfg),
			}))
		},
	},
	{
		front:   front(svcLibrary),
		backend: &mealieBackend, reads: []*setting{linkPrivate}, needs: []string{svcRecipes},
		fqName: libraryv1connect.LibraryServiceName,
		addr:   func() string { return env.String("SOUS_LIBRARY_ADDR", "127.0.0.1:8083") },
		build: func(cfg Config, b mcpfront.Backends, log *slog.Logger) (string, http.Handler, error) {
			return handler(library.New(library.Config{
				MealieURL: cfg.Mealie.URL, MealieToken: cfg.Mealie.Token, InsecureSkipVerify: !cfg.Mealie.VerifySSL,
				Recipes: b.Recipes, AllowPrivateLinks: cfg.LinkAllowPrivate, ReadOnly: cfg.ReadOnly, Logger: log,
			}))
		},
	},
}

// pantrySetting is what a service names when it tells a caller how to
// turn the pantry on: the food API's variables where sous could run the
// pantry itself, its URL where only a remote one can serve (a service's
// own binary).
func pantrySetting(cfg Config) string {
	if cfg.single {
		return "SOUS_PANTRY_URL"
	}
	return svcenv.FoodAPIVars
}

// front is the front's row of the service called name; a name missing
// there is a programming error the table's test catches first.
func front(name string) mcpfront.Service {
	for _, s := range mcpfront.Services() {
		if s.Name == name {
			return s
		}
	}
	panic("stack: no mcpfront.Services row for " + name)
}

// Names are the services `sous serve` can run, in build order.
var Names = func() []string {
	names := make([]string, len(serviceTable))
	for i, svc := range serviceTable {
		names[i] = svc.name()
	}
	return names
}()

// lookup returns the row of the service called name.
func lookup(name string) (service, bool) {
	for _, svc := range serviceTable {
		if svc.name() == name {
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
