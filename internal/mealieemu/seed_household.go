package mealieemu

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// householdJSON is the household library: 40 recipes from recipe-scrapers'
// test data (MIT), with the food names a real imported library carries.
// household/README.md says where each comes from and how lines were read.
//
//go:embed household/recipes.json
var householdJSON []byte

// HouseholdRecipes is the household seed as data, for code that builds the
// same library on a real Mealie (integration/cmd/householdseed).
func HouseholdRecipes() ([]HouseholdRecipe, error) {
	var doc struct {
		Recipes []HouseholdRecipe `json:"recipes"`
	}
	if err := json.Unmarshal(householdJSON, &doc); err != nil {
		return nil, fmt.Errorf("mealieemu: household/recipes.json: %w", err)
	}
	return doc.Recipes, nil
}

// HouseholdRecipe is one recipe of household/recipes.json.
type HouseholdRecipe struct {
	Name string `json:"name"`
	// From is the recipe-scrapers test file it was taken from.
	From        string   `json:"from"`
	SourceURL   string   `json:"source_url"`
	Description string   `json:"description"`
	Yield       string   `json:"yield"`
	TotalTime   string   `json:"total_time"`
	PrepTime    string   `json:"prep_time"`
	CookTime    string   `json:"cook_time"`
	Categories  []string `json:"categories"`
	Tags        []string `json:"tags"`
	// Parsed is false for a recipe imported and never parsed: every line
	// is text only, as Mealie stores a scrape.
	Parsed       bool                  `json:"parsed"`
	Ingredients  []HouseholdIngredient `json:"ingredients"`
	Instructions []string              `json:"instructions"`
}

// HouseholdIngredient is one line: Text as written, and Food (with
// Quantity, Unit and Note) when the line was parsed.
type HouseholdIngredient struct {
	Text     string   `json:"text"`
	Quantity *float64 `json:"quantity"`
	Unit     string   `json:"unit"`
	Food     string   `json:"food"`
	Note     string   `json:"note"`
}

// householdList is the household's shopping list, with what was jotted on
// it before the week's plan.
var householdList = []string{"1 dozen eggs", "3 limes", "dish soap"}

// seedHousehold loads the household library: the demo units, labels,
// categories and tools, the library's own foods and tags (exactly as
// spelled there, duplicates included), its 40 recipes and one shopping list.
// No meal plans or cookbooks: the household has not made any yet.
func (s *store) seedHousehold() error {
	recipes, err := HouseholdRecipes()
	if err != nil {
		return err
	}
	at := func(i int) time.Time { return seedBase.Add(time.Duration(i) * time.Minute) }
	for _, l := range seedLabels {
		s.labels = append(s.labels, &label{ID: seedID("label", l.name), Name: l.name, Color: l.color})
	}
	for i, u := range seedUnits {
		s.units = append(s.units, &unit{
			ID: seedID("unit", u.name), Name: u.name, PluralName: strp(u.plural), Fraction: u.fraction,
			Abbreviation: u.abbr, UseAbbreviation: u.abbr != "", Aliases: []string{},
			CreatedAt: at(i), UpdatedAt: at(i),
		})
	}
	for _, c := range seedCategories {
		s.categories = append(s.categories, newOrganizer("category", c))
	}
	for _, t := range seedTools {
		o := newOrganizer("tool", t.name)
		o.OnHand = t.onHand
		s.tools = append(s.tools, o)
	}
	// Tags are one a slug in Mealie: "Tex Mex" is the "Tex-Mex" tag.
	foods, tags := map[string]bool{}, map[string]string{}
	for i, r := range recipes {
		for j, t := range r.Tags {
			if first, ok := tags[slugOf(t)]; ok {
				recipes[i].Tags[j] = first
				continue
			}
			tags[slugOf(t)] = t
			s.tags = append(s.tags, newOrganizer("tag", t))
		}
		for _, in := range r.Ingredients {
			if in.Food != "" && !foods[in.Food] {
				foods[in.Food] = true
				n := len(foods)
				s.foods = append(s.foods, &food{ID: seedID("food", in.Food), Name: in.Food, Aliases: []string{}, CreatedAt: at(n), UpdatedAt: at(n)})
			}
		}
	}
	for i, hr := range recipes {
		if err := s.addHouseholdRecipe(i, hr); err != nil {
			return err
		}
	}
	created := seedBase.Add(48 * time.Hour)
	l := &shoppingList{ID: seedID("shopping-list", "household"), Name: strp("Groceries"), CreatedAt: created, UpdatedAt: created}
	for i, text := range householdList {
		l.Items = append(l.Items, &shoppingItem{ID: seedID("shopping-item", "household/"+strconv.Itoa(i)), Quantity: 1, Note: text,
			Position: i, Extras: map[string]any{}, CreatedAt: created, UpdatedAt: created})
	}
	s.shoppingLists = append(s.shoppingLists, l)
	return nil
}

// addHouseholdRecipe adds one household recipe through addSeedRecipe, then
// replaces its lines with the household's: a parsed line keeps its text as
// originalText, as Mealie's parser page saves it; an unparsed recipe's lines
// are notes only and its amounts are disabled, as Mealie stores an import.
func (s *store) addHouseholdRecipe(i int, hr HouseholdRecipe) error {
	r := s.addSeedRecipe(i, seedRecipe{
		name: hr.Name, description: hr.Description, yield: hr.Yield, total: hr.TotalTime,
		prep: hr.PrepTime, perform: hr.CookTime, categories: hr.Categories, tags: hr.Tags,
		steps: hr.Instructions, orgURL: hr.SourceURL,
	})
	r.Settings.DisableAmount = !hr.Parsed
	for j, line := range hr.Ingredients {
		in := ingredient{Note: line.Text, DisableAmount: true, ReferenceID: strp(seedID("ingredient", r.Slug+"/"+strconv.Itoa(j)))}
		if line.Food != "" {
			in = ingredient{Quantity: line.Quantity, Note: line.Note, IsFood: true, OriginalText: strp(line.Text),
				FoodID: strp(seedID("food", line.Food)), ReferenceID: in.ReferenceID}
			if line.Unit != "" {
				if s.unitByID(seedID("unit", line.Unit)) == nil {
					return fmt.Errorf("mealieemu: household recipe %q: unknown unit %q", hr.Name, line.Unit)
				}
				in.UnitID = strp(seedID("unit", line.Unit))
			}
		}
		r.Ingredients = append(r.Ingredients, in)
	}
	return nil
}
