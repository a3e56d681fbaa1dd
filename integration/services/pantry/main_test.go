// Package pantry_test drives every PantryService RPC against the real Django
// food API (foodapi): each test starts its own copy with a fresh
// SQLite file, a token minted by sous_bootstrap and the demo kitchen
// (kitchen/demo.py), and talks to the service through a Connect client over
// HTTP, as a deployment does. The copy is the image built from
// foodapi/Dockerfile when a Docker engine answers, else a local
// runserver from the virtualenv on a loopback port (foodapidocker.Launch);
// the run logs which.
package pantry_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/integration/harness/foodapidocker"
	"github.com/souskitchen/sous/internal/foodapiproc"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/services/pantry"
)

// callTimeout bounds every RPC of a test; the food API answers in
// milliseconds, and an unreachable one fails after its GET retries.
const callTimeout = 30 * time.Second

// TestMain picks the food API's backend once and says which, so a run's
// log shows whether the image or the virtualenv was tested.
func TestMain(m *testing.M) {
	_, reason := foodapidocker.ChooseBackend(context.Background())
	fmt.Fprintln(os.Stderr, "pantry_test: "+reason)
	os.Exit(m.Run())
}

// serve mounts a PantryService for cfg on a loopback httptest server and
// returns a client for it.
func serve(t *testing.T, cfg pantry.Config) pantryv1connect.PantryServiceClient {
	t.Helper()
	svc, err := pantry.New(cfg)
	if err != nil {
		t.Fatalf("pantry.New: %v", err)
	}
	path, h := svc.Handler()
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return pantryv1connect.NewPantryServiceClient(srv.Client(), srv.URL)
}

// setup starts the food API and a service over it.
func setup(t *testing.T) (pantryv1connect.PantryServiceClient, *foodapiproc.FoodAPI) {
	t.Helper()
	fa := harness.StartFoodAPI(t, foodapidocker.Launch, foodapiproc.Options{})
	return serve(t, pantry.Config{FoodAPIBase: fa.BaseURL, FoodAPIToken: fa.Token}), fa
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), callTimeout)
	t.Cleanup(cancel)
	return c
}

// wantCode fails unless err is a Connect error with code.
func wantCode(t *testing.T, err error, code connect.Code) *connect.Error {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) {
		t.Fatalf("want a %v error, got %v", code, err)
	}
	if ce.Code() != code {
		t.Fatalf("want code %v, got %v: %s", code, ce.Code(), ce.Message())
	}
	return ce
}

// nameMatches returns the NameMatches detail of err, or nil.
func nameMatches(t *testing.T, ce *connect.Error) *pantryv1.NameMatches {
	t.Helper()
	for _, d := range ce.Details() {
		v, err := d.Value()
		if err != nil {
			t.Fatalf("decoding error detail: %v", err)
		}
		if nm, ok := v.(*pantryv1.NameMatches); ok {
			return nm
		}
	}
	return nil
}

// find returns the item called name at l from a GetPantry answer, or nil.
func find(res *pantryv1.GetPantryResponse, name string, l pantryv1.Location) *pantryv1.PantryItem {
	for _, g := range res.GetGroups() {
		for _, it := range g.GetItems() {
			if it.GetName() == name && it.GetLocation() == l {
				return it
			}
		}
	}
	return nil
}

func allPantry(t *testing.T, c pantryv1connect.PantryServiceClient) *pantryv1.GetPantryResponse {
	t.Helper()
	res, err := c.GetPantry(ctx(t), connect.NewRequest(&pantryv1.GetPantryRequest{IncludeOut: true}))
	if err != nil {
		t.Fatalf("GetPantry: %v", err)
	}
	return res.Msg
}
