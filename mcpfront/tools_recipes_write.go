package mcpfront

import (
	"context"
	"encoding/json"
	"fmt"

	"connectrpc.com/connect"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
)

// ingredientLine is one structured ingredient line as a caller sends it.
type ingredientLine struct {
	Quantity *float64 `json:"quantity,omitempty"`
	Unit     string   `json:"unit,omitempty"`
	Food     string   `json:"food,omitempty"`
	Note     string   `json:"note,omitempty"`
	Title    string   `json:"title,omitempty"`
}

// noteIn is one recipe note as a caller sends it.
type noteIn struct {
	Title string `json:"title,omitempty"`
	Text  string `json:"text"`
}

// createRecipeIn is create_recipe's input: mcp-mealie's parameters, by
// their names there, plus total_time, notes and from_slug.
type createRecipeIn struct {
	Name         string   `json:"name" jsonschema:"Recipe name."`
	Description  string   `json:"description,omitempty" jsonschema:"Short description."`
	Ingredients  []any    `json:"ingredients,omitempty" jsonschema:"Text lines, or parse_ingredients objects."`
	Instructions []string `json:"instructions,omitempty" jsonschema:"Steps in order."`
	RecipeYield  string   `json:"recipe_yield,omitempty" jsonschema:"E.g. 4 servings."`
	PrepTime     string   `json:"prep_time,omitempty" jsonschema:"E.g. 15 min."`
	CookTime     string   `json:"cook_time,omitempty" jsonschema:"Free text."`
	TotalTime    string   `json:"total_time,omitempty" jsonschema:"Free text."`
	Tags         []string `json:"tags,omitempty" jsonschema:"Names."`
	Categories   []string `json:"categories,omitempty" jsonschema:"Names."`
	Tools        []string `json:"tools,omitempty" jsonschema:"Kitchen tool names."`
	SourceURL    string   `json:"source_url,omitempty" jsonschema:"Source page."`
	Notes        []noteIn `json:"notes,omitempty" jsonschema:"Notes."`
	FromSlug     string   `json:"from_slug,omitempty" jsonschema:"Copy this recipe; other fields override."`
}

// updateRecipeIn is update_recipe's input. Pointers tell "not given" from
// "set to empty".
type updateRecipeIn struct {
	Slug              string   `json:"slug" jsonschema:"Slug or exact name."`
	Name              *string  `json:"name,omitempty" jsonschema:"New name; moves the slug."`
	Description       *string  `json:"description,omitempty" jsonschema:"Description."`
	Ingredients       []any    `json:"ingredients,omitempty" jsonschema:"All lines, text or objects."`
	Instructions      []string `json:"instructions,omitempty" jsonschema:"All steps."`
	RecipeYield       *string  `json:"recipe_yield,omitempty" jsonschema:"Yield."`
	PrepTime          *string  `json:"prep_time,omitempty" jsonschema:"Free text."`
	CookTime          *string  `json:"cook_time,omitempty" jsonschema:"Free text."`
	TotalTime         *string  `json:"total_time,omitempty" jsonschema:"Free text."`
	Tags              []string `json:"tags,omitempty" jsonschema:"Names to add."`
	Categories        []string `json:"categories,omitempty" jsonschema:"Names to add."`
	Tools             []string `json:"tools,omitempty" jsonschema:"Names to add."`
	ReplaceTags       bool     `json:"replace_tags,omitempty" jsonschema:"Replace, not add to."`
	ReplaceCategories bool     `json:"replace_categories,omitempty" jsonschema:"Replace, not add to."`
	ReplaceTools      bool     `json:"replace_tools,omitempty" jsonschema:"Replace, not add to."`
	SourceURL         *string  `json:"source_url,omitempty" jsonschema:"Source page."`
	Rating            *float64 `json:"rating,omitempty" jsonschema:"Rating."`
	Notes             []noteIn `json:"notes,omitempty" jsonschema:"All notes."`
	ShowAmounts       *bool    `json:"show_amounts,omitempty" jsonschema:"Show quantities in Mealie's app."`
	Confirm           string   `json:"confirm,omitempty" jsonschema:"From a refusal, once the user agrees."`
	// The line edits: a match is a food or words of one line; the other
	// lines stay as stored.
	ReplaceIngredients []lineReplaceIn `json:"replace_ingredients,omitempty" jsonschema:"Swap lines: match a food or words of one line."`
	RemoveIngredients  []string        `json:"remove_ingredients,omitempty" jsonschema:"Matches of lines to drop."`
	AddIngredients     []any           `json:"add_ingredients,omitempty" jsonschema:"Lines to append, or {line, after: match}."`
}

// lineReplaceIn is one replace_ingredients item.
type lineReplaceIn struct {
	Match string `json:"match"`
	With  string `json:"with"`
}

// ingredientInputs converts a caller's mixed list: strings go through
// Mealie's parser in the service, objects pass as structured lines.
func ingredientInputs(items []any) ([]*recipesv1.IngredientInput, error) {
	var out []*recipesv1.IngredientInput
	for i, it := range items {
		switch v := it.(type) {
		case string:
			out = append(out, &recipesv1.IngredientInput{Kind: &recipesv1.IngredientInput_Text{Text: v}})
		case map[string]any:
			raw, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			var line ingredientLine
			if err := json.Unmarshal(raw, &line); err != nil {
				return nil, fmt.Errorf("ingredient %d: %v", i+1, err)
			}
			out = append(out, &recipesv1.IngredientInput{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{
				Quantity: line.Quantity, Unit: line.Unit, Food: line.Food, Note: line.Note, Title: line.Title,
			}}})
		default:
			return nil, fmt.Errorf("ingredient %d must be a text line or an object", i+1)
		}
	}
	return out, nil
}

func notesIn(in []noteIn) []*recipesv1.Note {
	var out []*recipesv1.Note
	for _, n := range in {
		out = append(out, &recipesv1.Note{Title: n.Title, Text: n.Text})
	}
	return out
}

// writeReport is the answer of recipe writes: the slug to chain, plus what
// the write did on the way.
type writeReport struct {
	Slug        string              `json:"slug"`
	Name        string              `json:"name,omitempty"`
	RenamedFrom string              `json:"renamed_from,omitempty"`
	Created     map[string][]string `json:"created,omitempty"`
	Unresolved  []string            `json:"unresolved,omitempty"`
	// Unparsed are text lines no Mealie parser could read, kept whole as
	// notes.
	Unparsed []string `json:"unparsed,omitempty"`
	// Resolved are the food and unit names read other than exactly, with
	// what was written ("tomatoes" -> ["tomato"]).
	Resolved map[string][]string `json:"resolved,omitempty"`
	// CreatedFoods are foods created for lines no Mealie food matched.
	CreatedFoods []string `json:"created_foods,omitempty"`
	// CreatedUnits are units created for counting words no Mealie unit
	// matched ("block" of "1 block extra-firm tofu").
	CreatedUnits []string `json:"created_units,omitempty"`
	// ChangedLines are lines whose parser reading sous changed (dropped
	// words put back in the note, a unit kept in the cook's order).
	ChangedLines []string `json:"changed_lines,omitempty"`
	// Rating is the recipe's rating as Mealie reports it after a rating
	// was written (the average of its users' ratings).
	Rating *float64 `json:"rating,omitempty"`
	// Replaced says what an update replaced, before → after
	// ("ingredients: 12 → 13"), so a model sees what its call did.
	Replaced []string `json:"replaced,omitempty"`
	// LineEdits says what each line edit did, with the line as stored.
	LineEdits []string `json:"line_edits,omitempty"`
	Note      string   `json:"note,omitempty"`
}

// resolvedMap renders a resolved map as {"rice": ["jasmine rice"]}.
func resolvedMap(m map[string]*recipesv1.Names) map[string][]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = v.GetNames()
	}
	return out
}

// createdMap renders TaxonomyCreated as {"tags": [...]} with empty kinds
// dropped, so "created new tags: Vegan" is visible at a glance: a model
// that misspelt a tag sees the new one it made.
func createdMap(c *recipesv1.TaxonomyCreated) map[string][]string {
	m := map[string][]string{}
	if len(c.GetTags()) > 0 {
		m["tags"] = c.GetTags()
	}
	if len(c.GetCategories()) > 0 {
		m["categories"] = c.GetCategories()
	}
	if len(c.GetTools()) > 0 {
		m["tools"] = c.GetTools()
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

const unresolvedNote = "ingredient names Mealie does not know were kept in the line's note"

// changedNote says what changed_lines are: the bare list reads as a
// warning with nothing to act on.
const changedNote = "changed_lines: sous stored these other than the parser read them (words it dropped put back in the note, a unit kept in the cook's order); get_recipe shows them as the app does"

// writeNotes is the note of a create or update answer.
func (r *writeReport) writeNotes() {
	if len(r.Unresolved) > 0 {
		r.Note = unresolvedNote
	}
	if len(r.ChangedLines) > 0 {
		r.Note = joinSentences(r.Note, changedNote)
	}
}

// createRecipeTool declares create_recipe.
func createRecipeTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "create_recipe",
		Description: "Call when given a recipe to keep. Missing tags, categories, tools and foods are created.",
		Annotations: writeAnn(false, false, false),
	}, hasRecipes, props{
		"name":         toolschema.MaxLen(limits.RecipeNameChars),
		"ingredients":  ingredientItems,
		"instructions": toolschema.GuardCount(limits.RecipeInstructions),
		"from_slug":    toolschema.MaxLen(limits.RecipeSlugChars),
		"recipe_yield": toolschema.GuardLen(limits.RecipeShortTextChars),
		"prep_time":    toolschema.GuardLen(limits.RecipeShortTextChars),
		"cook_time":    toolschema.GuardLen(limits.RecipeShortTextChars),
		"total_time":   toolschema.GuardLen(limits.RecipeShortTextChars),
		"tags":         toolschema.GuardItems(limits.TaxonomyNameChars),
		"categories":   toolschema.GuardItems(limits.TaxonomyNameChars),
		"tools":        toolschema.GuardItems(limits.TaxonomyNameChars),
	}, createRecipe)
}

func createRecipe(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in createRecipeIn) (any, error) {
	ings, err := ingredientInputs(in.Ingredients)
	if err != nil {
		return nil, err
	}
	res, err := b.Recipes.CreateRecipe(ctx, connect.NewRequest(&recipesv1.CreateRecipeRequest{
		Name: in.Name, Description: in.Description, Ingredients: ings, Instructions: in.Instructions,
		RecipeYield: in.RecipeYield, PrepTime: in.PrepTime, CookTime: in.CookTime, TotalTime: in.TotalTime,
		Tags: in.Tags, Categories: in.Categories, Tools: in.Tools, SourceUrl: in.SourceURL, FromSlug: in.FromSlug, Notes: notesIn(in.Notes),
	}))
	if err != nil {
		return nil, err
	}
	out := writeReport{
		Slug: res.Msg.GetSlug(), Name: res.Msg.GetName(), Created: createdMap(res.Msg.GetCreated()), Unresolved: res.Msg.GetUnresolved(), Unparsed: res.Msg.GetUnparsed(),
		Resolved: resolvedMap(res.Msg.GetResolved()), CreatedFoods: res.Msg.GetCreatedFoods(), CreatedUnits: res.Msg.GetCreatedUnits(), ChangedLines: res.Msg.GetChangedLines(),
	}
	out.writeNotes()
	return out, nil
}

// updateRecipeTool declares update_recipe.
func updateRecipeTool() Tool {
	return newTool(ToolsetRecipes, &mcp.Tool{
		Name:        "update_recipe",
		Description: "Call to edit, retag, rate or rename a recipe. Tags, categories and tools add unless replace_* is set.",
		Annotations: writeAnn(true, true, false),
	}, hasRecipes, props{
		"slug":                toolschema.MaxLen(limits.RecipeSlugChars),
		"name":                toolschema.MaxLen(limits.RecipeNameChars),
		"ingredients":         ingredientItems,
		"instructions":        toolschema.GuardCount(limits.RecipeInstructions),
		"rating":              toolschema.NumRange(limits.MinRecipeRating, limits.MaxRecipeRating),
		"confirm":             toolschema.MaxLen(limits.ConfirmChars),
		"recipe_yield":        toolschema.GuardLen(limits.RecipeShortTextChars),
		"prep_time":           toolschema.GuardLen(limits.RecipeShortTextChars),
		"cook_time":           toolschema.GuardLen(limits.RecipeShortTextChars),
		"total_time":          toolschema.GuardLen(limits.RecipeShortTextChars),
		"tags":                toolschema.GuardItems(limits.TaxonomyNameChars),
		"categories":          toolschema.GuardItems(limits.TaxonomyNameChars),
		"tools":               toolschema.GuardItems(limits.TaxonomyNameChars),
		"replace_ingredients": toolschema.GuardCount(limits.LineEdits),
		"remove_ingredients":  toolschema.Both(toolschema.GuardCount(limits.LineEdits), toolschema.GuardItems(limits.IngredientLineChars)),
		"add_ingredients":     lineAddItems,
	}, updateRecipe)
}

func updateRecipe(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in updateRecipeIn) (any, error) {
	ings, err := ingredientInputs(in.Ingredients)
	if err != nil {
		return nil, err
	}
	adds, err := lineAdds(in.AddIngredients)
	if err != nil {
		return nil, err
	}
	var replaces []*recipesv1.LineEdit
	for _, r := range in.ReplaceIngredients {
		replaces = append(replaces, &recipesv1.LineEdit{Match: r.Match, Line: r.With})
	}
	given := in.Slug
	if in.Slug, err = resolveRecipe(ctx, b, in.Slug); err != nil {
		return nil, err
	}
	req := &recipesv1.UpdateRecipeRequest{
		Slug: in.Slug, Name: in.Name, Description: in.Description,
		Ingredients: ings, SetIngredients: in.Ingredients != nil,
		Instructions: in.Instructions, SetInstructions: in.Instructions != nil,
		RecipeYield: in.RecipeYield, PrepTime: in.PrepTime, CookTime: in.CookTime, TotalTime: in.TotalTime,
		Tags: in.Tags, Categories: in.Categories, Tools: in.Tools,
		ReplaceTags: in.ReplaceTags, ReplaceCategories: in.ReplaceCategories, ReplaceTools: in.ReplaceTools,
		SourceUrl: in.SourceURL, Rating: in.Rating, Notes: notesIn(in.Notes), SetNotes: in.Notes != nil,
		ShowAmounts: in.ShowAmounts, Confirm: in.Confirm,
		ReplaceIngredients: replaces, RemoveIngredients: in.RemoveIngredients, AddIngredients: adds,
	}
	res, err := b.Recipes.UpdateRecipe(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, onRecipeMiss(ctx, b, given, err)
	}
	out := writeReport{
		Slug: res.Msg.GetSlug(), RenamedFrom: res.Msg.GetRenamedFrom(), Created: createdMap(res.Msg.GetCreated()), Unresolved: res.Msg.GetUnresolved(), Unparsed: res.Msg.GetUnparsed(), Rating: res.Msg.Rating,
		Resolved: resolvedMap(res.Msg.GetResolved()), CreatedFoods: res.Msg.GetCreatedFoods(), CreatedUnits: res.Msg.GetCreatedUnits(), ChangedLines: res.Msg.GetChangedLines(),
		Replaced: res.Msg.GetReplaced(), LineEdits: res.Msg.GetLineEdits(),
	}
	out.writeNotes()
	if len(out.Replaced) == 0 && out.Rating == nil && out.RenamedFrom == "" {
		out.Note = joinSentences(out.Note, "nothing changed: every value given was already the recipe's")
	}
	return out, nil
}

// lineAdds reads add_ingredients: a line to append, or {line, after}.
func lineAdds(items []any) ([]*recipesv1.LineEdit, error) {
	var out []*recipesv1.LineEdit
	for i, it := range items {
		switch v := it.(type) {
		case string:
			out = append(out, &recipesv1.LineEdit{Line: v})
		case map[string]any:
			line, _ := v["line"].(string)
			after, _ := v["after"].(string)
			out = append(out, &recipesv1.LineEdit{Line: line, After: after})
		default:
			return nil, fmt.Errorf("add_ingredients[%d] must be a line or {\"line\": ..., \"after\": ...}", i)
		}
	}
	return out, nil
}

// lineAddItems describes add_ingredients' items: a line, or a line put
// after the line a match names.
func lineAddItems(s *mcpSchema) {
	toolschema.GuardCount(limits.LineEdits)(s)
	text := &jsonschema.Schema{Type: "string", MaxLength: ptr(limits.IngredientLineChars)}
	after := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{"line": {Type: "string"}, "after": {Type: "string"}},
		Required:             []string{"line", "after"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	s.Items = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{text, after}}
}

// ingredientItems describes an ingredients list whose items are either a
// free-text line or a structured line, chosen per item: a model writes
// "2 cups flour" as easily as its parts, and a structured line keeps
// Mealie's food and unit links (docs/tools.md, create_recipe).
func ingredientItems(s *mcpSchema) {
	toolschema.GuardCount(limits.RecipeIngredients)(s)
	// The parameter's own description names the object's fields; a
	// description per field would be paid for twice (create and update).
	text := &jsonschema.Schema{Type: "string", MaxLength: ptr(limits.IngredientLineChars)}
	structured := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"quantity": {Type: "number", Minimum: ptr(0.0)},
			"unit":     {Type: "string"},
			"food":     {Type: "string"},
			"note":     {Type: "string"},
			"title":    {Type: "string"},
		},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	s.Items = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{text, structured}}
}
