package recipes

import (
	"context"
	"fmt"
	"strings"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// checkBatch bounds the items of one create or update.
func checkBatch(n int) error {
	if n == 0 || n > MaxBatchItems {
		return invalid("items: give 1 to %d, got %d", MaxBatchItems, n)
	}
	return nil
}

// taxonomyChange is what w writes to an item of res, refused when it sets
// a field res does not have.
func taxonomyChange(res mealie.Resource, w *recipesv1.TaxonomyWrite) (mealie.TaxonomyChange, error) {
	var ch mealie.TaxonomyChange
	if w.Name != nil {
		n := strings.TrimSpace(w.GetName())
		if n == "" {
			return ch, fmt.Errorf("name is empty")
		}
		ch.Name = &n
	}
	set := func(dst **string, v *string, ok bool, what string) error {
		if v == nil {
			return nil
		}
		if !ok {
			return fmt.Errorf("%s do not have %s", res, what)
		}
		t := strings.TrimSpace(*v)
		*dst = &t
		return nil
	}
	isFU := res == mealie.Foods || res == mealie.Units
	if err := set(&ch.Description, w.Description, isFU, "a description"); err != nil {
		return ch, err
	}
	if err := set(&ch.PluralName, w.PluralName, isFU, "a plural name"); err != nil {
		return ch, err
	}
	if err := set(&ch.Abbreviation, w.Abbreviation, res == mealie.Units, "an abbreviation"); err != nil {
		return ch, err
	}
	if w.Color != nil {
		c := strings.TrimSpace(w.GetColor())
		if res != mealie.Labels {
			return ch, fmt.Errorf("%s do not have a colour", res)
		}
		if !isHexColor(c) {
			return ch, fmt.Errorf("color must be #RRGGBB, got %q", c)
		}
		ch.Color = &c
	}
	if w.OnHand != nil {
		if res != mealie.Foods && res != mealie.Tools {
			return ch, fmt.Errorf("%s have no on-hand flag", res)
		}
		onHand := w.GetOnHand()
		ch.OnHand = &onHand
	}
	return ch, nil
}

func isHexColor(c string) bool {
	if len(c) != 7 || c[0] != '#' {
		return false
	}
	for _, r := range c[1:] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

func itemError(i int, item string, err error) *recipesv1.ItemError {
	return &recipesv1.ItemError{Index: int32(i), Item: item, Message: errMessage(err)}
}

// CreateTaxonomy creates items one by one; one bad item lands in errors
// without stranding the others.
func (s *Service) CreateTaxonomy(ctx context.Context, req *connect.Request[recipesv1.CreateTaxonomyRequest]) (*connect.Response[recipesv1.CreateTaxonomyResponse], error) {
	res, err := resourceOf(req.Msg.GetResource())
	if err != nil {
		return nil, err
	}
	items := req.Msg.GetItems()
	if err := checkBatch(len(items)); err != nil {
		return nil, err
	}
	out := &recipesv1.CreateTaxonomyResponse{}
	for i, w := range items {
		if w.Name == nil {
			out.Errors = append(out.Errors, itemError(i, "", fmt.Errorf("name is required")))
			continue
		}
		ch, err := taxonomyChange(res, w)
		if err != nil {
			out.Errors = append(out.Errors, itemError(i, w.GetName(), err))
			continue
		}
		it, err := s.mealie.CreateTaxonomy(ctx, res, ch)
		if err != nil {
			out.Errors = append(out.Errors, itemError(i, w.GetName(), err))
			continue
		}
		out.Items = append(out.Items, taxonomyItem(it))
	}
	return connect.NewResponse(out), nil
}

// UpdateTaxonomy reads each row before writing it, because Mealie's PUT
// replaces the row wholesale: a PUT of {name} alone resets the rest.
func (s *Service) UpdateTaxonomy(ctx context.Context, req *connect.Request[recipesv1.UpdateTaxonomyRequest]) (*connect.Response[recipesv1.UpdateTaxonomyResponse], error) {
	res, err := resourceOf(req.Msg.GetResource())
	if err != nil {
		return nil, err
	}
	items := req.Msg.GetItems()
	if err := checkBatch(len(items)); err != nil {
		return nil, err
	}
	ids := make([]string, len(items))
	for i, w := range items {
		ids[i] = w.GetId()
	}
	if ids, err = s.taxonomyIDs(ctx, res, "items[%d].id", ids); err != nil {
		return nil, err
	}
	out := &recipesv1.UpdateTaxonomyResponse{}
	for i, w := range items {
		id := ids[i]
		cur, err := s.mealie.GetTaxonomy(ctx, res, id)
		if err != nil {
			out.Errors = append(out.Errors, itemError(i, id, err))
			continue
		}
		ch, err := taxonomyChange(res, w)
		if err != nil {
			out.Errors = append(out.Errors, itemError(i, id, err))
			continue
		}
		it, err := s.mealie.PutTaxonomy(ctx, res, id, cur, ch)
		if err != nil {
			out.Errors = append(out.Errors, itemError(i, id, err))
			continue
		}
		out.Items = append(out.Items, taxonomyItem(it))
	}
	return connect.NewResponse(out), nil
}
