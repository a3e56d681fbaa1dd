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
		Description: "Call to see which tags, foods etc. are used most, or to tidy them. Lists unused ones and near-duplicate foods to merge.",
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
		Items  []usage  `json:"items"`
		Unused []string `json:"unused,omitempty"`
		// NearDuplicates are names that read as one food or unit, the
		// one to merge the others into first.
		NearDuplicates [][]string `json:"near_duplicates,omitempty"`
		Scanned        int32      `json:"scanned"`
		Library        int32      `json:"library_total"`
		Truncated      string     `json:"truncated,omitempty"`
		Unreadable     []string   `json:"unreadable,omitempty"`
	}{Items: []usage{}, Unused: r.GetUnused(), Scanned: r.GetScanned(), Library: r.GetLibraryTotal(), Truncated: r.GetTruncated(), Unreadable: unreadable(r.GetUnreadable())}
	for _, u := range r.GetItems() {
		out.Items = append(out.Items, usage{Name: u.GetName(), Recipes: u.GetRecipeCount()})
	}
	for _, g := range r.GetNearDuplicates() {
		out.NearDuplicates = append(out.NearDuplicates, g.GetNames())
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
