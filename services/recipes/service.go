// Package recipes implements sous.recipes.v1.RecipesService over Mealie:
// recipes, search, suggestions, images, URL import, bulk tags, the ingredient
// parser and taxonomy. It owns the Mealie-side caches that whole-library
// reports read through its SweepRecipes stream.
//
// It may import proto, internal and services/internal; nothing in mcpfront.
package recipes

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/souskitchen/sous/internal/svcauth"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/gen/sous/recipes/v1/recipesv1connect"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/keylock"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// Search limits (docs/tools.md, "search_recipes").
const (
	// DefaultSearchLimit is the page size when none is asked: enough to
	// choose from, few enough to stay a few hundred tokens.
	DefaultSearchLimit = limits.DefaultSearchLimit
	// MaxSearchLimit caps a page; larger pages cost tokens for rows a model
	// rarely reads.
	MaxSearchLimit = limits.SearchLimit
	// MaxPage bounds page numbers so a hallucinated page=1e9 is refused
	// rather than sent.
	MaxPage = limits.Page
)

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
	// Pantry is the pantry service, for SuggestRecipes(from_pantry); nil
	// answers from_pantry with FailedPrecondition.
	Pantry pantryv1connect.PantryServiceClient
	// PantrySetting names what the user of this command sets to configure
	// a pantry ("FOOD_API_BASE and FOOD_API_TOKEN" where sous runs it),
	// for the refusal of from_pantry without one; "" names nothing.
	PantrySetting string
	// Backoff overrides the Mealie client's retry backoff (tests).
	Backoff time.Duration
	// KeepUnknownFoods keeps an ingredient line's unknown food in its note
	// instead of creating the food (SOUS_CREATE_FOODS=false).
	KeepUnknownFoods bool
}

// Service implements recipesv1connect.RecipesServiceHandler.
type Service struct {
	recipesv1connect.UnimplementedRecipesServiceHandler
	mealie *mealie.Client
	pantry pantryv1connect.PantryServiceClient
	// pantrySetting is Config.PantrySetting.
	pantrySetting string
	readOnly      bool
	// keepUnknownFoods is Config.KeepUnknownFoods.
	keepUnknownFoods bool
	log              *slog.Logger
	// noSuggestions is set once Mealie answered 404 for
	// /api/recipes/suggestions (Mealie 2.0), so later calls go straight to
	// the local ranking.
	noSuggestions atomic.Bool
	// writes serializes the writes that read a recipe before they write
	// it, per recipe (recipeKey).
	writes keylock.Set
}

// New returns the service.
func New(cfg Config) (*Service, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	mc, err := mealie.New(mealie.Config{
		BaseURL: cfg.MealieURL, Token: cfg.MealieToken, InsecureSkipVerify: cfg.InsecureSkipVerify,
		HTTPClient: cfg.HTTPClient, Logger: logger, Backoff: cfg.Backoff,
	})
	if err != nil {
		return nil, err
	}
	return &Service{mealie: mc, pantry: cfg.Pantry, pantrySetting: cfg.PantrySetting, readOnly: cfg.ReadOnly, keepUnknownFoods: cfg.KeepUnknownFoods, log: logger}, nil
}

// Handler returns the Connect handler and its mount path. In read-only mode
// it refuses every RPC with side effects (svcauth.ReadOnlyInterceptor).
func (s *Service) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	return recipesv1connect.NewRecipesServiceHandler(s, svcauth.HandlerOptions(s.log, s.readOnly, opts...)...)
}

func invalid(format string, args ...any) error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(format, args...))
}

// GetStatus probes Mealie: /api/app/about for the version (no token needed),
// then /api/users/self for the token's user. Mealie below 2.0 answers
// FailedPrecondition.
func (s *Service) GetStatus(ctx context.Context, _ *connect.Request[recipesv1.GetStatusRequest]) (*connect.Response[recipesv1.GetStatusResponse], error) {
	st, err := s.mealie.Probe(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&recipesv1.GetStatusResponse{
		MealieVersion: st.Version,
		User:          st.User.Username,
		Household:     st.User.Household,
		ReadOnly:      s.readOnly,
	}), nil
}

// searchFields are the RecipeSummary fields a search may ask for; the list
// payload has no ingredients, instructions or notes
// (testdata/recipes_list__default.json).
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
			return nil, invalid("fields: unknown field %q; use %s", f, strings.Join(sortedNames(searchFields), ", "))
		}
	}
	for _, l := range []struct {
		field string
		names []string
	}{{"tags", m.GetTags()}, {"categories", m.GetCategories()}, {"tools", m.GetTools()}, {"foods", m.GetFoods()}} {
		if err := checkCount(l.field, len(l.names), MaxTaxonomyNames); err != nil {
			return nil, err
		}
		if err := checkTexts(l.field, l.names, MaxTaxonomyNameChars); err != nil {
			return nil, err
		}
	}
	if err := checkText("query", m.GetQuery(), MaxSearchQueryChars); err != nil {
		return nil, err
	}
	if m.MaxTotalMinutes != nil && (m.GetMaxTotalMinutes() < 1 || m.GetMaxTotalMinutes() > MaxTotalMinutes) {
		return nil, invalid("max_total_minutes must be between 1 and %d, got %d", MaxTotalMinutes, m.GetMaxTotalMinutes())
	}
	q := mealie.RecipeQuery{
		Page:       int(page),
		PerPage:    int(limit),
		Search:     strings.TrimSpace(m.GetQuery()),
		Cookbook:   strings.TrimSpace(m.GetCookbook()),
		RequireAll: m.GetRequireAll(),
		// A stable order, so paging does not skip or repeat recipes, and
		// the one a person reads a list in: name A to Z (Mealie's
		// default direction is descending).
		OrderBy: "name", OrderDirection: "asc",
	}
	// Filters resolve names to slugs (foods to ids) and never create. A
	// name that finds nothing is left out of the search and answered in
	// unknown with the closest names the library has; a filter whose names
	// all find nothing, or one of require_all, is refused before the
	// search (see filterKeys), so no filter is ever silently dropped.
	resolved := map[string]*recipesv1.Names{}
	var foodsByName [][]string // each food name's ids, for textMatches
	var unknownFoods []string
	var unknown []*recipesv1.UnknownName
	lib := s.libraryOnce(ctx) // the closest names of every unknown name, from one sweep
	for _, f := range []struct {
		res   mealie.Resource
		field string
		names []string
		dst   *[]string
	}{
		{mealie.Tags, "tags", m.GetTags(), &q.Tags},
		{mealie.Categories, "categories", m.GetCategories(), &q.Categories},
		{mealie.Tools, "tools", m.GetTools(), &q.Tools},
		{mealie.Foods, "foods", m.GetFoods(), &q.Foods},
	} {
		if len(uniqueNames(f.names)) == 0 {
			continue
		}
		keys, byName, missed, err := s.filterKeys(ctx, f.res, f.field, f.names, q.RequireAll, resolved)
		if err != nil {
			return nil, err
		}
		*f.dst = keys
		if f.res == mealie.Foods {
			// An unknown food may still stand in lines of text; it is
			// unknown only when no line names it either.
			foodsByName, unknownFoods = byName, missed
			continue
		}
		if len(missed) > 0 {
			if err := s.checkUnknown(ctx, lib, f.res, f.field, uniqueNames(f.names), missed, q.RequireAll, &unknown); err != nil {
				return nil, err
			}
		}
	}
	keep := searchKeep(m)
	foodNames := uniqueNames(m.GetFoods())
	// With every food name unknown Mealie's foods filter would be empty
	// and list every recipe: only lines of text can answer then.
	textOnly := len(foodNames) > 0 && len(q.Foods) == 0
	out := &recipesv1.SearchRecipesResponse{Page: page, Limit: limit, Resolved: nilIfEmpty(resolved)}
	var items []*recipesv1.RecipeSummary
	switch terms := queryTerms(q.Search); {
	case textOnly:
		// Every food name is unknown to Mealie: only lines of text
		// answer (textMatches below).
	case len(terms) > 0:
		// sous reads the words itself, the same on SQLite and PostgreSQL
		// (query.go), and pages what it ranked.
		ranked, didYouMean, err := s.searchByQuery(ctx, q, terms)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		if keep != nil {
			ranked = slices.DeleteFunc(ranked, func(m *queryMatch) bool {
				return !kept(keep, m.sum, &out.NoTime)
			})
		}
		var onPage []*queryMatch
		onPage, out.Total, out.TotalPages = pageOf(ranked, page, limit)
		items, out.DidYouMean = matchSummaries(onPage), didYouMean
	case q.Cookbook != "" || keep != nil:
		// A cookbook's total and pages are sous's: Mealie's count joined
		// rows on 2.x and cut pages from them on every version
		// (allMatching). Times and history are filters Mealie cannot
		// apply (searchKeep): every recipe the others match is read and
		// the page is cut here.
		list, err := s.allMatching(ctx, q, "")
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		slices.SortStableFunc(list, func(a, b mealie.RecipeSummary) int {
			return cmp.Or(strings.Compare(names.Fold(a.Name), names.Fold(b.Name)), strings.Compare(a.Slug, b.Slug))
		})
		if keep != nil {
			list = slices.DeleteFunc(list, func(r mealie.RecipeSummary) bool {
				return !kept(keep, &r, &out.NoTime)
			})
		}
		var onPage []mealie.RecipeSummary
		onPage, out.Total, out.TotalPages = pageOf(list, page, limit)
		for i := range onPage {
			items = append(items, summary(&onPage[i]))
		}
	default:
		q.Search = ""
		res, err := s.mealie.ListRecipes(ctx, q)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		out.Page, out.Total, out.TotalPages = int32(res.Page), int32(res.Total), int32(res.TotalPages)
		if shown := (int(out.Page)-1)*int(limit) + len(res.Items); len(res.Items) < int(limit) && int(out.Total) > shown {
			// A short page is the last: a total beyond it counts rows
			// that are not recipes (Mealie 2.x counts a filter's joined
			// rows, TestFilterPagesJoinedRows in integration/contract),
			// and would send a reader to an empty page.
			out.Total, out.TotalPages = int32(shown), out.Page
		}
		for i := range res.Items {
			items = append(items, summary(&res.Items[i]))
		}
	}
	fields := m.GetFields()
	if len(fields) == 0 {
		fields = []string{"slug", "name", "description"}
		if m.MaxTotalMinutes != nil {
			// the answer to "under 30 minutes" shows the minutes
			fields = append(fields, "total_minutes")
		}
	}
	for _, item := range items {
		project(item, fields, "slug")
		if cut, ok := cutDescription(item.GetDescription()); ok {
			item.Description = cut
			out.DescriptionsCut++
		}
		out.Items = append(out.Items, item)
	}
	if len(foodNames) > 0 && page == 1 && q.Search == "" && q.Cookbook == "" {
		more, hit, err := s.textMatches(ctx, foodNames, foodsByName, q, int(limit), keep)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		var missed []string
		for _, n := range unknownFoods {
			if !hit[n] {
				missed = append(missed, n)
			}
		}
		if len(missed) > 0 {
			if err := s.checkUnknown(ctx, lib, mealie.Foods, "foods", foodNames, missed, q.RequireAll, &unknown); err != nil {
				return nil, err
			}
		}
		for _, item := range more {
			project(item, fields, "slug")
			if cut, ok := cutDescription(item.GetDescription()); ok {
				item.Description = cut
				out.DescriptionsCut++
			}
		}
		out.TextMatches = more
	} else if len(unknownFoods) > 0 {
		// Lines of text are read on a first page without a query or a
		// cookbook; otherwise an unknown food is only reported.
		if err := s.checkUnknown(ctx, lib, mealie.Foods, "foods", foodNames, unknownFoods, q.RequireAll, &unknown); err != nil {
			return nil, err
		}
	}
	out.Unknown = unknown
	return connect.NewResponse(out), nil
}

// sortedNames lists a field set's names in order, for a refusal that says
// which names there are.
func sortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// recipeFields are the Recipe fields GetRecipe may narrow to.
var recipeFields = fieldNames(&recipesv1.Recipe{})

// GetRecipe reads one recipe.
func (s *Service) GetRecipe(ctx context.Context, req *connect.Request[recipesv1.GetRecipeRequest]) (*connect.Response[recipesv1.GetRecipeResponse], error) {
	slug, err := checkSlug("slug", req.Msg.GetSlug())
	if err != nil {
		return nil, err
	}
	for _, f := range req.Msg.GetFields() {
		if !recipeFields[f] {
			return nil, invalid("fields: unknown field %q; use %s", f, strings.Join(sortedNames(recipeFields), ", "))
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
	keep := []string{"slug"}
	if slices.Contains(req.Msg.GetFields(), "ingredients") {
		// The lines and what Mealie's app hides of them go together.
		keep = append(keep, "amounts_hidden")
	}
	project(out, req.Msg.GetFields(), keep...)
	return connect.NewResponse(&recipesv1.GetRecipeResponse{Recipe: out}), nil
}
