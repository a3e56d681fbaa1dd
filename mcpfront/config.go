package mcpfront

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/souskitchen/sous/internal/env"
)

// DefaultAddr is the Streamable HTTP listen address when SOUS_MCP_ADDR is
// unset: loopback, like everything sous binds unless told otherwise.
const DefaultAddr = "127.0.0.1:8765"

// oauthStateFile is the OAuth store's file name inside SOUS_DATA_DIR.
const oauthStateFile = "oauth.sqlite"

// Remotes are the sous services the front reaches over the network, by base
// URL (an http:// URL is spoken to as h2c, see serve.HTTPClient), and the
// bearer token every call presents. An empty URL leaves that service out.
type Remotes struct {
	RecipesURL  string // SOUS_RECIPES_URL
	MealPlanURL string // SOUS_MEALPLAN_URL
	LibraryURL  string // SOUS_LIBRARY_URL
	PantryURL   string // SOUS_PANTRY_URL
	Token       string // SOUS_SERVICE_TOKEN: bearer token between sous processes
}

// Config is the MCP front's configuration, the part every binary that runs
// the front reads the same way (`sous mcp`, `sous demo` and
// cmd/mcpfront). The names of mcp-mealie and the food pantry MCP spec are
// kept (MEALIE_*, FOOD_*), so a moved setup keeps its environment
// (docs/configuration.md); sous's own
// start with SOUS_.
type Config struct {
	LogLevel string // MEALIE_LOG_LEVEL: debug, info, warn or error
	ReadOnly bool   // MEALIE_READ_ONLY: only read tools (docs/tools.md, "Safety lines")

	// Remotes are the services' URLs and the token between sous processes.
	Remotes Remotes

	Addr        string   // SOUS_MCP_ADDR: the Streamable HTTP listen address
	Toolsets    []string // SOUS_TOOLSETS: empty means all (see Toolsets)
	URLSecret   string   // FOOD_MCP_URL_SECRET: see HTTPOptions.PathSecret
	BearerToken string   // SOUS_MCP_BEARER_TOKEN: see HTTPOptions.BearerToken
	PublicURL   string   // SOUS_PUBLIC_URL: see HTTPOptions.PublicURL
	ImageDir    string   // SOUS_IMAGE_DIR: the one directory upload_recipe_image reads
	// MealieURL is SOUS_MEALIE_PUBLIC_URL, else MEALIE_URL: the Mealie a
	// person's browser reaches, whose origin the views show images from.
	MealieURL string

	DataDir             string // SOUS_DATA_DIR: where sous keeps state (the OAuth store)
	OAuthIssuer         string // SOUS_OAUTH_ISSUER: turns the OAuth mode on
	OAuthPassphraseFile string // SOUS_OAUTH_PASSPHRASE_FILE: the owner's argon2id hash
	OAuthState          string // SOUS_OAUTH_STATE: the OAuth SQLite store (default SOUS_DATA_DIR/oauth.sqlite)
}

// LoadRemotes reads the services' URLs and SOUS_SERVICE_TOKEN: all a
// process that only calls the services needs of the front's configuration.
// Each name is spelled where it is read, as everywhere in sous (the docs
// test finds the variables by it); TestLoadRemotesReadsEveryURLVar holds
// them to Services' URLVar.
func LoadRemotes() Remotes {
	return Remotes{
		RecipesURL:  env.String("SOUS_RECIPES_URL", ""),
		MealPlanURL: env.String("SOUS_MEALPLAN_URL", ""),
		LibraryURL:  env.String("SOUS_LIBRARY_URL", ""),
		PantryURL:   env.String("SOUS_PANTRY_URL", ""),
		Token:       env.String("SOUS_SERVICE_TOKEN", ""),
	}
}

// LoadConfig reads the front's configuration from the process environment
// (a caller loads any .env first, see env.LoadDotEnv). Malformed booleans
// are errors, since failing open on a safety flag is the wrong default, and
// so are unknown toolset names, auth modes that cannot be combined and a
// SOUS_MCP_RATE_LIMIT that is not a number or "off" (RateLimitFromEnv); all
// such errors are joined.
func LoadConfig() (Config, error) {
	c := Config{
		LogLevel:    env.String("MEALIE_LOG_LEVEL", "info"),
		Remotes:     LoadRemotes(),
		Addr:        env.String("SOUS_MCP_ADDR", DefaultAddr),
		Toolsets:    env.List("SOUS_TOOLSETS"),
		URLSecret:   env.String("FOOD_MCP_URL_SECRET", ""),
		BearerToken: env.String("SOUS_MCP_BEARER_TOKEN", ""),
		PublicURL:   env.String("SOUS_PUBLIC_URL", ""),
		ImageDir:    env.String("SOUS_IMAGE_DIR", ""),
		MealieURL:   env.String("SOUS_MEALIE_PUBLIC_URL", env.String("MEALIE_URL", "")),

		DataDir:             env.String("SOUS_DATA_DIR", defaultDataDir()),
		OAuthIssuer:         env.String("SOUS_OAUTH_ISSUER", ""),
		OAuthPassphraseFile: env.String("SOUS_OAUTH_PASSPHRASE_FILE", ""),
	}
	c.OAuthState = env.String("SOUS_OAUTH_STATE", "")
	if c.OAuthState == "" && c.DataDir != "" {
		c.OAuthState = filepath.Join(c.DataDir, oauthStateFile)
	}
	var errs []error
	var err error
	if c.ReadOnly, err = env.Bool("MEALIE_READ_ONLY", false); err != nil {
		errs = append(errs, err)
	}
	// An unknown toolset is a configuration mistake, said before any
	// service is reached (Select checks the names whatever the backends).
	if _, err := Select(Backends{}, Options{Toolsets: c.Toolsets}); err != nil {
		errs = append(errs, err)
	}
	// The path secret and the static bearer token are other ways in; left
	// beside OAuth they would bypass it.
	if c.OAuthIssuer != "" && c.URLSecret != "" {
		errs = append(errs, errors.New("FOOD_MCP_URL_SECRET and SOUS_OAUTH_ISSUER are both set: choose the path secret or OAuth, not both"))
	}
	if c.OAuthIssuer != "" && c.BearerToken != "" {
		errs = append(errs, errors.New("SOUS_MCP_BEARER_TOKEN and SOUS_OAUTH_ISSUER are both set: choose the bearer token or OAuth, not both"))
	}
	// The rate limit is read again where the HTTP listener is built
	// (HTTPHandler); a value it cannot read is refused here, at startup,
	// rather than logged there and replaced by the default, since an
	// operator who set it meant some other limit.
	if _, err := RateLimitFromEnv(); err != nil {
		errs = append(errs, err)
	}
	if c.MealieURL != "" {
		if _, err := MealieOrigin(c.MealieURL); err != nil {
			errs = append(errs, fmt.Errorf("SOUS_MEALIE_PUBLIC_URL (or MEALIE_URL): %w", err))
		}
	}
	return c, errors.Join(errs...)
}

// defaultDataDir is ~/.local/share/sous, the XDG data directory most Linux
// hosts use; the container image sets SOUS_DATA_DIR=/data (a volume).
func defaultDataDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share", "sous")
}

// Options are the catalog options this configuration selects, logging to
// logger.
func (c Config) Options(logger *slog.Logger) Options {
	return Options{Toolsets: c.Toolsets, ReadOnly: c.ReadOnly, Logger: logger, ImageDir: c.ImageDir, MealieURL: c.MealieURL}
}
