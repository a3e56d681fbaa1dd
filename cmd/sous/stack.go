package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/souskitchen/sous/internal/memnet"
	"github.com/souskitchen/sous/internal/serve"
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

// The services sous runs, in the order they are built: a service's
// dependencies come before it (docs/design.md, "One direction of
// dependency": mealplan and library call recipes; recipes and mealplan call
// pantry).
const (
	svcPantry   = "pantry"
	svcRecipes  = "recipes"
	svcMealPlan = "mealplan"
	svcLibrary  = "library"
)

// serviceNames are the services `sous serve` can run, in build order.
var serviceNames = []string{svcPantry, svcRecipes, svcMealPlan, svcLibrary}

// inProcessBase is the base URL of in-process clients; the transport dials
// the in-memory listener whatever the URL says.
const inProcessBase = "http://sous.in-process"

// servicesForToolsets maps the MCP toolsets enabled to the services whose
// clients their tools call (mcpfront.Toolsets; shopping lives in mealplan).
func servicesForToolsets(toolsets []string) []string {
	if len(toolsets) == 0 {
		toolsets = mcpfront.Toolsets
	}
	want := map[string]bool{}
	for _, ts := range toolsets {
		switch strings.ToLower(strings.TrimSpace(ts)) {
		case mcpfront.ToolsetRecipes:
			want[svcRecipes] = true
		case mcpfront.ToolsetMealPlan, mcpfront.ToolsetShopping:
			want[svcMealPlan] = true
		case mcpfront.ToolsetLibrary:
			want[svcLibrary] = true
		case mcpfront.ToolsetPantry:
			want[svcPantry] = true
		}
	}
	var out []string
	for _, n := range serviceNames {
		if want[n] {
			out = append(out, n)
		}
	}
	return out
}

// stack is the services one sous process runs and the clients that reach
// every service it needs, in this process or remote.
type stack struct {
	cfg    config
	logger *slog.Logger

	// local are the services built here, mounted on the in-memory
	// listener ln that hc dials.
	local []serve.Service
	ln    *memnet.Listener
	hc    *http.Client

	recipes  recipesv1connect.RecipesServiceClient
	mealplan mealplanv1connect.MealPlanServiceClient
	library  libraryv1connect.LibraryServiceClient
	pantry   pantryv1connect.PantryServiceClient
}

// remoteURL is the SOUS_<NAME>_URL of a service.
func (c config) remoteURL(name string) string {
	switch name {
	case svcRecipes:
		return c.Remotes.RecipesURL
	case svcMealPlan:
		return c.Remotes.MealPlanURL
	case svcLibrary:
		return c.Remotes.LibraryURL
	case svcPantry:
		return c.Remotes.PantryURL
	}
	return ""
}

// backendMissing names the variables that would let this process run the
// service itself; "" when they are set.
func (c config) backendMissing(name string) string {
	if name == svcPantry {
		if c.FoodAPIBase == "" || c.FoodAPIToken == "" {
			return "FOOD_API_BASE and FOOD_API_TOKEN"
		}
		return ""
	}
	if c.MealieURL == "" || c.MealieToken == "" {
		return "MEALIE_URL and MEALIE_API_TOKEN"
	}
	return ""
}

// toolsetsOf are the MCP toolsets whose tools call a service.
func toolsetsOf(service string) []string {
	if service == svcMealPlan {
		return []string{mcpfront.ToolsetMealPlan, mcpfront.ToolsetShopping}
	}
	return []string{service}
}

// logOff writes one line per backend that is not configured, naming the
// toolsets it turns off and the variables that would turn them on.
func logOff(logger *slog.Logger, off map[string][]string, enabled []string) {
	for _, vars := range []string{"MEALIE_URL and MEALIE_API_TOKEN", "FOOD_API_BASE and FOOD_API_TOKEN"} {
		var toolsets, urls []string
		for _, svc := range off[vars] {
			urls = append(urls, "SOUS_"+strings.ToUpper(svc)+"_URL")
			for _, ts := range toolsetsOf(svc) {
				if len(enabled) == 0 || slices.ContainsFunc(enabled, func(e string) bool { return strings.EqualFold(strings.TrimSpace(e), ts) }) {
					toolsets = append(toolsets, ts)
				}
			}
		}
		if len(toolsets) == 0 {
			continue
		}
		noun, pron := "toolset", "it"
		if len(toolsets) > 1 {
			noun, pron = "toolsets", "them"
		}
		logger.Info(fmt.Sprintf("%s %s off: set %s (or %s) to turn %s on", strings.Join(toolsets, ", "), noun, vars, strings.Join(urls, ", "), pron))
	}
}

// newStack decides, for each service in want and its dependencies, whether
// it is remote (its SOUS_<NAME>_URL is set), built here (its backend is
// configured), or off; builds the local ones; and returns the stack with a
// client for every service not off. strict is `sous serve`: every wanted
// service must be runnable, or it is an error. Without strict, a service
// with no backend is off with one log line naming the variables.
func newStack(cfg config, want []string, strict bool, logger *slog.Logger) (*stack, error) {
	s := &stack{cfg: cfg, logger: logger, ln: memnet.New()}
	s.hc = serve.InProcessClient(s.ln.DialContext)
	need := map[string]bool{}
	for _, n := range want {
		if !slices.Contains(serviceNames, n) {
			return nil, fmt.Errorf("unknown service %q (valid: %s)", n, strings.Join(serviceNames, ", "))
		}
		need[n] = true
	}
	// mealplan and library cannot work without recipes; recipes and
	// mealplan use the pantry when one is configured.
	if need[svcMealPlan] || need[svcLibrary] {
		need[svcRecipes] = true
	}
	optionalPantry := !need[svcPantry] && (need[svcRecipes] || need[svcMealPlan])
	if optionalPantry {
		need[svcPantry] = true
	}
	source := map[string]string{} // name -> "remote", "local" or ""
	off := map[string][]string{}  // missing variables -> services off
	for _, n := range serviceNames {
		if !need[n] {
			continue
		}
		switch {
		case cfg.remoteURL(n) != "" && !(strict && slices.Contains(want, n)):
			source[n] = "remote"
		case cfg.backendMissing(n) == "":
			source[n] = "local"
		case strict && slices.Contains(want, n):
			return nil, fmt.Errorf("the %s service cannot run: set %s", n, cfg.backendMissing(n))
		case n == svcPantry && optionalPantry:
			// Said below, once it is known whether recipes or mealplan run.
		default:
			off[cfg.backendMissing(n)] = append(off[cfg.backendMissing(n)], n)
		}
	}
	if !strict {
		logOff(logger, off, cfg.Toolsets)
	}
	if optionalPantry && source[svcPantry] == "" && (source[svcRecipes] != "" || source[svcMealPlan] != "") {
		if strict {
			logger.Info("pantry service off: set FOOD_API_BASE and FOOD_API_TOKEN to serve it (or SOUS_PANTRY_URL to use a remote one); until then recipes and mealplan run without the pantry (no suggest_recipes from_pantry, no skipping in-stock items when shopping)")
		} else {
			logger.Info("no pantry configured: suggest_recipes(from_pantry) and skipping in-stock items when shopping are off; set FOOD_API_BASE and FOOD_API_TOKEN (or SOUS_PANTRY_URL) to turn them on")
		}
	}
	if source[svcRecipes] == "" && (source[svcMealPlan] == "local" || source[svcLibrary] == "local") {
		// Their Mealie is configured, so recipes is too; this is only
		// reached when recipes itself was refused above.
		return nil, errors.New("mealplan and library need the recipes service")
	}
	// Remote services are dialled as cmd/mcpfront dials them; local ones
	// through the in-memory listener.
	remote := mcpfront.Remotes{Token: cfg.Remotes.Token}
	if source[svcRecipes] == "remote" {
		remote.RecipesURL = cfg.Remotes.RecipesURL
	}
	if source[svcMealPlan] == "remote" {
		remote.MealPlanURL = cfg.Remotes.MealPlanURL
	}
	if source[svcLibrary] == "remote" {
		remote.LibraryURL = cfg.Remotes.LibraryURL
	}
	if source[svcPantry] == "remote" {
		remote.PantryURL = cfg.Remotes.PantryURL
	}
	b := remote.Dial()
	s.recipes, s.mealplan, s.library, s.pantry = b.Recipes, b.MealPlan, b.Library, b.Pantry
	if source[svcPantry] == "local" {
		s.pantry = pantryv1connect.NewPantryServiceClient(s.hc, inProcessBase)
	}
	if source[svcRecipes] == "local" {
		s.recipes = recipesv1connect.NewRecipesServiceClient(s.hc, inProcessBase)
	}
	if source[svcMealPlan] == "local" {
		s.mealplan = mealplanv1connect.NewMealPlanServiceClient(s.hc, inProcessBase)
	}
	if source[svcLibrary] == "local" {
		s.library = libraryv1connect.NewLibraryServiceClient(s.hc, inProcessBase)
	}
	for _, n := range serviceNames {
		if source[n] != "local" {
			continue
		}
		svc, err := s.build(n)
		if err != nil {
			return nil, fmt.Errorf("%s service: %w", n, err)
		}
		s.local = append(s.local, svc)
	}
	return s, nil
}

// build constructs one local service from the configuration, wired to the
// stack's clients of the services it calls.
func (s *stack) build(name string) (serve.Service, error) {
	cfg := s.cfg
	log := s.logger.With("service", name)
	var path string
	var h http.Handler
	var fq string
	switch name {
	case svcPantry:
		svc, err := pantry.New(pantry.Config{FoodAPIBase: cfg.FoodAPIBase, FoodAPIToken: cfg.FoodAPIToken, ReadOnly: cfg.ReadOnly, Logger: log})
		if err != nil {
			return serve.Service{}, err
		}
		path, h = svc.Handler()
		fq = pantryv1connect.PantryServiceName
	case svcRecipes:
		svc, err := recipes.New(recipes.Config{
			MealieURL: cfg.MealieURL, MealieToken: cfg.MealieToken, InsecureSkipVerify: !cfg.MealieVerifySSL,
			ReadOnly: cfg.ReadOnly, Logger: log, Pantry: s.pantry,
			PantrySetting:    "FOOD_API_BASE and FOOD_API_TOKEN",
			KeepUnknownFoods: !cfg.CreateFoods,
		})
		if err != nil {
			return serve.Service{}, err
		}
		path, h = svc.Handler()
		fq = recipesv1connect.RecipesServiceName
	case svcMealPlan:
		svc, err := mealplan.New(mealplan.Config{
			MealieURL: cfg.MealieURL, MealieToken: cfg.MealieToken, InsecureSkipVerify: !cfg.MealieVerifySSL,
			Recipes: s.recipes, Pantry: s.pantry, ReadOnly: cfg.ReadOnly, Logger: log,
			// sous runs the pantry itself from the food API's settings.
			PantrySetting: "FOOD_API_BASE and FOOD_API_TOKEN",
		})
		if err != nil {
			return serve.Service{}, err
		}
		path, h = svc.Handler()
		fq = mealplanv1connect.MealPlanServiceName
	case svcLibrary:
		svc, err := library.New(library.Config{
			MealieURL: cfg.MealieURL, MealieToken: cfg.MealieToken, InsecureSkipVerify: !cfg.MealieVerifySSL,
			Recipes: s.recipes, AllowPrivateLinks: cfg.LinkAllowPrivate, ReadOnly: cfg.ReadOnly, Logger: log,
		})
		if err != nil {
			return serve.Service{}, err
		}
		path, h = svc.Handler()
		fq = libraryv1connect.LibraryServiceName
	}
	return serve.Service{Name: fq, Path: path, Handler: h}, nil
}

// start serves the local services on the in-memory listener and returns a
// stop function.
func (s *stack) start() func() {
	if len(s.local) == 0 {
		return func() {}
	}
	srv := serve.NewServer(serve.Handler("", s.local...), s.logger)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = serve.Run(ctx, srv, s.ln)
	}()
	return func() { cancel(); <-done }
}

// backends are the clients mcpfront's tools call.
func (s *stack) backends() mcpfront.Backends {
	return mcpfront.Backends{Recipes: s.recipes, MealPlan: s.mealplan, Library: s.library, Pantry: s.pantry}
}
