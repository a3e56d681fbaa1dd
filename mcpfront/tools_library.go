package mcpfront

import (
	"context"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	"github.com/souskitchen/sous/proto/limits"
)

func hasLibrary(b Backends, _ Options) bool { return b.Library != nil }

var statsResources = map[string]libraryv1.StatsResource{
	"tags": libraryv1.StatsResource_STATS_RESOURCE_TAGS, "categories": libraryv1.StatsResource_STATS_RESOURCE_CATEGORIES,
	"tools": libraryv1.StatsResource_STATS_RESOURCE_TOOLS, "foods": libraryv1.StatsResource_STATS_RESOURCE_FOODS,
	"units": libraryv1.StatsResource_STATS_RESOURCE_UNITS,
}

// queryFilterHelp carries worked examples of Mealie's filter syntax: without
// them models invent invalid syntax.
const queryFilterHelp = "Mealie queryFilterString, ANDed, e.g. " +
	`lastMade IS NULL; tags.name CONTAINS ALL ["Vegan"]`

func libraryTools() []Tool {
	return []Tool{
		listCookbooksTool(),
		getCookbookRecipesTool(),
		createCookbookTool(),
		updateCookbookTool(),
		deleteCookbookTool(),
		libraryStatsTool(),
		findDuplicateRecipesTool(),
		checkRecipeLinksTool(),
	}
}

// cookbookView is a cookbook as a model reads it.
type cookbookView struct {
	ID          string `json:"cookbook_id"`
	Slug        string `json:"slug,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	QueryFilter string `json:"query_filter,omitempty"`
	Public      bool   `json:"public,omitempty"`
	// MaxTotalMinutes is a cookbook by time's bound.
	MaxTotalMinutes *int32 `json:"max_total_minutes,omitempty"`
	// Time says how a cookbook by time stays true (create and update).
	Time *timeKeepingView `json:"time,omitempty"`
}

// timeKeepingView is how a cookbook by time stays true, as a model reads
// it: the tag it filters on, what fits now, and how it is kept.
type timeKeepingView struct {
	Tag     string `json:"tag"`
	Recipes int32  `json:"recipes"`
	NoTime  int32  `json:"no_time,omitempty"`
	Note    string `json:"note"`
}

func shapeCookbook(c *libraryv1.Cookbook) cookbookView {
	return cookbookView{ID: c.GetId(), Slug: c.GetSlug(), Name: c.GetName(), Description: c.GetDescription(), QueryFilter: c.GetQueryFilter(), Public: c.GetPublic(), MaxTotalMinutes: c.MaxTotalMinutes}
}

// withTime adds how a cookbook by time stays true to its view.
func withTime(v cookbookView, t *libraryv1.TimeKeeping) cookbookView {
	if t != nil {
		v.Time = &timeKeepingView{Tag: t.GetTag(), Recipes: t.GetRecipes(), NoTime: t.GetNoTime(), Note: t.GetNote()}
	}
	return v
}

// listCookbooksTool declares list_cookbooks.
func listCookbooksTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "list_cookbooks",
		Description: "Call when a cookbook comes up, or before changing one. Lists cookbooks with ids.",
		Annotations: readAnn(),
	}, hasLibrary, nil, listCookbooks)
}

func listCookbooks(ctx context.Context, _ *mcp.CallToolRequest, b Backends, _ noInput) (any, error) {
	res, err := b.Library.ListCookbooks(ctx, connect.NewRequest(&libraryv1.ListCookbooksRequest{}))
	if err != nil {
		return nil, err
	}
	return listOf(res.Msg.GetItems(), shapeCookbook, "no cookbooks yet; create_cookbook makes one"), nil
}

type getCookbookRecipesIn struct {
	Cookbook string `json:"cookbook" jsonschema:"Slug, id or exact name."`
	Page     int    `json:"page,omitempty" jsonschema:"Page number."`
	Limit    int    `json:"limit,omitempty" jsonschema:"Results per page."`
}

// getCookbookRecipesTool declares get_cookbook_recipes.
func getCookbookRecipesTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "get_cookbook_recipes",
		Description: "Call when asked what is in a cookbook. Returns its recipes' slugs, paged.",
		Annotations: readAnn(),
	}, hasLibrary, props{"cookbook": toolschema.MaxLen(limits.CookbookIDChars), "page": toolschema.IntRange(1, limits.Page, 1), "limit": toolschema.Capped(1, limits.CookbookLimit, limits.DefaultCookbookLimit)}, getCookbookRecipes)
}

func getCookbookRecipes(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in getCookbookRecipesIn) (any, error) {
	book, err := resolveCookbook(ctx, b, in.Cookbook, false)
	if err != nil {
		return nil, err
	}
	get := func(book string) (*connect.Response[libraryv1.GetCookbookRecipesResponse], error) {
		return b.Library.GetCookbookRecipes(ctx, connect.NewRequest(&libraryv1.GetCookbookRecipesRequest{Cookbook: book, Page: int32(in.Page), Limit: int32(in.Limit)}))
	}
	res, err := get(book)
	if isNotFound(err) {
		// A read may try again under the cookbook's exact name.
		cs, lerr := cookbookCandidates(ctx, b, false)
		if lerr != nil {
			return nil, err
		}
		if m := byName(in.Cookbook, cs); len(m) == 1 {
			res, err = get(m[0].ref)
		}
		if isNotFound(err) {
			return nil, missError("cookbook", in.Cookbook, nearest(in.Cookbook, cs), "list_cookbooks")
		}
	}
	if err != nil {
		return nil, err
	}
	items := summaries(res.Msg.GetItems(), nil)
	out := recipeList{Items: items, Hint: pageHint(int(res.Msg.GetPage()), len(items), int(res.Msg.GetTotal()), int(res.Msg.GetTotalPages()))}
	if len(items) == 0 && res.Msg.GetTotal() == 0 {
		out.Hint = "no recipe matches this cookbook's filter"
	}
	return out, nil
}

type createCookbookIn struct {
	Name        string   `json:"name" jsonschema:"Name."`
	Description string   `json:"description,omitempty" jsonschema:"Description."`
	Tags        []string `json:"tags,omitempty" jsonschema:"Tag names (must exist)."`
	Categories  []string `json:"categories,omitempty" jsonschema:"Category names (must exist)."`
	Tools       []string `json:"tools,omitempty" jsonschema:"Tool names (must exist)."`
	RequireAll  bool     `json:"require_all,omitempty" jsonschema:"Match all names, not any."`
	QueryFilter string   `json:"query_filter,omitempty" jsonschema:"See the tool."`
	Public      bool     `json:"public,omitempty" jsonschema:"Visible without login."`
	MaxMinutes  *int     `json:"max_total_minutes,omitempty" jsonschema:"Only recipes taking at most this long."`
}

// createCookbookTool declares create_cookbook.
func createCookbookTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "create_cookbook",
		Description: "Call when the user wants a collection such as quick dinners. Saves a filter, not copies.",
		Annotations: writeAnn(false, false, false),
	}, hasLibrary, props{"name": toolschema.MaxLen(limits.CookbookNameChars), "query_filter": toolschema.Both(toolschema.MaxLen(limits.CookbookQueryFilterChars), toolschema.Describe(queryFilterHelp)), "max_total_minutes": toolschema.IntBounds(1, limits.TotalMinutes)}, createCookbook)
}

func createCookbook(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in createCookbookIn) (any, error) {
	req := &libraryv1.CreateCookbookRequest{
		Name: in.Name, Description: in.Description, Tags: in.Tags, Categories: in.Categories, Tools: in.Tools,
		RequireAll: in.RequireAll, QueryFilter: in.QueryFilter, Public: in.Public,
	}
	if in.MaxMinutes != nil {
		req.MaxTotalMinutes = ptr(int32(*in.MaxMinutes))
	}
	res, err := b.Library.CreateCookbook(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	return withTime(shapeCookbook(res.Msg.GetCookbook()), res.Msg.GetTime()), nil
}

type updateCookbookIn struct {
	CookbookID  string   `json:"cookbook_id" jsonschema:"Id or exact name."`
	Name        *string  `json:"name,omitempty" jsonschema:"New name."`
	Description *string  `json:"description,omitempty" jsonschema:"New description."`
	Tags        []string `json:"tags,omitempty" jsonschema:"Tag names."`
	Categories  []string `json:"categories,omitempty" jsonschema:"Category names."`
	Tools       []string `json:"tools,omitempty" jsonschema:"Tool names."`
	RequireAll  *bool    `json:"require_all,omitempty" jsonschema:"Match all names, not any."`
	QueryFilter *string  `json:"query_filter,omitempty" jsonschema:"See the tool."`
	Public      *bool    `json:"public,omitempty" jsonschema:"Visible without login."`
	Position    *int     `json:"position,omitempty" jsonschema:"Place in the list."`
	MaxMinutes  *int     `json:"max_total_minutes,omitempty" jsonschema:"As in create_cookbook; 0 drops it."`
}

// updateCookbookTool declares update_cookbook.
func updateCookbookTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "update_cookbook",
		Description: "Call to edit a cookbook. Any filter field given rebuilds the whole filter.",
		Annotations: writeAnn(true, true, false),
	}, hasLibrary, props{"cookbook_id": toolschema.GuardLen(limits.CookbookIDChars), "name": toolschema.MaxLen(limits.CookbookNameChars), "query_filter": toolschema.Both(toolschema.MaxLen(limits.CookbookQueryFilterChars), toolschema.Describe(`Filter as in create_cookbook; "" clears it.`)), "position": toolschema.IntBounds(1, limits.CookbookPosition), "max_total_minutes": toolschema.IntBounds(0, limits.TotalMinutes)}, updateCookbook)
}

func updateCookbook(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in updateCookbookIn) (any, error) {
	id, err := resolveCookbook(ctx, b, in.CookbookID, true)
	if err != nil {
		return nil, err
	}
	req := &libraryv1.UpdateCookbookRequest{
		CookbookId: id, Name: in.Name, Description: in.Description, Tags: in.Tags, Categories: in.Categories, Tools: in.Tools,
		RequireAll: in.RequireAll, QueryFilter: in.QueryFilter, Public: in.Public,
	}
	if in.Position != nil {
		req.Position = ptr(int32(*in.Position))
	}
	if in.MaxMinutes != nil {
		req.MaxTotalMinutes = ptr(int32(*in.MaxMinutes))
	}
	res, err := b.Library.UpdateCookbook(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, onCookbookMiss(ctx, b, in.CookbookID, true, err)
	}
	return withTime(shapeCookbook(res.Msg.GetCookbook()), res.Msg.GetTime()), nil
}

type deleteCookbookIn struct {
	CookbookID string `json:"cookbook_id" jsonschema:"Id or exact name."`
}

// deleteCookbookTool declares delete_cookbook.
func deleteCookbookTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "delete_cookbook",
		Description: "Call only when asked to remove a cookbook. Deletes it; its recipes stay.",
		Annotations: writeAnn(true, true, false),
	}, hasLibrary, props{"cookbook_id": toolschema.GuardLen(limits.CookbookIDChars)}, deleteCookbook)
}

func deleteCookbook(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in deleteCookbookIn) (any, error) {
	id, err := resolveCookbook(ctx, b, in.CookbookID, true)
	if err != nil {
		return nil, err
	}
	res, err := b.Library.DeleteCookbook(ctx, connect.NewRequest(&libraryv1.DeleteCookbookRequest{CookbookId: id}))
	if err != nil {
		return nil, onCookbookMiss(ctx, b, in.CookbookID, true, err)
	}
	return struct {
		Deleted cookbookView `json:"deleted"`
	}{shapeCookbook(res.Msg.GetCookbook())}, nil
}
