package pantry

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/services/internal/names"
)

// Names a write carries are read with sous's shared resolver (package
// names) before the food API sees them, so "noodles", "Egg Noodles" and
// "egg noodle" bind to "egg noodles" here as they do in the recipes and
// mealplan services, a name that fits two ingredients equally is refused
// with both named and nothing written, and every name read other than
// exactly is answered in resolved. The food API is then sent the stored
// name; what the resolver does not bind is sent as given, for the food API
// to create (add_to_pantry, create_meta_recipe, log_cook) or refuse with its
// close matches (set_item_state).

// apiIngredient is one row of GET /ingredients/ (foodapi
// kitchen/views.py IngredientListView).
type apiIngredient struct {
	ID      int64    `json:"id"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
}

// ingredientIndex reads every ingredient with its aliases. A food API
// without /ingredients/ (one that follows the pantry spec's §6 alone)
// answers 404; its pantry rows, which carry each ingredient's aliases,
// stand in, and the food API's own matching covers ingredients that only a
// template uses.
func (s *Service) ingredientIndex(ctx context.Context) (*names.Index, error) {
	var list []apiIngredient
	err := s.food.get(ctx, "/ingredients/", nil, &list)
	var ae *apiError
	if errors.As(err, &ae) && ae.kind == kindNotFound {
		items, perr := s.pantry(ctx, pantryv1.Location_LOCATION_UNSPECIFIED)
		if perr != nil {
			return nil, perr
		}
		return pantryIndex(items), nil
	}
	if err != nil {
		return nil, err
	}
	entries := make([]names.Entry, 0, len(list))
	for _, in := range list {
		entries = append(entries, names.Entry{ID: strconv.FormatInt(in.ID, 10), Name: in.Name, Others: in.Aliases})
	}
	return names.NewIndex(entries), nil
}

// pantryIndex indexes the ingredients of pantry rows, once each.
func pantryIndex(items []apiItem) *names.Index {
	seen := map[string]bool{}
	var entries []names.Entry
	for _, it := range items {
		if seen[it.Ingredient] {
			continue
		}
		seen[it.Ingredient] = true
		entries = append(entries, names.Entry{Name: it.Ingredient, Others: it.Aliases})
	}
	return names.NewIndex(entries)
}

// bind reads given for a write (names.Index.Bind: exact, alias, plural;
// a general word is never narrowed to a kind it covers) and returns the
// name to send: the stored name when one was bound, given otherwise. A
// name read other than exactly is noted in *resolved. field names the
// argument in the error of an ambiguous name, which carries a NameMatches
// detail listing the candidates.
func bind(ix *names.Index, field, given string, resolved *map[string]string) (string, names.How, error) {
	e, how, err := ix.Bind(given)
	if err != nil {
		return "", names.None, ambiguous(field, given, err)
	}
	switch how {
	case names.Exact:
		return e.Name, how, nil
	case names.Alias, names.Plural:
		noteResolved(resolved, given, e.Name)
		return e.Name, how, nil
	}
	return given, names.None, nil
}

// ambiguous is the InvalidArgument of a name that fits several ingredients
// equally.
func ambiguous(field, given string, err error) error {
	var amb *names.AmbiguousError
	if !errors.As(err, &amb) {
		return connect.NewError(connect.CodeInternal, err)
	}
	return ambiguousOf(field, given, amb.Candidates)
}

func ambiguousOf(field, given string, candidates []string) error {
	amb := &names.AmbiguousError{Name: given, Candidates: candidates}
	out := connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("%s: %s; nothing was written", field, amb.Error()))
	if d, derr := connect.NewErrorDetail(&pantryv1.NameMatches{Name: given, CloseMatches: limit(candidates), Ambiguous: true}); derr == nil {
		out.AddDetail(d)
	}
	return out
}

// bindCooked reads log_cook's meta_recipe or recipe, when given by name,
// against the food API's list of them (GET /meta-recipes/ or /recipes/),
// so "Weeknight Stir Fry" logs "Weeknight stir-fry" and says so in
// *resolved. A name that binds nothing is sent as given, as it is to a
// food API without the list: the food API refuses it with its close
// matches. It returns the meta-recipe logged, when the list has it (by
// name or id), for its slots' options.
func (s *Service) bindCooked(ctx context.Context, body map[string]any, resolved *map[string]string) (*apiMetaRecipe, error) {
	var found *apiMetaRecipe
	for _, c := range []struct{ field, path string }{{"meta_recipe", "/meta-recipes/"}, {"recipe", "/recipes/"}} {
		ref, ok := body[c.field]
		if !ok {
			continue
		}
		var list []apiMetaRecipe // a fixed recipe reads as one without slots
		err := s.food.get(ctx, c.path, nil, &list)
		var ae *apiError
		if errors.As(err, &ae) && ae.kind == kindNotFound {
			continue // a food API without the list: it reads the name itself
		}
		if err != nil {
			return nil, connectError(err, "")
		}
		if given, isName := ref.(string); isName {
			entries := make([]names.Entry, 0, len(list))
			for _, r := range list {
				entries = append(entries, names.Entry{ID: strconv.FormatInt(r.ID, 10), Name: r.Name})
			}
			send, _, err := bind(names.NewIndex(entries), c.field, given, resolved)
			if err != nil {
				return nil, err
			}
			body[c.field] = send
		}
		if c.field != "meta_recipe" {
			continue
		}
		for i := range list {
			if id, isID := body[c.field].(int64); isID && list[i].ID == id || strings.EqualFold(fmt.Sprint(body[c.field]), list[i].Name) {
				found = &list[i]
			}
		}
	}
	return found, nil
}

// bindChoice reads one slot choice: bind first; then a general word that
// covers exactly one of its slot's options ("rice" beside the option
// "jasmine rice") is read as that option and answered in *resolved, since
// the cook chose from the template, and one covering several options is
// refused naming them. A general word covering no option is kept, to be
// logged off-template.
func bindChoice(ix *names.Index, mr *apiMetaRecipe, field, slot, given string, resolved *map[string]string) (string, error) {
	send, how, err := bind(ix, field, given, resolved)
	if err != nil || how != names.None || mr == nil {
		return send, err
	}
	r := ix.Resolve(given)
	if r.How != names.General {
		return send, nil
	}
	var options []string
	for _, sl := range mr.Slots {
		if !strings.EqualFold(normName(sl.Name), slot) {
			continue
		}
		for _, o := range sl.Options {
			if slices.ContainsFunc(r.Matches, func(e names.Entry) bool { return strings.EqualFold(e.Name, o.Ingredient) }) {
				options = append(options, o.Ingredient)
			}
		}
	}
	switch len(options) {
	case 0:
		return send, nil
	case 1:
		noteResolved(resolved, given, options[0])
		return options[0], nil
	}
	return "", ambiguousOf(field, given, options)
}
