package pantry

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/services/internal/names"
)

// GetMetaRecipes lists every meta-recipe with its slots (GET
// /meta-recipes/), ordered by name.
func (s *Service) GetMetaRecipes(ctx context.Context, _ *connect.Request[pantryv1.GetMetaRecipesRequest]) (*connect.Response[pantryv1.GetMetaRecipesResponse], error) {
	var list []apiMetaRecipe
	if err := s.food.get(ctx, "/meta-recipes/", nil, &list); err != nil {
		return nil, connectError(err, "")
	}
	out := &pantryv1.GetMetaRecipesResponse{}
	for _, mr := range list {
		out.Items = append(out.Items, metaRecipe(mr))
	}
	sortByName(out.Items)
	return connect.NewResponse(out), nil
}

// CreateMetaRecipe saves a whole meta-recipe: POST /create-meta-recipe/ to
// create, PUT with the id to rebuild an existing one in place (same id).
func (s *Service) CreateMetaRecipe(ctx context.Context, req *connect.Request[pantryv1.CreateMetaRecipeRequest]) (*connect.Response[pantryv1.CreateMetaRecipeResponse], error) {
	m := req.Msg
	name := normName(m.GetName())
	if n := utf8.RuneCountInString(name); n == 0 || n > MaxNameChars {
		return nil, invalid("name must be 1 to %d characters", MaxNameChars)
	}
	if n := utf8.RuneCountInString(m.GetMethod()); n > MaxMethodChars {
		return nil, invalid("method: at most %d characters, got %d", MaxMethodChars, n)
	}
	if len(m.GetSlots()) > MaxSlots {
		return nil, invalid("a meta-recipe has at most %d slots, got %d", MaxSlots, len(m.GetSlots()))
	}
	if len(m.GetBaseIngredients()) > MaxBaseIngredients {
		return nil, invalid("a meta-recipe has at most %d base ingredients, got %d", MaxBaseIngredients, len(m.GetBaseIngredients()))
	}
	slots := make([]map[string]any, 0, len(m.GetSlots()))
	for i, sl := range m.GetSlots() {
		sname := normName(sl.GetName())
		if sname == "" {
			return nil, invalid("slots[%d].name is required", i)
		}
		if err := checkName(fmt.Sprintf("slots[%d].name", i), sname); err != nil {
			return nil, err
		}
		if n := len(sl.GetOptions()); n == 0 || n > MaxOptions {
			return nil, invalid("slots[%d] (%s) needs 1 to %d options, got %d", i, sname, MaxOptions, n)
		}
		if err := checkAmounts(fmt.Sprintf("slots[%d].options", i), sl.GetOptions()); err != nil {
			return nil, err
		}
		slots = append(slots, map[string]any{"name": sname})
	}
	if err := checkAmounts("base_ingredients", m.GetBaseIngredients()); err != nil {
		return nil, err
	}
	if m.Id != nil && m.GetId() < 1 {
		return nil, invalid("id must be positive, got %d", m.GetId())
	}
	// Every argument is checked before this first request.
	ix, err := s.ingredientIndex(ctx)
	if err != nil {
		return nil, connectError(err, "")
	}
	var resolved map[string]string
	for i, sl := range m.GetSlots() {
		opts, err := amountInputs(ix, fmt.Sprintf("slots[%d].options", i), sl.GetOptions(), &resolved)
		if err != nil {
			return nil, err
		}
		slots[i]["options"] = opts
	}
	bases, err := amountInputs(ix, "base_ingredients", m.GetBaseIngredients(), &resolved)
	if err != nil {
		return nil, err
	}
	body := map[string]any{"name": name, "method": m.GetMethod(), "slots": slots, "base_ingredients": bases}
	method := http.MethodPost
	if m.Id != nil {
		body["id"], method = m.GetId(), http.MethodPut
	}
	var res struct {
		MetaRecipe         apiMetaRecipe     `json:"meta_recipe"`
		CreatedIngredients []string          `json:"created_ingredients"`
		Resolved           map[string]string `json:"resolved"`
	}
	if err := s.food.send(ctx, method, "/create-meta-recipe/", body, &res); err != nil {
		return nil, connectError(err, "")
	}
	return connect.NewResponse(&pantryv1.CreateMetaRecipeResponse{
		MetaRecipe: metaRecipe(res.MetaRecipe), CreatedIngredients: res.CreatedIngredients, Updated: m.Id != nil, Resolved: mergeResolved(resolved, res.Resolved),
	}), nil
}

// checkAmounts refuses an empty or overlong ingredient name and a negative
// quantity, naming the argument.
func checkAmounts(field string, in []*pantryv1.IngredientAmount) error {
	for i, a := range in {
		ing := normName(a.GetIngredient())
		if ing == "" {
			return invalid("%s[%d].ingredient is required", field, i)
		}
		if err := checkName(fmt.Sprintf("%s[%d].ingredient", field, i), ing); err != nil {
			return err
		}
		if a.Quantity != nil && a.GetQuantity() < 0 {
			return invalid("%s[%d].quantity must not be negative", field, i)
		}
	}
	return nil
}

// amountInputs builds the food API's amounts of checked input, each name
// read with the resolver (bind): a general word is kept as the user's and
// created, never narrowed to a kind it covers.
func amountInputs(ix *names.Index, field string, in []*pantryv1.IngredientAmount, resolved *map[string]string) ([]map[string]any, error) {
	out := make([]map[string]any, 0, len(in))
	for i, a := range in {
		ing, _, err := bind(ix, fmt.Sprintf("%s[%d].ingredient", field, i), normName(a.GetIngredient()), resolved)
		if err != nil {
			return nil, err
		}
		e := map[string]any{"ingredient": ing, "unit": strings.TrimSpace(a.GetUnit())}
		if a.Quantity != nil {
			e["quantity"] = a.GetQuantity()
		}
		out = append(out, e)
	}
	return out, nil
}

// mergeResolved adds the food API's own resolved names to the resolver's.
func mergeResolved(m, more map[string]string) map[string]string {
	for given, stored := range more {
		noteResolved(&m, given, stored)
	}
	return m
}

func sortByName(items []*pantryv1.MetaRecipe) {
	slices.SortStableFunc(items, func(a, b *pantryv1.MetaRecipe) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
}
