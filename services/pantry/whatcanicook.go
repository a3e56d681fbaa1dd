package pantry

import (
	"context"
	"net/url"
	"strconv"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
)

// WhatCanICook matches every meta-recipe against the pantry (GET
// /what-can-i-cook/). The food API's matcher is presence-based (spec §6.3).
func (s *Service) WhatCanICook(ctx context.Context, req *connect.Request[pantryv1.WhatCanICookRequest]) (*connect.Response[pantryv1.WhatCanICookResponse], error) {
	var q url.Values
	if req.Msg.Servings != nil {
		n := req.Msg.GetServings()
		if n < 1 || n > MaxServings {
			return nil, invalid("servings must be between 1 and %d, got %d", MaxServings, n)
		}
		q = url.Values{"servings": {strconv.Itoa(int(n))}}
	}
	var body struct {
		Results []apiMatch `json:"results"`
	}
	if err := s.food.get(ctx, "/what-can-i-cook/", q, &body); err != nil {
		return nil, connectError(err, "")
	}
	items, warnings := matches(body.Results)
	return connect.NewResponse(&pantryv1.WhatCanICookResponse{Items: items, ExpiryWarnings: warnings}), nil
}
