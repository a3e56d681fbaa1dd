// Package recipes implements sous.recipes.v1.RecipesService over Mealie:
// recipes, search, suggestions, images, URL import, bulk tags, the ingredient
// parser and taxonomy. It owns the Mealie-side caches that whole-library
// reports read through its SweepRecipes stream.
//
// It may import proto, internal and services/internal; nothing in mcpfront.
package recipes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/souskitchen/sous/internal/svcauth"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// Search limits, from the seed's "Recipes" section.
const (
	// DefaultSearchLimit is the page size when none is asked: enough to
	// choose from, few enough to stay a few hundred tokens.
	DefaultSearchLimit = 20
	// MaxSearchLimit caps a page; larger pages cost tokens for rows a model
	// rarely reads.
	MaxSearchLimit = 100
	// MaxPage bounds page numbers so a hallucinated page=1e9 is refused
	// rather than sent.
	MaxPage = 10000
)

// MinMealieMajor is the oldest Mealie sous supports: 1.x has no
// /api/households layer (seed, "Target Mealie version").
const MinMealieMajor = 2

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
	// ReadOnly refuses every write (MEALIE_READ_ONLY).
	ReadOnly bool
	// Logger receives service logs; nil discards.
	Logger *slog.Logger
}

// Service implements recipesv1connect.RecipesServiceHandler. RPCs not yet
// implemented answer Unimplemented.
type Service struct {
	recipesv1connect.UnimplementedRecipesServiceHandler
	mealie   *mealie.Client
	readOnly bool
	log      *slog.Logger
}

// New returns the service.
func New(cfg Config) (*Service, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	mc, err := mealie.New(mealie.Config{
		BaseURL: cfg.MealieURL, Token: cfg.MealieToken, InsecureSkipVerify: cfg.InsecureSkipVerify,
		HTTPClient: cfg.HTTPClient, Logger: logger,
	})
	if err != nil {
		return nil, err
	}
	return &Service{mealie: mc, readOnly: cfg.ReadOnly, log: logger}, nil
}

// Handler returns the Connect handler and its mount path. In read-only mode
// it refuses every RPC with side effects (svcauth.ReadOnlyInterceptor).
func (s *Service) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	if s.readOnly {
		opts = append(opts, connect.WithInterceptors(svcauth.ReadOnlyInterceptor()))
	}
	return recipesv1connect.NewRecipesServiceHandler(s, opts...)
}

func invalid(format string, args ...any) error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(format, args...))
}

// GetStatus probes Mealie: /api/app/about for the version (no token needed),
// then /api/users/self for the token's user.
func (s *Service) GetStatus(ctx context.Context, _ *connect.Request[recipesv1.GetStatusRequest]) (*connect.Response[recipesv1.GetStatusResponse], error) {
	about, err := s.mealie.About(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if major, ok := majorVersion(about.Version); ok && major < MinMealieMajor {
		return nil, connect.NewError(connect.CodeFailedPrecondition,
			fmt.Errorf("Mealie %s is not supported: sous needs Mealie 2.0 or newer (1.x has no households API)", about.Version))
	}
	user, err := s.mealie.Self(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&recipesv1.GetStatusResponse{
		MealieVersion: about.Version,
		User:          user.Username,
		Household:     user.Household,
		ReadOnly:      s.readOnly,
	}), nil
}

// majorVersion reads the major number of "v2.8.0" or "2.8.0". Unreleased
// builds report "develop" (fixtures/mealie-2.0/app_about__ok.json), which has
// no number: ok is false and the caller lets it pass.
func majorVersion(v string) (int, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	head, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(head)
	return n, err == nil
}

// searchFields are the RecipeSummary fields a search may ask for; the list
// payload has no ingredients, instructions or notes (seed, "Recipes").
var searchFields = fieldNames(&recipesv1.RecipeSummary{})

// SearchRecipes pages GET /api/recipes.
func (s *Service) SearchRecipes(ctx context.Context, req *connect.Request[recipesv1.SearchRecipesRequest]) (*connect.Response[recipesv1.SearchRecipesResponse], error) {
	m := req.Msg
	page, limit := int32(1), int32(DefaultSearchLimit)
	if m.Page != nil {
		if page = m.GetPage(); page < 1 || page > MaxPage {
			return nil, invalid("page must be between 1 and %d, got %d", MaxPage, page)
		}
	}
	if m.Limit != nil {
		if limit = m.GetLimit(); limit < 1 || limit > MaxSearchLimit {
			return nil, invalid("limit must be between 1 and %d, got %d", MaxSearchLimit, limit)
		}
	}
	for _, f := range m.GetFields() {
		switch f {
		case "ingredients", "instructions", "notes":
			return nil, invalid("fields: %q is not in search results — call get_recipe for it", f)
		}
		if !searchFields[f] {
			return nil, invalid("fields: unknown field %q", f)
		}
	}
	if len(m.GetTags())+len(m.GetCategories())+len(m.GetTools())+len(m.GetFoods()) > 0 {
		return nil, connect.NewError(connect.CodeUnimplemented, errors.New("filtering by tags, categories, tools or foods is not available yet"))
	}
	res, err := s.mealie.ListRecipes(ctx, mealie.RecipeQuery{
		Page:     int(page),
		PerPage:  int(limit),
		Search:   strings.TrimSpace(m.GetQuery()),
		Cookbook: m.GetCookbook(),
		// A stable order, so paging does not skip or repeat recipes.
		OrderBy: "name",
	})
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out := &recipesv1.SearchRecipesResponse{
		Page:       int32(res.Page),
		Limit:      limit,
		Total:      int32(res.Total),
		TotalPages: int32(res.TotalPages),
	}
	fields := m.GetFields()
	if len(fields) == 0 {
		fields = []string{"slug", "name", "description"}
	}
	for i := range res.Items {
		item := summary(&res.Items[i])
		project(item, fields, "slug")
		out.Items = append(out.Items, item)
	}
	return connect.NewResponse(out), nil
}

// recipeFields are the Recipe fields GetRecipe may narrow to.
var recipeFields = fieldNames(&recipesv1.Recipe{})

// GetRecipe reads one recipe.
func (s *Service) GetRecipe(ctx context.Context, req *connect.Request[recipesv1.GetRecipeRequest]) (*connect.Response[recipesv1.GetRecipeResponse], error) {
	slug := strings.TrimSpace(req.Msg.GetSlug())
	if slug == "" {
		return nil, invalid("slug is required")
	}
	for _, f := range req.Msg.GetFields() {
		if !recipeFields[f] {
			return nil, invalid("fields: unknown field %q", f)
		}
	}
	r, raw, err := s.mealie.GetRecipe(ctx, slug)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if req.Msg.GetFull() {
		st := &structpb.Struct{}
		if err := st.UnmarshalJSON(raw); err != nil {
			return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("recipe '%s': Mealie's payload is not a JSON object", slug))
		}
		return connect.NewResponse(&recipesv1.GetRecipeResponse{Raw: st}), nil
	}
	out := detail(r)
	project(out, req.Msg.GetFields(), "slug")
	return connect.NewResponse(&recipesv1.GetRecipeResponse{Recipe: out}), nil
}
