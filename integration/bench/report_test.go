package bench

import (
	"strings"
	"testing"
	"time"
)

func TestMarkdown(t *testing.T) {
	counted := &Tokens{N: 120, OK: true}
	tests := []struct {
		name string
		res  *Results
		want []string
		not  []string
	}{
		{
			name: "tokens unavailable and a missed catalog",
			res: &Results{Cores: 2, Catalog: &Catalog{Variants: []CatalogVariant{{
				Name: "all toolsets", Tools: 2, Bytes: 2 * (CatalogTargetPerTool + 100), Tokens: &Tokens{}, Parts: map[string]int{},
			}}}},
			want: []string{"on 2 cores", TokensUnavailable, "**missed** (100 B over)"},
		},
		{
			name: "fixture under mcp-mealie's view",
			res: &Results{Cores: 2, Answers: &Answers{Fixture: &AnswerRow{
				Tool: "get_recipe", Args: "mcp-mealie fixture", Bytes: 480, Tokens: counted, RawBytes: 2478, RawRequests: 1, RawTokens: counted, Once: true,
			}}},
			want: []string{"| `get_recipe` (mcp-mealie fixture) | 480 | 120 | 2478 (1) |", "against mcp-mealie's curated 491 B", ": met."},
		},
		{
			name: "hop overhead over target, with a part path",
			res: &Results{Cores: 2, Hop: &Hop{Calls: 10, Paths: []HopPath{
				{Name: "direct", P50: 5 * time.Millisecond, P99: 6 * time.Millisecond},
				{Name: "connect", P50: 6 * time.Millisecond, P99: 7 * time.Millisecond, Part: true},
				{Name: "mcp", P50: 8 * time.Millisecond, P99: 8 * time.Millisecond},
			}}},
			want: []string{"part of an MCP path", "**missed** (p50 +3.00 ms, p99 +2.00 ms)"},
			not:  []string{"negative difference"},
		},
		{
			name: "household tasks, one held, one not run",
			res: &Results{Cores: 2, Household: &Household{Pantry: false, Tasks: []*HouseholdTask{
				{Ask: "Save this recipe", Held: true, Outcome: "13 of 13 lines | linked", Calls: []HouseholdCall{{Tool: "create_recipe", Tokens: counted}}},
				{Ask: "I used the last of the rice.", Err: "not run: the food API did not start"},
			}}},
			want: []string{"| 1 | Save this recipe | 1 | 0 | 120 | yes | 13 of 13 lines \\| linked (calls: `create_recipe`) |",
				"| 2 | I used the last of the rice. | 0 | 0 | 0 | not run |", "| | **Total** | **1** | **0** | **120** | **1 of 2** | |",
				"the pantry tasks did not run"},
		},
		{
			name: "a figure that failed",
			res:  &Results{Cores: 2, Errors: []string{"sweep: go test failed"}},
			want: []string{"> Not measured in this run: sweep: go test failed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := tt.res.Markdown()
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("missing %q in\n%s", w, md)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(md, n) {
					t.Errorf("unexpected %q in\n%s", n, md)
				}
			}
		})
	}
}
