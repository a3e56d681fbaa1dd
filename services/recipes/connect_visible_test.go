package recipes_test

// What a cook sees in Mealie's own app after sous writes, checked through
// Mealie's API. Every test runs on each emulator profile and, with
// MEALIE_INTEGRATION=1, MEALIE_URL and MEALIE_API_TOKEN set, on that live
// Mealie too, where it creates uniquely named data and deletes it again.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/recipes"
)

// mealieTarget is one Mealie the visible-effect tests drive: an emulator
// profile (emu set) or a live one.
type mealieTarget struct {
	name, url, token string
	emu              *mealieemu.Server
	client           recipesv1connect.RecipesServiceClient
	t                *testing.T
}

// eachMealie runs fn on every emulator profile and on the live Mealie named
// by MEALIE_INTEGRATION=1, MEALIE_URL and MEALIE_API_TOKEN. Its service
// keeps unknown foods in notes (SOUS_CREATE_FOODS=false), so a test's
// throwaway food names never become foods on a shared Mealie;
// eachMealieCreating runs the default, which creates them.
func eachMealie(t *testing.T, fn func(t *testing.T, m *mealieTarget)) {
	eachMealieWith(t, true, fn)
}

// eachMealieCreating is eachMealie with unknown foods created.
func eachMealieCreating(t *testing.T, fn func(t *testing.T, m *mealieTarget)) {
	eachMealieWith(t, false, fn)
}

func eachMealieWith(t *testing.T, keepFoods bool, fn func(t *testing.T, m *mealieTarget)) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			em := mealietest.NewServer(t, mealieemu.WithVersion(v))
			fn(t, newTarget(t, v, em.URL, em.Token, em, keepFoods))
		})
	}
	if os.Getenv("MEALIE_INTEGRATION") != "1" {
		return
	}
	u, tok := strings.TrimRight(os.Getenv("MEALIE_URL"), "/"), os.Getenv("MEALIE_API_TOKEN")
	if u == "" || tok == "" {
		t.Fatal("MEALIE_INTEGRATION=1 needs MEALIE_URL and MEALIE_API_TOKEN")
	}
	t.Run("live", func(t *testing.T) { fn(t, newTarget(t, "live", u, tok, nil, keepFoods)) })
}

func newTarget(t *testing.T, name, u, tok string, em *mealieemu.Server, keepFoods bool) *mealieTarget {
	t.Helper()
	svc, err := recipes.New(recipes.Config{MealieURL: u, MealieToken: tok, Backoff: time.Millisecond, KeepUnknownFoods: keepFoods})
	if err != nil {
		t.Fatal(err)
	}
	path, h := svc.Handler()
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &mealieTarget{name: name, url: u, token: tok, emu: em, t: t,
		client: recipesv1connect.NewRecipesServiceClient(srv.Client(), srv.URL)}
}

// api calls Mealie's own API, as its app does, and decodes a JSON answer.
func (m *mealieTarget) api(method, path string, body any) (int, map[string]any) {
	m.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, m.url+path, rd)
	req.Header.Set("Authorization", "Bearer "+m.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		m.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// unique names data so runs on a shared live Mealie never collide.
func unique(what string) string {
	return fmt.Sprintf("sous-visible-%s-%d", what, time.Now().UnixNano()%1_000_000_000)
}

// taxonomy creates a food or unit through Mealie's API and deletes it at the
// end.
func (m *mealieTarget) taxonomy(kind, name string) string {
	m.t.Helper()
	st, o := m.api(http.MethodPost, "/api/"+kind, map[string]any{"name": name})
	id, _ := o["id"].(string)
	if st != http.StatusCreated && st != http.StatusOK || id == "" {
		m.t.Fatalf("creating %s %q: %d %v", kind, name, st, o)
	}
	m.t.Cleanup(func() { m.api(http.MethodDelete, "/api/"+kind+"/"+id, nil) })
	return id
}

// forget deletes a recipe sous created, by its final slug.
func (m *mealieTarget) forget(slug *string) {
	m.t.Cleanup(func() {
		if *slug != "" {
			m.api(http.MethodDelete, "/api/recipes/"+*slug, nil)
		}
	})
}

func (m *mealieTarget) recipe(slug string) map[string]any {
	m.t.Helper()
	st, o := m.api(http.MethodGet, "/api/recipes/"+slug, nil)
	if st != http.StatusOK {
		m.t.Fatalf("GET recipe %s: %d %v", slug, st, o)
	}
	return o
}

// appLine is a line as Mealie's app shows it: with the 2.x setting
// disableAmount on, the note alone (use-recipe-ingredients.ts,
// useParsedIngredientText); otherwise Mealie's display, which the app
// rebuilds from the same parts.
func appLine(rec map[string]any, i int) string {
	ings, _ := rec["recipeIngredient"].([]any)
	if i >= len(ings) {
		return ""
	}
	in, _ := ings[i].(map[string]any)
	if st, _ := rec["settings"].(map[string]any); st["disableAmount"] == true {
		n, _ := in["note"].(string)
		return n
	}
	d, _ := in["display"].(string)
	return d
}

func structuredLine(q float64, unit, food, note string) *recipesv1.IngredientInput {
	return &recipesv1.IngredientInput{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{
		Quantity: proto.Float64(q), Unit: unit, Food: food, Note: note}}}
}

// TestStructuredLinesShowInMealiesApp: on 2.0 and 2.8 a new recipe has
// disableAmount on, under which Mealie's app shows each line as its note
// alone; sous turns it off when it writes structured lines, as Mealie's
// editor does after parsing, keeps the other settings, and get_recipe
// answers each line as the app shows it; with amounts turned off again in
// the app, get_recipe answers the stored line and says the app hides it.
func TestStructuredLinesShowInMealiesApp(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		food, unit := unique("flour"), unique("cup")
		m.taxonomy("foods", food)
		m.taxonomy("units", unit)
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{
			Name:        unique("bread"),
			Ingredients: []*recipesv1.IngredientInput{structuredLine(2, unit, food, "sifted")},
		}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		rec := m.recipe(slug)
		settings, _ := rec["settings"].(map[string]any)
		if _, has := settings["disableAmount"]; has && settings["disableAmount"] != false {
			t.Errorf("settings after a structured write = %v, want disableAmount false", settings)
		}
		if settings["public"] == true && settings["showNutrition"] == true {
			t.Errorf("the other settings were reset: %v", settings)
		}
		line := appLine(rec, 0)
		if !strings.Contains(line, food) || !strings.Contains(line, unit) || !strings.Contains(line, "2") {
			t.Errorf("the app shows %q, want the quantity, unit and food", line)
		}
		got, err := m.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: slug}))
		if err != nil {
			t.Fatal(err)
		}
		if g := got.Msg.Recipe.Ingredients[0]; g.Display != line || g.Food != food {
			t.Errorf("get_recipe line = %v, the app shows %q", g, line)
		}

		if _, has := settings["disableAmount"]; !has {
			return // Mealie 3 has no such setting
		}
		// Someone turns amounts off in Mealie's app, which then shows the
		// note alone: get_recipe still answers the stored line, whole, and
		// says that the app hides its amounts.
		settings["disableAmount"] = true
		if st, o := m.api(http.MethodPatch, "/api/recipes/"+slug, map[string]any{"settings": settings}); st != http.StatusOK {
			t.Fatalf("turning amounts off: %d %v", st, o)
		}
		line = appLine(m.recipe(slug), 0)
		got, err = m.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: slug}))
		if err != nil {
			t.Fatal(err)
		}
		if g := got.Msg.Recipe.Ingredients[0]; line != "sifted" || g.Food != food || g.Unit != unit || g.GetQuantity() != 2 ||
			!strings.Contains(g.Display, food) || !strings.Contains(g.Display, "sifted") || !got.Msg.Recipe.AmountsHidden {
			t.Errorf("with amounts off get_recipe line = %v (amounts_hidden %v), the app shows %q", g, got.Msg.Recipe.AmountsHidden, line)
		}
		// An update that writes structured lines turns them on again.
		if _, err := m.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{
			Slug: slug, SetIngredients: true, Ingredients: []*recipesv1.IngredientInput{structuredLine(3, unit, food, "")},
		})); err != nil {
			t.Fatal(err)
		}
		if line = appLine(m.recipe(slug), 0); !strings.Contains(line, food) || !strings.Contains(line, "3") {
			t.Errorf("after update_recipe the app shows %q", line)
		}
	})
}

// TestCookTimeIsWhatTheAppShows: Mealie's app shows performTime as "Cook
// Time" and never cookTime, so sous writes and reads performTime.
func TestCookTimeIsWhatTheAppShows(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("stew"), CookTime: "25 minutes"}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		if got := m.recipe(slug)["performTime"]; got != "25 minutes" {
			t.Errorf("performTime after create = %v, want 25 minutes", got)
		}
		if _, err := m.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: slug, CookTime: proto.String("1 hour")})); err != nil {
			t.Fatal(err)
		}
		if got := m.recipe(slug)["performTime"]; got != "1 hour" {
			t.Errorf("performTime after update = %v, want 1 hour", got)
		}
		// Changed in Mealie's app: sous reads it back as the cook time.
		if st, o := m.api(http.MethodPatch, "/api/recipes/"+slug, map[string]any{"performTime": "40 minutes"}); st != http.StatusOK {
			t.Fatalf("PATCH performTime: %d %v", st, o)
		}
		got, err := m.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: slug}))
		if err != nil || got.Msg.Recipe.CookTime != "40 minutes" {
			t.Errorf("get_recipe cook time = %v, %v; want 40 minutes", got.Msg.GetRecipe().GetCookTime(), err)
		}
	})
}

// TestRatingIsTheUsersRating: Mealie replaces a rating written on the
// recipe by the average of its users' ratings, so sous writes the token
// user's rating and answers what Mealie then reports.
func TestRatingIsTheUsersRating(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("pie")}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		for _, want := range []float64{4, 2.5} {
			up, err := m.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: slug, Rating: proto.Float64(want), Description: proto.String("rated")}))
			if err != nil {
				t.Fatal(err)
			}
			stored := m.recipe(slug)["rating"]
			if up.Msg.Rating == nil || *up.Msg.Rating != want || stored != want {
				t.Errorf("rating %v: answered %v, Mealie stores %v", want, up.Msg.Rating, stored)
			}
		}
		got, err := m.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: slug}))
		if err != nil || got.Msg.Recipe.GetRating() != 2.5 {
			t.Errorf("get_recipe rating = %v, %v", got.Msg.GetRecipe().GetRating(), err)
		}
	})
}

// TestFailedParserKeepsLinesAsNotes: when Mealie's nlp parser fails on the
// server (2.0 without its CRF++ model), a write falls back to brute; when
// that fails too the lines are kept whole as notes and named, and nothing
// is lost. parse_ingredients reads the lines as a write does (brute when
// nlp fails, text when both do, saying so in check); asked for brute
// outright and failing, it says that no parser works.
func TestFailedParserKeepsLinesAsNotes(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		nlpWorks := true
		if m.emu != nil {
			m.emu.FailParser("nlp")
			nlpWorks = false
		} else if st, _ := m.api(http.MethodPost, "/api/parser/ingredients", map[string]any{"parser": "nlp", "ingredients": []string{"1 egg"}}); st >= 500 {
			nlpWorks = false
		}
		lines := []string{"2 cups flour, sifted", "salt to taste"}
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("loaf"), Ingredients: []*recipesv1.IngredientInput{
			{Kind: &recipesv1.IngredientInput_Text{Text: lines[0]}}, {Kind: &recipesv1.IngredientInput_Text{Text: lines[1]}},
		}}))
		if err != nil {
			t.Fatalf("create with text lines: %v", err)
		}
		slug = res.Msg.Slug
		if len(res.Msg.Unparsed) != 0 {
			t.Errorf("brute works, yet unparsed = %q", res.Msg.Unparsed)
		}
		if l := appLine(m.recipe(slug), 1); !strings.Contains(l, "salt") {
			t.Errorf("second line shows %q", l)
		}
		if nlpWorks {
			return
		}
		pr, err := m.client.ParseIngredients(c, connect.NewRequest(&recipesv1.ParseIngredientsRequest{Lines: lines}))
		if err != nil || len(pr.Msg.Items) != 2 || !strings.Contains(pr.Msg.Items[1].GetIngredient().GetDisplay(), "salt") {
			t.Errorf("parse_ingredients with nlp failing = %v, %v; want the lines as brute reads them", pr, err)
		}
		pr, err = m.client.ParseIngredients(c, connect.NewRequest(&recipesv1.ParseIngredientsRequest{Lines: lines, Parser: recipesv1.Parser_PARSER_NLP}))
		if err != nil || len(pr.Msg.Items) != 2 {
			t.Errorf("parse_ingredients with nlp asked and failing = %v, %v; want brute's reading, as a write does", pr, err)
		}
		if m.emu == nil {
			return // brute cannot be made to fail on a live Mealie
		}
		m.emu.FailParser("brute")
		up, err := m.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: slug, SetIngredients: true, Ingredients: []*recipesv1.IngredientInput{
			{Kind: &recipesv1.IngredientInput_Text{Text: lines[0]}}, structuredLine(1, "", "", "one egg"),
		}}))
		if err != nil {
			t.Fatalf("update with every parser failing: %v", err)
		}
		if len(up.Msg.Unparsed) != 1 || up.Msg.Unparsed[0] != lines[0] {
			t.Errorf("unparsed = %q, want the text line", up.Msg.Unparsed)
		}
		if l := appLine(m.recipe(slug), 0); l != lines[0] {
			t.Errorf("the unparsed line shows %q, want it whole", l)
		}
		pr, err = m.client.ParseIngredients(c, connect.NewRequest(&recipesv1.ParseIngredientsRequest{Lines: lines}))
		if err != nil || pr.Msg.Items[0].GetIngredient().GetNote() != lines[0] || !strings.Contains(pr.Msg.Items[0].GetCheck(), "no Mealie parser") {
			t.Errorf("parse_ingredients with every parser failing = %v, %v; want the lines kept as text, checked", pr, err)
		}
		_, err = m.client.ParseIngredients(c, connect.NewRequest(&recipesv1.ParseIngredientsRequest{Lines: lines, Parser: recipesv1.Parser_PARSER_BRUTE}))
		if err == nil || !strings.Contains(err.Error(), "none works") {
			t.Errorf("parse_ingredients with every parser failing = %v", err)
		}
	})
}

// redPNG is a small valid PNG that Mealie can convert.
func redPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	for i := range img.Pix {
		if i%4 == 0 || i%4 == 3 {
			img.Pix[i] = 0xff
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestImageFromURLIsSetOnlyWhenServed: Mealie answers 200 to an image URL
// whether or not it fetched anything, so set_recipe_image says the image is
// set only when Mealie serves a new one, and otherwise that the page could
// not be fetched.
func TestImageFromURLIsSetOnlyWhenServed(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("tart")}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		// No network here, and Mealie refuses local addresses: nothing can
		// be fetched from this URL on a live Mealie or on the emulator.
		bad := "https://no-such-host.invalid/tart.png"
		_, err = m.client.SetRecipeImageFromURL(c, connect.NewRequest(&recipesv1.SetRecipeImageFromURLRequest{Slug: slug, Url: bad}))
		if connect.CodeOf(err) != connect.CodeFailedPrecondition || !strings.Contains(err.Error(), "could not fetch") || !strings.Contains(err.Error(), "has no image") {
			t.Errorf("image from an unreachable URL: %v", err)
		}
		if _, err := m.client.UploadRecipeImage(c, connect.NewRequest(&recipesv1.UploadRecipeImageRequest{Slug: slug, Image: redPNG(t), Extension: "png"})); err != nil {
			t.Fatal(err)
		}
		_, err = m.client.SetRecipeImageFromURL(c, connect.NewRequest(&recipesv1.SetRecipeImageFromURLRequest{Slug: slug, Url: bad}))
		if connect.CodeOf(err) != connect.CodeFailedPrecondition || !strings.Contains(err.Error(), "keeps its image") {
			t.Errorf("image from an unreachable URL over an uploaded one: %v", err)
		}
		if m.emu == nil {
			return // a live Mealie here can reach no page to fetch from
		}
		good := "https://images.example.net/tart.png"
		m.emu.ServeImageAt(good, []byte("GIF89a-another-picture"))
		if _, err := m.client.SetRecipeImageFromURL(c, connect.NewRequest(&recipesv1.SetRecipeImageFromURLRequest{Slug: slug, Url: good})); err != nil {
			t.Errorf("image from a reachable URL: %v", err)
		}
	})
}

// TestBare500sSayWhatFailed: Mealie answers a bare 500 for a page it
// cannot fetch and for a parser that is not set up; each gets a sentence
// that says what to do instead of "the server is unhealthy".
func TestBare500sSayWhatFailed(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		_, err := m.client.ImportRecipeFromURL(c, connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{Url: "https://no-such-host.invalid/" + unique("recipe")}))
		if err == nil || !strings.Contains(err.Error(), "could not import") || !strings.Contains(err.Error(), "could not fetch the page") || strings.Contains(err.Error(), "unhealthy") {
			t.Errorf("import of an unreachable page: %v", err)
		}
		_, err = m.client.ParseIngredients(c, connect.NewRequest(&recipesv1.ParseIngredientsRequest{Lines: []string{"1 egg"}, Parser: recipesv1.Parser_PARSER_OPENAI}))
		if connect.CodeOf(err) != connect.CodeFailedPrecondition || !strings.Contains(err.Error(), "openai is not enabled") {
			t.Errorf("openai parser without OpenAI: %v", err)
		}
	})
}

// TestChangesInMealiesAppAreSeen: sous runs for weeks beside people editing
// Mealie in its own app. A food added, renamed or deleted there, a tag
// deleted there, and a recipe deleted and made again under the same name
// are all seen by the next call that needs them. On the emulator the cost
// is pinned too: an unchanged collection costs one perPage=1 request per
// use and is never paged again.
func TestChangesInMealiesAppAreSeen(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		food := unique("quince")
		var slug string
		m.forget(&slug)
		write := func(foodName string, tags ...string) *recipesv1.UpdateRecipeResponse {
			t.Helper()
			up, err := m.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{
				Slug: slug, SetIngredients: true, Ingredients: []*recipesv1.IngredientInput{structuredLine(1, "", foodName, "")}, Tags: tags,
			}))
			if err != nil {
				t.Fatalf("update with food %q tags %q: %v", foodName, tags, err)
			}
			return up.Msg
		}
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("jam"),
			Ingredients: []*recipesv1.IngredientInput{structuredLine(1, "", food, "")}}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		if len(res.Msg.Unresolved) != 1 {
			t.Fatalf("a food Mealie does not have yet was resolved: %v", res.Msg)
		}
		// Added in the app: the snapshot sous read above must not hide it.
		id := m.taxonomy("foods", food)
		if up := write(food); len(up.Unresolved) != 0 {
			t.Errorf("a food added in Mealie's app is unresolved: %q", up.Unresolved)
		}
		if m.emu != nil {
			// Nothing changed since: one fingerprint request per collection
			// used (foods, units), no paging.
			m.emu.ResetRequests()
			write(food)
			for _, r := range m.emu.Requests() {
				if (strings.HasPrefix(r.Path, "/api/foods") || strings.HasPrefix(r.Path, "/api/units")) && !strings.Contains(r.RawQuery, "perPage=1&") && !strings.HasSuffix(r.RawQuery, "perPage=1") {
					t.Errorf("an unchanged collection was paged: %s?%s", r.Path, r.RawQuery)
				}
			}
		}
		// Renamed in the app: the new name resolves, the old one does not.
		renamed := food + "-renamed"
		if st, o := m.api(http.MethodPut, "/api/foods/"+id, map[string]any{"id": id, "name": renamed}); st != http.StatusOK {
			t.Fatalf("renaming the food: %d %v", st, o)
		}
		if up := write(renamed); len(up.Unresolved) != 0 {
			t.Errorf("a food renamed in Mealie's app is unresolved: %q", up.Unresolved)
		}
		if up := write(food); len(up.Unresolved) != 1 {
			t.Errorf("the food's old name still resolves: %v", up)
		}
		// Deleted in the app: its name is no longer linked to the dead id.
		if st, o := m.api(http.MethodDelete, "/api/foods/"+id, nil); st != http.StatusOK {
			t.Fatalf("deleting the food: %d %v", st, o)
		}
		if up := write(renamed); len(up.Unresolved) != 1 {
			t.Errorf("a food deleted in Mealie's app still resolves: %v", up)
		}

		// A tag sous made, deleted in the app, is made again, not sent by
		// its dead id.
		tag := unique("tag")
		up := write(renamed, tag)
		if len(up.GetCreated().GetTags()) != 1 {
			t.Fatalf("tag not created: %v", up)
		}
		var tagID string
		for _, tg := range m.recipe(slug)["tags"].([]any) {
			if o, _ := tg.(map[string]any); o["name"] == tag {
				tagID, _ = o["id"].(string)
			}
		}
		if st, o := m.api(http.MethodDelete, "/api/organizers/tags/"+tagID, nil); st != http.StatusOK {
			t.Fatalf("deleting the tag: %d %v", st, o)
		}
		if up := write(renamed, tag); len(up.GetCreated().GetTags()) != 1 {
			t.Errorf("a tag deleted in Mealie's app was not made again: %v", up)
		}
		t.Cleanup(func() {
			for _, tg := range m.recipe(slug)["tags"].([]any) {
				if o, _ := tg.(map[string]any); o["name"] == tag {
					m.api(http.MethodDelete, "/api/organizers/tags/"+o["id"].(string), nil)
				}
			}
		})

		// A recipe deleted and made again under the same name in the app:
		// mark_recipe_made records the cook on the new one.
		name := unique("cake")
		made, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: name}))
		if err != nil {
			t.Fatal(err)
		}
		cake := made.Msg.Slug
		if _, err := m.client.MarkRecipeMade(c, connect.NewRequest(&recipesv1.MarkRecipeMadeRequest{Slug: cake})); err != nil {
			t.Fatal(err)
		}
		m.api(http.MethodDelete, "/api/recipes/"+cake, nil)
		if st, o := m.api(http.MethodPost, "/api/recipes", map[string]any{"name": name}); st != http.StatusCreated {
			t.Fatalf("making the recipe again: %d %v", st, o)
		}
		t.Cleanup(func() { m.api(http.MethodDelete, "/api/recipes/"+cake, nil) })
		newID, _ := m.recipe(cake)["id"].(string)
		again, err := m.client.MarkRecipeMade(c, connect.NewRequest(&recipesv1.MarkRecipeMadeRequest{Slug: cake}))
		if err != nil {
			t.Fatalf("mark made on the recipe made again: %v", err)
		}
		if st, ev := m.api(http.MethodGet, "/api/recipes/timeline/events/"+again.Msg.EventId, nil); st != http.StatusOK || ev["recipeId"] != newID {
			t.Errorf("the cook was recorded on %v (status %d), want the new recipe %s", ev["recipeId"], st, newID)
		}
	})
}

// sweepOne runs a detail sweep and returns the recipe named slug from it.
func (m *mealieTarget) sweepOne(slug string) *recipesv1.Recipe {
	m.t.Helper()
	st, err := m.client.SweepRecipes(ctx(m.t), connect.NewRequest(&recipesv1.SweepRecipesRequest{View: recipesv1.RecipeView_RECIPE_VIEW_DETAIL}))
	if err != nil {
		m.t.Fatal(err)
	}
	defer st.Close()
	var out *recipesv1.Recipe
	for st.Receive() {
		if r := st.Msg().GetRecipe(); r != nil && r.Slug == slug {
			out = r
		}
	}
	if err := st.Err(); err != nil {
		m.t.Fatal(err)
	}
	if out == nil {
		m.t.Fatalf("the sweep did not carry %s", slug)
	}
	return out
}

// TestSweepSeesChangesInMealiesApp: the detail cache that makes repeated
// sweeps cheap never hides a recipe edited in Mealie's app, nor a food
// renamed there (which leaves the recipe's updatedAt alone).
func TestSweepSeesChangesInMealiesApp(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		food := unique("medlar")
		id := m.taxonomy("foods", food)
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("compote"), Description: "before",
			Ingredients: []*recipesv1.IngredientInput{structuredLine(2, "", food, "")}}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		if r := m.sweepOne(slug); r.Description != "before" || r.Ingredients[0].Food != food {
			t.Fatalf("first sweep = %v", r)
		}
		if st, o := m.api(http.MethodPatch, "/api/recipes/"+slug, map[string]any{"description": "after"}); st != http.StatusOK {
			t.Fatalf("PATCH: %d %v", st, o)
		}
		if r := m.sweepOne(slug); r.Description != "after" {
			t.Errorf("a description edited in Mealie's app: the sweep says %q", r.Description)
		}
		if st, o := m.api(http.MethodPut, "/api/foods/"+id, map[string]any{"id": id, "name": food + "-renamed"}); st != http.StatusOK {
			t.Fatalf("renaming the food: %d %v", st, o)
		}
		if r := m.sweepOne(slug); r.Ingredients[0].Food != food+"-renamed" {
			t.Errorf("a food renamed in Mealie's app: the sweep says %q", r.Ingredients[0].Food)
		}
	})
}
