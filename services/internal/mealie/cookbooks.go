package mealie

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// Cookbook is one household cookbook as GET/POST/PUT
// /api/households/cookbooks carry it (services/library/testdata/cookbooks__create_ok.json). Mealie
// also sends a server-computed queryFilter {"parts": [...]}, kept so a
// caller can tell a filter Mealie did not understand.
type Cookbook struct {
	ID                string `json:"id,omitempty"`
	Name              string `json:"name"`
	Description       string `json:"description"`
	Slug              string `json:"slug,omitempty"`
	Position          int    `json:"position"`
	Public            bool   `json:"public"`
	QueryFilterString string `json:"queryFilterString"`
	GroupID           string `json:"groupId,omitempty"`
	HouseholdID       string `json:"householdId,omitempty"`
	// QueryFilter is Mealie's parse of QueryFilterString. Free text such as
	// "this is not a filter" parses to no parts at all and then matches
	// every recipe.
	QueryFilter *CookbookFilter `json:"queryFilter,omitempty"`
}

// CookbookFilter is Mealie's parse of a cookbook's filter.
type CookbookFilter struct {
	Parts []map[string]any `json:"parts"`
}

// CookbookCreate is the body of POST /api/households/cookbooks; Mealie
// computes slug and position itself.
type CookbookCreate struct {
	Name              string `json:"name"`
	Description       string `json:"description"`
	QueryFilterString string `json:"queryFilterString"`
	Public            bool   `json:"public"`
}

// cookbookPageSize is the page size for listing cookbooks: a household has a
// handful, so one request nearly always covers them.
const cookbookPageSize = 100

// maxCookbookPages bounds the listing loop against a server that never
// reports its last page.
const maxCookbookPages = 50

// ListCookbooks reads every cookbook of the token's household, paging
// GET /api/households/cookbooks (services/library/testdata/cookbooks__list.json).
func (c *Client) ListCookbooks(ctx context.Context) ([]Cookbook, error) {
	var out []Cookbook
	for page := 1; page <= maxCookbookPages; page++ {
		var p Page[Cookbook]
		q := url.Values{"page": {strconv.Itoa(page)}, "perPage": {strconv.Itoa(cookbookPageSize)}}
		if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/households/cookbooks", Query: q, Resource: "cookbook list"}, &p); err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if page >= p.TotalPages || len(p.Items) == 0 {
			break
		}
	}
	return out, nil
}

// GetCookbook reads one cookbook by id or slug; Mealie accepts either.
// An unknown one is a KindNotFound error
// naming it (services/library/testdata/cookbooks__get_unknown.json).
func (c *Client) GetCookbook(ctx context.Context, idOrSlug string) (*Cookbook, error) {
	var cb Cookbook
	err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/households/cookbooks/" + url.PathEscape(idOrSlug),
		Resource: fmt.Sprintf("cookbook '%s'", idOrSlug)}, &cb)
	if err != nil {
		return nil, err
	}
	return &cb, nil
}

// CreateCookbook creates a cookbook (201, services/library/testdata/cookbooks__create_ok.json).
func (c *Client) CreateCookbook(ctx context.Context, in CookbookCreate) (*Cookbook, error) {
	var cb Cookbook
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/households/cookbooks", Body: in, Resource: "cookbook",
		Subject: fmt.Sprintf("the cookbook '%s'", in.Name)}, &cb); err != nil {
		return nil, err
	}
	return &cb, nil
}

// UpdateCookbook replaces a cookbook with PUT. Mealie has no PATCH
// and a partial PUT resets the fields left out,
// so cb must be the whole cookbook.
func (c *Client) UpdateCookbook(ctx context.Context, cb Cookbook) (*Cookbook, error) {
	body := cb
	body.QueryFilter = nil
	var out Cookbook
	err := c.Do(ctx, Request{Method: http.MethodPut, Path: "/api/households/cookbooks/" + url.PathEscape(cb.ID), Body: body,
		Resource: fmt.Sprintf("cookbook '%s'", cb.ID)}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteCookbook deletes a cookbook by id and returns it as it was.
// A second delete answers 400 "No row was found",
// not 404: callers read first.
func (c *Client) DeleteCookbook(ctx context.Context, id string) (*Cookbook, error) {
	var out Cookbook
	err := c.Do(ctx, Request{Method: http.MethodDelete, Path: "/api/households/cookbooks/" + url.PathEscape(id),
		Resource: fmt.Sprintf("cookbook '%s'", id)}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}
