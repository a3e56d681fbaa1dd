package abuse_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// readAttempts is one GET plus the Mealie client's two retries
// (services/internal/mealie.ReadRetries).
const readAttempts = 3

// TestReadsRecoverWithinTheRetryBudget: a Mealie that fails the first one or
// two reads (a container waking up, a proxy answering 502, a dropped
// connection) is invisible to the model.
func TestReadsRecoverWithinTheRetryBudget(t *testing.T) {
	em := mealietest.NewServer(t)
	s := newFaultStack(t, backends{mealie: em})
	for name, rule := range map[string]mealieemu.FaultRule{
		"503 twice":   {Method: http.MethodGet, PathPrefix: "/api/recipes", Status: http.StatusServiceUnavailable, FirstN: 2},
		"502 once":    {Method: http.MethodGet, PathPrefix: "/api/recipes", Status: http.StatusBadGateway, FirstN: 1},
		"reset twice": {Method: http.MethodGet, PathPrefix: "/api/recipes", Reset: true, FirstN: 2},
		"html 500":    {Method: http.MethodGet, PathPrefix: "/api/recipes", Status: 500, Body: "<html><body>Traceback (most recent call last)</body></html>", FirstN: 1},
	} {
		t.Run(name, func(t *testing.T) {
			em.ResetRequests()
			em.SetFaults(rule)
			defer em.ClearFaults()
			text, isErr := call(t, s.cs, "search_recipes", map[string]any{"limit": 2})
			if isErr {
				t.Fatalf("search failed instead of recovering: %s", text)
			}
			if n := em.Count(http.MethodGet, "/api/recipes"); n != rule.FirstN+1 {
				t.Errorf("%d attempts, want %d", n, rule.FirstN+1)
			}
		})
	}
}

// TestReadsFailClearlyPastTheBudget: a Mealie that keeps failing is asked
// exactly readAttempts times and the model reads one plain sentence
// (docs/security.md, "Faults in the backends"), never a backend body.
func TestReadsFailClearlyPastTheBudget(t *testing.T) {
	em := mealietest.NewServer(t)
	s := newFaultStack(t, backends{mealie: em})
	for name, c := range map[string]struct {
		rule mealieemu.FaultRule
		want string
	}{
		"503":      {mealieemu.FaultRule{Method: http.MethodGet, PathPrefix: "/api/recipes", Status: 503}, "Mealie returned 503"},
		"html 502": {mealieemu.FaultRule{Method: http.MethodGet, PathPrefix: "/api/recipes", Status: 502, Body: "<html><h1>502 Bad Gateway</h1> nginx</html>"}, "Mealie returned 502"},
		"reset":    {mealieemu.FaultRule{Method: http.MethodGet, PathPrefix: "/api/recipes", Reset: true}, "Mealie unreachable"},
	} {
		t.Run(name, func(t *testing.T) {
			em.ResetRequests()
			em.SetFaults(c.rule)
			defer em.ClearFaults()
			text, isErr := call(t, s.cs, "search_recipes", map[string]any{"limit": 2})
			if !isErr || !strings.Contains(text, c.want) {
				t.Fatalf("answer %q (isError %v), want a tool error with %q", text, isErr, c.want)
			}
			oneSentence(t, text)
			// Go's transport replays a GET once by itself when a reused
			// keep-alive connection is reset before any answer byte, so a
			// reset read may be seen one extra time per attempt; never more.
			n := em.Count(http.MethodGet, "/api/recipes")
			if n < readAttempts || (c.rule.Reset && n > 2*readAttempts) || (!c.rule.Reset && n != readAttempts) {
				t.Errorf("%d attempts, want %d", n, readAttempts)
			}
		})
	}
}

// writeCases are write tools with the Mealie request that does the write.
var writeCases = []struct {
	tool         string
	args         map[string]any
	method, path string
}{
	{"create_recipe", map[string]any{"name": "Fault soup"}, http.MethodPost, "/api/recipes"},
	{"update_recipe", map[string]any{"slug": "pancakes", "description": "Fault pancakes"}, http.MethodPatch, "/api/recipes/pancakes"},
	{"delete_recipe", map[string]any{"slug": "pancakes", "confirm_slug": "pancakes"}, http.MethodDelete, "/api/recipes/pancakes"},
	{"mark_recipe_made", map[string]any{"slug": "pancakes"}, http.MethodPost, "/api/recipes/timeline/events"},
	{"add_meal_plan_entry", map[string]any{"date": "2026-12-01", "title": "Leftovers"}, http.MethodPost, "/api/households/mealplans"},
	{"create_cookbook", map[string]any{"name": "Fault book"}, http.MethodPost, "/api/households/cookbooks"},
	{"manage_taxonomy", map[string]any{"resource": "tags", "action": "create", "name": "Fault tag"}, http.MethodPost, "/api/organizers/tags"},
}

// TestWritesAreSentExactlyOnce: whatever Mealie does to a write — 5xx,
// a dropped connection, or a write that lands and whose answer is lost — the
// write reaches Mealie once and the model is told it failed (docs/design.md,
// "Safety lines": no write is ever retried).
func TestWritesAreSentExactlyOnce(t *testing.T) {
	faults := map[string]mealieemu.FaultRule{
		"503":                  {Status: 503},
		"500 with detail":      {Status: 500, Body: `{"detail":"database is locked"}`},
		"reset before":         {Reset: true},
		"landed, answer reset": {Reset: true, LateAnswer: time.Millisecond},
	}
	for _, wc := range writeCases {
		for fname, rule := range faults {
			t.Run(wc.tool+"/"+fname, func(t *testing.T) {
				em := mealietest.NewServer(t)
				s := newFaultStack(t, backends{mealie: em})
				rule.Method, rule.PathPrefix = wc.method, wc.path
				em.SetFaults(rule)
				text, isErr := call(t, s.cs, wc.tool, wc.args)
				switch {
				case isErr:
					oneSentence(t, text)
				case wc.tool == "manage_taxonomy" && strings.Contains(text, `"errors":["Fault tag: Mealie`):
					// A batch tool reports each item's failure in errors.
				case wc.tool == "delete_recipe" && rule.Status >= 500 && strings.Contains(text, "bulk delete"):
					// Mealie 2.0 answers some plain deletes with a 5xx; the
					// service then uses the bulk action, once, and says so.
					// The answer is true only if the recipe is gone.
					if n := em.Count(http.MethodPost, "/api/recipes/bulk-actions/delete"); n != 1 {
						t.Errorf("bulk delete sent %d times", n)
					}
					if code := getStatus(t, em, "/api/recipes/pancakes"); code != http.StatusNotFound {
						t.Errorf("reported deleted, but Mealie answers %d for it", code)
					}
				default:
					t.Errorf("a failed write was reported as done: %s", text)
				}
				var hits int
				for _, r := range em.Requests() {
					if r.Method == wc.method && r.Path == wc.path {
						hits++
					}
				}
				if hits != 1 {
					t.Errorf("%s %s sent %d times, want exactly once", wc.method, wc.path, hits)
				}
				if again := em.RetriedWrites(); len(again) != 0 {
					t.Errorf("retried writes: %v", again)
				}
			})
		}
	}
}

// TestFailedFillNamesTheOrphan: create_recipe is a POST (the stub) then a
// PATCH (the content); when the PATCH fails, the answer names the stub left
// behind so it can be fixed or deleted, and neither request is repeated.
func TestFailedFillNamesTheOrphan(t *testing.T) {
	em := mealietest.NewServer(t)
	s := newFaultStack(t, backends{mealie: em})
	em.SetFaults(mealieemu.FaultRule{Method: http.MethodPatch, PathPrefix: "/api/recipes/", Status: 500})
	text, isErr := call(t, s.cs, "create_recipe", map[string]any{"name": "Orphan soup", "ingredients": []any{"1 onion"}, "instructions": []any{"Simmer."}})
	if !isErr {
		t.Fatalf("a half-made recipe was reported as done: %s", text)
	}
	if !strings.Contains(text, "orphan-soup") || !strings.Contains(text, "delete") {
		t.Errorf("the answer does not name the stub left behind: %s", text)
	}
	if n := em.Count(http.MethodPost, "/api/recipes"); n != 1 {
		t.Errorf("POST sent %d times", n)
	}
	if n := em.Count(http.MethodPatch, "/api/recipes/orphan-soup"); n != 1 {
		t.Errorf("PATCH sent %d times", n)
	}
}

// TestLostAnswerSaysTheWriteMayHaveHappened: a write that landed but whose
// answer was lost must not read as "nothing happened", or the model retries
// it and duplicates the recipe.
func TestLostAnswerSaysTheWriteMayHaveHappened(t *testing.T) {
	em := mealietest.NewServer(t)
	s := newFaultStack(t, backends{mealie: em})
	em.SetFaults(mealieemu.FaultRule{Method: http.MethodPost, PathPrefix: "/api/recipes", Reset: true, LateAnswer: time.Millisecond})
	text, _ := call(t, s.cs, "create_recipe", map[string]any{"name": "Lost soup"})
	if !strings.Contains(text, "may have") || !strings.Contains(text, "Lost soup") || !strings.Contains(text, "check") {
		t.Errorf("answer %q does not say the recipe may have been saved, name it and ask for a check", text)
	}
	oneSentence(t, text)
	if n := em.Count(http.MethodPost, "/api/recipes"); n != 1 {
		t.Errorf("POST /api/recipes sent %d times, want once", n)
	}
}

// sweepReport is the part of a library report that accounts for recipes.
type sweepReport struct {
	Scanned      int      `json:"scanned"`
	LibraryTotal int      `json:"library_total"`
	Unreadable   []string `json:"unreadable"`
	Unused       []string `json:"unused"`
}

// TestSweepSaysWhatItCouldNotScan: Mealie failing recipe details in the
// middle of a library sweep (restarting, or down for good) gives a report
// that names every recipe it could not read, and only those: never a silent
// partial count.
func TestSweepSaysWhatItCouldNotScan(t *testing.T) {
	for name, rule := range map[string]mealieemu.FaultRule{
		"down for good":    {Method: http.MethodGet, PathPrefix: "/api/recipes/", Status: 503},
		"restarting":       {Method: http.MethodGet, PathPrefix: "/api/recipes/", Reset: true, FirstN: 30},
		"flaky":            {Method: http.MethodGet, PathPrefix: "/api/recipes/", Status: 502, Rate: 0.5},
		"connection drops": {Method: http.MethodGet, PathPrefix: "/api/recipes/", Reset: true, Rate: 0.7},
	} {
		t.Run(name, func(t *testing.T) {
			em := mealietest.NewServer(t, mealieemu.WithFaultSeed(7))
			s := newFaultStack(t, backends{mealie: em})
			em.SetFaults(rule)
			text, isErr := call(t, s.cs, "library_stats", map[string]any{"resource": "foods"})
			if isErr {
				oneSentence(t, text)
				return // failing whole is allowed; failing silently is not
			}
			var rep sweepReport
			if err := json.Unmarshal([]byte(text), &rep); err != nil {
				t.Fatalf("report is not JSON: %s", text)
			}
			// A recipe is unreadable when every attempt at its detail failed.
			failed, read := map[string]bool{}, map[string]bool{}
			for _, r := range em.Matching(http.MethodGet, "/api/recipes/") {
				slug := strings.TrimPrefix(r.Path, "/api/recipes/")
				if r.Fault == "" && r.Status == http.StatusOK {
					read[slug] = true
				} else {
					failed[slug] = true
				}
			}
			named := map[string]bool{}
			for _, u := range rep.Unreadable {
				slug, _, _ := strings.Cut(u, ":")
				named[slug] = true
			}
			for slug := range failed {
				if !read[slug] && !named[slug] {
					t.Errorf("%s could not be read but the report does not say so", slug)
				}
			}
			for slug := range named {
				if read[slug] {
					t.Errorf("%s was read but is reported unreadable", slug)
				}
			}
			if rep.LibraryTotal == 0 || len(read)+len(named) != rep.LibraryTotal {
				t.Errorf("read %d + unreadable %d != library total %d", len(read), len(named), rep.LibraryTotal)
			}
		})
	}
}

// TestUnreadableRecipesAreNotCountedAsScanned: when no recipe could be read,
// the report must not claim it scanned them all, nor call every food unused.
func TestUnreadableRecipesAreNotCountedAsScanned(t *testing.T) {
	em := mealietest.NewServer(t)
	s := newFaultStack(t, backends{mealie: em})
	em.SetFaults(mealieemu.FaultRule{Method: http.MethodGet, PathPrefix: "/api/recipes/", Status: 503})
	text, _ := call(t, s.cs, "library_stats", map[string]any{"resource": "foods"})
	var rep sweepReport
	if err := json.Unmarshal([]byte(text), &rep); err != nil {
		t.Fatalf("report is not JSON: %s", text)
	}
	if rep.LibraryTotal == 0 || len(rep.Unreadable) != rep.LibraryTotal {
		t.Fatalf("expected every recipe unreadable: %s", text)
	}
	if rep.Scanned != rep.LibraryTotal-len(rep.Unreadable) || len(rep.Unused) != 0 {
		t.Errorf("scanned %d of %d with %d unreadable, %d foods called unused", rep.Scanned, rep.LibraryTotal, len(rep.Unreadable), len(rep.Unused))
	}
}

// getStatus asks the emulator directly for path and returns the status.
func getStatus(t *testing.T, em *mealieemu.Server, path string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, em.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+em.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
