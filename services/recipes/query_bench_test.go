package recipes_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/recipes"
)

// BenchmarkSearchQuery measures what reading a query itself costs sous
// (query.go): every match Mealie's word search lists, and the lines of the
// matches whose name and description lack a word, on a 2,000-recipe
// library. The first search reads those details from Mealie; later ones
// from the detail cache, revalidated by the list's updatedAt. It reports
// Mealie requests a search; a word no recipe holds adds the library's names
// for the close spelling.
func BenchmarkSearchQuery(b *testing.B) {
	for _, q := range []string{"chicken", "tomato pasta", "currry"} {
		b.Run(q, func(b *testing.B) {
			m := mealietest.NewServer(b, mealieemu.WithSeed("bench:2000"), mealieemu.WithVersion("3.20-pg"))
			svc, err := recipes.New(recipes.Config{MealieURL: m.URL, MealieToken: m.Token, Backoff: time.Millisecond})
			if err != nil {
				b.Fatal(err)
			}
			path, h := svc.Handler()
			mux := http.NewServeMux()
			mux.Handle(path, h)
			srv := httptest.NewServer(mux)
			b.Cleanup(srv.Close)
			client := recipesv1connect.NewRecipesServiceClient(srv.Client(), srv.URL)
			search := func() {
				if _, err := client.SearchRecipes(context.Background(), connect.NewRequest(&recipesv1.SearchRecipesRequest{Query: q})); err != nil {
					b.Fatal(err)
				}
			}
			m.ResetRequests()
			search()
			cold := len(m.Requests())
			m.ResetRequests()
			for b.Loop() {
				search()
			}
			b.ReportMetric(float64(cold), "cold-requests")
			b.ReportMetric(float64(len(m.Requests()))/float64(b.N), "requests/op")
		})
	}
}
