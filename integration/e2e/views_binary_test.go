package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// TestViewsThroughTheBinary holds the negotiation through the built sous,
// over real stdio and over Streamable HTTP at an older protocol version
// (the session id carries it) and at 2026-07-28 (each request does): a
// client declaring the extension gets get_recipe linked to the recipe
// card, whose CSP names MEALIE_URL's origin; a client that does not gets
// no link and no view; both read get_recipe's answer byte for byte alike.
func TestViewsThroughTheBinary(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension("io.modelcontextprotocol/ui", map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}})
	host := mcp.NewClient(&mcp.Implementation{Name: "views-host", Version: "test"}, &mcp.ClientOptions{Capabilities: caps})
	plain := mcp.NewClient(&mcp.Implementation{Name: "sous-e2e", Version: "test"}, nil)
	addr := startHTTP(t, em)
	connect := func(t *testing.T, c *mcp.Client, transport string) *mcp.ClientSession {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		t.Cleanup(cancel)
		var tr mcp.Transport
		var opts *mcp.ClientSessionOptions
		switch transport {
		case "stdio":
			cmd := exec.Command(sousBin, "mcp", "--stdio")
			cmd.Env = sousEnv(em)
			cmd.Dir = t.TempDir()
			tr = &mcp.CommandTransport{Command: cmd}
			opts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
		case "http":
			tr = &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", DisableStandaloneSSE: true}
			opts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"}
		case "http-2026":
			tr = &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", DisableStandaloneSSE: true}
			opts = &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"}
		}
		cs, err := c.Connect(ctx, tr, opts)
		if err != nil {
			t.Fatalf("connecting over %s: %v", transport, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	for _, transport := range []string{"stdio", "http", "http-2026"} {
		t.Run(transport, func(t *testing.T) {
			ctx := context.Background()
			answers := map[string]string{}
			for name, c := range map[string]*mcp.Client{"host": host, "plain": plain} {
				cs := connect(t, c, transport)
				tools, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				var link any
				for _, tool := range tools.Tools {
					if tool.Name == "get_recipe" {
						link = tool.Meta["ui"]
					}
				}
				_, readErr := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://sous/recipe"})
				if name == "host" {
					rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://sous/recipe"})
					if err != nil {
						t.Fatalf("host: reading the recipe card: %v", err)
					}
					meta, _ := json.Marshal(rr.Contents[0].Meta)
					if lk, _ := json.Marshal(link); string(lk) != `{"resourceUri":"ui://sous/recipe"}` || !strings.Contains(string(meta), `"resourceDomains":["`+origin(em.URL)+`"]`) {
						t.Errorf("host: get_recipe links %s; the card's _meta %s", lk, meta)
					}
				} else if link != nil || readErr == nil {
					t.Errorf("plain: get_recipe links %v, the card read error %v; want neither link nor view", link, readErr)
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_recipe", Arguments: map[string]any{"slug": "pancakes"}})
				if err != nil || res.IsError {
					t.Fatalf("%s: get_recipe: %v %v", name, err, res)
				}
				answers[name] = res.Content[0].(*mcp.TextContent).Text
			}
			if answers["host"] != answers["plain"] {
				t.Errorf("get_recipe answers differ:\nhost:  %s\nplain: %s", answers["host"], answers["plain"])
			}
		})
	}
}
