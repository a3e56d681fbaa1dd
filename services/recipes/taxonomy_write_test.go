package recipes

import (
	"context"
	"net/http"
	"testing"

	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

func TestTaxonomyUpdateReadsBeforeWrite(t *testing.T) {
	s, f := newService(t)
	const egg = "48db43cc-7f1f-47d7-ab0a-37c59372b820"
	res, err := s.UpdateTaxonomy(context.Background(), req(&recipesv1.UpdateTaxonomyRequest{
		Resource: recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS,
		Items:    []*recipesv1.TaxonomyWrite{{Id: egg, Name: proto.String("hen egg")}, {Id: egg, Color: proto.String("#fff")}},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Msg.Items) != 1 || res.Msg.Items[0].Name != "hen egg" || res.Msg.Items[0].Description != "chicken egg" || len(res.Msg.Errors) != 1 || res.Msg.Errors[0].Index != 1 {
		t.Errorf("response = %v", res.Msg)
	}
	put := f.lastBody(http.MethodPut, "/api/foods/"+egg)
	if put["pluralName"] != "eggs" || put["createdAt"] != nil || put["label"] != nil {
		t.Errorf("PUT body = %v", put)
	}
}
