// Package pantry implements sous.pantry.v1.PantryService over the Django
// food API: the household's pantry, meta-recipes and cook logs, the seven
// tools of the food pantry spec §5 with the §6 API changes.
//
// The service holds no database of its own; every RPC is one or two calls to
// the food API (client.go) whose answers are shaped into compact messages
// (shape.go); the names a write carries are read with the shared resolver,
// services/internal/names (resolve.go). It may import proto, internal and
// services/internal; nothing in mcpfront.
package pantry

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/svcauth"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/proto/limits"
)

// Request limits, as the proto states them. Each is far above real use and
// keeps a runaway caller from building huge requests.
const (
	// MaxAdditions caps AddToPantry's items: a big shop is a few dozen.
	MaxAdditions = limits.PantryAdditions
	// MaxServings caps servings in WhatCanICook and LogCook: a household
	// cooks for a few; 50 already covers a party.
	MaxServings = limits.Servings
	// MinRating and MaxRating bound a cook log's rating, 1-5 stars (spec
	// §6.1).
	MinRating, MaxRating = limits.MinRating, limits.MaxRating
	// MaxNotes caps a cook log's notes, in characters.
	MaxNotes = limits.CookNotesChars
	// MaxNameChars caps every name a request carries (ingredients, slots,
	// meta-recipes, recipes), in characters after whitespace is collapsed.
	// It is the food API's NAME_MAX_LENGTH (foodapi
	// kitchen/models.py): its name columns hold 120 characters, plenty for
	// "tinned chopped tomatoes with garlic". Checking here answers before
	// any request instead of after a read and a refused write.
	MaxNameChars = limits.PantryNameChars
	// MaxMethodChars caps a meta-recipe's method, in characters: several
	// printed pages of steps, and no megabyte posted to the food API.
	MaxMethodChars = limits.MethodChars
	// MaxSlots caps a meta-recipe's slots.
	MaxSlots = limits.Slots
	// MaxOptions caps one slot's options.
	MaxOptions = limits.SlotOptions
	// MaxBaseIngredients caps a meta-recipe's base ingredients.
	MaxBaseIngredients = limits.BaseIngredients
)

// Config configures the service.
type Config struct {
	// FoodAPIBase is the food API's /api root (FOOD_API_BASE), such as
	// "http://127.0.0.1:8042/api". Required.
	FoodAPIBase string
	// FoodAPIToken is the service user's DRF token (FOOD_API_TOKEN),
	// sent as "Authorization: Token <token>". Required.
	FoodAPIToken string
	// HTTPClient overrides the transport to the food API (tests); nil for
	// the default. Its Timeout is replaced by Timeout.
	HTTPClient *http.Client
	// ReadOnly refuses every write (MEALIE_READ_ONLY).
	ReadOnly bool
	// Logger receives service logs; nil discards.
	Logger *slog.Logger
}

// Service implements pantryv1connect.PantryServiceHandler.
type Service struct {
	pantryv1connect.UnimplementedPantryServiceHandler
	food     *foodClient
	readOnly bool
	log      *slog.Logger
	// today returns the local calendar date (LogCook's default date).
	today func() string
}

// New returns the service. A missing or malformed FoodAPIBase or a missing
// FoodAPIToken is an error naming the variable to set.
func New(cfg Config) (*Service, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	fc, err := newFoodClient(cfg.FoodAPIBase, cfg.FoodAPIToken, cfg.HTTPClient, logger)
	if err != nil {
		return nil, err
	}
	return &Service{
		food: fc, readOnly: cfg.ReadOnly, log: logger,
		today: func() string { return time.Now().Format(time.DateOnly) },
	}, nil
}

// Handler returns the Connect handler and its mount path. In read-only mode
// it refuses every RPC with side effects (svcauth.ReadOnlyInterceptor).
func (s *Service) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	return pantryv1connect.NewPantryServiceHandler(s, svcauth.HandlerOptions(s.log, s.readOnly, opts...)...)
}

func invalid(format string, args ...any) error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(format, args...))
}

// normName trims and collapses whitespace, as the food API does.
func normName(s string) string { return strings.Join(strings.Fields(s), " ") }

// checkName refuses a name longer than MaxNameChars; field names it in the
// message ("items[2].name").
func checkName(field, name string) error {
	if n := utf8.RuneCountInString(name); n > MaxNameChars {
		return invalid("%s must be at most %d characters, got %d", field, MaxNameChars, n)
	}
	return nil
}

// GetStatus probes the food API: GET /auth/check/ proves the token (the
// health endpoint would answer without one), then GET /pantry/ counts items.
func (s *Service) GetStatus(ctx context.Context, _ *connect.Request[pantryv1.GetStatusRequest]) (*connect.Response[pantryv1.GetStatusResponse], error) {
	var who struct {
		Username string `json:"username"`
	}
	if err := s.food.get(ctx, "/auth/check/", nil, &who); err != nil {
		return nil, connectError(probeError(err), "")
	}
	items, err := s.pantry(ctx, pantryv1.Location_LOCATION_UNSPECIFIED)
	if err != nil {
		return nil, connectError(err, "")
	}
	return connect.NewResponse(&pantryv1.GetStatusResponse{
		ApiBase: s.food.conn.Base, ItemCount: int32(len(items)), ReadOnly: s.readOnly,
	}), nil
}
