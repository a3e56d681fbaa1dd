// Package library implements sous.library.v1.LibraryService: Mealie
// cookbooks (saved recipe filters) and whole-library reports — usage counts,
// duplicate names and dead source links.
//
// Cookbooks go to Mealie through the shared client. Reports read the library
// through the recipes service's SweepRecipes stream, so the recipe-detail
// cache lives in one place (docs/design.md, "Why each service owns its
// backend's cache"); the only Mealie reads a report
// makes itself are taxonomy lists and, for foods, the per-food count queries
// described in stats.go.
//
// It may import proto, internal and services/internal; nothing in mcpfront.
package library

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/svcauth"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/proto/gen/sous/library/v1/libraryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// Config configures the service.
type Config struct {
	// MealieURL is Mealie's base URL (MEALIE_URL). Required.
	MealieURL string
	// MealieToken is a Mealie API token (MEALIE_API_TOKEN). Required. It is
	// sent to Mealie only, never to the hosts the link checker probes.
	MealieToken string
	// InsecureSkipVerify skips TLS verification towards Mealie
	// (MEALIE_VERIFY_SSL=false). The link checker always verifies.
	InsecureSkipVerify bool
	// HTTPClient overrides the transport to Mealie (tests); nil for the
	// default.
	HTTPClient *http.Client
	// Recipes is the recipes service, whose SweepRecipes stream every report
	// reads and whose SearchRecipes serves cookbook contents. Required.
	Recipes recipesv1connect.RecipesServiceClient
	// AllowPrivateLinks lets the link checker probe loopback, link-local,
	// private and unique-local addresses (SOUS_LINKCHECK_ALLOW_PRIVATE=true),
	// for a library whose recipes come from a LAN wiki.
	AllowPrivateLinks bool
	// LinkTimeout bounds each link probe, redirects included; 0 means
	// DefaultLinkTimeout.
	LinkTimeout time.Duration
	// ReadOnly refuses every write (MEALIE_READ_ONLY).
	ReadOnly bool
	// Logger receives service logs; nil discards.
	Logger *slog.Logger
}

// Service implements libraryv1connect.LibraryServiceHandler.
type Service struct {
	mealie   *mealie.Client
	recipes  recipesv1connect.RecipesServiceClient
	links    *linkChecker
	readOnly bool
	log      *slog.Logger

	// detailMu guards detailSeen.
	detailMu sync.Mutex
	// detailSeen holds the slugs this process has read through a detail
	// sweep. The recipes service caches every detail it serves, so these
	// are the recipes a next detail sweep should get without a Mealie
	// request; it prices the detail sweep in the foods cost model
	// (stats.go). A write through the recipes service evicts one entry
	// there, so the estimate errs low by the recipes written since.
	detailSeen map[string]bool

	// stats caches LibraryStats counts (stats.go).
	stats statsCache
	// orderColumn remembers, per Mealie list path, the index in
	// updateColumns of the ordering that list accepts (stats.go).
	orderColumn sync.Map
}

var _ libraryv1connect.LibraryServiceHandler = (*Service)(nil)

// New returns the service. A missing Mealie URL or token, or a missing
// recipes client, is an error naming what to set.
func New(cfg Config) (*Service, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Recipes == nil {
		return nil, fmt.Errorf("library: the recipes service client is required (SOUS_RECIPES_URL)")
	}
	mc, err := mealie.New(mealie.Config{
		BaseURL: cfg.MealieURL, Token: cfg.MealieToken, InsecureSkipVerify: cfg.InsecureSkipVerify,
		HTTPClient: cfg.HTTPClient, Logger: logger,
	})
	if err != nil {
		return nil, err
	}
	timeout := cfg.LinkTimeout
	if timeout <= 0 {
		timeout = DefaultLinkTimeout
	}
	return &Service{
		mealie:     mc,
		recipes:    cfg.Recipes,
		links:      newLinkChecker(cfg.AllowPrivateLinks, timeout),
		readOnly:   cfg.ReadOnly,
		log:        logger,
		detailSeen: map[string]bool{},
		stats:      statsCache{m: map[string]*statsEntry{}},
	}, nil
}

// Handler returns the Connect handler and its mount path. In read-only mode
// it refuses every RPC with side effects (svcauth.ReadOnlyInterceptor).
func (s *Service) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	return libraryv1connect.NewLibraryServiceHandler(s, svcauth.HandlerOptions(s.log, s.readOnly, opts...)...)
}

func invalid(format string, args ...any) error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(format, args...))
}

// GetStatus probes Mealie with the probe every Mealie-backed service runs
// (mealie.Client.Probe): /api/app/about for the version, then
// /api/users/self for the token's user; Mealie below 2.0, which has no
// /api/households layer where cookbooks live, is FailedPrecondition.
func (s *Service) GetStatus(ctx context.Context, _ *connect.Request[libraryv1.GetStatusRequest]) (*connect.Response[libraryv1.GetStatusResponse], error) {
	st, err := s.mealie.Probe(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&libraryv1.GetStatusResponse{
		MealieVersion: st.Version,
		User:          st.User.Username,
		Household:     st.User.Household,
		ReadOnly:      s.readOnly,
	}), nil
}
