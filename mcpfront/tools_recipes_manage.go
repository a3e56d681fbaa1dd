package mcpfront

import (
	"context"
	"errors"
	"fmt"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
)

type setRecipeImageIn struct {
	Slug string `json:"slug" jsonschema:"Slug or exact name."`
	URL  string `json:"url" jsonschema:"Image URL."`
}

// setRecipeImageTool declares set_recipe_image.
func setRecipeImageTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "set_recipe_image",
		Description: "Call when given a picture link for a recipe. Mealie downloads it as its image.",
		Annotations: writeAnn(true, true, true),
	}, hasRecipes, props{"slug": toolschema.MaxLen(limits.RecipeSlugChars), "url": toolschema.MaxLen(limits.URLChars)}, setRecipeImage)
}

func setRecipeImage(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in setRecipeImageIn) (any, error) {
	slug, err := resolveRecipe(ctx, b, in.Slug)
	if err != nil {
		return nil, err
	}
	res, err := b.Recipes.SetRecipeImageFromURL(ctx, connect.NewRequest(&recipesv1.SetRecipeImageFromURLRequest{Slug: slug, Url: in.URL}))
	if err != nil {
		return nil, onRecipeMiss(ctx, b, in.Slug, err)
	}
	return writeReport{Slug: res.Msg.GetSlug(), Note: "image set"}, nil
}

type uploadRecipeImageIn struct {
	Slug string `json:"slug" jsonschema:"Slug or exact name."`
	Path string `json:"path" jsonschema:"File in the image directory."`
}

// uploadRecipeImageTool declares upload_recipe_image.
func uploadRecipeImageTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "upload_recipe_image",
		Description: "Call when given a photo file for a recipe. Uploads it from the image directory.",
		Annotations: writeAnn(true, true, false),
	}, func(b Backends, o Options) bool { return b.Recipes != nil && o.ImageDir != "" }, props{
		"slug": toolschema.MaxLen(limits.RecipeSlugChars), "path": toolschema.MaxLen(imagePathChars),
	}, uploadRecipeImage)
}

func uploadRecipeImage(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in uploadRecipeImageIn) (any, error) {
	img, ext, err := readImage(b.imageDir, in.Path)
	if err != nil {
		return nil, err
	}
	slug, err := resolveRecipe(ctx, b, in.Slug)
	if err != nil {
		return nil, err
	}
	res, err := b.Recipes.UploadRecipeImage(ctx, connect.NewRequest(&recipesv1.UploadRecipeImageRequest{Slug: slug, Image: img, Extension: ext}))
	if err != nil {
		return nil, onRecipeMiss(ctx, b, in.Slug, err)
	}
	return writeReport{Slug: res.Msg.GetSlug(), Note: "image uploaded"}, nil
}

type bulkTagIn struct {
	Slugs      []string `json:"slugs" jsonschema:"Recipe slugs."`
	Tags       []string `json:"tags,omitempty" jsonschema:"Tags to add."`
	Categories []string `json:"categories,omitempty" jsonschema:"Categories to add."`
}

// bulkTagRecipesTool declares bulk_tag_recipes.
func bulkTagRecipesTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "bulk_tag_recipes",
		Description: "Call to tag or categorise several recipes at once. Adds only; missing names are created.",
		Annotations: writeAnn(false, true, false),
	}, hasRecipes, props{
		"slugs": toolschema.Both(toolschema.ItemsRange(1, limits.BulkSlugs), toolschema.GuardItems(limits.RecipeSlugChars)),
		"tags":  toolschema.Both(toolschema.GuardCount(limits.TaxonomyNames), toolschema.GuardItems(limits.TaxonomyNameChars)), "categories": toolschema.Both(toolschema.GuardCount(limits.TaxonomyNames), toolschema.GuardItems(limits.TaxonomyNameChars)),
	}, bulkTagRecipes)
}

func bulkTagRecipes(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in bulkTagIn) (any, error) {
	if len(in.Tags) == 0 && len(in.Categories) == 0 {
		return nil, errors.New("give tags or categories to add")
	}
	res, err := b.Recipes.BulkTagRecipes(ctx, connect.NewRequest(&recipesv1.BulkTagRecipesRequest{Slugs: in.Slugs, Tags: in.Tags, Categories: in.Categories}))
	if err != nil {
		return nil, err
	}
	return struct {
		Tagged   []string            `json:"tagged"`
		NotFound []string            `json:"not_found,omitempty"`
		Created  map[string][]string `json:"created,omitempty"`
	}{Tagged: orEmpty(res.Msg.GetSlugs()), NotFound: res.Msg.GetNotFound(), Created: createdMap(res.Msg.GetCreated())}, nil
}

type deleteRecipeIn struct {
	Slug        string `json:"slug" jsonschema:"Recipe slug."`
	ConfirmSlug string `json:"confirm_slug" jsonschema:"Repeat the slug to confirm the delete."`
}

// deleteRecipeTool declares delete_recipe.
func deleteRecipeTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "delete_recipe",
		Description: "Call only when clearly asked to delete this recipe. Permanent; confirm_slug must equal slug.",
		Annotations: writeAnn(true, true, false),
	}, hasRecipes, props{"slug": toolschema.MaxLen(limits.RecipeSlugChars), "confirm_slug": toolschema.MaxLen(limits.RecipeSlugChars)}, deleteRecipe)
}

func deleteRecipe(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in deleteRecipeIn) (any, error) {
	// Checked here too, so a mismatch costs no round trip (docs/tools.md,
	// "Safety lines"); the service checks it for direct Connect clients.
	if in.Slug != in.ConfirmSlug {
		return nil, fmt.Errorf("confirm_slug %s differs from slug %s: repeat the slug to confirm the delete; nothing was deleted", toolschema.Quote(in.ConfirmSlug), toolschema.Quote(in.Slug))
	}
	// By slug only: a delete names exactly what it removes. A miss
	// still suggests the nearest slugs.
	res, err := b.Recipes.DeleteRecipe(ctx, connect.NewRequest(&recipesv1.DeleteRecipeRequest{Slug: in.Slug, ConfirmSlug: in.ConfirmSlug}))
	if err != nil {
		return nil, onRecipeMiss(ctx, b, in.Slug, err)
	}
	out := struct {
		Deleted string `json:"deleted"`
		Note    string `json:"note,omitempty"`
	}{Deleted: res.Msg.GetSlug()}
	if res.Msg.GetUsedBulkFallback() {
		out.Note = "Mealie failed the plain delete; the bulk delete action removed the recipe instead"
	}
	return out, nil
}

type importRecipeIn struct {
	URL               string `json:"url" jsonschema:"Recipe page URL."`
	IncludeTags       *bool  `json:"include_tags,omitempty" jsonschema:"Keep page keywords as tags."`
	IncludeCategories *bool  `json:"include_categories,omitempty" jsonschema:"Keep page categories."`
	AllowDuplicate    bool   `json:"allow_duplicate,omitempty" jsonschema:"Import a second copy."`
}

// importRecipeFromUrlTool declares import_recipe_from_url.
func importRecipeFromUrlTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "import_recipe_from_url",
		Description: "Call to save a recipe from a link. On scrape_failed, fix or delete the placeholder.",
		Annotations: writeAnn(false, false, true),
	}, hasRecipes, props{
		"url": toolschema.MaxLen(limits.URLChars), "include_tags": toolschema.BoolDefault(true), "include_categories": toolschema.BoolDefault(true),
	}, importRecipe)
}

func importRecipe(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in importRecipeIn) (any, error) {
	res, err := b.Recipes.ImportRecipeFromURL(ctx, connect.NewRequest(&recipesv1.ImportRecipeFromURLRequest{
		Url: in.URL, IncludeTags: in.IncludeTags, IncludeCategories: in.IncludeCategories, AllowDuplicate: in.AllowDuplicate,
	}))
	if err != nil {
		return nil, err
	}
	out := struct {
		Slug         string `json:"slug"`
		Name         string `json:"name,omitempty"`
		Ingredients  int32  `json:"ingredients"`
		Instructions int32  `json:"instructions"`
		ScrapeFailed bool   `json:"scrape_failed,omitempty"`
		Note         string `json:"note,omitempty"`
	}{Slug: res.Msg.GetSlug(), Name: res.Msg.GetName(), Ingredients: res.Msg.GetIngredientCount(), Instructions: res.Msg.GetInstructionCount(), ScrapeFailed: res.Msg.GetScrapeFailed()}
	if out.ScrapeFailed {
		// A 201 with placeholder text reads like content unless said.
		out.Note = "Mealie could not read a recipe on that page and saved a placeholder: fix it with update_recipe or remove it with delete_recipe"
	}
	return out, nil
}

type markRecipeMadeIn struct {
	Slug   string   `json:"slug" jsonschema:"Slug or exact name."`
	Date   string   `json:"date,omitempty" jsonschema:"Day; omit for today."`
	Note   string   `json:"note,omitempty" jsonschema:"Timeline note."`
	Rating *float64 `json:"rating,omitempty" jsonschema:"The user's stars."`
}

// markRecipeMadeTool declares mark_recipe_made.
func markRecipeMadeTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "mark_recipe_made",
		Description: "Call when a Mealie recipe was cooked or eaten (meta-recipes: log_cook). Sets last_made.",
		Annotations: writeAnn(false, false, false),
	}, hasRecipes, props{"slug": toolschema.MaxLen(limits.RecipeSlugChars), "date": toolschema.Date, "note": toolschema.MaxLen(limits.MadeNoteChars), "rating": toolschema.NumRange(limits.MinRecipeRating, limits.MaxRecipeRating)}, markRecipeMade)
}

func markRecipeMade(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in markRecipeMadeIn) (any, error) {
	slug, err := resolveRecipe(ctx, b, in.Slug)
	if err != nil {
		return nil, err
	}
	res, err := b.Recipes.MarkRecipeMade(ctx, connect.NewRequest(&recipesv1.MarkRecipeMadeRequest{Slug: slug, Date: in.Date, Note: in.Note, Rating: in.Rating}))
	if err != nil {
		return nil, onRecipeMiss(ctx, b, in.Slug, err)
	}
	// last_made is what Mealie stores after the call, which a cook dated
	// before the last one leaves as it was; made is the day recorded then.
	out := struct {
		Slug     string   `json:"slug"`
		LastMade string   `json:"last_made"`
		Made     string   `json:"made,omitempty"`
		Rating   *float64 `json:"rating,omitempty"`
		Note     string   `json:"note,omitempty"`
	}{Slug: res.Msg.GetSlug(), LastMade: res.Msg.GetLastMade(), Rating: res.Msg.Rating}
	if out.LastMade == "" {
		out.LastMade = res.Msg.GetDate()
	}
	if d := res.Msg.GetDate(); d != out.LastMade {
		out.Made = d
		out.Note = fmt.Sprintf("the cook on %s is on the recipe's timeline; last_made stays %s, the later day", d, out.LastMade)
	}
	return out, nil
}
