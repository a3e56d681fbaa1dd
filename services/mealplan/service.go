// Package mealplan implements sous.mealplan.v1.MealPlanService over Mealie's
// household endpoints: meal plans (read, today, add, delete, random fill) and
// shopping lists that ask the pantry service what is already in stock.
//
// Recipe slugs are resolved through the recipes service; stock comes from the
// pantry service's GetPantry. It may import proto, internal and
// services/internal; nothing in mcpfront.
package mealplan

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/svcauth"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/gen/sous/mealplan/v1/mealplanv1connect"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/internal/keylock"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// PantryProbeTimeout bounds GetStatus's probe of the pantry service: the
// status answer must stay quick even when the pantry host hangs.
const PantryProbeTimeout = 3 * time.Second

// Config configures the service.
type Config struct {
	// MealieURL is Mealie's base URL (MEALIE_URL). Required.
	MealieURL string
	// MealieToken is a Mealie API token (MEALIE_API_TOKEN). Required.
	MealieToken string
	// InsecureSkipVerify skips TLS verification (MEALIE_VERIFY_SSL=false).
	InsecureSkipVerify bool
	// HTTPClient overrides the transport to Mealie (tests); nil for the
	// default.
	HTTPClient *http.Client
	// Recipes resolves recipe slugs to Mealie ids (ResolveRecipeSlugs).
	// Required.
	Recipes recipesv1connect.RecipesServiceClient
	// Pantry answers what is in stock (GetPantry); nil when no pantry
	// service is configured, in which case AddToShoppingList adds without
	// checking and says so.
	Pantry pantryv1connect.PantryServiceClient
	// PantrySetting names what the user sets to configure a pantry, for
	// the sentences that say none is: "SOUS_PANTRY_URL" (the default) for
	// a service reached by URL, "FOOD_API_BASE and FOOD_API_TOKEN" where
	// sous runs the pantry itself.
	PantrySetting string
	// Location is the zone "today" is resolved in (TZ); nil means
	// time.Local.
	Location *time.Location
	// ReadOnly refuses every write (MEALIE_READ_ONLY).
	ReadOnly bool
	// Logger receives service logs; nil discards.
	Logger *slog.Logger
	// Now overrides the clock (tests); nil means time.Now.
	Now func() time.Time
}

// Service implements mealplanv1connect.MealPlanServiceHandler.
type Service struct {
	mealplanv1connect.UnimplementedMealPlanServiceHandler
	mealie  *mealie.Client
	recipes recipesv1connect.RecipesServiceClient
	pantry  pantryv1connect.PantryServiceClient
	// pantrySetting is Config.PantrySetting, defaulted.
	pantrySetting string
	loc           *time.Location
	now           func() time.Time
	readOnly      bool
	log           *slog.Logger
	// refusal is this Mealie's last refusal of the newer entry types.
	refusal newerTypesRefusal
	// writes serializes the writes that read before they write, per thing
	// written: a shopping list (listKey), a list name being created
	// (listNameKey), a meal-plan entry (entryKey). Reads take no key.
	writes keylock.Set
}

// New returns the service. A missing Mealie URL or token, or a missing
// recipes client, is an error.
func New(cfg Config) (*Service, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Recipes == nil {
		return nil, errors.New("mealplan: a recipes service client is required to resolve recipe slugs")
	}
	mc, err := mealie.New(mealie.Config{
		BaseURL: cfg.MealieURL, Token: cfg.MealieToken, InsecureSkipVerify: cfg.InsecureSkipVerify,
		HTTPClient: cfg.HTTPClient, Logger: logger,
	})
	if err != nil {
		return nil, err
	}
	loc := cfg.Location
	if loc == nil {
		loc = time.Local
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	setting := cfg.PantrySetting
	if setting == "" {
		setting = "SOUS_PANTRY_URL"
	}
	return &Service{mealie: mc, recipes: cfg.Recipes, pantry: cfg.Pantry, pantrySetting: setting, loc: loc, now: now,
		readOnly: cfg.ReadOnly, log: logger}, nil
}

// Handler returns the Connect handler and its mount path. In read-only mode
// it refuses every RPC with side effects (svcauth.ReadOnlyInterceptor).
func (s *Service) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	return mealplanv1connect.NewMealPlanServiceHandler(s, svcauth.HandlerOptions(s.log, s.readOnly, opts...)...)
}

func invalid(format string, args ...any) error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(format, args...))
}

// GetStatus probes Mealie (/api/app/about, then /api/users/self; Mealie
// below 2.0 answers FailedPrecondition) and the pantry service's GetStatus. A pantry that does not answer is reported, not
// an error: everything but skip_in_stock works without it.
func (s *Service) GetStatus(ctx context.Context, _ *connect.Request[mealplanv1.GetStatusRequest]) (*connect.Response[mealplanv1.GetStatusResponse], error) {
	st, err := s.mealie.Probe(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out := &mealplanv1.GetStatusResponse{
		MealieVersion: st.Version, User: st.User.Username, Household: st.User.Household, ReadOnly: s.readOnly,
	}
	if s.pantry == nil {
		out.PantryMessage = s.pantryNotConfigured()
	} else {
		pctx, cancel := context.WithTimeout(ctx, PantryProbeTimeout)
		defer cancel()
		if _, err := s.pantry.GetStatus(pctx, connect.NewRequest(&pantryv1.GetStatusRequest{})); err != nil {
			out.PantryMessage = "pantry service did not answer: " + connectMessage(err)
		} else {
			out.PantryAvailable = true
		}
	}
	return connect.NewResponse(out), nil
}

// connectMessage is an error's message without connect's "code: " prefix.
func connectMessage(err error) string {
	var ce *connect.Error
	if errors.As(err, &ce) {
		return ce.Message()
	}
	return err.Error()
}
