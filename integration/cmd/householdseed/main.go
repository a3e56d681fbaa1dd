// Command householdseed builds the emulator's household library (40 recipes
// from public recipe pages, internal/mealieemu/household) on a real Mealie,
// so the household figures and the name resolver's tests can be checked
// against what a real Mealie stores.
//
//	householdseed -url http://127.0.0.1:9000 -token TOKEN [-prefix "hh "]
//
// It creates the units, foods, tags and categories the library uses (an
// existing one of exactly the same name is reused), then each recipe with
// its lines, steps, times and organizers. A recipe whose name (with the
// prefix) already exists is left alone, so a second run adds nothing. It
// never deletes. -prefix names every recipe, so a shared Mealie's other
// recipes stay apart.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieslug"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("householdseed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("url", os.Getenv("MEALIE_URL"), "Mealie's base URL (default $MEALIE_URL)")
	token := fs.String("token", os.Getenv("MEALIE_API_TOKEN"), "API token (default $MEALIE_API_TOKEN)")
	prefix := fs.String("prefix", "", "text put before every recipe name")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *base == "" || *token == "" {
		fmt.Fprintln(stderr, "householdseed: -url and -token are required (or MEALIE_URL and MEALIE_API_TOKEN)")
		return 2
	}
	s := &seeder{base: strings.TrimRight(*base, "/"), token: *token, hc: &http.Client{Timeout: 60 * time.Second}}
	n, err := s.seed(ctx, *prefix)
	if err != nil {
		fmt.Fprintln(stderr, "householdseed:", err)
		return 1
	}
	fmt.Fprintf(stdout, "householdseed: %d recipes created at %s\n", n, s.base)
	return 0
}

// seeder talks to one Mealie.
type seeder struct {
	base, token string
	hc          *http.Client
}

// ref is an organizer, unit or food as a recipe body names it.
type ref struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug,omitempty"`
}

func (s *seeder) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: status %d: %.300s", method, path, resp.StatusCode, raw)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// all lists a collection by exact name.
func (s *seeder) all(ctx context.Context, path string) (map[string]ref, error) {
	var page struct {
		Items []ref `json:"items"`
	}
	if err := s.do(ctx, http.MethodGet, path+"?perPage=-1", nil, &page); err != nil {
		return nil, err
	}
	out := map[string]ref{}
	for _, r := range page.Items {
		out[r.Name] = r
	}
	return out, nil
}

// ensure returns the item of exactly this name, creating it when missing.
// Tags and categories are one a slug in Mealie ("Tex Mex" is "Tex-Mex"),
// so for them an item of the same slug is the one.
func (s *seeder) ensure(ctx context.Context, have map[string]ref, path, name string, extra map[string]any) (ref, error) {
	if r, ok := have[name]; ok {
		return r, nil
	}
	if strings.HasPrefix(path, "/api/organizers/") {
		for _, r := range have {
			if mealieslug.Make(r.Name) == mealieslug.Make(name) {
				return r, nil
			}
		}
	}
	body := map[string]any{"name": name}
	for k, v := range extra {
		body[k] = v
	}
	var r ref
	if err := s.do(ctx, http.MethodPost, path, body, &r); err != nil {
		return ref{}, err
	}
	have[name] = r
	return r, nil
}

// units are the household library's units as the emulator seeds them
// (internal/mealieemu seed.go): name, plural, abbreviation.
var units = map[string][2]string{
	"cup": {"cups", "c"}, "tablespoon": {"tablespoons", "tbsp"}, "teaspoon": {"teaspoons", "tsp"},
	"gram": {"grams", "g"}, "kilogram": {"kilograms", "kg"}, "milliliter": {"milliliters", "ml"},
	"liter": {"liters", "l"}, "ounce": {"ounces", "oz"}, "pound": {"pounds", "lb"},
	"clove": {"cloves", ""}, "pinch": {"pinches", ""}, "can": {"cans", ""}, "slice": {"slices", ""}, "bunch": {"bunches", ""},
}

func (s *seeder) seed(ctx context.Context, prefix string) (int, error) {
	recipes, err := mealieemu.HouseholdRecipes()
	if err != nil {
		return 0, err
	}
	have := map[string]map[string]ref{}
	for _, p := range []string{"/api/units", "/api/foods", "/api/organizers/tags", "/api/organizers/categories"} {
		if have[p], err = s.all(ctx, p); err != nil {
			return 0, err
		}
	}
	existing, err := s.recipeNames(ctx)
	if err != nil {
		return 0, err
	}
	created := 0
	for _, hr := range recipes {
		name := prefix + hr.Name
		if existing[name] {
			continue
		}
		if err := s.recipe(ctx, have, name, hr); err != nil {
			return created, fmt.Errorf("%s: %w", name, err)
		}
		created++
	}
	return created, nil
}

func (s *seeder) recipeNames(ctx context.Context) (map[string]bool, error) {
	var page struct {
		Items []struct {
			Name string `json:"name"`
		} `json:"items"`
	}
	if err := s.do(ctx, http.MethodGet, "/api/recipes?perPage=-1", nil, &page); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, r := range page.Items {
		out[r.Name] = true
	}
	return out, nil
}

// recipe creates one recipe, then writes its body over the one Mealie made
// (PUT of the whole recipe as read, the way Mealie's own editor saves).
func (s *seeder) recipe(ctx context.Context, have map[string]map[string]ref, name string, hr mealieemu.HouseholdRecipe) error {
	var slug string
	if err := s.do(ctx, http.MethodPost, "/api/recipes", map[string]any{"name": name}, &slug); err != nil {
		return err
	}
	var body map[string]any
	if err := s.do(ctx, http.MethodGet, "/api/recipes/"+url.PathEscape(slug), nil, &body); err != nil {
		return err
	}
	lines := []map[string]any{}
	for _, in := range hr.Ingredients {
		line := map[string]any{"note": in.Text, "isFood": false, "disableAmount": true, "quantity": 0, "referenceId": uuid.NewString()}
		if in.Food != "" {
			f, err := s.ensure(ctx, have["/api/foods"], "/api/foods", in.Food, nil)
			if err != nil {
				return err
			}
			line = map[string]any{"note": in.Note, "food": f, "originalText": in.Text, "isFood": true, "disableAmount": false, "referenceId": line["referenceId"]}
			if in.Quantity != nil {
				line["quantity"] = *in.Quantity
			}
			if in.Unit != "" {
				u := units[in.Unit]
				un, err := s.ensure(ctx, have["/api/units"], "/api/units", in.Unit, map[string]any{"pluralName": u[0], "abbreviation": u[1], "useAbbreviation": u[1] != ""})
				if err != nil {
					return err
				}
				line["unit"] = un
			}
		}
		lines = append(lines, line)
	}
	steps := []map[string]any{}
	for _, text := range hr.Instructions {
		steps = append(steps, map[string]any{"id": uuid.NewString(), "title": "", "summary": "", "text": text, "ingredientReferences": []any{}})
	}
	tags, cats := []ref{}, []ref{}
	for _, t := range hr.Tags {
		r, err := s.ensure(ctx, have["/api/organizers/tags"], "/api/organizers/tags", t, nil)
		if err != nil {
			return err
		}
		tags = append(tags, r)
	}
	for _, c := range hr.Categories {
		r, err := s.ensure(ctx, have["/api/organizers/categories"], "/api/organizers/categories", c, nil)
		if err != nil {
			return err
		}
		cats = append(cats, r)
	}
	body["description"], body["orgURL"], body["recipeYield"] = hr.Description, hr.SourceURL, hr.Yield
	body["totalTime"], body["prepTime"], body["performTime"] = hr.TotalTime, hr.PrepTime, hr.CookTime
	body["recipeIngredient"], body["recipeInstructions"], body["tags"], body["recipeCategory"] = lines, steps, tags, cats
	if settings, ok := body["settings"].(map[string]any); ok {
		settings["disableAmount"] = !hr.Parsed
	}
	return s.do(ctx, http.MethodPut, "/api/recipes/"+url.PathEscape(slug), body, nil)
}
