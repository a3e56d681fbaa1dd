package abuse_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/recovery"
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

// panicky is a test interceptor that panics inside the handler chain, as a
// bug in a service method would.
type panicky struct{}

const panicValue = "service bug reading https://mealie.example/api?token=" + mealieToken

func (panicky) WrapUnary(connect.UnaryFunc) connect.UnaryFunc {
	return func(context.Context, connect.AnyRequest) (connect.AnyResponse, error) { panic(panicValue) }
}

func (panicky) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (panicky) WrapStreamingHandler(connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(context.Context, connect.StreamingHandlerConn) error { panic(panicValue) }
}

// TestServicesRecoverPanics: every service's Handler recovers a panic in
// its chain, answers Internal naming the procedure, logs the stack once
// without the token, and goes on serving. Without recovery.Connect in the
// Handler the panic drops the connection and the client reads Unavailable.
func TestServicesRecoverPanics(t *testing.T) {
	logs := &logSink{}
	log := logs.logger()
	tests := []struct {
		name  string
		build func(t *testing.T) (string, http.Handler)
		call  func(hc *http.Client, url string) error
	}{
		{name: "recipes", build: func(t *testing.T) (string, http.Handler) {
			s, err := recipes.New(recipes.Config{MealieURL: "http://127.0.0.1:1", MealieToken: mealieToken, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			return s.Handler(connect.WithInterceptors(panicky{}))
		}, call: func(hc *http.Client, url string) error {
			_, err := recipesv1connect.NewRecipesServiceClient(hc, url).GetStatus(t.Context(), connect.NewRequest(&recipesv1.GetStatusRequest{}))
			return err
		}},
		{name: "mealplan", build: func(t *testing.T) (string, http.Handler) {
			s, err := mealplan.New(mealplan.Config{MealieURL: "http://127.0.0.1:1", MealieToken: mealieToken, Logger: log,
				Recipes: recipesv1connect.NewRecipesServiceClient(http.DefaultClient, "http://127.0.0.1:1")})
			if err != nil {
				t.Fatal(err)
			}
			return s.Handler(connect.WithInterceptors(panicky{}))
		}, call: func(hc *http.Client, url string) error {
			_, err := mealplanv1connect.NewMealPlanServiceClient(hc, url).GetStatus(t.Context(), connect.NewRequest(&mealplanv1.GetStatusRequest{}))
			return err
		}},
		{name: "library", build: func(t *testing.T) (string, http.Handler) {
			s, err := library.New(library.Config{MealieURL: "http://127.0.0.1:1", MealieToken: mealieToken, Logger: log,
				Recipes: recipesv1connect.NewRecipesServiceClient(http.DefaultClient, "http://127.0.0.1:1")})
			if err != nil {
				t.Fatal(err)
			}
			return s.Handler(connect.WithInterceptors(panicky{}))
		}, call: func(hc *http.Client, url string) error {
			_, err := libraryv1connect.NewLibraryServiceClient(hc, url).GetStatus(t.Context(), connect.NewRequest(&libraryv1.GetStatusRequest{}))
			return err
		}},
		{name: "pantry", build: func(t *testing.T) (string, http.Handler) {
			s, err := pantry.New(pantry.Config{FoodAPIBase: "http://127.0.0.1:1", FoodAPIToken: mealieToken, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			return s.Handler(connect.WithInterceptors(panicky{}))
		}, call: func(hc *http.Client, url string) error {
			_, err := pantryv1connect.NewPantryServiceClient(hc, url).GetStatus(t.Context(), connect.NewRequest(&pantryv1.GetStatusRequest{}))
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := strings.Count(logs.String(), "level=ERROR")
			path, h := tt.build(t)
			srv := harness.Mount(t, path, h)
			for i := range 2 {
				err := tt.call(srv.Client(), srv.URL)
				if connect.CodeOf(err) != connect.CodeInternal || !recovery.Recovered(err) || !strings.Contains(err.Error(), "GetStatus") {
					t.Fatalf("call %d: err = %v, want Internal naming GetStatus", i, err)
				}
			}
			if n := strings.Count(logs.String(), "level=ERROR") - before; n != 2 {
				t.Errorf("%d error records for 2 panics", n)
			}
		})
	}
	if strings.Contains(logs.String(), mealieToken) {
		t.Errorf("the log carries the token:\n%s", logs.String())
	}
}
