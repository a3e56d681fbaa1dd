package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// mcp-mealie's figures for the curated recipe view (it measured its
// get_recipe on recipe_detail.json of its fixtures, copied to testdata/).
const (
	// SeedCuratedBytes is mcp-mealie's curated view of that recipe.
	SeedCuratedBytes = 491
	// fixtureSlug is the slug in testdata/recipe_detail.json.
	fixtureSlug = "fixture-roast-chicken"
	// madeSlug serves the fixture with lastMade set (madeAt).
	madeSlug = "fixture-roast-chicken-made"
	madeAt   = "2026-08-20T18:30:00Z"
)

// AnswerRow is one tool answer beside the raw backend payload of the same
// data.
type AnswerRow struct {
	// Tool and Args name the call, Args as shown in the table.
	Tool, Args string
	// Bytes is the answer as the model reads it: the text content plus
	// structuredContent when there is one.
	Bytes  int
	Tokens *Tokens
	// RawBytes is what the backend answered sous for this call, compact
	// JSON, over RawRequests requests.
	RawBytes    int64
	RawRequests int
	RawTokens   *Tokens
	// Once is true when no field is carried twice: no structuredContent
	// copy of the text, and no key repeated within an object.
	Once bool
	// Note adds what the row shows (last_made present, mcp-mealie's size).
	Note string
}

// Answers is figure 2.
type Answers struct {
	Rows []AnswerRow
	// Fixture is sous's get_recipe of mcp-mealie's recipe_detail.json, whose
	// target is SeedCuratedBytes; nil when it could not run.
	Fixture *AnswerRow
	// FixtureMade is the same recipe with lastMade set, so the answer
	// carries last_made, which mcp-mealie's view lacked.
	FixtureMade *AnswerRow
}

// runAnswers calls each tool once through `sous mcp --http` with taps in
// front of Mealie and the food API.
func (h *Harness) runAnswers(ctx context.Context) (*Answers, error) {
	fixture, err := os.ReadFile(filepath.Join(h.Root, "integration", "bench", "testdata", "recipe_detail.json"))
	if err != nil {
		return nil, err
	}
	em, err := mealieemu.Start(mealieemu.WithSeed("demo"))
	if err != nil {
		return nil, err
	}
	defer em.Close()
	made, err := madeFixture(fixture)
	if err != nil {
		return nil, err
	}
	mealieTap, err := StartTap(em.URL, map[string][]byte{"/api/recipes/" + fixtureSlug: fixture, "/api/recipes/" + madeSlug: made})
	if err != nil {
		return nil, err
	}
	defer mealieTap.Close()
	env := []string{"MEALIE_URL=" + mealieTap.URL, "MEALIE_API_TOKEN=" + em.Token}
	var foodTap *Tap
	if h.Food != nil {
		root, path := splitBase(h.Food.BaseURL)
		if foodTap, err = StartTap(root, nil); err != nil {
			return nil, err
		}
		defer foodTap.Close()
		env = append(env, "FOOD_API_BASE="+foodTap.URL+path, "FOOD_API_TOKEN="+h.Food.Token)
	}
	p, url, err := h.startMCPHTTP(env...)
	if err != nil {
		return nil, err
	}
	defer p.Stop()
	hc := httpClient()
	s, err := connectMCP(ctx, hc, url)
	if err != nil {
		return nil, err
	}
	defer s.Close()

	slug, err := recipeWithLastMade(ctx, hc, em)
	if err != nil {
		return nil, err
	}
	monday := time.Now()
	for monday.Weekday() != time.Monday {
		monday = monday.AddDate(0, 0, -1)
	}
	week := map[string]any{"start_date": monday.Format(time.DateOnly), "end_date": monday.AddDate(0, 0, 6).Format(time.DateOnly)}

	measure := func(tap *Tap, tool, shown string, args map[string]any) (AnswerRow, error) {
		tap.Reset()
		text, res, err := callText(ctx, s, tool, args)
		if err != nil {
			return AnswerRow{}, err
		}
		row := AnswerRow{Tool: tool, Args: shown, Bytes: len(text), Once: res.StructuredContent == nil}
		if res.StructuredContent != nil {
			sc, _ := json.Marshal(res.StructuredContent)
			row.Bytes += len(sc)
		}
		if dup := duplicateKey([]byte(text)); dup != "" {
			row.Once = false
			row.Note = "key repeated: " + dup
		}
		row.RawRequests, row.RawBytes = tap.Totals()
		row.Tokens = h.Tok.Add(text)
		row.RawTokens = h.Tok.Add(tap.Bodies())
		if tool == "get_recipe" && bytes.Contains([]byte(text), []byte(`"last_made"`)) {
			row.Note = "carries last_made"
		}
		return row, nil
	}
	out := &Answers{}
	cases := []struct {
		tap   *Tap
		tool  string
		shown string
		args  map[string]any
	}{
		{mealieTap, "get_recipe", "demo recipe", map[string]any{"slug": slug}},
		{mealieTap, "search_recipes", "limit 20", map[string]any{"limit": 20}},
		{mealieTap, "get_meal_plan", "this week", week},
		{mealieTap, "library_stats", "tags", map[string]any{"resource": "tags"}},
	}
	if foodTap != nil {
		cases = append(cases, struct {
			tap   *Tap
			tool  string
			shown string
			args  map[string]any
		}{foodTap, "get_pantry", "demo kitchen", map[string]any{}})
	}
	var errs []error
	for _, c := range cases {
		row, err := measure(c.tap, c.tool, c.shown, c.args)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out.Rows = append(out.Rows, row)
	}
	if row, err := measure(mealieTap, "get_recipe", "mcp-mealie fixture", map[string]any{"slug": fixtureSlug}); err != nil {
		errs = append(errs, err)
	} else {
		out.Fixture = &row
	}
	if row, err := measure(mealieTap, "get_recipe", "mcp-mealie fixture, made once", map[string]any{"slug": madeSlug}); err != nil {
		errs = append(errs, err)
	} else {
		out.FixtureMade = &row
	}
	return out, errors.Join(errs...)
}

// madeFixture is the fixture recipe as Mealie answers it once the recipe
// has been made: lastMade set, slug madeSlug.
func madeFixture(fixture []byte) ([]byte, error) {
	var r map[string]json.RawMessage
	if err := json.Unmarshal(fixture, &r); err != nil {
		return nil, fmt.Errorf("recipe_detail.json: %w", err)
	}
	r["slug"], _ = json.Marshal(madeSlug)
	r["lastMade"], _ = json.Marshal(madeAt)
	return json.Marshal(r)
}

// splitBase splits "http://host:port/api" into "http://host:port" and
// "/api", since a tap proxies a host and the food API's root has a path.
func splitBase(u string) (string, string) {
	const scheme = "http://"
	rest := u[len(scheme):]
	if i := bytes.IndexByte([]byte(rest), '/'); i >= 0 {
		return scheme + rest[:i], rest[i:]
	}
	return u, ""
}

// recipeWithLastMade picks a demo recipe that has been made, so the answer
// shows last_made; the first recipe when none has.
func recipeWithLastMade(ctx context.Context, hc *http.Client, em *mealieemu.Server) (string, error) {
	var page struct {
		Items []struct {
			Slug     string  `json:"slug"`
			LastMade *string `json:"lastMade"`
		} `json:"items"`
	}
	if err := getJSON(ctx, hc, em, "/api/recipes?perPage=100", &page); err != nil {
		return "", err
	}
	if len(page.Items) == 0 {
		return "", errors.New("the demo seed has no recipes")
	}
	for _, it := range page.Items {
		if it.LastMade != nil {
			return it.Slug, nil
		}
	}
	return page.Items[0].Slug, nil
}

// getJSON GETs a Mealie path from the emulator directly.
func getJSON(ctx context.Context, hc *http.Client, em *mealieemu.Server, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, em.URL+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+em.Token)
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %d", path, resp.StatusCode)
	}
	if out == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// duplicateKey returns the first key repeated within one JSON object of
// doc ("" when none, or when doc is not JSON: plain-text answers carry no
// keys).
func duplicateKey(doc []byte) string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	type frame struct {
		object    bool
		expectKey bool
		keys      map[string]bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.expectKey {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return k
				}
				top.keys[k] = true
				top.expectKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, expectKey: true, keys: map[string]bool{}})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: the enclosing object expects its next key.
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].expectKey = true
		}
	}
}
