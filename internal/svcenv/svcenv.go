// Package svcenv reads the backend settings of the four services from the
// environment, once for `sous` (cmd/sous, which runs them in one process)
// and the single-service commands (cmd/<name>) alike, so a
// variable's name, its default and the error for a malformed value are
// written in one place. Each reader reads only its own variables: the
// pantry command never fails on a malformed MEALIE_VERIFY_SSL it does not
// use (each row of cmd/internal/stack's service table lists what it
// reads). The listen addresses (SOUS_<NAME>_ADDR) are read in that table.
package svcenv

import "github.com/souskitchen/sous/internal/env"

// The variables that configure each backend, as the lines that say a
// service cannot run (or is off) name them.
const (
	MealieVars  = "MEALIE_URL and MEALIE_API_TOKEN"
	FoodAPIVars = "FOOD_API_BASE and FOOD_API_TOKEN"
)

// Mealie is how the recipes, mealplan and library services reach Mealie.
type Mealie struct {
	URL       string // MEALIE_URL
	Token     string // MEALIE_API_TOKEN
	VerifySSL bool   // MEALIE_VERIFY_SSL (default true)
}

// LoadMealie reads MEALIE_URL, MEALIE_API_TOKEN and MEALIE_VERIFY_SSL; the
// error names MEALIE_VERIFY_SSL when it is not a boolean (env.Bool).
func LoadMealie() (Mealie, error) {
	verify, err := env.Bool("MEALIE_VERIFY_SSL", true)
	return Mealie{URL: env.String("MEALIE_URL", ""), Token: env.String("MEALIE_API_TOKEN", ""), VerifySSL: verify}, err
}

// Configured reports whether both the URL and the token are set
// (MealieVars): what it takes for sous to run a Mealie service itself.
func (m Mealie) Configured() bool { return m.URL != "" && m.Token != "" }

// FoodAPI is how the pantry service reaches the food API.
type FoodAPI struct {
	Base  string // FOOD_API_BASE
	Token string // FOOD_API_TOKEN
}

// LoadFoodAPI reads FOOD_API_BASE and FOOD_API_TOKEN.
func LoadFoodAPI() FoodAPI {
	return FoodAPI{Base: env.String("FOOD_API_BASE", ""), Token: env.String("FOOD_API_TOKEN", "")}
}

// Configured reports whether both the base URL and the token are set
// (FoodAPIVars).
func (f FoodAPI) Configured() bool { return f.Base != "" && f.Token != "" }

// CreateFoods is SOUS_CREATE_FOODS (default true): whether the recipes
// service adds a food Mealie does not know, or keeps its words in the
// line's note (recipes.Config.KeepUnknownFoods is its negation).
func CreateFoods() (bool, error) { return env.Bool("SOUS_CREATE_FOODS", true) }

// LinkAllowPrivate is SOUS_LINKCHECK_ALLOW_PRIVATE (default false): whether
// the library's link check may reach private addresses
// (library.Config.AllowPrivateLinks).
func LinkAllowPrivate() (bool, error) { return env.Bool("SOUS_LINKCHECK_ALLOW_PRIVATE", false) }
