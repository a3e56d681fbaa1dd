// Package mealplan_test drives every MealPlanService RPC against the Mealie
// emulator (internal/mealieemu) through a Connect client over HTTP, as a
// deployment does, once per Mealie version the emulator knows. The shopping
// flow that needs a pantry runs the real pantry service over the Django food
// API (internal/foodapiproc) and skips when its virtualenv is missing.
package mealplan_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/foodapiproc"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/mealplan"
	"github.com/souskitchen/sous/services/pantry"
)

// callTimeout bounds every RPC of a test; the emulator answers in
// microseconds and the food API in milliseconds.
const callTimeout = 30 * time.Second

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), callTimeout)
	t.Cleanup(cancel)
	return c
}

// slugResolver stands in for the recipes service's ResolveRecipeSlugs: it
// asks the emulator for each slug, as the real service does on a cache miss.
type slugResolver struct {
	recipesv1connect.UnimplementedRecipesServiceHandler
	mealie *mealieemu.Server
}

func (r *slugResolver) ResolveRecipeSlugs(ctx context.Context, req *connect.Request[recipesv1.ResolveRecipeSlugsRequest]) (*connect.Response[recipesv1.ResolveRecipeSlugsResponse], error) {
	out := &recipesv1.ResolveRecipeSlugsResponse{}
	for _, slug := range req.Msg.GetSlugs() {
		hreq, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.mealie.URL+"/api/recipes/"+url.PathEscape(slug), nil)
		hreq.Header.Set("Authorization", "Bearer "+r.mealie.Token)
		resp, err := http.DefaultClient.Do(hreq)
		if err != nil {
			return nil, connect.NewError(connect.CodeUnavailable, err)
		}
		var rec struct{ ID, Name string }
		err = decodeJSON(resp, &rec)
		switch {
		case resp.StatusCode == http.StatusNotFound:
			out.NotFound = append(out.NotFound, slug)
		case err != nil:
			return nil, connect.NewError(connect.CodeInternal, err)
		default:
			out.Recipes = append(out.Recipes, &recipesv1.ResolvedRecipe{Slug: slug, Id: rec.ID, Name: rec.Name})
		}
	}
	return connect.NewResponse(out), nil
}

// stack is one meal plan service over the emulator.
type stack struct {
	client mealplanv1connect.MealPlanServiceClient
	mealie *mealieemu.Server
}

// versions are the emulator's Mealie profiles (internal/mealieemu
// profile.go); every test runs once on each.
var versions = []string{"2.0", "2.8", "3.11"}

// aboutVersion is what each profile's /api/app/about reports (profile.go's
// version field): the 2.0 captures come from a source checkout, which
// reports "v2.0.0"; release images report their tag.
var aboutVersion = map[string]string{"2.0": "v2.0.0", "2.8": "v2.8.0", "3.11": "v3.11.0"}

// each runs fn as one subtest per Mealie profile, named by the profile.
func each(t *testing.T, fn func(t *testing.T, version string)) {
	t.Helper()
	for _, v := range versions {
		t.Run(v, func(t *testing.T) { fn(t, v) })
	}
}

// setup starts the emulator with the demo seed, pretending to be the given
// Mealie version, and a meal plan service over it; mutate adjusts the
// config (the pantry, read-only mode).
func setup(t *testing.T, version string, mutate ...func(*mealplan.Config)) *stack {
	t.Helper()
	m := mealietest.NewServer(t, mealieemu.WithSeed("demo"), mealieemu.WithVersion(version))
	rpath, rh := recipesv1connect.NewRecipesServiceHandler(&slugResolver{mealie: m})
	cfg := mealplan.Config{
		MealieURL: m.URL, MealieToken: m.Token, Location: time.UTC,
		Recipes: recipesv1connect.NewRecipesServiceClient(serveHandler(t, rpath, rh)),
	}
	for _, f := range mutate {
		f(&cfg)
	}
	svc, err := mealplan.New(cfg)
	if err != nil {
		t.Fatalf("mealplan.New: %v", err)
	}
	path, h := svc.Handler()
	hc, base := serveHandler(t, path, h)
	return &stack{client: mealplanv1connect.NewMealPlanServiceClient(hc, base), mealie: m}
}

// serveHandler mounts a Connect handler on a loopback httptest server and
// returns a client and base URL for it.
func serveHandler(t *testing.T, path string, h http.Handler) (*http.Client, string) {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.Client(), srv.URL
}

// startPantry runs the food API with an empty kitchen and a pantry service
// over it, skipping when the virtualenv is missing.
func startPantry(t *testing.T) pantryv1connect.PantryServiceClient {
	t.Helper()
	fa := harness.StartFoodAPI(t, foodapiproc.Start, foodapiproc.Options{Empty: true})
	svc, err := pantry.New(pantry.Config{FoodAPIBase: fa.BaseURL, FoodAPIToken: fa.Token})
	if err != nil {
		t.Fatalf("pantry.New: %v", err)
	}
	path, h := svc.Handler()
	return pantryv1connect.NewPantryServiceClient(serveHandler(t, path, h))
}

// deadPantry is a pantry client whose server is gone: every call fails to
// connect.
func deadPantry(t *testing.T) pantryv1connect.PantryServiceClient {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	return pantryv1connect.NewPantryServiceClient(http.DefaultClient, base)
}

// calls counts logged emulator requests matching method and a path prefix.
func calls(m *mealieemu.Server, method, pathPrefix string) int {
	n := 0
	for _, r := range m.Requests() {
		if r.Method == method && strings.HasPrefix(r.Path, pathPrefix) {
			n++
		}
	}
	return n
}

// writes counts logged emulator requests that are not GETs.
func writes(m *mealieemu.Server) int {
	n := 0
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			n++
		}
	}
	return n
}

// wantCode fails unless err is a Connect error with code whose message
// contains every part.
func wantCode(t *testing.T, err error, code connect.Code, parts ...string) {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) {
		t.Fatalf("want a %v error, got %v", code, err)
	}
	if ce.Code() != code {
		t.Fatalf("want code %v, got %v: %s", code, ce.Code(), ce.Message())
	}
	for _, p := range parts {
		if !strings.Contains(ce.Message(), p) {
			t.Fatalf("message %q does not contain %q", ce.Message(), p)
		}
	}
}

// decodeJSON reads a JSON body into v and closes it.
func decodeJSON(resp *http.Response, v any) error {
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}

// thisMonday is the Monday of the current UTC week, where the demo seed
// places a week of plans.
func thisMonday() time.Time {
	now := time.Now().UTC()
	d := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}
