package mcpfront

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
)

var taxonomyResources = map[string]recipesv1.TaxonomyResource{
	"foods": recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS, "units": recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_UNITS,
	"labels": recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_LABELS, "tags": recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TAGS,
	"categories": recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_CATEGORIES, "tools": recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TOOLS,
}

var taxonomyResourceNames = []string{"foods", "units", "labels", "tags", "categories", "tools"}

var taxonomyActions = []string{"list", "create", "update", "merge", "delete"}

// taxonomyData is one item's fields to write; which apply depends on the
// resource.
type taxonomyData struct {
	ID           string  `json:"id,omitempty"`
	ItemID       string  `json:"item_id,omitempty"`
	Name         *string `json:"name,omitempty"`
	Description  *string `json:"description,omitempty"`
	PluralName   *string `json:"plural_name,omitempty"`
	Abbreviation *string `json:"abbreviation,omitempty"`
	Color        *string `json:"color,omitempty"`
	OnHand       *bool   `json:"on_hand,omitempty"`
}

type manageTaxonomyIn struct {
	Resource  string         `json:"resource" jsonschema:"Which taxonomy."`
	Action    string         `json:"action,omitempty" jsonschema:"Action; merge is for foods and units."`
	Search    string         `json:"search,omitempty" jsonschema:"list: name search."`
	Page      int            `json:"page,omitempty" jsonschema:"list: page of 50."`
	Name      string         `json:"name,omitempty" jsonschema:"create, update: name."`
	ItemID    string         `json:"item_id,omitempty" jsonschema:"update, merge, delete: id or name."`
	Data      *taxonomyData  `json:"data,omitempty" jsonschema:"create, update: more fields of one item."`
	MergeInto string         `json:"merge_into,omitempty" jsonschema:"merge: id or name to keep."`
	Items     []taxonomyData `json:"items,omitempty" jsonschema:"Batch; items fail alone."`
	Force     bool           `json:"force,omitempty" jsonschema:"delete: even if recipes use it."`
}

const manageTaxonomyDesc = "Call to look up ids, or to add, rename, merge or delete items; deleting a used item needs force."

const manageTaxonomyReadOnlyDesc = "Call to look up taxonomy names and ids. Read-only mode: list only."

func taxonomyTools() []Tool {
	return []Tool{
		parseIngredientsTool(),
		manageTaxonomyTool(),
	}
}

// manageTaxonomyTool declares manage_taxonomy, with its list-only variant
// for read-only mode.
func manageTaxonomyTool() Tool {
	t := manageTaxonomyVariant(false)
	t.readOnlyVariant = func() Tool { return manageTaxonomyVariant(true) }
	return t
}

// manageTaxonomyVariant declares manage_taxonomy, or its list-only variant
// for read-only mode, whose action enum holds "list" alone and whose
// description says so.
func manageTaxonomyVariant(readOnly bool) Tool {
	if readOnly {
		t := newTool(ToolsetRecipes, &mcp.Tool{Name: "manage_taxonomy", Description: manageTaxonomyReadOnlyDesc, Annotations: readAnn()}, hasRecipes, props{
			"resource": toolschema.Enum(taxonomyResourceNames...),
			"action":   toolschema.Both(toolschema.Enum("list"), func(s *mcpSchema) { s.Default = []byte(`"list"`) }),
			"page":     toolschema.IntRange(1, limits.Page, 1),
			"search":   toolschema.MaxLen(limits.TaxonomyNameChars),
		}, func(ctx context.Context, req *mcp.CallToolRequest, b Backends, in listTaxonomyIn) (any, error) {
			return manageTaxonomy(ctx, req, b, manageTaxonomyIn{Resource: in.Resource, Action: "list", Search: in.Search, Page: in.Page})
		})
		// The schema allows "list" alone; a write asked for anyway gets
		// the read-only sentence rather than a schema complaint.
		t.writeAttempt = func(args json.RawMessage) bool {
			var a struct {
				Action string `json:"action"`
			}
			return json.Unmarshal(args, &a) == nil && a.Action != "" && a.Action != "list"
		}
		return t
	}
	return newTool(ToolsetRecipes, &mcp.Tool{Name: "manage_taxonomy", Description: manageTaxonomyDesc, Annotations: writeAnn(true, false, false)}, hasRecipes, props{
		"resource":   toolschema.Enum(taxonomyResourceNames...),
		"action":     toolschema.Both(toolschema.Enum(taxonomyActions...), func(s *mcpSchema) { s.Default = []byte(`"list"`) }),
		"page":       toolschema.IntRange(1, limits.Page, 1),
		"search":     toolschema.MaxLen(limits.TaxonomyNameChars),
		"name":       toolschema.MaxLen(limits.TaxonomyNameChars),
		"items":      toolschema.GuardCount(limits.TaxonomyBatch),
		"item_id":    toolschema.MaxLen(limits.TaxonomyRefChars),
		"merge_into": toolschema.MaxLen(limits.TaxonomyRefChars),
	}, manageTaxonomy)
}

// listTaxonomyIn is the input of manage_taxonomy's read-only variant.
type listTaxonomyIn struct {
	Resource string `json:"resource" jsonschema:"Which taxonomy."`
	Action   string `json:"action,omitempty" jsonschema:"Only list."`
	Search   string `json:"search,omitempty" jsonschema:"Name search."`
	Page     int    `json:"page,omitempty" jsonschema:"Page of 50."`
}

// id is the item's id, given as id (as Mealie names it) or item_id (as
// the answers do).
func (d taxonomyData) id() string {
	if d.ID != "" {
		return d.ID
	}
	return d.ItemID
}

func (d taxonomyData) write() *recipesv1.TaxonomyWrite {
	return &recipesv1.TaxonomyWrite{Id: d.id(), Name: d.Name, Description: d.Description, PluralName: d.PluralName, Abbreviation: d.Abbreviation, Color: d.Color, OnHand: d.OnHand}
}

// batch gathers the items an action applies to: items, else the single
// form (name and item_id).
func (in manageTaxonomyIn) batch() []taxonomyData {
	if len(in.Items) > 0 {
		return in.Items
	}
	var d taxonomyData
	if in.Data != nil {
		d = *in.Data
	}
	if in.ItemID != "" {
		d.ID = in.ItemID
	}
	if in.Name != "" {
		d.Name = ptr(in.Name)
	}
	if d == (taxonomyData{}) {
		return nil
	}
	return []taxonomyData{d}
}

// refusedDeletes turns a delete the service refused because recipes use
// the item into a tool error: a refusal answered as a success with an
// errors list reads as done to a model that skims it. It names the item by
// name, how many recipes use it and the way out (merge for foods and
// units, force for all). nil when nothing was refused for use.
func refusedDeletes(noun string, deleted []string, errs []*recipesv1.ItemError) error {
	var refused, other []string
	for _, e := range errs {
		if e.GetUsedBy() == 0 {
			other = append(other, fmt.Sprintf("%s: %s", e.GetItem(), e.GetMessage()))
			continue
		}
		who := toolschema.Quote(e.GetName())
		if e.GetName() == "" {
			who = e.GetItem()
		}
		uses := fmt.Sprintf("%d recipes use", e.GetUsedBy())
		if e.GetUsedBy() == 1 {
			uses = "1 recipe uses"
		}
		way := "delete it anyway with force=true, which takes it off those recipes"
		if noun == "food" || noun == "unit" {
			way = fmt.Sprintf("use action=merge with merge_into the %s to keep, which moves those lines to it, or delete it anyway with force=true, which blanks the %s in those lines", noun, noun)
		}
		refused = append(refused, fmt.Sprintf("%s %s %s, so it was not deleted: %s", uses, noun, who, way))
	}
	if len(refused) == 0 {
		return nil
	}
	msg := strings.Join(refused, "; ")
	if len(deleted) > 0 {
		msg += fmt.Sprintf(" (deleted: %s)", strings.Join(deleted, ", "))
	}
	if len(other) > 0 {
		msg += fmt.Sprintf(" (failed: %s)", strings.Join(other, "; "))
	}
	return errors.New(msg)
}

// itemErrors shapes a batch's failures as "item: message" lines.
func itemErrors(errs []*recipesv1.ItemError) []string {
	var out []string
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%s: %s", e.GetItem(), e.GetMessage()))
	}
	return out
}

func taxonomyMaps(items []*recipesv1.TaxonomyItem) ([]map[string]any, error) {
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		m, err := taxonomyMap(it)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// taxonomyMap renders a taxonomy item with its id as item_id, the
// parameter that takes it.
func taxonomyMap(it *recipesv1.TaxonomyItem) (map[string]any, error) {
	m, err := protoMap(it)
	if err != nil {
		return nil, err
	}
	if id, ok := m["id"]; ok {
		delete(m, "id")
		m["item_id"] = id
	}
	return m, nil
}

type taxonomyAnswer struct {
	Items   []map[string]any `json:"items,omitempty"`
	Hint    string           `json:"hint,omitempty"`
	Merged  []string         `json:"merged,omitempty"`
	Into    map[string]any   `json:"into,omitempty"`
	Deleted []string         `json:"deleted,omitempty"`
	Errors  []string         `json:"errors,omitempty"`
}

func manageTaxonomy(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in manageTaxonomyIn) (any, error) {
	res, ok := taxonomyResources[in.Resource]
	if !ok {
		return nil, fmt.Errorf("resource %s is not one of %s", toolschema.Quote(in.Resource), strings.Join(taxonomyResourceNames, ", "))
	}
	action := in.Action
	if action == "" {
		action = "list"
	}
	// item_id and merge_into also take an item's name (see resolveTaxonomy).
	noun := strings.TrimSuffix(in.Resource, "s")
	if in.Resource == "categories" {
		noun = "category"
	}
	var err error
	if in.ItemID, err = resolveTaxonomy(ctx, b, res, noun, in.ItemID); err != nil {
		return nil, err
	}
	if in.MergeInto, err = resolveTaxonomy(ctx, b, res, noun, in.MergeInto); err != nil {
		return nil, err
	}
	var out taxonomyAnswer
	switch action {
	case "list":
		r, e := b.Recipes.ListTaxonomy(ctx, connect.NewRequest(&recipesv1.ListTaxonomyRequest{Resource: res, Search: in.Search, Page: int32(in.Page)}))
		if e != nil {
			return nil, e
		}
		out.Items, err = taxonomyMaps(r.Msg.GetItems())
		if len(out.Items) == 0 {
			return struct {
				Items []any  `json:"items"`
				Hint  string `json:"hint"`
			}{[]any{}, "no " + in.Resource + " matched"}, err
		}
		out.Hint = pageHint(int(r.Msg.GetPage()), len(out.Items), int(r.Msg.GetTotal()), int(r.Msg.GetTotalPages()))
	case "create", "update":
		items := in.batch()
		if len(items) == 0 {
			return nil, fmt.Errorf("%s needs name or data for one item, or items for several", action)
		}
		var writes []*recipesv1.TaxonomyWrite
		for _, d := range items {
			writes = append(writes, d.write())
		}
		var got []*recipesv1.TaxonomyItem
		var errs []*recipesv1.ItemError
		if action == "create" {
			r, e := b.Recipes.CreateTaxonomy(ctx, connect.NewRequest(&recipesv1.CreateTaxonomyRequest{Resource: res, Items: writes}))
			if e != nil {
				return nil, e
			}
			got, errs = r.Msg.GetItems(), r.Msg.GetErrors()
		} else {
			r, e := b.Recipes.UpdateTaxonomy(ctx, connect.NewRequest(&recipesv1.UpdateTaxonomyRequest{Resource: res, Items: writes}))
			if e != nil {
				return nil, e
			}
			got, errs = r.Msg.GetItems(), r.Msg.GetErrors()
		}
		out.Items, err = taxonomyMaps(got)
		out.Errors = itemErrors(errs)
	case "merge":
		if in.MergeInto == "" {
			return nil, errors.New("merge needs merge_into: the id of the item to keep")
		}
		var from []string
		for _, d := range in.batch() {
			if id := d.id(); id != "" {
				from = append(from, id)
			}
		}
		if len(from) == 0 {
			return nil, errors.New("merge needs item_id (or items with ids) of what to merge away")
		}
		r, e := b.Recipes.MergeTaxonomy(ctx, connect.NewRequest(&recipesv1.MergeTaxonomyRequest{Resource: res, FromIds: from, IntoId: in.MergeInto}))
		if e != nil {
			return nil, e
		}
		out.Merged = r.Msg.GetMerged()
		if r.Msg.GetInto() != nil {
			out.Into, err = taxonomyMap(r.Msg.GetInto())
		}
		out.Errors = itemErrors(r.Msg.GetErrors())
	case "delete":
		var ids []string
		for _, d := range in.batch() {
			if id := d.id(); id != "" {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			return nil, errors.New("delete needs item_id, or items with ids")
		}
		r, e := b.Recipes.DeleteTaxonomy(ctx, connect.NewRequest(&recipesv1.DeleteTaxonomyRequest{Resource: res, Ids: ids, Force: in.Force}))
		if e != nil {
			return nil, e
		}
		out.Deleted = r.Msg.GetDeleted()
		out.Errors = itemErrors(r.Msg.GetErrors())
		if err := refusedDeletes(noun, r.Msg.GetDeleted(), r.Msg.GetErrors()); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("action %s is not one of %s", toolschema.Quote(action), strings.Join(taxonomyActions, ", "))
	}
	return out, err
}
