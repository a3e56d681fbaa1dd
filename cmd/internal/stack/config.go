package stack

import (
	"errors"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/svcenv"
	"github.com/souskitchen/sous/mcpfront"
)

// DefaultServeAddr is where `sous serve` listens unless told otherwise:
// loopback, like everything sous binds (the MCP front's is
// mcpfront.DefaultAddr).
const DefaultServeAddr = "127.0.0.1:8080"

// Config is everything sous reads from the environment: the MCP front's
// configuration (mcpfront.Config, shared with cmd/mcpfront) and what it
// takes to run the services in this process. The names mcp-mealie and the
// food pantry MCP spec used are kept (MEALIE_*, FOOD_*); sous's own start
// with SOUS_.
type Config struct {
	mcpfront.Config

	// Mealie and FoodAPI are the backends (internal/svcenv).
	Mealie  svcenv.Mealie
	FoodAPI svcenv.FoodAPI

	ServeAddr string // SOUS_SERVE_ADDR

	LinkAllowPrivate bool // SOUS_LINKCHECK_ALLOW_PRIVATE

	CreateFoods bool // SOUS_CREATE_FOODS (default true)

	// single is set for a service's own binary (Command): the other
	// services are reached by URL only.
	single bool
}

// LoadConfig reads the environment: the front's configuration and every
// service's settings. Malformed booleans are errors: failing open on a
// safety flag is the wrong default. All errors are joined.
func LoadConfig() (Config, error) {
	front, frontErr := mcpfront.LoadConfig()
	c, err := loadSettings(front, serviceTable...)
	c.ServeAddr = env.String("SOUS_SERVE_ADDR", DefaultServeAddr)
	return c, errors.Join(frontErr, err)
}

// loadSettings reads the settings the given services read (each once)
// into a Config around front, the errors joined. A service's own binary
// reads only its row's (Command), with the remotes and the switches it
// shares with the front, so a setting it does not use never stops it.
func loadSettings(front mcpfront.Config, svcs ...service) (Config, error) {
	c := Config{Config: front}
	seen := map[*setting]bool{}
	var errs []error
	for _, svc := range svcs {
		for _, st := range append([]*setting{svc.backend.setting}, svc.reads...) {
			if seen[st] {
				continue
			}
			seen[st] = true
			if err := st.load(&c); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return c, errors.Join(errs...)
}
