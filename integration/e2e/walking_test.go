package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// shakshukaJSON is get_recipe's exact answer for the demo seed's shakshuka:
// the curated view, compact, empty values dropped, sent once.
const shakshukaJSON = `{"slug":"shakshuka","name":"Shakshuka","description":"Eggs poached in spiced tomato and pepper sauce.","yield":"4 servings","prep_time":"10 minutes","cook_time":"25 minutes","total_time":"35 minutes","ingredients":["2 tbsp olive oil","1 onion sliced","2 bell peppers sliced","2 cloves garlic","1 tsp paprika","1 tsp cumin","1 can canned tomatoes","6 eggs","1 bunch parsley"],"instructions":["Soften the onion, peppers and garlic in the oil.","Add spices and tomatoes and simmer 10 minutes.","Make wells, crack in the eggs, cover and cook until set.","Scatter with parsley."],"tags":["Vegetarian","Spicy","One Pot","Gluten Free"],"categories":["Breakfast","Dinner"],"tools":["Skillet"],"source_url":"https://recipes.example.org/shakshuka"}`

// TestWalkingSkeleton drives the go-sdk MCP client -> sous mcp (stdio and
// Streamable HTTP) -> Connect -> recipes -> the emulator, and checks the
// exact compact JSON of one recipe and that no structuredContent is sent.
func TestWalkingSkeleton(t *testing.T) {
	transports := []struct {
		name    string
		session func(t *testing.T, em *mealieemu.Server) *mcp.ClientSession
	}{
		{"stdio", func(t *testing.T, em *mealieemu.Server) *mcp.ClientSession { return stdioSession(t, em) }},
		{"http", func(t *testing.T, em *mealieemu.Server) *mcp.ClientSession { return httpSession(t, em, "/mcp") }},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
			cs := tr.session(t, em)
			ctx := context.Background()

			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("tools/list: %v", err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
				if tool.OutputSchema != nil {
					t.Errorf("tool %s declares an output schema; answers must be sent once", tool.Name)
				}
			}
			for _, want := range []string{"search_recipes", "get_recipe"} {
				if !slices.Contains(names, want) {
					t.Fatalf("tools/list lacks %s: %v", want, names)
				}
			}

			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_recipe", Arguments: map[string]any{"slug": "shakshuka"}})
			if err != nil {
				t.Fatalf("tools/call get_recipe: %v", err)
			}
			if res.IsError {
				t.Fatalf("get_recipe failed: %s", text(t, res))
			}
			if res.StructuredContent != nil {
				t.Errorf("structuredContent sent: %v", res.StructuredContent)
			}
			if len(res.Content) != 1 {
				t.Fatalf("want one content block, got %d", len(res.Content))
			}
			if got := text(t, res); got != shakshukaJSON {
				t.Errorf("get_recipe answer:\n got %s\nwant %s", got, shakshukaJSON)
			}

			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_recipes", Arguments: map[string]any{"query": "shakshuka"}})
			if err != nil || res.IsError {
				t.Fatalf("search_recipes: %v %v", err, res)
			}
			var list struct {
				Items []struct{ Slug, Name string }
			}
			if err := json.Unmarshal([]byte(text(t, res)), &list); err != nil {
				t.Fatalf("search_recipes answer is not JSON: %v", err)
			}
			if len(list.Items) != 1 || list.Items[0].Slug != "shakshuka" {
				t.Errorf("search_recipes(shakshuka) = %+v", list.Items)
			}

			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_recipe", Arguments: map[string]any{"slug": "no-such-recipe"}})
			if err != nil {
				t.Fatalf("tools/call: %v", err)
			}
			if !res.IsError || text(t, res) != "no recipe 'no-such-recipe'; search_recipes lists what there is" {
				t.Errorf("unknown slug: isError=%v text=%q", res.IsError, text(t, res))
			}
		})
	}
}

// text returns the only text block of a tool result.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	t.Fatalf("no text content in %+v", res.Content)
	return ""
}
