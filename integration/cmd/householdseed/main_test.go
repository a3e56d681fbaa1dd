package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// TestSeedEmptyMealie builds the household library on an empty emulator
// and reads it back: every recipe, the messy foods spelled as in the data,
// parsed lines linked to their food and unit, unparsed lines as notes; a
// second run creates nothing.
func TestSeedEmptyMealie(t *testing.T) {
	for _, version := range []string{"2.0", "2.8", "3.11"} {
		t.Run(version, func(t *testing.T) {
			em, err := mealieemu.Start(mealieemu.WithSeed("empty"), mealieemu.WithVersion(version))
			if err != nil {
				t.Fatal(err)
			}
			defer em.Close()
			var out, errs bytes.Buffer
			if code := run(context.Background(), []string{"-url", em.URL, "-token", em.Token, "-prefix", "hh "}, &out, &errs); code != 0 {
				t.Fatalf("exit %d: %s", code, errs.String())
			}
			if !strings.Contains(out.String(), "40 recipes created") {
				t.Errorf("output %q", out.String())
			}
			get := func(path string, v any) {
				t.Helper()
				req, _ := http.NewRequest(http.MethodGet, em.URL+path, nil)
				req.Header.Set("Authorization", "Bearer "+em.Token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
					t.Fatal(err)
				}
			}
			var foods struct {
				Items []struct{ Name string } `json:"items"`
			}
			get("/api/foods?perPage=-1", &foods)
			names := map[string]bool{}
			for _, f := range foods.Items {
				names[f.Name] = true
			}
			for _, want := range []string{"rice ($0.60)", "COLD cooked brown rice", "tomatoes", "Tomatoes", "vegetable oil*"} {
				if !names[want] {
					t.Errorf("food %q not created", want)
				}
			}
			var r struct {
				Name        string `json:"name"`
				TotalTime   string `json:"totalTime"`
				Ingredients []struct {
					Note string `json:"note"`
					Food *struct {
						Name string `json:"name"`
					} `json:"food"`
					Unit *struct {
						Name string `json:"name"`
					} `json:"unit"`
				} `json:"recipeIngredient"`
				Steps []struct {
					Text string `json:"text"`
				} `json:"recipeInstructions"`
				Tags []struct{ Name string } `json:"tags"`
			}
			get("/api/recipes/hh-egg-fried-rice", &r)
			if r.Name != "hh Egg Fried Rice" || r.TotalTime != "25 minutes" || len(r.Steps) == 0 || len(r.Tags) == 0 {
				t.Errorf("egg fried rice read back as %+v", r)
			}
			linked := 0
			for _, in := range r.Ingredients {
				if in.Food != nil && in.Food.Name == "COLD cooked brown rice" && in.Unit != nil && in.Unit.Name == "cup" {
					linked++
				}
			}
			if linked != 1 {
				t.Errorf("egg fried rice: the brown rice line is not linked to its food and unit: %+v", r.Ingredients)
			}
			get("/api/recipes/hh-simple-chicken-and-rice", &r)
			for _, in := range r.Ingredients {
				if in.Food != nil || in.Note == "" {
					t.Errorf("unparsed recipe: line %+v is not a note only", in)
				}
			}
			out.Reset()
			if code := run(context.Background(), []string{"-url", em.URL, "-token", em.Token, "-prefix", "hh "}, &out, &errs); code != 0 || !strings.Contains(out.String(), " 0 recipes created") {
				t.Errorf("second run: exit %d, %q", code, out.String())
			}
		})
	}
}

// TestUsage refuses a run without a Mealie to write to.
func TestUsage(t *testing.T) {
	t.Setenv("MEALIE_URL", "")
	t.Setenv("MEALIE_API_TOKEN", "")
	var out, errs bytes.Buffer
	if code := run(context.Background(), nil, &out, &errs); code != 2 || !strings.Contains(errs.String(), "-url and -token are required") {
		t.Errorf("exit %d, %q", code, errs.String())
	}
}
