package mcpfront

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// viewsClient is a client that declares the MCP Apps extension, as a host
// that renders views does.
func viewsClient() *mcp.Client {
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(UIExtension, map[string]any{"mimeTypes": []string{UIMIMEType}})
	return mcp.NewClient(&mcp.Implementation{Name: "views-host", Version: "1"}, &mcp.ClientOptions{Capabilities: caps})
}

// plainClient declares nothing beyond the SDK's defaults.
func plainClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
}

// wantLinks is which view each linked tool names; every other tool names
// none. update_meal_plan_entry is linked when the catalog has it.
var wantLinks = map[string]string{
	"get_meal_plan": "ui://sous/plan", "get_todays_meals": "ui://sous/plan", "random_meal_plan": "ui://sous/plan",
	"add_meal_plan_entry": "ui://sous/plan", "update_meal_plan_entry": "ui://sous/plan",
	"get_shopping_list": "ui://sous/shopping-list", "add_to_shopping_list": "ui://sous/shopping-list", "update_shopping_items": "ui://sous/shopping-list",
	"get_recipe": "ui://sous/recipe",
}

// connectVia returns client's session with a server over b and opts, over
// one of the transports a host uses: "stdio" (in-memory, one session, at
// the SDK's latest protocol version, which discovers rather than
// initializes), "stdio-2025" (the same with initialize, at 2025-11-25),
// "http" (Streamable HTTP, sous's stateless handler, at protocol version
// 2025-11-25, whose clients send the session id back) or "http-2026"
// (the same at 2026-07-28, whose requests each carry the capabilities).
func connectVia(t *testing.T, transport string, client *mcp.Client, b Backends, opts Options) *mcp.ClientSession {
	t.Helper()
	server, err := NewServer(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	var ct mcp.Transport
	var copts *mcp.ClientSessionOptions
	switch transport {
	case "stdio", "stdio-2025":
		st, c := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		ct = c
		if transport == "stdio-2025" {
			copts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
		}
	case "http", "http-2026":
		srv := httptest.NewServer(HTTPHandler(server, HTTPOptions{}))
		t.Cleanup(srv.Close)
		ct = &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true}
		copts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
		if transport == "http-2026" {
			copts.ProtocolVersion = "2026-07-28"
		}
	default:
		t.Fatalf("unknown transport %q", transport)
	}
	cs, err := client.Connect(ctx, ct, copts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

var viewTransports = []string{"stdio", "stdio-2025", "http", "http-2026"}

// TestViewsNotImposed holds that a client without the extension meets
// today's server on every transport: each tool exactly as its toolsnap, no
// resources, no extension declared, and no view readable.
func TestViewsNotImposed(t *testing.T) {
	for _, tr := range viewTransports {
		t.Run(tr, func(t *testing.T) {
			cs := connectVia(t, tr, plainClient(), allBackends(), fullOpts)
			ctx := context.Background()
			if caps := cs.InitializeResult().Capabilities; caps.Extensions != nil || caps.Resources != nil {
				t.Errorf("capabilities declare %v / resources %v to a client without the extension", caps.Extensions, caps.Resources)
			}
			res, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tools) == 0 {
				t.Fatal("no tools")
			}
			for _, tool := range res.Tools {
				got, _ := json.MarshalIndent(tool, "", "  ")
				want, err := os.ReadFile(filepath.Join("testdata", "toolsnaps", tool.Name+".json"))
				if err != nil {
					t.Fatal(err)
				}
				if string(got)+"\n" != string(want) {
					t.Errorf("%s differs from its toolsnap:\n%s", tool.Name, got)
				}
			}
			rl, err := cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rl.Resources) != 0 {
				t.Errorf("resources/list shows %d resources to a client without the extension", len(rl.Resources))
			}
			for _, vw := range viewTable {
				if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: vw.uri}); err == nil {
					t.Errorf("%s was served to a client without the extension", vw.uri)
				}
			}
		})
	}
}

// TestViewsOffered holds that a client declaring the extension gets the
// three views on every transport: the extension and resources in its
// capabilities, exactly the linked tools carrying _meta.ui.resourceUri and
// otherwise their toolsnaps, and each view's bundle with its CSP naming the
// Mealie origin.
func TestViewsOffered(t *testing.T) {
	opts := fullOpts
	opts.MealieURL = "https://mealie.example.com/some/path"
	for _, tr := range viewTransports {
		t.Run(tr, func(t *testing.T) {
			cs := connectVia(t, tr, viewsClient(), allBackends(), opts)
			ctx := context.Background()
			caps := cs.InitializeResult().Capabilities
			if !declaresViews(&mcp.ClientCapabilities{Extensions: caps.Extensions}) || caps.Resources == nil {
				t.Errorf("capabilities do not declare the extension and resources: %+v", caps)
			}
			res, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			linked := 0
			for _, tool := range res.Tools {
				var uri string
				if ui, ok := tool.Meta["ui"].(map[string]any); ok {
					uri, _ = ui["resourceUri"].(string)
				}
				if uri != wantLinks[tool.Name] {
					t.Errorf("%s links %q, want %q", tool.Name, uri, wantLinks[tool.Name])
				}
				if uri != "" {
					linked++
				}
				bare := *tool
				bare.Meta = nil
				got, _ := json.MarshalIndent(&bare, "", "  ")
				want, _ := os.ReadFile(filepath.Join("testdata", "toolsnaps", tool.Name+".json"))
				if string(got)+"\n" != string(want) {
					t.Errorf("%s differs from its toolsnap beyond _meta:\n%s", tool.Name, got)
				}
			}
			if linked < 8 {
				t.Errorf("%d tools linked, want at least 8", linked)
			}
			rl, err := cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var uris []string
			for _, r := range rl.Resources {
				uris = append(uris, r.URI)
				if r.MIMEType != UIMIMEType {
					t.Errorf("%s: mimeType %q", r.URI, r.MIMEType)
				}
			}
			if want := []string{"ui://sous/plan", "ui://sous/shopping-list", "ui://sous/recipe"}; !slices.Equal(uris, want) {
				t.Errorf("resources %v, want %v", uris, want)
			}
			for _, uri := range uris {
				rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
				if err != nil {
					t.Fatalf("%s: %v", uri, err)
				}
				if len(rr.Contents) != 1 {
					t.Fatalf("%s: %d contents", uri, len(rr.Contents))
				}
				c := rr.Contents[0]
				if c.MIMEType != UIMIMEType || !strings.HasPrefix(c.Text, "<!DOCTYPE html>") {
					t.Errorf("%s: mimeType %q, text %.40q", uri, c.MIMEType, c.Text)
				}
				if !strings.Contains(c.Text, `<meta name="sous-mealie-origin" content="https://mealie.example.com">`) {
					t.Errorf("%s: the bundle does not carry the Mealie origin", uri)
				}
				meta, _ := json.Marshal(c.Meta)
				if want := `{"ui":{"csp":{"resourceDomains":["https://mealie.example.com"]},"prefersBorder":true}}`; string(meta) != want {
					t.Errorf("%s: _meta %s, want %s", uri, meta, want)
				}
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://sous/other"}); err == nil {
				t.Error("a URI that is not a view was served")
			}
		})
	}
}

// TestViewsFollowTheCatalog holds that a view is offered only with a tool
// that shows it: with the recipes toolset alone, the recipe card and
// nothing else.
func TestViewsFollowTheCatalog(t *testing.T) {
	opts := Options{Toolsets: []string{ToolsetRecipes}}
	cs := connectVia(t, "stdio", viewsClient(), allBackends(), opts)
	rl, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rl.Resources) != 1 || rl.Resources[0].URI != "ui://sous/recipe" {
		t.Errorf("resources %+v, want the recipe card alone", rl.Resources)
	}
	cs = connectVia(t, "stdio", viewsClient(), allBackends(), Options{Toolsets: []string{ToolsetPantry}})
	if caps := cs.InitializeResult().Capabilities; caps.Extensions != nil {
		t.Errorf("the pantry toolset alone has no view, yet the extension is declared: %v", caps.Extensions)
	}
}

// TestViewsAnswersUnchanged holds that a tool answers a client declaring
// the extension with the same bytes as any other, on every transport.
func TestViewsAnswersUnchanged(t *testing.T) {
	f := newFakes(t)
	f.recipes.replies["GetRecipe"] = &recipesv1.GetRecipeResponse{Recipe: &recipesv1.Recipe{
		Slug: "pad-thai", Name: "Pad Thai", Id: "uuid-1", RecipeYield: "2 servings",
		Ingredients: []*recipesv1.Ingredient{{Display: "200 g rice noodles"}}, Instructions: []string{"Soak."},
	}}
	f.mealplan.replies["GetMealPlan"] = &mealplanv1.GetMealPlanResponse{Items: []*mealplanv1.MealPlanEntry{
		{Id: "7", Date: "2026-03-02", EntryType: mealplanv1.EntryType_ENTRY_TYPE_DINNER, RecipeSlug: "pad-thai", RecipeName: "Pad Thai"},
	}}
	calls := []*mcp.CallToolParams{
		{Name: "get_recipe", Arguments: map[string]any{"slug": "pad-thai"}},
		{Name: "get_meal_plan", Arguments: map[string]any{"start_date": "2026-03-02", "end_date": "2026-03-08"}},
	}
	for _, tr := range viewTransports {
		t.Run(tr, func(t *testing.T) {
			plain := connectVia(t, tr, plainClient(), f.backends, Options{})
			host := connectVia(t, tr, viewsClient(), f.backends, Options{})
			for _, p := range calls {
				a, _ := callParams(t, plain, p)
				b, _ := callParams(t, host, p)
				if a != b {
					t.Errorf("%s answers differ:\nplain: %s\nviews: %s", p.Name, a, b)
				}
			}
		})
	}
}

// TestViewSessionOnlyForDeclaringClients holds that the Streamable HTTP
// endpoint hands a session id to an initialize declaring the extension and
// to no other, so a plain client's exchange is today's.
func TestViewSessionOnlyForDeclaringClients(t *testing.T) {
	server, err := NewServer(allBackends(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(HTTPHandler(server, HTTPOptions{}))
	defer srv.Close()
	for _, tc := range []struct {
		name, caps string
		want       bool
	}{
		{"plain", `{}`, false},
		{"other extension", `{"extensions":{"io.example/other":{}}}`, false},
		{"views without the MIME type", `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html"]}}}`, false},
		{"views", `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"c","version":"1"},"capabilities":` + tc.caps + `}}`
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			id := res.Header.Get("Mcp-Session-Id")
			if res.StatusCode != http.StatusOK || (id != "") != tc.want {
				t.Errorf("status %d, Mcp-Session-Id %q; want one: %v", res.StatusCode, id, tc.want)
			}
		})
	}
}

// TestViewsRememberedForOAuthClients holds that in the OAuth mode a client
// that sends no session id back still gets the views after declaring the
// extension, and only that client: another OAuth client, or the same one
// after an initialize without the extension, gets the plain catalog.
func TestViewsRememberedForOAuthClients(t *testing.T) {
	server, err := NewServer(allBackends(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Each token names its client, as sous's authorization server's do.
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"client_id": token}}, nil
	}
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true})
	srv := httptest.NewServer(auth.RequireBearerToken(verify, nil)(viewSessions(streamable, &viewClients{})))
	defer srv.Close()
	post := func(token, body string) string {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	initialize := func(token, caps string) {
		post(token, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"c","version":"1"},"capabilities":`+caps+`}}`)
	}
	linked := func(token string) bool {
		return strings.Contains(post(token, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), `"resourceUri":"ui://sous/recipe"`)
	}
	const views = `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`
	if linked("claude") {
		t.Fatal("views before any initialize")
	}
	initialize("claude", views)
	if !linked("claude") {
		t.Error("an OAuth client that declared the extension gets no views on its next tools/list")
	}
	if linked("code") {
		t.Error("another OAuth client gets the views")
	}
	initialize("claude", `{}`)
	if linked("claude") {
		t.Error("the views outlived an initialize without the extension")
	}
}
