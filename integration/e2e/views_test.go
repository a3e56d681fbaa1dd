package e2e

// The MCP Apps views in a real browser: headless Chromium loads a host page
// built on ext-apps' app bridge (browser/views/host.js), connected to sous
// over Streamable HTTP as a host is, and browser/views.mjs shows each view
// a real tool result and uses it. Every write a view makes is read back
// from Mealie's own API here, while the browser waits.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/integration/harness/demotest"
)

// browserDir holds the playwright-core scripts and their node_modules.
const browserDir = "browser"

// viewsTimeout bounds one browser run: four views, three writes.
const viewsTimeout = 3 * time.Minute

// chromiumPath is Debian's chromium unless CHROMIUM_PATH says otherwise.
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM_PATH"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// needViewsBrowser skips with one line naming the install when node, the
// browser scripts' modules or Chromium are missing (in CI, where .ci/run
// installs Chromium and make test-deps the modules, a missing one fails).
func needViewsBrowser(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: install Node 20 or newer (README.md, Quick start)")
	}
	demotest.Need(t, filepath.Join(browserDir, "node_modules", "@modelcontextprotocol", "ext-apps"), "make test-deps (npm ci --prefix integration/e2e/browser)")
	if _, err := os.Stat(chromiumPath()); err != nil {
		t.Skip("chromium is not installed at " + chromiumPath() + ": run apt-get install chromium (as root), or set CHROMIUM_PATH to a Chromium binary")
	}
}

// viewsRun is what views.mjs is told.
type viewsRun struct {
	MCPURL       string `json:"mcpURL"`
	MealieOrigin string `json:"mealieOrigin,omitempty"`
	Shots        string `json:"shots"`
	Recipe       string `json:"recipe"`
	List         string `json:"list,omitempty"`
	PlanStart    string `json:"planStart"`
	PlanEnd      string `json:"planEnd"`
}

// viewsReport is views.mjs's last line.
type viewsReport struct {
	Error         string            `json:"error"`
	Links         map[string]string `json:"links"`
	Foreign       []string          `json:"foreign"`
	ConsoleErrors []string          `json:"consoleErrors"`
	MealieImages  int               `json:"mealieImages"`
	CSP           map[string]any    `json:"csp"`
	HeroImage     int               `json:"heroImage"`
	Servings      []string          `json:"servings"`
	Amounts       [][]string        `json:"amounts"`
	LastMade      string            `json:"lastMade"`
	DarkBG        string            `json:"darkBackground"`
	Item          string            `json:"item"`
	ToBuy         []int             `json:"toBuy"`
	TickedGreyed  int               `json:"tickedGreyed"`
	Problem       string            `json:"problem"`
	PlanRows      int               `json:"planRows"`
	PlanToday     int               `json:"planToday"`
	PlanEmpty     int               `json:"planEmpty"`
	PlanMeals     int               `json:"planMeals"`
	PlanThumbs    int               `json:"planThumbs"`
	AddedRows     []string          `json:"addedRows"`
	RowsAfterAdd  int               `json:"rowsAfterAdd"`
	TodayRows     int               `json:"todayRows"`
	TodayMarked   int               `json:"todayMarked"`
	WeekRows      int               `json:"weekRows"`
}

// runViews drives the views with cfg, answering each checkpoint with check
// (which reads Mealie back), and returns the report.
func runViews(t *testing.T, cfg viewsRun, check func(step map[string]any)) viewsReport {
	t.Helper()
	raw, _ := json.Marshal(cfg)
	ctx, cancel := context.WithTimeout(context.Background(), viewsTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "views.mjs", string(raw))
	cmd.Dir = browserDir
	cmd.Env = append(os.Environ(), "CHROMIUM_PATH="+chromiumPath())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var rep viewsReport
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var line map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Logf("views.mjs: %s", sc.Text())
			continue
		}
		if r, ok := line["report"]; ok {
			if err := json.Unmarshal(r, &rep); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var step map[string]any
		_ = json.Unmarshal(sc.Bytes(), &step)
		check(step)
		if _, err := io.WriteString(stdin, "ok\n"); err != nil {
			t.Fatal(err)
		}
	}
	err := cmd.Wait()
	if rep.Error != "" || err != nil {
		t.Fatalf("views.mjs: %v: %s\nstderr: %s", err, rep.Error, stderr.String())
	}
	t.Logf("recipe %s: servings %q, amounts %q; made %s; list item %s, to buy %v; plan %d days, %d meals, %d empty slots, %d images; %d image requests to Mealie",
		cfg.Recipe, rep.Servings, rep.Amounts, rep.LastMade, rep.Item, rep.ToBuy, rep.PlanRows, rep.PlanMeals, rep.PlanEmpty, rep.PlanThumbs, rep.MealieImages)
	return rep
}

// TestViewsInBrowser shows each view a real tool result of `sous demo` in
// headless Chromium and uses it: the recipe card scales to twice the
// servings and doubles every amount it shows, "we made this" sets the
// recipe's last-made date in Mealie, ticking an item checks it in Mealie
// and unticking unchecks it, the count to buy following. With
// UPDATE_SCREENSHOTS=true the screenshots are written to docs/img (the
// ones docs/clients.md shows); otherwise to a temporary directory.
func TestViewsInBrowser(t *testing.T) {
	needViewsBrowser(t)
	t.Run("demo", func(t *testing.T) {
		d := demotest.Start(t, sousBin, clientsRoot)
		m := dialMealie(t, d.MealieURL, d.MealieToken)
		now := time.Now().UTC()
		monday := now.AddDate(0, 0, -((int(now.Weekday()) + 6) % 7))
		shots := t.TempDir()
		if os.Getenv("UPDATE_SCREENSHOTS") == "true" {
			shots = filepath.Join(clientsRoot, "docs", "img")
		}
		cfg := viewsRun{MCPURL: d.MCPURL, MealieOrigin: origin(d.MealieURL), Shots: shots, Recipe: "weeknight-chili",
			PlanStart: monday.Format(time.DateOnly), PlanEnd: monday.AddDate(0, 0, 6).Format(time.DateOnly)}
		rep := runViews(t, cfg, readBack(t, m))
		checkViews(t, rep, cfg, true)
		if rep.PlanMeals < 9 || rep.PlanEmpty == 0 {
			t.Errorf("the plan shows %d meals and %d empty slots; the demo's week has 9 meals and empty slots", rep.PlanMeals, rep.PlanEmpty)
		}
		for _, f := range []string{"view-recipe.png", "view-recipe-dark.png", "view-shopping.png", "view-plan.png"} {
			if st, err := os.Stat(filepath.Join(shots, f)); err != nil || st.Size() < 10_000 {
				t.Errorf("screenshot %s: %v", f, err)
			}
		}
	})
	t.Run("live", func(t *testing.T) {
		m := newLiveMealie(t)
		addr, _ := startHTTPLogged(t, nil, "MEALIE_URL="+m.url, "MEALIE_API_TOKEN="+m.token)
		cs, err := connectHTTP(t, "http://"+addr+"/mcp", nil)
		if err != nil {
			t.Fatal(err)
		}
		// A recipe, a list and a planned day of the test's own, removed after.
		name := fmt.Sprintf("sous views check %d", time.Now().UnixNano())
		rec := callOK(t, cs, "create_recipe", map[string]any{"name": name, "recipe_yield": "4 servings",
			"ingredients": []any{"2 tablespoons olive oil", "1 onion, diced", "400 grams canned tomatoes"}, "instructions": []any{"Soften the onion.", "Add the tomatoes."}})
		slug := fmt.Sprint(rec["slug"])
		t.Cleanup(func() { callTool(t, cs, "delete_recipe", map[string]any{"slug": slug, "confirm_slug": slug}) })
		uploadImage(t, m, slug)
		added := callOK(t, cs, "add_to_shopping_list", map[string]any{"list_id": name, "items": []any{"2 onions", "1 bunch basil"}, "skip_in_stock": false})
		listID := fmt.Sprint(added["list_id"])
		t.Cleanup(func() { m.call(t, "DELETE", "/api/households/shopping/lists/"+listID, nil) })
		today := time.Now().Format(time.DateOnly)
		entry := callOK(t, cs, "add_meal_plan_entry", map[string]any{"date": today, "entry_type": "dinner", "recipe_slug": slug})
		t.Cleanup(func() { callTool(t, cs, "delete_meal_plan_entry", map[string]any{"entry_id": entry["entry_id"]}) })
		cfg := viewsRun{MCPURL: "http://" + addr + "/mcp", MealieOrigin: origin(m.url), Shots: t.TempDir(), Recipe: slug, List: listID, PlanStart: today, PlanEnd: today}
		rep := runViews(t, cfg, readBack(t, m))
		checkViews(t, rep, cfg, true)
		if rep.PlanMeals < 1 || rep.PlanToday != 1 {
			t.Errorf("the plan shows %d meals, %d marked today; want the test's dinner today", rep.PlanMeals, rep.PlanToday)
		}
	})
}

// readBack answers the browser's checkpoints by reading Mealie: the
// recipe's lastMade after "we made this", the item's checked flag after a
// tick and an untick, the entry add_meal_plan_entry's view showed.
func readBack(t *testing.T, m *liveMealie) func(map[string]any) {
	return func(step map[string]any) {
		switch step["step"] {
		case "made":
			got, _ := m.obj(t, "/api/recipes/"+fmt.Sprint(step["slug"]))["lastMade"].(string)
			if want := time.Now().Format(time.DateOnly); !strings.HasPrefix(got, want) || !strings.HasPrefix(got, fmt.Sprint(step["lastMade"])) {
				t.Errorf("after we made this, Mealie's lastMade is %q and the card says %v; want today, %s", got, step["lastMade"], want)
			}
		case "planned":
			// add_meal_plan_entry's view: the entry is Mealie's, and goes
			// when the test ends.
			id := fmt.Sprint(step["entry"])
			got := m.obj(t, "/api/households/mealplans/"+id)
			if got["title"] != "Soup and bread" || got["entryType"] != "lunch" {
				t.Errorf("the entry the plan view showed is stored as %v", got)
			}
			t.Cleanup(func() { m.call(t, "DELETE", "/api/households/mealplans/"+id, nil) })
		case "checked", "unchecked":
			got := m.obj(t, "/api/households/shopping/items/"+fmt.Sprint(step["item"]))["checked"]
			if want := step["step"] == "checked"; got != want {
				t.Errorf("after the tick box was %s, Mealie's item has checked %v", step["step"], got)
			}
		default:
			t.Errorf("unknown checkpoint %v", step)
		}
	}
}

// amountNumber reads the number an amount starts with: "2", "1½", "⅓".
var amountNumber = regexp.MustCompile(`^(\d+(?:\.\d+)?)?([½⅓⅔¼¾⅛⅜⅝⅞])?`)

func amountValue(s string) (float64, bool) {
	m := amountNumber.FindStringSubmatch(s)
	if m == nil || m[0] == "" {
		return 0, false
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	frac := map[string]float64{"½": 1. / 2, "⅓": 1. / 3, "⅔": 2. / 3, "¼": 1. / 4, "¾": 3. / 4, "⅛": 1. / 8, "⅜": 3. / 8, "⅝": 5. / 8, "⅞": 7. / 8}
	return v + frac[m[2]], true
}

// checkViews holds what every run must show, on the demo and live.
func checkViews(t *testing.T, rep viewsReport, cfg viewsRun, images bool) {
	t.Helper()
	for tool, uri := range map[string]string{"get_recipe": "ui://sous/recipe", "get_shopping_list": "ui://sous/shopping-list", "get_meal_plan": "ui://sous/plan", "search_recipes": ""} {
		if rep.Links[tool] != uri {
			t.Errorf("the host saw %s link %q, want %q", tool, rep.Links[tool], uri)
		}
	}
	if len(rep.Foreign) > 0 {
		t.Errorf("the views reached beyond the host, the sandbox and Mealie: %v", rep.Foreign)
	}
	if len(rep.ConsoleErrors) > 0 {
		t.Errorf("console errors: %v", rep.ConsoleErrors)
	}
	if rd, _ := rep.CSP["resourceDomains"].([]any); len(rd) != 1 || rd[0] != cfg.MealieOrigin {
		t.Errorf("the recipe card's CSP names %v, want Mealie's origin %s", rep.CSP, cfg.MealieOrigin)
	}
	if images && (rep.HeroImage != 1 || rep.PlanThumbs == 0 || rep.MealieImages == 0) {
		t.Errorf("images: recipe %d, plan %d, requests to Mealie %d; want them shown", rep.HeroImage, rep.PlanThumbs, rep.MealieImages)
	}
	// The scale control: twice the servings, every amount doubled.
	if len(rep.Amounts) != 2 || len(rep.Amounts[0]) == 0 || len(rep.Amounts[0]) != len(rep.Amounts[1]) {
		t.Fatalf("amounts before and after 2×: %v", rep.Amounts)
	}
	for i, before := range rep.Amounts[0] {
		b, ok1 := amountValue(before)
		a, ok2 := amountValue(rep.Amounts[1][i])
		if !ok1 || !ok2 || math2(a) != math2(2*b) {
			t.Errorf("amount %d: %q at 1×, %q at 2×; want twice", i, before, rep.Amounts[1][i])
		}
	}
	if s0, _ := amountValue(rep.Servings[0]); len(rep.Servings) == 2 {
		if s1, _ := amountValue(rep.Servings[1]); s0 == 0 || s1 != 2*s0 {
			t.Errorf("servings %q then %q; want twice", rep.Servings[0], rep.Servings[1])
		}
	}
	if rep.LastMade != time.Now().Format(time.DateOnly) {
		t.Errorf("the card says last made %q after we made this; want today", rep.LastMade)
	}
	if rep.DarkBG == "" || rep.DarkBG == "rgb(255, 255, 255)" {
		t.Errorf("the dark theme's background is %q", rep.DarkBG)
	}
	// The list: the count to buy one less after the tick, back after the untick.
	if len(rep.ToBuy) != 3 || rep.ToBuy[1] != rep.ToBuy[0]-1 || rep.ToBuy[2] != rep.ToBuy[0] {
		t.Errorf("to buy %v over tick and untick; want n, n-1, n", rep.ToBuy)
	}
	if rep.TickedGreyed != 1 || rep.Problem != "" {
		t.Errorf("after the tick: %d greyed rows, problem %q", rep.TickedGreyed, rep.Problem)
	}
	if rep.PlanRows == 0 {
		t.Error("the plan has no days")
	}
	// The views of write tools read what they wrote back whole.
	if len(rep.AddedRows) != 1 || !strings.Contains(rep.AddedRows[0], "lemon") || rep.RowsAfterAdd < 2 {
		t.Errorf("after add_to_shopping_list the view marks %q among %d rows; want the lemon among the whole list", rep.AddedRows, rep.RowsAfterAdd)
	}
	if rep.TodayRows != 1 || rep.TodayMarked != 1 {
		t.Errorf("get_todays_meals' view: %d days, %d marked today; want today alone, marked", rep.TodayRows, rep.TodayMarked)
	}
	if rep.WeekRows != 7 {
		t.Errorf("add_meal_plan_entry's view shows %d days; want the entry's week", rep.WeekRows)
	}
}

// math2 rounds to two decimals, as the card writes amounts.
func math2(v float64) float64 { return float64(int(v*100+0.5)) / 100 }

// origin is a URL's scheme and host.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// uploadImage gives a recipe an image through Mealie's own API, as its app
// does (PUT /api/recipes/{slug}/image), so the views load Mealie's
// renditions of it from its media route.
func uploadImage(t *testing.T, m *liveMealie, slug string) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 320, 240))
	for y := range 240 {
		for x := range 320 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(180 + x%60), uint8(90 + y%80), 60, 255})
		}
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("image", "dish.png")
	if err := png.Encode(part, img); err != nil {
		t.Fatal(err)
	}
	_ = w.WriteField("extension", "png")
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPut, m.url+"/api/recipes/"+slug+"/image", &body)
	req.Header.Set("Authorization", "Bearer "+m.token)
	req.Header.Set("Content-Type", w.FormDataContentType())
	res, err := m.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("uploading the test recipe's image: %d %s", res.StatusCode, b)
	}
}
