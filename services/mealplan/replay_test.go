package mealplan

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
)

// capture is one recorded Mealie exchange from testdata (copied from the
// Mealie 2.0 captures).
type capture struct {
	Response struct {
		Status int             `json:"status"`
		JSON   json.RawMessage `json:"json"`
		Text   string          `json:"text"`
	} `json:"response"`
}

func loadCapture(t *testing.T, name string) capture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	var c capture
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return c
}

// seen is one request the fake Mealie received.
type seen struct {
	Method string
	Path   string
	Query  string
	Body   string
}

// replay is a fake Mealie answering routes with captured responses.
type replay struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	routes map[string][]string // "METHOD /path" -> fixtures, served in turn (the last repeats)
	log    []seen
}

func newReplay(t *testing.T) *replay {
	r := &replay{t: t, routes: map[string][]string{}}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

// on answers method+path with the fixtures, one per request in order.
func (r *replay) on(method, path string, fixtures ...string) *replay {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routes[method+" "+path] = fixtures
	return r
}

func (r *replay) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.log = append(r.log, seen{Method: req.Method, Path: req.URL.Path, Query: req.URL.RawQuery, Body: string(body)})
	key := req.Method + " " + req.URL.Path
	fx := r.routes[key]
	var name string
	if len(fx) > 0 {
		name = fx[0]
		if len(fx) > 1 {
			r.routes[key] = fx[1:]
		}
	}
	r.mu.Unlock()
	if name == "" {
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"detail":"Not Found"}`))
		return
	}
	c := loadCapture(r.t, name)
	if len(c.Response.JSON) > 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(c.Response.Status)
		_, _ = w.Write(c.Response.JSON)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(c.Response.Status)
	_, _ = w.Write([]byte(c.Response.Text))
}

// requests returns what the fake received, in order.
func (r *replay) requests() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]seen(nil), r.log...)
}

// writes counts requests that are not GETs.
func (r *replay) writes() int {
	n := 0
	for _, s := range r.requests() {
		if s.Method != http.MethodGet {
			n++
		}
	}
	return n
}

// fakeRecipes resolves slugs from a fixed map, standing in for the recipes
// service.
type fakeRecipes struct {
	recipesv1connect.UnimplementedRecipesServiceHandler
	ids   map[string]string
	calls int
}

func (f *fakeRecipes) ResolveRecipeSlugs(_ context.Context, req *connect.Request[recipesv1.ResolveRecipeSlugsRequest]) (*connect.Response[recipesv1.ResolveRecipeSlugsResponse], error) {
	f.calls++
	out := &recipesv1.ResolveRecipeSlugsResponse{}
	for _, s := range req.Msg.GetSlugs() {
		if id, ok := f.ids[s]; ok {
			out.Recipes = append(out.Recipes, &recipesv1.ResolvedRecipe{Slug: s, Id: id})
		} else {
			out.NotFound = append(out.NotFound, s)
		}
	}
	return connect.NewResponse(out), nil
}

// fakePantry answers GetPantry with fixed items, or fails when down.
type fakePantry struct {
	pantryv1connect.UnimplementedPantryServiceHandler
	items []*pantryv1.PantryItem
	down  bool
	calls int
}

func (f *fakePantry) GetPantry(context.Context, *connect.Request[pantryv1.GetPantryRequest]) (*connect.Response[pantryv1.GetPantryResponse], error) {
	f.calls++
	if f.down {
		return nil, connect.NewError(connect.CodeUnavailable, errors.New("dial tcp 127.0.0.1:9: connect: connection refused"))
	}
	g := &pantryv1.LocationGroup{Location: pantryv1.Location_LOCATION_FRIDGE, Items: f.items}
	return connect.NewResponse(&pantryv1.GetPantryResponse{Groups: []*pantryv1.LocationGroup{g}}), nil
}

func (f *fakePantry) GetStatus(context.Context, *connect.Request[pantryv1.GetStatusRequest]) (*connect.Response[pantryv1.GetStatusResponse], error) {
	if f.down {
		return nil, connect.NewError(connect.CodeUnavailable, errors.New("connection refused"))
	}
	return connect.NewResponse(&pantryv1.GetStatusResponse{ItemCount: int32(len(f.items))}), nil
}

// pancakesID is the recipe id of fixture-pancakes-deluxe in the captures.
const pancakesID = "0b920beb-8d7d-4ef1-864f-9e383541adc2"

// fixtureNow is the capture day (the captures' plans are dated 2026-11-30).
var fixtureNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

type harness struct {
	svc     *Service
	mealie  *replay
	recipes *fakeRecipes
	pantry  *fakePantry
}

// newHarness builds the service against a replaying Mealie, the fake
// recipes service and (unless noPantry) the fake pantry, in process.
func newHarness(t *testing.T, mutate ...func(*Config)) *harness {
	t.Helper()
	h := &harness{
		mealie:  newReplay(t),
		recipes: &fakeRecipes{ids: map[string]string{"fixture-pancakes-deluxe": pancakesID}},
		pantry:  &fakePantry{},
	}
	cfg := Config{
		MealieURL: h.mealie.srv.URL, MealieToken: "test-token",
		Recipes: recipesClient(t, h.recipes), Pantry: pantryClient(t, h.pantry),
		Location: time.UTC, Now: func() time.Time { return fixtureNow },
	}
	for _, m := range mutate {
		m(&cfg)
	}
	svc, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.svc = svc
	return h
}

func recipesClient(t *testing.T, h recipesv1connect.RecipesServiceHandler) recipesv1connect.RecipesServiceClient {
	path, handler := recipesv1connect.NewRecipesServiceHandler(h)
	mux := http.NewServeMux()
	mux.Handle(path, handler)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return recipesv1connect.NewRecipesServiceClient(srv.Client(), srv.URL)
}

func pantryClient(t *testing.T, h pantryv1connect.PantryServiceHandler) pantryv1connect.PantryServiceClient {
	path, handler := pantryv1connect.NewPantryServiceHandler(h)
	mux := http.NewServeMux()
	mux.Handle(path, handler)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return pantryv1connect.NewPantryServiceClient(srv.Client(), srv.URL)
}

// wantCode fails unless err is a Connect error with code and a message
// containing every part.
func wantCode(t *testing.T, err error, code connect.Code, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want %v, got no error", code)
	}
	if got := connect.CodeOf(err); got != code {
		t.Fatalf("want %v, got %v: %v", code, got, err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not contain %q", err.Error(), p)
		}
	}
}
