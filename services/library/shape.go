package library

import (
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// cookbook shapes a Mealie cookbook, dropping its group and household ids
// and Mealie's parse of the filter.
func cookbook(c *mealie.Cookbook) *libraryv1.Cookbook {
	return &libraryv1.Cookbook{
		Id:              c.ID,
		Slug:            c.Slug,
		Name:            c.Name,
		Description:     c.Description,
		QueryFilter:     c.QueryFilterString,
		Public:          c.Public,
		Position:        int32(c.Position),
		MaxTotalMinutes: boundOf(c.QueryFilterString),
	}
}

// boundOf is a cookbook's time bound, nil when it has none.
func boundOf(filter string) *int32 {
	if n := cookbookBound(filter); n > 0 {
		v := int32(n)
		return &v
	}
	return nil
}
