package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/memnet"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/mcpfront"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/library"
	"github.com/souskitchen/sous/services/mealplan"
	"github.com/souskitchen/sous/services/pantry"
	"github.com/souskitchen/sous/services/recipes"
)

// The services sous runs, in the order they are built: a service's
// dependencies come before it (DESIGN.md, "Shape": mealplan and library call
// recipes; recipes and mealplan call pantry).
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
		return c.RecipesURL
	case svcMealPlan:
		return c.MealPlanURL
	case svcLibrary:
		return c.LibraryURL
	case svcPantry:
		return c.PantryURL
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
		logger.Info("no pantry configured: suggest_recipes(from_pantry) and skipping in-stock items when shopping are off; set FOOD_API_BASE and FOOD_API_TOKEN (or SOUS_PANTRY_URL) to turn them on")
	}
	if source[svcRecipes] == "" && (source[svcMealPlan] == "local" || source[svcLibrary] == "local") {
		// Their Mealie is configured, so recipes is too; this is only
		// reached when recipes itself was refused above.
		return nil, errors.New("mealplan and library need the recipes service")
	}
	remote := []connect.ClientOption{connect.WithInterceptors(svcauth.ClientInterceptor(cfg.ServiceToken))}
	clientOf := func(name string) (*http.Client, string, []connect.ClientOption, bool) {
		switch source[name] {
		case "remote":
			u := cfg.remoteURL(name)
			return serve.HTTPClient(u), u, remote, true
		case "local":
			return s.hc, inProcessBase, nil, true
		}
		return nil, "", nil, false
	}
	if hc, base, opts, ok := clientOf(svcPantry); ok {
		s.pantry = pantryv1connect.NewPantryServiceClient(hc, base, opts...)
	}
	if hc, base, opts, ok := clientOf(svcRecipes); ok {
		s.recipes = recipesv1connect.NewRecipesServiceClient(hc, base, opts...)
	}
	if hc, base, opts, ok := clientOf(svcMealPlan); ok {
		s.mealplan = mealplanv1connect.NewMealPlanServiceClient(hc, base, opts...)
	}
	if hc, base, opts, ok := clientOf(svcLibrary); ok {
		s.library = libraryv1connect.NewLibraryServiceClient(hc, base, opts...)
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
		svc, err := pantry.New(pantry.Config{FoodAPIBase: cfg.FoodAPIBase, FoodAPIToken: cfg.FoodAPIToken, ReadOnly: cfg.MealieReadOnly, Logger: log})
		if err != nil {
			return serve.Service{}, err
		}
		path, h = svc.Handler()
		fq = pantryv1connect.PantryServiceName
	case svcRecipes:
		svc, err := recipes.New(recipes.Config{
			MealieURL: cfg.MealieURL, MealieToken: cfg.MealieToken, InsecureSkipVerify: !cfg.MealieVerifySSL,
			ReadOnly: cfg.MealieReadOnly, Logger: log, Pantry: s.pantry,
		})
		if err != nil {
			return serve.Service{}, err
		}
		path, h = svc.Handler()
		fq = recipesv1connect.RecipesServiceName
	case svcMealPlan:
		svc, err := mealplan.New(mealplan.Config{
			MealieURL: cfg.MealieURL, MealieToken: cfg.MealieToken, InsecureSkipVerify: !cfg.MealieVerifySSL,
			Recipes: s.recipes, Pantry: s.pantry, ReadOnly: cfg.MealieReadOnly, Logger: log,
		})
		if err != nil {
			return serve.Service{}, err
		}
		path, h = svc.Handler()
		fq = mealplanv1connect.MealPlanServiceName
	case svcLibrary:
		svc, err := library.New(library.Config{
			MealieURL: cfg.MealieURL, MealieToken: cfg.MealieToken, InsecureSkipVerify: !cfg.MealieVerifySSL,
			Recipes: s.recipes, AllowPrivateLinks: cfg.LinkAllowPrivate, ReadOnly: cfg.MealieReadOnly, Logger: log,
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

// backends builds the stack the MCP front needs for its toolsets and starts
// its local services.
func backends(cfg config, logger *slog.Logger) (mcpfront.Backends, func(), error) {
	s, err := newStack(cfg, servicesForToolsets(cfg.Toolsets), false, logger)
	if err != nil {
		return mcpfront.Backends{}, func() {}, err
	}
	return s.backends(), s.start(), nil
}

// probe checks every backend through its service before any transport
// starts, and returns the one startup line: "connected to Mealie <version>
// as <user>; food API ok" (DESIGN.md, "The MCP front"). Any failure is one
// sentence naming the service.
func probe(ctx context.Context, b mcpfront.Backends) (string, error) {
	var mealieLine string
	mealie := func(version, user string) {
		if mealieLine == "" {
			mealieLine = fmt.Sprintf("connected to Mealie %s as %s", version, user)
		}
	}
	if b.Recipes != nil {
		st, err := b.Recipes.GetStatus(ctx, connect.NewRequest(&recipesv1.GetStatusRequest{}))
		if err != nil {
			return "", fmt.Errorf("recipes service: %s", connectMessage(err))
		}
		mealie(st.Msg.GetMealieVersion(), st.Msg.GetUser())
	}
	if b.MealPlan != nil {
		st, err := b.MealPlan.GetStatus(ctx, connect.NewRequest(&mealplanv1.GetStatusRequest{}))
		if err != nil {
			return "", fmt.Errorf("mealplan service: %s", connectMessage(err))
		}
		mealie(st.Msg.GetMealieVersion(), st.Msg.GetUser())
	}
	if b.Library != nil {
		st, err := b.Library.GetStatus(ctx, connect.NewRequest(&libraryv1.GetStatusRequest{}))
		if err != nil {
			return "", fmt.Errorf("library service: %s", connectMessage(err))
		}
		mealie(st.Msg.GetMealieVersion(), st.Msg.GetUser())
	}
	var parts []string
	if mealieLine != "" {
		parts = append(parts, mealieLine)
	}
	if b.Pantry != nil {
		if _, err := b.Pantry.GetStatus(ctx, connect.NewRequest(&pantryv1.GetStatusRequest{})); err != nil {
			return "", fmt.Errorf("pantry service: %s", connectMessage(err))
		}
		parts = append(parts, "food API ok")
	}
	if len(parts) == 0 {
		return "", errors.New("no backend is configured: set MEALIE_URL and MEALIE_API_TOKEN, or FOOD_API_BASE and FOOD_API_TOKEN (or run `sous demo`)")
	}
	return strings.Join(parts, "; "), nil
}

// connectMessage is a Connect error's plain message, without the code
// prefix its Error() adds.
func connectMessage(err error) string {
	var ce *connect.Error
	if errors.As(err, &ce) {
		if ce.Message() != "" {
			return ce.Message()
		}
		return ce.Code().String()
	}
	return err.Error()
}
