package library

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/souskitchen/sous/services/internal/mealie"
)

// taxonomyPageSize is the page size for taxonomy lists, as the Mealie
// client's snapshots use (mealie.TaxonomyPageSize): a 1,000-food library
// is two requests.
const taxonomyPageSize = 500

// maxTaxonomyPages bounds a taxonomy listing (50 pages of 500 is 25,000
// items, far past any household) against a server that never ends its
// paging.
const maxTaxonomyPages = 50

// taxonomyKind names one taxonomy resource and its Mealie path.
type taxonomyKind struct {
	// noun is what a message calls one item, such as "tag".
	noun string
	// plural is what a message calls several, such as "tags".
	plural string
	// path is the Mealie list route.
	path string
}

// The taxonomy resources the library reads.
var (
	kindTags       = taxonomyKind{"tag", "tags", "/api/organizers/tags"}
	kindCategories = taxonomyKind{"category", "categories", "/api/organizers/categories"}
	kindTools      = taxonomyKind{"tool", "tools", "/api/organizers/tools"}
	kindFoods      = taxonomyKind{"food", "foods", "/api/foods"}
	kindUnits      = taxonomyKind{"unit", "units", "/api/units"}
)

// taxonomyItem is the part of a tag, category, tool, food or unit the
// library reads.
type taxonomyItem struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// taxonomyList pages one resource in full. It returns the items and the
// number of Mealie requests it took.
func (s *Service) taxonomyList(ctx context.Context, k taxonomyKind) ([]taxonomyItem, int, error) {
	var out []taxonomyItem
	requests := 0
	for page := 1; page <= maxTaxonomyPages; page++ {
		var p mealie.Page[taxonomyItem]
		q := url.Values{
			"page":    {strconv.Itoa(page)},
			"perPage": {strconv.Itoa(taxonomyPageSize)},
			// A stable order, so paging neither skips nor repeats.
			"orderBy":        {"name"},
			"orderDirection": {"asc"},
		}
		requests++
		if err := s.mealie.Do(ctx, mealie.Request{Method: http.MethodGet, Path: k.path, Query: q, Resource: k.noun + " list"}, &p); err != nil {
			return nil, requests, err
		}
		out = append(out, p.Items...)
		if page >= p.TotalPages || len(p.Items) == 0 {
			break
		}
	}
	return out, requests, nil
}
