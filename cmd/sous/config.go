package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/souskitchen/sous/internal/env"
)

// Default addresses. Everything binds loopback unless told otherwise.
const (
	defaultServeAddr = "127.0.0.1:8080"
	defaultMCPAddr   = "127.0.0.1:8765"
)

// config is everything sous reads from the environment. The seeds' names
// are kept (MEALIE_*, FOOD_*); sous's own start with SOUS_.
type config struct {
	MealieURL       string // MEALIE_URL
	MealieToken     string // MEALIE_API_TOKEN
	MealieReadOnly  bool   // MEALIE_READ_ONLY
	MealieVerifySSL bool   // MEALIE_VERIFY_SSL
	LogLevel        string // MEALIE_LOG_LEVEL

	FoodAPIBase  string // FOOD_API_BASE
	FoodAPIToken string // FOOD_API_TOKEN

	ServiceToken string // SOUS_SERVICE_TOKEN: bearer token between sous processes
	ServeAddr    string // SOUS_SERVE_ADDR
	RecipesURL   string // SOUS_RECIPES_URL
	MealPlanURL  string // SOUS_MEALPLAN_URL
	LibraryURL   string // SOUS_LIBRARY_URL
	PantryURL    string // SOUS_PANTRY_URL

	MCPAddr        string   // SOUS_MCP_ADDR
	Toolsets       []string // SOUS_TOOLSETS
	URLSecret      string   // FOOD_MCP_URL_SECRET
	MCPBearerToken string   // SOUS_MCP_BEARER_TOKEN
	PublicURL      string   // SOUS_PUBLIC_URL

	ImageDir         string // SOUS_IMAGE_DIR: the one directory upload_recipe_image reads
	LinkAllowPrivate bool   // SOUS_LINKCHECK_ALLOW_PRIVATE

	DataDir             string // SOUS_DATA_DIR: where sous keeps state (the OAuth store)
	OAuthIssuer         string // SOUS_OAUTH_ISSUER: turns the OAuth mode on
	OAuthPassphraseFile string // SOUS_OAUTH_PASSPHRASE_FILE
	OAuthState          string // SOUS_OAUTH_STATE: the OAuth SQLite store
}

// oauthStateFile is the OAuth store's file name inside SOUS_DATA_DIR.
const oauthStateFile = "oauth.sqlite"

// defaultDataDir is ~/.local/share/sous, the XDG data directory most Linux
// hosts use; the container image sets SOUS_DATA_DIR=/data (a volume).
func defaultDataDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share", "sous")
}

// loadConfig reads the environment. Malformed booleans are errors: failing
// open on a safety flag is the wrong default.
func loadConfig() (config, error) {
	c := config{
		MealieURL:      env.String("MEALIE_URL", ""),
		MealieToken:    env.String("MEALIE_API_TOKEN", ""),
		LogLevel:       env.String("MEALIE_LOG_LEVEL", "info"),
		FoodAPIBase:    env.String("FOOD_API_BASE", ""),
		FoodAPIToken:   env.String("FOOD_API_TOKEN", ""),
		ServiceToken:   env.String("SOUS_SERVICE_TOKEN", ""),
		ServeAddr:      env.String("SOUS_SERVE_ADDR", defaultServeAddr),
		RecipesURL:     env.String("SOUS_RECIPES_URL", ""),
		MealPlanURL:    env.String("SOUS_MEALPLAN_URL", ""),
		LibraryURL:     env.String("SOUS_LIBRARY_URL", ""),
		PantryURL:      env.String("SOUS_PANTRY_URL", ""),
		MCPAddr:        env.String("SOUS_MCP_ADDR", defaultMCPAddr),
		Toolsets:       env.List("SOUS_TOOLSETS"),
		URLSecret:      env.String("FOOD_MCP_URL_SECRET", ""),
		MCPBearerToken: env.String("SOUS_MCP_BEARER_TOKEN", ""),
		PublicURL:      env.String("SOUS_PUBLIC_URL", ""),
		ImageDir:       env.String("SOUS_IMAGE_DIR", ""),

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
	if c.MealieReadOnly, err = env.Bool("MEALIE_READ_ONLY", false); err != nil {
		errs = append(errs, err)
	}
	if c.MealieVerifySSL, err = env.Bool("MEALIE_VERIFY_SSL", true); err != nil {
		errs = append(errs, err)
	}
	if c.LinkAllowPrivate, err = env.Bool("SOUS_LINKCHECK_ALLOW_PRIVATE", false); err != nil {
		errs = append(errs, err)
	}
	// The path secret and the static bearer token are other ways in; left
	// beside OAuth they would bypass it.
	if c.OAuthIssuer != "" && c.URLSecret != "" {
		errs = append(errs, errors.New("FOOD_MCP_URL_SECRET and SOUS_OAUTH_ISSUER are both set: choose the path secret or OAuth, not both"))
	}
	if c.OAuthIssuer != "" && c.MCPBearerToken != "" {
		errs = append(errs, errors.New("SOUS_MCP_BEARER_TOKEN and SOUS_OAUTH_ISSUER are both set: choose the bearer token or OAuth, not both"))
	}
	return c, errors.Join(errs...)
}
