package library_test

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/mcpfront"
)

// maxAnswerChars is the bound on any one tool answer: Claude Code and
// other clients refuse or cut a tool result past about 25,000 tokens, and
// 60,000 characters of JSON stay well under that.
const maxAnswerChars = 60000

// sweepTimeout bounds one call over the 2,000-recipe library: a sweep on
// two loaded cores takes seconds, never minutes.
const sweepTimeout = 5 * time.Minute

// TestAnswersStayUnderTheBound: on a 2,000-recipe library with long
// descriptions, imported twice (1,000 duplicate pairs), the answers that grow with the library stay under
// maxAnswerChars, and one that leaves something out says how to get it.
// Before the bound find_duplicate_recipes answered about 224,000
// characters, check_recipe_links about 55,000 and search_recipes with
// limit 100 over 100,000.
func TestAnswersStayUnderTheBound(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2,000-recipe sweep")
	}
	s := setup(t, nil, mealieemu.WithSeed("bench:2000:long:dup"))
	server, err := mcpfront.NewServer(mcpfront.Backends{Recipes: s.recipes, Library: s.client}, mcpfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := ctx(t)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(c, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "size", Version: "test"}, nil).Connect(c, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	tests := []struct {
		tool string
		args map[string]any
		// more is what the answer says when it leaves items out.
		more string
	}{
		{tool: "find_duplicate_recipes", args: map[string]any{"max_recipes": 2000}, more: "for the rest"},
		{tool: "check_recipe_links", args: map[string]any{"check_sources": false, "max_recipes": 2000}, more: "for the rest"},
		{tool: "search_recipes", args: map[string]any{"limit": 100}},
		{tool: "search_recipes", args: map[string]any{"query": "chicken", "limit": 100}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			text, isErr := harness.Call(t, cs, sweepTimeout, tt.tool, tt.args)
			t.Logf("%s %v: %d characters", tt.tool, tt.args, len([]rune(text)))
			if isErr {
				t.Fatalf("tool error: %s", text)
			}
			if n := len([]rune(text)); n > maxAnswerChars {
				t.Errorf("%d characters, over the bound of %d", n, maxAnswerChars)
			}
			if tt.more != "" && !strings.Contains(text, tt.more) {
				t.Errorf("the answer leaves items out without saying how to get them: %.300s", text)
			}
		})
	}
}
