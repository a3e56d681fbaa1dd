package recipes

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// TestMarkRecipeMadeNeverMovesBack: a cook dated before the last one is
// recorded on the timeline and sends no last-made write (the fake, like
// Mealie 2.0, would store the earlier day); the answer says what Mealie
// keeps. Before, the second call moved lastMade back and answered the
// earlier day as last_made.
func TestMarkRecipeMadeNeverMovesBack(t *testing.T) {
	s, f := newService(t)
	ctx := context.Background()
	lastMades := func() int {
		n := 0
		for _, l := range f.requests() {
			if l.Method == http.MethodPatch && strings.HasSuffix(l.Path, "/last-made") {
				n++
			}
		}
		return n
	}
	steps := []struct {
		date, wantLastMade string
		wantPatches        int
	}{
		{date: "2026-01-15", wantLastMade: "2026-01-15", wantPatches: 1},
		{date: "2026-01-05", wantLastMade: "2026-01-15", wantPatches: 1},
		{date: "2026-01-15", wantLastMade: "2026-01-15", wantPatches: 1},
		{date: "2026-01-20", wantLastMade: "2026-01-20", wantPatches: 2},
	}
	for _, st := range steps {
		res, err := s.MarkRecipeMade(ctx, req(&recipesv1.MarkRecipeMadeRequest{Slug: pancakes, Date: st.date}))
		if err != nil {
			t.Fatal(err)
		}
		if res.Msg.Date != st.date || res.Msg.LastMade != st.wantLastMade || res.Msg.EventId == "" {
			t.Errorf("cook on %s: %v, want last_made %s", st.date, res.Msg, st.wantLastMade)
		}
		if n := lastMades(); n != st.wantPatches {
			t.Errorf("cook on %s: %d last-made writes so far, want %d", st.date, n, st.wantPatches)
		}
		if lm, _ := f.recipes[pancakes]["lastMade"].(string); !strings.HasPrefix(lm, st.wantLastMade) {
			t.Errorf("cook on %s: the fake stores lastMade %q, want %s", st.date, lm, st.wantLastMade)
		}
	}
	events := 0
	for _, l := range f.requests() {
		if l.Method == http.MethodPost && l.Path == "/api/recipes/timeline/events" {
			events++
		}
	}
	if events != len(steps) {
		t.Errorf("%d timeline events, want one a cook (%d)", events, len(steps))
	}
	for _, bad := range []float64{-1, 5.5} {
		if _, err := s.MarkRecipeMade(ctx, req(&recipesv1.MarkRecipeMadeRequest{Slug: pancakes, Rating: &bad})); connect.CodeOf(err) != connect.CodeInvalidArgument {
			t.Errorf("rating %v: %v, want InvalidArgument before any request", bad, err)
		}
	}
}

func TestLaterOrSame(t *testing.T) {
	when := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		stored string
		want   bool
	}{
		{"", false},
		{"2026-01-09T23:00:00Z", false},
		{"2026-01-10T12:00:00Z", true},
		{"2026-01-10T18:00:00", true}, // SQLite's naive form, UTC
		{"2026-01-10T11:00:00", false},
		{"2026-01-10T13:00:00+02:00", false},
		{"2026-02-01", true},
		{"2026-01-10 garbage", true}, // unreadable: compared by day
		{"2026-01-09 garbage", false},
	}
	for _, tt := range tests {
		s := tt.stored
		if got := laterOrSame(&s, when, "2026-01-10"); got != tt.want {
			t.Errorf("laterOrSame(%q) = %v, want %v", tt.stored, got, tt.want)
		}
	}
}

func TestDrops(t *testing.T) {
	tests := []struct {
		from, to int
		want     bool
	}{
		{0, 0, false}, {1, 0, true}, {12, 0, true}, {12, 13, false}, {12, 6, false},
		{12, 5, true}, {3, 1, true}, {2, 1, false}, {3, 2, false},
	}
	for _, tt := range tests {
		if got := drops(tt.from, tt.to); got != tt.want {
			t.Errorf("drops(%d, %d) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestConfirmationIsBound: the confirmation of a destructive update holds
// for that recipe and those new values only.
func TestConfirmationIsBound(t *testing.T) {
	text := func(s string) *recipesv1.IngredientInput {
		return &recipesv1.IngredientInput{Kind: &recipesv1.IngredientInput_Text{Text: s}}
	}
	empty := &recipesv1.UpdateRecipeRequest{SetIngredients: true}
	one := &recipesv1.UpdateRecipeRequest{SetIngredients: true, Ingredients: []*recipesv1.IngredientInput{text("1 egg")}}
	other := &recipesv1.UpdateRecipeRequest{SetIngredients: true, Ingredients: []*recipesv1.IngredientInput{text("2 eggs")}}
	steps := &recipesv1.UpdateRecipeRequest{SetInstructions: true}
	withTime := &recipesv1.UpdateRecipeRequest{SetIngredients: true, PrepTime: ptrStr("5 min"), Confirm: "x"}
	base := confirmation("id-1", empty)
	if confirmation("id-1", &recipesv1.UpdateRecipeRequest{SetIngredients: true}) != base {
		t.Error("the same update gets another confirmation")
	}
	if confirmation("id-1", withTime) != base {
		t.Error("a field that is not guarded changes the confirmation")
	}
	for name, c := range map[string]string{
		"another recipe": confirmation("id-2", empty), "one line": confirmation("id-1", one),
		"another line": confirmation("id-1", other), "instructions instead": confirmation("id-1", steps),
	} {
		if c == base {
			t.Errorf("%s: same confirmation as emptying the ingredients", name)
		}
	}
	if confirmation("id-1", one) == confirmation("id-1", other) {
		t.Error("two different lines get the same confirmation")
	}
}

// TestGuardDestructive: a refused update names what it would lose and the
// confirmation; the right confirmation lets it through, a wrong one says so.
func TestGuardDestructive(t *testing.T) {
	cur := &mealie.Recipe{RecipeSummary: mealie.RecipeSummary{ID: "id-1"}}
	for _, n := range []string{"flour", "eggs", "milk"} {
		note := n
		cur.Ingredients = append(cur.Ingredients, mealie.RecipeIngredient{Note: &note, Display: n})
	}
	cur.Instructions = []mealie.RecipeStep{{Text: "Mix."}, {Text: "Bake."}}
	m := &recipesv1.UpdateRecipeRequest{SetIngredients: true}
	err := guardDestructive(cur, "bread", m)
	if connect.CodeOf(err) != connect.CodeFailedPrecondition {
		t.Fatalf("emptying the ingredients: %v", err)
	}
	token := confirmation("id-1", m)
	for _, want := range []string{"nothing was written", "empty its ingredients (3 → 0", `"flour"`, "recipe 'bread'", `confirm="` + token + `"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q lacks %q", err, want)
		}
	}
	m.Confirm = token
	if err := guardDestructive(cur, "bread", m); err != nil {
		t.Errorf("confirmed: %v", err)
	}
	m.Confirm = "0000"
	if err := guardDestructive(cur, "bread", m); err == nil || !strings.Contains(err.Error(), "another update") {
		t.Errorf("wrong confirmation: %v", err)
	}
	if err := guardDestructive(cur, "bread", &recipesv1.UpdateRecipeRequest{SetInstructions: true, Instructions: []string{"Mix well.", "Bake."}}); err != nil {
		t.Errorf("rewording steps: %v", err)
	}
	if err := guardDestructive(cur, "bread", &recipesv1.UpdateRecipeRequest{PrepTime: ptrStr(""), Tags: []string{"x"}, ReplaceTags: true}); err != nil {
		t.Errorf("times and tags: %v", err)
	}
}

func ptrStr(s string) *string { return &s }
