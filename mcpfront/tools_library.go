package mcpfront

import (
	"context"
	"strings"

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
}

func shapeCookbook(c *libraryv1.Cookbook) cookbookView {
	return cookbookView{ID: c.GetId(), Slug: c.GetSlug(), Name: c.GetName(), Description: c.GetDescription(), QueryFilter: c.GetQueryFilter(), Public: c.GetPublic()}
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
}

// createCookbookTool declares create_cookbook.
func createCookbookTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "create_cookbook",
		Description: "Call when the user wants a collection such as quick dinners. Saves a filter, not copies.",
		Annotations: writeAnn(false, false, false),
	}, hasLibrary, props{"name": toolschema.MaxLen(limits.CookbookNameChars), "query_filter": toolschema.Both(toolschema.MaxLen(2000), toolschema.Describe(queryFilterHelp)), "require_all": toolschema.BoolDefault(false), "public": toolschema.BoolDefault(false)}, createCookbook)
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
}

// updateCookbookTool declares update_cookbook.
func updateCookbookTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "update_cookbook",
		Description: "Call to edit a cookbook. Any filter field given rebuilds the whole filter.",
		Annotations: writeAnn(true, true, false),
	}, hasLibrary, props{"cookbook_id": toolschema.GuardLen(limits.CookbookIDChars), "name": toolschema.MaxLen(limits.CookbookNameChars), "query_filter": toolschema.Both(toolschema.MaxLen(2000), toolschema.Describe(`Filter as in create_cookbook; "" clears it.`)), "position": toolschema.IntBounds(1, 1000)}, updateCookbook)
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
	res, err := b.Library.UpdateCookbook(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, onCookbookMiss(ctx, b, in.CookbookID, true, err)
	}
	return shapeCookbook(res.Msg.GetCookbook()), nil
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

func unreadable(us []*libraryv1.UnreadableRecipe) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.GetSlug()+": "+u.GetReason())
	}
	return out
}

type libraryStatsIn struct {
	Resource      string `json:"resource" jsonschema:"What to count; foods and units are slow."`
	IncludeUnused *bool  `json:"include_unused,omitempty" jsonschema:"List unused items too."`
	Top           int    `json:"top,omitempty" jsonschema:"Most items to return."`
	MaxRecipes    int    `json:"max_recipes,omitempty" jsonschema:"Most recipes to scan."`
}

// libraryStatsTool declares library_stats.
func libraryStatsTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "library_stats",
		Description: "Call to see which tags, foods etc. are used most, or to tidy them. Lists unused ones too.",
		Annotations: readAnn(),
	}, hasLibrary, props{
		"resource": toolschema.Enum("tags", "categories", "tools", "foods", "units"), "include_unused": toolschema.BoolDefault(true),
		"top": toolschema.IntRange(1, limits.Top, limits.DefaultTop), "max_recipes": toolschema.IntRange(1, limits.ScanRecipes, limits.ScanRecipes),
	}, libraryStats)
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
	// Names and counts only: a Mealie id or a note on how the sweep
	// counted is noise to a cook; manage_taxonomy lists ids when a
	// change needs one.
	type usage struct {
		Name    string `json:"name"`
		Recipes int32  `json:"recipes"`
	}
	out := struct {
		Items      []usage  `json:"items"`
		Unused     []string `json:"unused,omitempty"`
		Scanned    int32    `json:"scanned"`
		Library    int32    `json:"library_total"`
		Truncated  string   `json:"truncated,omitempty"`
		Unreadable []string `json:"unreadable,omitempty"`
	}{Items: []usage{}, Unused: r.GetUnused(), Scanned: r.GetScanned(), Library: r.GetLibraryTotal(), Truncated: r.GetTruncated(), Unreadable: unreadable(r.GetUnreadable())}
	for _, u := range r.GetItems() {
		out.Items = append(out.Items, usage{Name: u.GetName(), Recipes: u.GetRecipeCount()})
	}
	return out, nil
}

type maxRecipesIn struct {
	MaxRecipes int `json:"max_recipes,omitempty" jsonschema:"Most recipes to scan."`
}

// findDuplicateRecipesTool declares find_duplicate_recipes.
func findDuplicateRecipesTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "find_duplicate_recipes",
		Description: "Call when the user suspects duplicates. Matches names ignoring case, punctuation and accents.",
		Annotations: readAnn(),
	}, hasLibrary, props{"max_recipes": toolschema.IntRange(1, limits.ScanRecipes, limits.ScanRecipes)}, findDuplicates)
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

// recipeRef names one recipe in a report: its name, and its slug to act on.
type recipeRef struct {
	Name string `json:"name,omitempty"`
	Slug string `json:"slug"`
}

type checkLinksIn struct {
	CheckSources *bool `json:"check_sources,omitempty" jsonschema:"Probe source URLs (third parties)."`
	CheckImages  *bool `json:"check_images,omitempty" jsonschema:"List recipes without images."`
	MaxRecipes   int   `json:"max_recipes,omitempty" jsonschema:"Most recipes to scan."`
}

// checkRecipeLinksTool declares check_recipe_links.
func checkRecipeLinksTool() Tool {
	return newTool(ToolsetLibrary, &mcp.Tool{
		Name:        "check_recipe_links",
		Description: "Call when asked about broken links or missing pictures. Probes source URLs.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(true)},
	}, hasLibrary, props{"check_sources": toolschema.BoolDefault(true), "check_images": toolschema.BoolDefault(true), "max_recipes": toolschema.IntRange(1, limits.ScanRecipes, limits.DefaultLinkRecipes)}, checkLinks)
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
		NoImage   []recipeRef    `json:"no_image,omitempty"`
		Counts    map[string]any `json:"counts,omitempty"`
		Scanned   int32          `json:"scanned"`
		Library   int32          `json:"library_total"`
		Truncated string         `json:"truncated,omitempty"`
	}{Links: []link{}, Counts: counts, Scanned: r.GetScanned(), Library: r.GetLibraryTotal(), Truncated: r.GetTruncated()}
	for _, l := range r.GetItems() {
		out.Links = append(out.Links, link{Slug: l.GetSlug(), URL: l.GetUrl(), Status: linkStatusName(l.GetStatus()), HTTPStatus: l.GetHttpStatus(), Message: l.GetMessage()})
	}
	// Names with the slugs: a report the user reads names recipes as the
	// app does, and the slug is what a fix (set_recipe_image) takes.
	for _, n := range r.GetNoImage() {
		out.NoImage = append(out.NoImage, recipeRef{Slug: n.GetSlug(), Name: n.GetName()})
	}
	if len(out.Counts) == 0 {
		out.Counts = nil
	}
	return out, nil
}
