package mcpfront

import (
	"bytes"
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file offers the views: the plan, the shopping list and the recipe
// card as MCP Apps (the extension io.modelcontextprotocol/ui), one
// self-contained HTML bundle each, built from mcpfront/views by `make
// generate` (docs/clients.md, "Views (MCP Apps)"). They are negotiated, never imposed:
// a client that does not declare the extension sees the catalog, the
// resources and every answer exactly as before (TestViewsNotImposed), and
// every tool's text answer is the same for both kinds of client, so a view
// reads what the model reads.

// UIExtension is the MCP Apps extension's identifier, the key a client's
// capabilities carry under "extensions".
const UIExtension = "io.modelcontextprotocol/ui"

// UIMIMEType is the MIME type of an MCP Apps HTML view; a client declares
// it in the extension's mimeTypes and the view resources carry it.
const UIMIMEType = "text/html;profile=mcp-app"

//go:embed views/dist/plan.html views/dist/shopping.html views/dist/recipe.html
var viewBundles embed.FS

// view is one MCP Apps view and the tools whose results it shows.
type view struct {
	uri, name, title, description, file string
	// tools are linked to the view by _meta.ui.resourceUri when they are
	// among the tools a server registers; one it leaves out (by toolset,
	// read-only mode, or a catalog without it) is skipped.
	tools []string
}

// viewTable is every view sous offers.
var viewTable = []view{
	{
		uri: "ui://sous/plan", name: "meal-plan", title: "Meal plan", file: "plan.html",
		description: "The meal plan by day and meal, today marked and empty slots shown.",
		tools:       []string{"get_meal_plan", "get_todays_meals", "random_meal_plan", "add_meal_plan_entry", "update_meal_plan_entry"},
	},
	{
		uri: "ui://sous/shopping-list", name: "shopping-list", title: "Shopping list", file: "shopping.html",
		description: "A shopping list by store section, with tick boxes that check items off in Mealie.",
		tools:       []string{"get_shopping_list", "add_to_shopping_list", "update_shopping_items"},
	},
	{
		uri: "ui://sous/recipe", name: "recipe", title: "Recipe card", file: "recipe.html",
		description: "A recipe to cook from: image, times, ingredients scaled to the servings, steps.",
		tools:       []string{"get_recipe"},
	},
}

// mealieOriginTag is the tag each bundle carries empty, where the server
// writes the origin of Mealie's images (Options.MealieURL) when it serves
// the bundle: a view builds an image's address from it and a recipe's id.
const mealieOriginTag = `<meta name="sous-mealie-origin" content="">`

// views is what a server offers clients that declare the extension.
type views struct {
	// byTool is the view URI each registered tool is linked to.
	byTool map[string]string
	// resources are the offered views, in viewTable's order; contents
	// their bundles as served.
	resources []*mcp.Resource
	contents  map[string]*mcp.ResourceContents
}

// newViews prepares the views whose tools are among registered. origin,
// when set, is the Mealie origin the views' images come from: written into
// each bundle and declared in its CSP (resourceDomains), the one origin a
// host lets the view load from. Without it the views show no images.
func newViews(registered []Tool, origin string) (*views, error) {
	have := map[string]bool{}
	for _, t := range registered {
		have[t.Def.Name] = true
	}
	v := &views{byTool: map[string]string{}, contents: map[string]*mcp.ResourceContents{}}
	for _, vw := range viewTable {
		var linked bool
		for _, name := range vw.tools {
			if have[name] {
				v.byTool[name] = vw.uri
				linked = true
			}
		}
		if !linked {
			continue
		}
		page, err := viewBundles.ReadFile("views/dist/" + vw.file)
		if err != nil {
			return nil, fmt.Errorf("view %s: %w", vw.uri, err)
		}
		text := string(page)
		if !strings.Contains(text, mealieOriginTag) {
			return nil, fmt.Errorf("view %s: the bundle has no %s (run make generate)", vw.uri, mealieOriginTag)
		}
		uiMeta := map[string]any{"prefersBorder": true}
		if origin != "" {
			text = strings.Replace(text, mealieOriginTag, `<meta name="sous-mealie-origin" content="`+html.EscapeString(origin)+`">`, 1)
			uiMeta["csp"] = map[string]any{"resourceDomains": []string{origin}}
		}
		v.resources = append(v.resources, &mcp.Resource{URI: vw.uri, Name: vw.name, Title: vw.title, Description: vw.description, MIMEType: UIMIMEType})
		v.contents[vw.uri] = &mcp.ResourceContents{URI: vw.uri, MIMEType: UIMIMEType, Text: text, Meta: mcp.Meta{"ui": uiMeta}}
	}
	return v, nil
}

// MealieOrigin returns the origin (scheme, host and port) of a Mealie URL,
// as a view's CSP names it, or an error saying what is wrong with it.
func MealieOrigin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http or https URL", raw)
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}

// declaresViews reports whether a client's capabilities declare the
// extension with the views' MIME type. The settings arrive as decoded JSON
// (or, from an in-process client, as the Go value it was given), so they
// are read back through JSON.
func declaresViews(caps *mcp.ClientCapabilities) bool {
	if caps == nil || caps.Extensions == nil {
		return false
	}
	ext, ok := caps.Extensions[UIExtension]
	if !ok {
		return false
	}
	raw, err := json.Marshal(ext)
	if err != nil {
		return false
	}
	var settings struct {
		MIMETypes []string `json:"mimeTypes"`
	}
	return json.Unmarshal(raw, &settings) == nil && slices.Contains(settings.MIMETypes, UIMIMEType)
}

// capabilityReader is every server request but initialize: the client's
// capabilities as the SDK knows them for that request, from its own _meta
// (the 2026-07-28 protocol sends them with every request, which is how they
// reach a stateless server) or else from the session's initialize.
type capabilityReader interface {
	ClientCapabilities() *mcp.ClientCapabilities
}

// viewSessionPrefix starts the Mcp-Session-Id the Streamable HTTP endpoint
// hands a client whose initialize declared the extension (viewSessionID).
const viewSessionPrefix = "sous-views-"

// viewSessionID is a fresh session id that says its client declared the
// extension. sous's HTTP sessions are stateless: nothing is kept on the
// server, and the id itself is what carries the negotiation to the later
// requests, each served by a new session (a client that sends no id back
// gets the plain catalog). It grants nothing: auth is checked on every
// request all the same, and all a forged one could get is the views.
func viewSessionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return viewSessionPrefix + hex.EncodeToString(b)
}

// wantsViews reports whether the client behind req declared the extension:
// in the initialize it sends, in the capabilities the SDK holds for the
// request, or (over stateless Streamable HTTP) by the session id it was
// handed for declaring it.
func wantsViews(req mcp.Request) bool {
	// The SDK's InitializeRequest is the client's side of it; a server
	// receives it as this.
	if init, ok := req.(*mcp.ServerRequest[*mcp.InitializeParams]); ok {
		return init.Params != nil && declaresViews(init.Params.Capabilities)
	}
	if cr, ok := req.(capabilityReader); ok && declaresViews(cr.ClientCapabilities()) {
		return true
	}
	if ex := req.GetExtra(); ex != nil && ex.Header != nil {
		return strings.HasPrefix(ex.Header.Get("Mcp-Session-Id"), viewSessionPrefix)
	}
	return false
}

// middleware offers the views to the clients that declared the extension
// and changes nothing for any other: it declares the extension and the
// resources capability in their initialize (or server/discover) result,
// links the tools in their tools/list, and answers their resources/list
// and resources/read with the views. Every other request, and every
// request of another client, goes through untouched.
func (v *views) middleware() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if !wantsViews(req) {
				return next(ctx, method, req)
			}
			switch method {
			case "initialize":
				res, err := next(ctx, method, req)
				if r, ok := res.(*mcp.InitializeResult); ok && err == nil {
					r.Capabilities = v.declare(r.Capabilities)
				}
				return res, err
			case "server/discover":
				res, err := next(ctx, method, req)
				if r, ok := res.(*mcp.DiscoverResult); ok && err == nil {
					r.Capabilities = v.declare(r.Capabilities)
				}
				return res, err
			case "tools/list":
				res, err := next(ctx, method, req)
				if r, ok := res.(*mcp.ListToolsResult); ok && err == nil {
					r.Tools = v.link(r.Tools)
				}
				return res, err
			case "resources/list":
				return &mcp.ListResourcesResult{Resources: v.resources}, nil
			case "resources/read":
				if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok {
					if c := v.contents[p.URI]; c != nil {
						cc := *c
						return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{&cc}}, nil
					}
				}
			}
			return next(ctx, method, req)
		}
	}
}

// declare returns caps with the extension and the resources capability
// added, leaving caps itself as it was.
func (v *views) declare(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	var c mcp.ServerCapabilities
	if caps != nil {
		c = *caps
	}
	c.Extensions = map[string]any{}
	if caps != nil {
		for k, e := range caps.Extensions {
			c.Extensions[k] = e
		}
	}
	c.Extensions[UIExtension] = map[string]any{"mimeTypes": []string{UIMIMEType}}
	if c.Resources == nil {
		c.Resources = &mcp.ResourceCapabilities{}
	}
	return &c
}

// link returns tools with each linked tool replaced by a copy carrying its
// view's URI in _meta.ui.resourceUri; the server's own definitions, which
// every other client is shown, are not touched.
func (v *views) link(tools []*mcp.Tool) []*mcp.Tool {
	out := make([]*mcp.Tool, len(tools))
	for i, t := range tools {
		uri := v.byTool[t.Name]
		if uri == "" {
			out[i] = t
			continue
		}
		c := *t
		c.Meta = mcp.Meta{}
		for k, m := range t.Meta {
			c.Meta[k] = m
		}
		c.Meta["ui"] = map[string]any{"resourceUri": uri}
		out[i] = &c
	}
	return out
}

// viewSessions wraps the Streamable HTTP handler: a POST whose body is an
// initialize declaring the extension is answered with a session id saying
// so (viewSessionID). The body is read here up to the handler's own cap and
// handed on whole, so the handler's 413 for a larger one stands.
//
// A client that sends no session id back (claude.ai does not; its
// connector initializes again before most calls) can still be known in
// the OAuth mode, where every request names its client: clients records
// what each OAuth client's last initialize declared, and a later request
// of a client that declared the extension is marked as if it had sent its
// session id. The record is one flag an approved client, lost on restart
// until that client's next initialize.
func viewSessions(next http.Handler, clients *viewClients) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		client := oauthClient(r)
		if r.Method == http.MethodPost && r.Body != nil {
			head, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBody+1))
			rest := r.Body
			r.Body = readCloser{io.MultiReader(bytes.NewReader(head), rest), rest}
			if err == nil && len(head) <= MaxRequestBody {
				if init, declared := initializeDeclares(head); init {
					if declared {
						w.Header().Set("Mcp-Session-Id", viewSessionID())
					}
					if client != "" {
						clients.set(client, declared)
					}
				} else if client != "" && clients.declared(client) && !strings.HasPrefix(r.Header.Get("Mcp-Session-Id"), viewSessionPrefix) {
					r.Header.Set("Mcp-Session-Id", viewSessionID())
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// initializeDeclares reports whether body is an initialize request, and
// whether it declares the extension.
func initializeDeclares(body []byte) (initialize, declared bool) {
	if !bytes.Contains(body, []byte(`"initialize"`)) {
		return false, false
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Capabilities *mcp.ClientCapabilities `json:"capabilities"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "initialize" {
		return false, false
	}
	return true, declaresViews(msg.Params.Capabilities)
}

// oauthClient is the OAuth client id of r's access token, or "" outside
// the OAuth mode.
func oauthClient(r *http.Request) string {
	ti := auth.TokenInfoFromContext(r.Context())
	if ti == nil {
		return ""
	}
	id, _ := ti.Extra["client_id"].(string)
	return id
}

// viewClients is what each OAuth client's last initialize declared.
type viewClients struct {
	mu sync.Mutex
	m  map[string]bool
}

func (c *viewClients) set(client string, declared bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]bool{}
	}
	if declared {
		c.m[client] = true
	} else {
		delete(c.m, client)
	}
}

func (c *viewClients) declared(client string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[client]
}

// readCloser is a body read partly ahead: the part read, then the rest, and
// the original's Close.
type readCloser struct {
	io.Reader
	io.Closer
}
