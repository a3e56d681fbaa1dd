package abuse_test

import (
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/foodapiproc"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/mcpfront"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/mealplan"
	"github.com/souskitchen/sous/services/recipes"
)

// TestPantryDown: the Django food API stops in the middle of a session;
// pantry tools say so in one sentence, and the Mealie toolsets keep
// working.
func TestPantryDown(t *testing.T) {
	f := harness.StartFoodAPI(t, foodapiproc.Start, foodapiproc.Options{})
	em := mealietest.NewServer(t)
	s := newFaultStack(t, backends{mealie: em, foodBase: f.BaseURL, foodTok: f.Token})
	if text, isErr := call(t, s.cs, "get_pantry", nil); isErr {
		t.Fatalf("get_pantry with the food API up: %s", text)
	}
	f.Stop()
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"get_pantry", nil},
		{"what_can_i_cook", nil},
		{"set_item_state", map[string]any{"ingredient": "eggs", "state": "low"}},
		{"log_cook", map[string]any{"recipe": "Toast"}},
	} {
		text, isErr := call(t, s.cs, tc.tool, tc.args)
		if !isErr {
			t.Errorf("%s with the food API down: %s", tc.tool, text)
			continue
		}
		oneSentence(t, text)
		if !strings.Contains(strings.ToLower(text), "food api") {
			t.Errorf("%s: %q does not say the food API is the problem", tc.tool, text)
		}
	}
	for _, tool := range []string{"search_recipes", "get_todays_meals", "list_cookbooks"} {
		if text, isErr := call(t, s.cs, tool, nil); isErr {
			t.Errorf("%s failed while only the food API is down: %s", tool, text)
		}
	}
	// suggest_recipes from the pantry names the pantry as the cause.
	text, isErr := call(t, s.cs, "suggest_recipes", map[string]any{"from_pantry": true})
	if !isErr || !strings.Contains(strings.ToLower(text), "food api") && !strings.Contains(strings.ToLower(text), "pantry") {
		t.Errorf("suggest_recipes(from_pantry) with the food API down: %v %s", isErr, text)
	}
}

// restartable serves a handler on one loopback address that can be taken
// down and brought back, as a remote sous service restarting.
type restartable struct {
	t    *testing.T
	addr string
	h    http.Handler
	srv  *http.Server
	done chan struct{}
}

func (r *restartable) start() {
	r.t.Helper()
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		r.t.Fatalf("listen %s: %v", r.addr, err)
	}
	r.addr = ln.Addr().String()
	r.srv = serve.NewServer(r.h, slog.New(slog.DiscardHandler))
	r.done = make(chan struct{})
	go func() {
		defer close(r.done)
		_ = r.srv.Serve(ln)
	}()
}

func (r *restartable) stop() {
	_ = r.srv.Close()
	<-r.done
}

// TestRemoteServiceDownAndBack: in remote mode (services in their own
// processes, reached over h2c with the service token, by the clients
// mcpfront.Remotes.Dial builds), the recipes service going down makes its
// tools fail with one sentence naming it and where it was looked for,
// while the meal plan tools keep working; when it comes back, the same MCP
// session succeeds again without restarting anything.
func TestRemoteServiceDownAndBack(t *testing.T) {
	const token = "service-token-faults"
	em := mealietest.NewServer(t)
	auth := connect.WithInterceptors(svcauth.ClientInterceptor(token))

	rs, err := recipes.New(recipes.Config{MealieURL: em.URL, MealieToken: em.Token, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p, h := rs.Handler()
	rsrv := &restartable{t: t, addr: "127.0.0.1:0", h: serve.Handler(token, serve.Service{Name: recipesv1connect.RecipesServiceName, Path: p, Handler: h})}
	rsrv.start()
	t.Cleanup(rsrv.stop)
	rURL := "http://" + rsrv.addr
	rHC := serve.HTTPClient(rURL)
	t.Cleanup(rHC.CloseIdleConnections)
	rc := recipesv1connect.NewRecipesServiceClient(rHC, rURL, auth)

	ms, err := mealplan.New(mealplan.Config{MealieURL: em.URL, MealieToken: em.Token, Recipes: rc})
	if err != nil {
		t.Fatal(err)
	}
	p, h = ms.Handler()
	msrv := &restartable{t: t, addr: "127.0.0.1:0", h: serve.Handler(token, serve.Service{Name: mealplanv1connect.MealPlanServiceName, Path: p, Handler: h})}
	msrv.start()
	t.Cleanup(msrv.stop)
	mURL := "http://" + msrv.addr
	mHC := serve.HTTPClient(mURL)
	t.Cleanup(mHC.CloseIdleConnections)

	front := mcpfront.Remotes{RecipesURL: rURL, MealPlanURL: mURL, Token: token}.Dial()
	cs := session(t, mcpfront.Backends{Recipes: front.Recipes, MealPlan: front.MealPlan}, nil)
	if text, isErr := call(t, cs, "search_recipes", map[string]any{"limit": 1}); isErr {
		t.Fatalf("search_recipes with everything up: %s", text)
	}

	rsrv.stop()
	text, isErr := call(t, cs, "search_recipes", map[string]any{"limit": 1})
	if !isErr {
		t.Fatalf("search_recipes with the recipes service down: %s", text)
	}
	oneSentence(t, text)
	if want := "the recipes service does not answer at " + rURL + " ("; !strings.HasPrefix(text, want) {
		t.Errorf("search_recipes with the recipes service down: %q, want it to start %q", text, want)
	}
	if text, isErr := call(t, cs, "get_todays_meals", nil); isErr {
		t.Errorf("get_todays_meals failed while only the recipes service is down: %s", text)
	}

	rsrv.start() // same address
	if text, isErr := call(t, cs, "search_recipes", map[string]any{"limit": 1}); isErr {
		t.Errorf("search_recipes after the recipes service came back: %s", text)
	}
}
