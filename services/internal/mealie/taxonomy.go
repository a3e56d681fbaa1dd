package mealie

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// Resource is a taxonomy collection.
type Resource string

// The taxonomy collections and their paths.
const (
	Foods      Resource = "foods"
	Units      Resource = "units"
	Labels     Resource = "labels"
	Tags       Resource = "tags"
	Categories Resource = "categories"
	Tools      Resource = "tools"
)

// Path is the collection's API path.
func (r Resource) Path() string {
	switch r {
	case Foods:
		return "/api/foods"
	case Units:
		return "/api/units"
	case Labels:
		return "/api/groups/labels"
	default:
		return "/api/organizers/" + string(r)
	}
}

// Singular names one item in messages: "food", "tag".
func (r Resource) Singular() string {
	switch r {
	case Categories:
		return "category"
	default:
		return string(r[:len(r)-1])
	}
}

// TaxonomyPageSize is the page size of a taxonomy snapshot: 500 keeps a
// large food list to a handful of requests.
const TaxonomyPageSize = 500

// MaxTaxonomyPages bounds a snapshot (500 x 40 = 20 000 items), so a
// misbehaving server that never reports the last page cannot loop forever.
const MaxTaxonomyPages = 40

// TaxonomyItem is one food, unit, label, tag, category or tool as Mealie
// returns it (services/recipes/testdata/groups_labels__list.json,
// services/recipes/testdata/organizers_tools__list.json). Raw keeps the
// whole row, because an update must send it back whole.
type TaxonomyItem struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Slug         string  `json:"slug"`
	GroupID      string  `json:"groupId"`
	Description  *string `json:"description"`
	PluralName   *string `json:"pluralName"`
	Abbreviation *string `json:"abbreviation"`
	Color        *string `json:"color"`
	OnHand       bool    `json:"onHand"`
	Aliases      []struct {
		Name string `json:"name"`
	} `json:"aliases"`
	Label *struct {
		Name string `json:"name"`
	} `json:"label"`
	Raw map[string]any `json:"-"`
}

// UnmarshalJSON keeps the raw row beside the typed fields.
func (t *TaxonomyItem) UnmarshalJSON(b []byte) error {
	type plain TaxonomyItem
	*t = TaxonomyItem{}
	return decodeKeepingRaw(b, (*plain)(t), &t.Raw)
}

// TaxonomyChange is what a create or an update writes to a taxonomy item:
// each field set is written as it is (callers trim), the others are left
// as Mealie has them. Which fields a collection has (a colour for labels
// only, an abbreviation for units only) is for the caller to check first.
type TaxonomyChange struct {
	Name, Description, PluralName, Abbreviation, Color *string
	// PluralAbbreviation is a unit's ("lbs"), as Mealie's units seeder
	// gives it.
	PluralAbbreviation *string
	OnHand             *bool
}

// applyTo writes the change onto body under Mealie's keys.
func (ch *TaxonomyChange) applyTo(body map[string]any) {
	for _, f := range []struct {
		key string
		v   *string
	}{{"name", ch.Name}, {"description", ch.Description}, {"pluralName", ch.PluralName}, {"abbreviation", ch.Abbreviation}, {"pluralAbbreviation", ch.PluralAbbreviation}, {"color", ch.Color}} {
		if f.v != nil {
			body[f.key] = *f.v
		}
	}
	if ch.OnHand != nil {
		body["onHand"] = *ch.OnHand
	}
}

// onto is the PUT body of the change: cur's row as read, without
// readOnlyKeys, with the change.
func (ch *TaxonomyChange) onto(cur *TaxonomyItem) map[string]any {
	body := make(map[string]any, len(cur.Raw))
	for k, v := range cur.Raw {
		body[k] = v
	}
	for _, k := range readOnlyKeys {
		delete(body, k)
	}
	ch.applyTo(body)
	return body
}

// readOnlyKeys are keys of a read row that a PUT must not send back: server
// timestamps and nested objects Mealie rebuilds from ids.
var readOnlyKeys = []string{"createdAt", "updatedAt", "label", "householdsWithIngredientFood", "householdsWithTool"}

// Writable trims a taxonomy object to the keys Mealie reads when the object
// is embedded in a recipe write: id, name, slug, groupId
// (TestOrganizerObjectsNeedIDNameSlug in integration/contract). Mealie hydrates the row from the id.
func (t *TaxonomyItem) Writable() Organizer {
	return Organizer{ID: t.ID, Name: t.Name, Slug: t.Slug, GroupID: t.GroupID}
}

func itemResource(r Resource, id string) string { return fmt.Sprintf("%s '%s'", r.Singular(), id) }

// ListTaxonomy reads one page of a collection, ordered by name.
func (c *Client) ListTaxonomy(ctx context.Context, r Resource, page, perPage int, search string) (*Page[TaxonomyItem], error) {
	v := url.Values{}
	v.Set("page", strconv.Itoa(page))
	v.Set("perPage", strconv.Itoa(perPage))
	v.Set("orderBy", "name")
	v.Set("orderDirection", "asc")
	if search != "" {
		v.Set("search", search)
	}
	var p Page[TaxonomyItem]
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: r.Path(), Query: v, Resource: string(r) + " list"}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// AllTaxonomy pages the whole collection at TaxonomyPageSize. A snapshot
// must be whole: a name missing from a truncated one would make a write
// create a second copy of an existing food.
func (c *Client) AllTaxonomy(ctx context.Context, r Resource) ([]TaxonomyItem, error) {
	var out []TaxonomyItem
	for page := 1; page <= MaxTaxonomyPages; page++ {
		p, err := c.ListTaxonomy(ctx, r, page, TaxonomyPageSize, "")
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if len(p.Items) == 0 || page >= p.TotalPages {
			return out, nil
		}
	}
	return out, nil
}

// GetTaxonomy reads one item by id.
func (c *Client) GetTaxonomy(ctx context.Context, r Resource, id string) (*TaxonomyItem, error) {
	var it TaxonomyItem
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: r.Path() + "/" + url.PathEscape(id), Resource: itemResource(r, id)}, &it); err != nil {
		return nil, err
	}
	return &it, nil
}

// CreateTaxonomy creates one item with the fields of ch and forgets the
// snapshot.
func (c *Client) CreateTaxonomy(ctx context.Context, r Resource, ch TaxonomyChange) (*TaxonomyItem, error) {
	defer c.ForgetTaxonomy(r)
	body := map[string]any{}
	ch.applyTo(body)
	var it TaxonomyItem
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: r.Path(), Body: body, Resource: string(r) + " list",
		Subject: fmt.Sprintf("the %s '%v'", r.Singular(), body["name"])}, &it); err != nil {
		return nil, err
	}
	return &it, nil
}

// PutTaxonomy changes item id, read as cur, by ch. Mealie's PUT replaces
// the row wholesale (a PUT of {name} alone resets the rest), so the body is
// the row as read, without the keys Mealie refuses back, with the change.
func (c *Client) PutTaxonomy(ctx context.Context, r Resource, id string, cur *TaxonomyItem, ch TaxonomyChange) (*TaxonomyItem, error) {
	defer c.ForgetTaxonomy(r)
	body := ch.onto(cur)
	var it TaxonomyItem
	if err := c.Do(ctx, Request{Method: http.MethodPut, Path: r.Path() + "/" + url.PathEscape(id), Body: body, Resource: itemResource(r, id)}, &it); err != nil {
		return nil, err
	}
	return &it, nil
}

// DeleteTaxonomy deletes one item. Mealie 2.0 answers a second delete with
// 400 "Bad Request" rather than 404.
func (c *Client) DeleteTaxonomy(ctx context.Context, r Resource, id string) error {
	defer c.ForgetTaxonomy(r)
	_, err := c.Raw(ctx, Request{Method: http.MethodDelete, Path: r.Path() + "/" + url.PathEscape(id), Resource: itemResource(r, id)})
	return err
}

// MergeTaxonomy merges food or unit from into to with PUT
// /api/{foods,units}/merge {fromFood,toFood} (TestFoodAndUnitMerge in integration/contract). Mealie
// accepts merging an item into itself and then deletes it:
// callers refuse that first.
func (c *Client) MergeTaxonomy(ctx context.Context, r Resource, from, to string) error {
	var body map[string]string
	switch r {
	case Foods:
		body = map[string]string{"fromFood": from, "toFood": to}
	case Units:
		body = map[string]string{"fromUnit": from, "toUnit": to}
	default:
		return &Error{Kind: KindInvalid, Message: fmt.Sprintf("Mealie cannot merge %s; only foods and units", r)}
	}
	defer c.ForgetTaxonomy(r)
	_, err := c.Raw(ctx, Request{Method: http.MethodPut, Path: r.Path() + "/merge", Body: body, Resource: itemResource(r, from)})
	return err
}
