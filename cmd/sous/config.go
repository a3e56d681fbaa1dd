package main

import (
	"errors"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/svcenv"
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

	// Mealie and FoodAPI are the backends, read as the single-service
	// commands read them (internal/svcenv).
	Mealie  svcenv.Mealie
	FoodAPI svcenv.FoodAPI

	ServeAddr string // SOUS_SERVE_ADDR

	LinkAllowPrivate bool // SOUS_LINKCHECK_ALLOW_PRIVATE

	CreateFoods bool // SOUS_CREATE_FOODS (default true)
}

// loadConfig reads the environment. Malformed booleans are errors: failing
// open on a safety flag is the wrong default. All errors are joined.
func loadConfig() (config, error) {
	front, frontErr := mcpfront.LoadConfig()
	c := config{
		Config:    front,
		FoodAPI:   svcenv.LoadFoodAPI(),
		ServeAddr: env.String("SOUS_SERVE_ADDR", defaultServeAddr),
	}
	errs := []error{frontErr}
	var err error
	if c.Mealie, err = svcenv.LoadMealie(); err != nil {
		errs = append(errs, err)
	}
	if c.LinkAllowPrivate, err = svcenv.LinkAllowPrivate(); err != nil {
		errs = append(errs, err)
	}
	if c.CreateFoods, err = svcenv.CreateFoods(); err != nil {
		errs = append(errs, err)
	}
	return c, errors.Join(errs...)
}
