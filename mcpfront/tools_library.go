package mcpfront

import (
	"context"
	"strings"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
)

func hasLibrary(b Backends, _ Options) bool { return b.Library != nil }

// Caps of the library tools, from the seed and the proto.
const (
	maxSweepRecipes = 2000 // MAX_LIBRARY_RECIPES of the seed
	maxStatsTop     = 500  // LibraryStatsRequest.top
	defaultLinks    = 200  // each source URL is a request to a third party
)

var statsResources = map[string]libraryv1.StatsResource{
	"tags": libraryv1.StatsResource_STATS_RESOURCE_TAGS, "categories": libraryv1.StatsResource_STATS_RESOURCE_CATEGORIES,
	"tools": libraryv1.StatsResource_STATS_RESOURCE_TOOLS, "foods": libraryv1.StatsResource_STATS_RESOURCE_FOODS,
	"units": libraryv1.StatsResource_STATS_RESOURCE_UNITS,
}

// queryFilterHelp carries worked examples of Mealie's filter syntax: without
// them models invent invalid syntax (seed, "Cookbooks").
const queryFilterHelp = "Extra filter in Mealie's queryFilterString syntax, ANDed with the name lists. Examples: " +
	`lastMade IS NULL` + "; " + `name LIKE "%soup%"` + "; " + `tags.name CONTAINS ALL ["Vegan", "Quick"]` + "; " +
	`recipeCategory.name IN ["Dinner"] AND totalTime IS NOT NULL` + ". Prefer tags, categories and tools for plain name filters."

type getCookbookRecipesIn struct {
	Cookbook string `json:"cookbook" jsonschema:"The cookbook's slug or id, from list_cookbooks."`
	Page     int    `json:"page,omitempty" jsonschema:"Page of results, from 1."`
	Limit    int    `json:"limit,omitempty" jsonschema:"Results per page, 1 to 100."`
}

type createCookbookIn struct {
	Name        string   `json:"name" jsonschema:"The cookbook's name."`
	Description string   `json:"description,omitempty" jsonschema:"A short description."`
	Tags        []string `json:"tags,omitempty" jsonschema:"Tag names the recipes carry; each must exist (case does not matter)."`
	Categories  []string `json:"categories,omitempty" jsonschema:"Category names; each must exist."`
	Tools       []string `json:"tools,omitempty" jsonschema:"Tool names; each must exist."`
	RequireAll  bool     `json:"require_all,omitempty" jsonschema:"True: a recipe must carry every tag, category and tool given. False: any of them."`
	QueryFilter string   `json:"query_filter,omitempty" jsonschema:"Extra filter in Mealie's queryFilterString syntax (see the tool description)."`
	Public      bool     `json:"public,omitempty" jsonschema:"Visible without logging in to Mealie."`
}

type updateCookbookIn struct {
	CookbookID  string   `json:"cookbook_id" jsonschema:"The cookbook's id, from list_cookbooks."`
	Name        *string  `json:"name,omitempty" jsonschema:"A new name; the slug follows it."`
	Description *string  `json:"description,omitempty" jsonschema:"A new description."`
	Tags        []string `json:"tags,omitempty" jsonschema:"Tag names; giving any filter field rebuilds the whole filter from the fields given."`
	Categories  []string `json:"categories,omitempty" jsonschema:"Category names; rebuilds the filter."`
	Tools       []string `json:"tools,omitempty" jsonschema:"Tool names; rebuilds the filter."`
	RequireAll  *bool    `json:"require_all,omitempty" jsonschema:"Match every name given rather than any; rebuilds the filter."`
	QueryFilter *string  `json:"query_filter,omitempty" jsonschema:"Extra filter in queryFilterString syntax; an empty string clears it. Rebuilds the filter."`
	Public      *bool    `json:"public,omitempty" jsonschema:"Visible without logging in."`
	Position    *int     `json:"position,omitempty" jsonschema:"New position among the cookbooks, from 1."`
}

type deleteCookbookIn struct {
	CookbookID string `json:"cookbook_id" jsonschema:"The cookbook's id, from list_cookbooks."`
}

type libraryStatsIn struct {
	Resource      string `json:"resource" jsonschema:"What to count: tags, categories, tools (quick), or foods, units (read every recipe's details)."`
	IncludeUnused *bool  `json:"include_unused,omitempty" jsonschema:"Also list the items no recipe uses (safe to delete)."`
	Top           int    `json:"top,omitempty" jsonschema:"Most items to return, most used first."`
	MaxRecipes    int    `json:"max_recipes,omitempty" jsonschema:"Most recipes to scan."`
}

type maxRecipesIn struct {
	MaxRecipes int `json:"max_recipes,omitempty" jsonschema:"Most recipes to scan."`
}

type checkLinksIn struct {
	CheckSources *bool `json:"check_sources,omitempty" jsonschema:"Probe every recipe's source URL (unauthenticated requests to the recipe sites)."`
	CheckImages  *bool `json:"check_images,omitempty" jsonschema:"List recipes that have no image."`
	MaxRecipes   int   `json:"max_recipes,omitempty" jsonschema:"Most recipes to scan; each source is one request to a third-party site."`
}

func libraryTools() []Tool {
	return []Tool{
		newTool(ToolsetLibrary, &mcp.Tool{
			Name:        "list_cookbooks",
			Description: "List the household's cookbooks (saved recipe filters) with their ids and slugs. Call it when the user mentions a cookbook or collection, or before changing one.",
			Annotations: readAnn("List cookbooks"),
		}, hasLibrary, nil, listCookbooks),
		newTool(ToolsetLibrary, &mcp.Tool{
			Name:        "get_cookbook_recipes",
			Description: "List the recipes in a cookbook, paged. Call it when the user asks what is in a cookbook. Returns recipe slugs for get_recipe, with a paging hint.",
			Annotations: readAnn("Get a cookbook's recipes"),
		}, hasLibrary, props{"cookbook": maxLen(200), "page": intRange(1, 10000, 1), "limit": intRange(1, maxRecipeLimit, 20)}, getCookbookRecipes),
		newTool(ToolsetLibrary, &mcp.Tool{
			Name: "create_cookbook",
			Description: "Create a cookbook: a saved filter over the library by tags, categories, tools and an optional query_filter. " +
				"Call it when the user wants a collection such as \"quick weeknight dinners\". Recipes are not copied; the cookbook shows whatever matches.",
			Annotations: writeAnn("Create a cookbook", false, false, false),
		}, hasLibrary, props{"name": maxLen(200), "query_filter": both(maxLen(2000), describe(queryFilterHelp)), "require_all": boolDefault(false), "public": boolDefault(false)}, createCookbook),
		newTool(ToolsetLibrary, &mcp.Tool{
			Name: "update_cookbook",
			Description: "Change a cookbook in place, keeping its id: rename it, or change its filter. Call it when the user asks to edit a cookbook. " +
				"Fields not given stay; giving any of tags, categories, tools, require_all or query_filter rebuilds the whole filter from what is given.",
			Annotations: writeAnn("Update a cookbook", true, true, false),
		}, hasLibrary, props{"name": maxLen(200), "query_filter": both(maxLen(2000), describe(queryFilterHelp)), "position": intBounds(1, 1000)}, updateCookbook),
		newTool(ToolsetLibrary, &mcp.Tool{
			Name:        "delete_cookbook",
			Description: "Delete a cookbook by id. Call it only when the user asks to remove that cookbook. Its recipes are untouched.",
			Annotations: writeAnn("Delete a cookbook", true, true, false),
		}, hasLibrary, props{"cookbook_id": maxLen(100)}, deleteCookbook),
		newTool(ToolsetLibrary, &mcp.Tool{
			Name: "library_stats",
			Description: "Count how many recipes use each tag, category, tool, food or unit, and list the unused ones. " +
				"Call it when the user asks which tags or foods are used most, or wants to tidy the taxonomy (unused items are safe to delete with manage_taxonomy). " +
				"Foods and units read every recipe and can take a while; the answer says what it truncated.",
			Annotations: readAnn("Library usage stats"),
		}, hasLibrary, props{
			"resource": enum("tags", "categories", "tools", "foods", "units"), "include_unused": boolDefault(true),
			"top": intRange(1, maxStatsTop, 50), "max_recipes": intRange(1, maxSweepRecipes, maxSweepRecipes),
		}, libraryStats),
		newTool(ToolsetLibrary, &mcp.Tool{
			Name:        "find_duplicate_recipes",
			Description: "Find recipes whose names match once case, punctuation and accents are ignored. Call it when the user suspects duplicates or wants to clean up the library.",
			Annotations: readAnn("Find duplicate recipes"),
		}, hasLibrary, props{"max_recipes": intRange(1, maxSweepRecipes, maxSweepRecipes)}, findDuplicates),
		newTool(ToolsetLibrary, &mcp.Tool{
			Name: "check_recipe_links",
			Description: "Check recipes' source links for dead pages and list recipes without an image. Call it when the user asks about broken links or missing pictures. " +
				"Sites that refuse robots are reported as unverified, not broken. The probes go to the recipe sites without the Mealie token.",
			Annotations: &mcp.ToolAnnotations{Title: "Check recipe links", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(true)},
		}, hasLibrary, props{"check_sources": boolDefault(true), "check_images": boolDefault(true), "max_recipes": intRange(1, maxSweepRecipes, defaultLinks)}, checkLinks),
	}
}

func describe(d string) func(*mcpSchema) { return func(s *mcpSchema) { s.Description = d } }

// cookbookView is a cookbook as a model reads it.
type cookbookView struct {
	ID          string `json:"id"`
	Slug        string `json:"slug,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	QueryFilter string `json:"query_filter,omitempty"`
	Public      bool   `json:"public,omitempty"`
}

func shapeCookbook(c *libraryv1.Cookbook) cookbookView {
	return cookbookView{ID: c.GetId(), Slug: c.GetSlug(), Name: c.GetName(), Description: c.GetDescription(), QueryFilter: c.GetQueryFilter(), Public: c.GetPublic()}
}

func listCookbooks(ctx context.Context, _ *mcp.CallToolRequest, b Backends, _ noInput) (any, error) {
	res, err := b.Library.ListCookbooks(ctx, connect.NewRequest(&libraryv1.ListCookbooksRequest{}))
	if err != nil {
		return nil, err
	}
	out := struct {
		Items []cookbookView `json:"items"`
		Hint  string         `json:"hint,omitempty"`
	}{Items: []cookbookView{}}
	for _, c := range res.Msg.GetItems() {
		out.Items = append(out.Items, shapeCookbook(c))
	}
	if len(out.Items) == 0 {
		out.Hint = "no cookbooks yet; create_cookbook makes one"
	}
	return out, nil
}

func getCookbookRecipes(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in getCookbookRecipesIn) (any, error) {
	res, err := b.Library.GetCookbookRecipes(ctx, connect.NewRequest(&libraryv1.GetCookbookRecipesRequest{Cookbook: in.Cookbook, Page: int32(in.Page), Limit: int32(in.Limit)}))
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

func createCookbook(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in createCookbookIn) (any, error) {
	res, err := b.Library.CreateCookbook(ctx, connect.NewRequest(&libraryv1.CreateCookbookRequest{
		Name: in.Name, Description: in.Description, Tags: in.Tags, Categories: in.Categories, Tools: in.Tools,
		RequireAll: in.RequireAll, QueryFilter: in.QueryFilter, Public: in.Public,
	}))
	if err != nil {
		return nil, err
	}
	return shapeCookbook(res.Msg.GetCookbook()), nil
}

func updateCookbook(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in updateCookbookIn) (any, error) {
	req := &libraryv1.UpdateCookbookRequest{
		CookbookId: in.CookbookID, Name: in.Name, Description: in.Description, Tags: in.Tags, Categories: in.Categories, Tools: in.Tools,
		RequireAll: in.RequireAll, QueryFilter: in.QueryFilter, Public: in.Public,
	}
	if in.Position != nil {
		req.Position = ptr(int32(*in.Position))
	}
	res, err := b.Library.UpdateCookbook(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	return shapeCookbook(res.Msg.GetCookbook()), nil
}

func deleteCookbook(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in deleteCookbookIn) (any, error) {
	res, err := b.Library.DeleteCookbook(ctx, connect.NewRequest(&libraryv1.DeleteCookbookRequest{CookbookId: in.CookbookID}))
	if err != nil {
		return nil, err
	}
	return struct {
		Deleted cookbookView `json:"deleted"`
	}{shapeCookbook(res.Msg.GetCookbook())}, nil
}

func unreadable(us []*libraryv1.UnreadableRecipe) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.GetSlug()+": "+u.GetReason())
	}
	return out
}

func libraryStats(ctx context.Context, req *mcp.CallToolRequest, b Backends, in libraryStatsIn) (any, error) {
	stream, err := b.Library.LibraryStats(ctx, connect.NewRequest(&libraryv1.LibraryStatsRequest{
		Resource: statsResources[in.Resource], IncludeUnused: in.IncludeUnused, Top: int32(in.Top), MaxRecipes: int32(in.MaxRecipes),
	}))
	if err != nil {
		return nil, err
	}
	r, err := runReport[*libraryv1.LibraryStatsResult](ctx, req, stream)
	if err != nil {
		return nil, err
	}
	type usage struct {
		Name    string `json:"name"`
		ID      string `json:"id,omitempty"`
		Recipes int32  `json:"recipes"`
	}
	out := struct {
		Items      []usage  `json:"items"`
		Unused     []string `json:"unused,omitempty"`
		Scanned    int32    `json:"scanned"`
		Library    int32    `json:"library_total"`
		Truncated  string   `json:"truncated,omitempty"`
		Unreadable []string `json:"unreadable,omitempty"`
		Method     string   `json:"method,omitempty"`
	}{Items: []usage{}, Unused: r.GetUnused(), Scanned: r.GetScanned(), Library: r.GetLibraryTotal(), Truncated: r.GetTruncated(), Unreadable: unreadable(r.GetUnreadable()), Method: r.GetMethod()}
	for _, u := range r.GetItems() {
		out.Items = append(out.Items, usage{Name: u.GetName(), ID: u.GetId(), Recipes: u.GetRecipeCount()})
	}
	return out, nil
}

func findDuplicates(ctx context.Context, req *mcp.CallToolRequest, b Backends, in maxRecipesIn) (any, error) {
	stream, err := b.Library.FindDuplicateRecipes(ctx, connect.NewRequest(&libraryv1.FindDuplicateRecipesRequest{MaxRecipes: int32(in.MaxRecipes)}))
	if err != nil {
		return nil, err
	}
	r, err := runReport[*libraryv1.FindDuplicateRecipesResult](ctx, req, stream)
	if err != nil {
		return nil, err
	}
	type group struct {
		Key     string   `json:"name"`
		Reason  string   `json:"reason,omitempty"`
		Recipes []string `json:"slugs"`
	}
	out := struct {
		Items     []group `json:"items"`
		Hint      string  `json:"hint,omitempty"`
		Scanned   int32   `json:"scanned"`
		Library   int32   `json:"library_total"`
		Truncated string  `json:"truncated,omitempty"`
	}{Items: []group{}, Scanned: r.GetScanned(), Library: r.GetLibraryTotal(), Truncated: r.GetTruncated()}
	for _, g := range r.GetItems() {
		it := group{Key: g.GetKey(), Reason: g.GetReason()}
		for _, rr := range g.GetRecipes() {
			it.Recipes = append(it.Recipes, rr.GetSlug())
		}
		out.Items = append(out.Items, it)
	}
	if len(out.Items) == 0 {
		out.Hint = "no duplicate names found"
	}
	return out, nil
}

func linkStatusName(s libraryv1.LinkStatus) string {
	return strings.ToLower(strings.TrimPrefix(s.String(), "LINK_STATUS_"))
}

func checkLinks(ctx context.Context, req *mcp.CallToolRequest, b Backends, in checkLinksIn) (any, error) {
	stream, err := b.Library.CheckRecipeLinks(ctx, connect.NewRequest(&libraryv1.CheckRecipeLinksRequest{
		CheckSources: in.CheckSources, CheckImages: in.CheckImages, MaxRecipes: int32(in.MaxRecipes),
	}))
	if err != nil {
		return nil, err
	}
	r, err := runReport[*libraryv1.CheckRecipeLinksResult](ctx, req, stream)
	if err != nil {
		return nil, err
	}
	type link struct {
		Slug       string `json:"slug"`
		URL        string `json:"url"`
		Status     string `json:"status"`
		HTTPStatus int32  `json:"http_status,omitempty"`
		Message    string `json:"message,omitempty"`
	}
	counts, err := protoMap(r.GetCounts())
	if err != nil {
		return nil, err
	}
	out := struct {
		Links     []link         `json:"links"`
		NoImage   []string       `json:"no_image,omitempty"`
		Counts    map[string]any `json:"counts,omitempty"`
		Scanned   int32          `json:"scanned"`
		Library   int32          `json:"library_total"`
		Truncated string         `json:"truncated,omitempty"`
	}{Links: []link{}, Counts: counts, Scanned: r.GetScanned(), Library: r.GetLibraryTotal(), Truncated: r.GetTruncated()}
	for _, l := range r.GetItems() {
		out.Links = append(out.Links, link{Slug: l.GetSlug(), URL: l.GetUrl(), Status: linkStatusName(l.GetStatus()), HTTPStatus: l.GetHttpStatus(), Message: l.GetMessage()})
	}
	for _, n := range r.GetNoImage() {
		out.NoImage = append(out.NoImage, n.GetSlug())
	}
	if len(out.Counts) == 0 {
		out.Counts = nil
	}
	return out, nil
}
