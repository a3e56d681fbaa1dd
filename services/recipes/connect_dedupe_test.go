package recipes_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/mealieemu"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// lemonBars is a page Mealie can read, registered under two spellings of
// its URL.
const lemonBars = `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Lemon Bars","recipeIngredient":["1 cup flour","2 lemons"],"recipeInstructions":[{"@type":"HowToStep","text":"Bake."}]}</script></head></html>`

const lemonURL = "https://recipes.example.net/lemon-bars"

// imports counts the URL imports Mealie received.
func (s *stack) imports() int {
	n := 0
	for _, w := range s.writes() {
		if w == http.MethodPost+" /api/recipes/create/url" {
			n++
		}
	}
	return n
}

// TestImportTwice: a second import of a page already imported, under the
// same URL or another spelling of it, answers AlreadyExists naming the
// recipe and sends Mealie nothing; allow_duplicate imports a copy.
func TestImportTwice(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v, mealieemu.WithWebPage(lemonURL, lemonBars), mealieemu.WithWebPage(lemonURL+"/", lemonBars))
		c := ctx(t)
		first, err := s.client.ImportRecipeFromURL(c, connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{Url: lemonURL}))
		if err != nil {
			t.Fatalf("first import: %v", err)
		}
		for _, again := range []string{lemonURL, lemonURL + "/", "HTTPS://Recipes.Example.NET/lemon-bars", "http://recipes.example.net/lemon-bars/"} {
			_, err := s.client.ImportRecipeFromURL(c, connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{Url: again}))
			if connect.CodeOf(err) != connect.CodeAlreadyExists || !strings.Contains(err.Error(), "already imported as '"+first.Msg.Slug+"'") {
				t.Errorf("import of %s again: %v, want AlreadyExists naming %q", again, err, first.Msg.Slug)
			}
		}
		if n := s.imports(); n != 1 {
			t.Errorf("Mealie received %d imports, want 1", n)
		}
		copyRes, err := s.client.ImportRecipeFromURL(c, connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{Url: lemonURL + "/", AllowDuplicate: true}))
		if err != nil || copyRes.Msg.Slug == first.Msg.Slug {
			t.Errorf("import with allow_duplicate: %v, %v; want a second recipe", copyRes, err)
		}
	})
}

// TestImportAfterClientTimeout: a client that gave up on an import whose
// write landed (the answer came late) and imports again is told the page
// is already imported; Mealie receives one import.
func TestImportAfterClientTimeout(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		s := newStack(t, v, mealieemu.WithWebPage(lemonURL, lemonBars),
			mealieemu.WithFault(mealieemu.FaultRule{Method: http.MethodPost, PathPrefix: "/api/recipes/create/url", FirstN: 1, LateAnswer: 2 * time.Second}))
		short, cancel := context.WithTimeout(ctx(t), 300*time.Millisecond)
		_, err := s.client.ImportRecipeFromURL(short, connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{Url: lemonURL}))
		cancel()
		if err == nil {
			t.Fatal("the first import answered although its answer was held back")
		}
		_, err = s.client.ImportRecipeFromURL(ctx(t), connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{Url: lemonURL}))
		if connect.CodeOf(err) != connect.CodeAlreadyExists || !strings.Contains(err.Error(), "already imported as 'lemon-bars'") {
			t.Errorf("import after a client timeout: %v, want AlreadyExists naming lemon-bars", err)
		}
		if n := s.imports(); n != 1 {
			t.Errorf("Mealie received %d imports, want 1", n)
		}
	})
}
