package main

import (
	"errors"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/mcpfront"
)

// defaultServeAddr is where `sous serve` listens unless told otherwise:
// loopback, like everything sous binds (the MCP front's is
// mcpfront.DefaultAddr).
const defaultServeAddr = "127.0.0.1:8080"

// config is everything sous reads from the environment: the MCP front's
// configuration (mcpfront.Config, shared with cmd/mcpfront) and what it
// takes to run the services in this process. The seeds' names are kept
// (MEALIE_*, FOOD_*); sous's own start with SOUS_.
type config struct {
	mcpfront.Config

	MealieURL       string // MEALIE_URL
	MealieToken     string // MEALIE_API_TOKEN
	MealieVerifySSL bool   // MEALIE_VERIFY_SSL

	FoodAPIBase  string // FOOD_API_BASE
	FoodAPIToken string // FOOD_API_TOKEN

	ServeAddr string // SOUS_SERVE_ADDR

	LinkAllowPrivate bool // SOUS_LINKCHECK_ALLOW_PRIVATE

	CreateFoods bool // SOUS_CREATE_FOODS (default true)
}

// loadConfig reads the environment. Malformed booleans are errors: failing
// open on a safety flag is the wrong default. All errors are joined.
func loadConfig() (config, error) {
	front, frontErr := mcpfront.LoadConfig()
	c := config{
		Config:       front,
		MealieURL:    env.String("MEALIE_URL", ""),
		MealieToken:  env.String("MEALIE_API_TOKEN", ""),
		FoodAPIBase:  env.String("FOOD_API_BASE", ""),
		FoodAPIToken: env.String("FOOD_API_TOKEN", ""),
		ServeAddr:    env.String("SOUS_SERVE_ADDR", defaultServeAddr),
	}
	errs := []error{frontErr}
	var err error
	if c.MealieVerifySSL, err = env.Bool("MEALIE_VERIFY_SSL", true); err != nil {
		errs = append(errs, err)
	}
	if c.LinkAllowPrivate, err = env.Bool("SOUS_LINKCHECK_ALLOW_PRIVATE", false); err != nil {
		errs = append(errs, err)
	}
	if c.CreateFoods, err = env.Bool("SOUS_CREATE_FOODS", true); err != nil {
		errs = append(errs, err)
	}
	return c, errors.Join(errs...)
}
