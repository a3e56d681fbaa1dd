package mealie

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Shopping list paging.
const (
	// ShoppingPageSize is the page size for shopping lists and items: a
	// household rarely has more than a few hundred rows in all.
	ShoppingPageSize = 500
	// MaxShoppingPages bounds how many pages one read follows.
	MaxShoppingPages = 20
)

// ShoppingLabel is a multi-purpose label (a store section) as a shopping
// item or a food carries it.
type ShoppingLabel struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ShoppingFood is a food as shopping items and the parser carry it. The
// parser returns foods it could not match with a null id
// (services/mealplan/testdata/parser_ingredients__brute.json, "sugar").
type ShoppingFood struct {
	ID         *string        `json:"id"`
	Name       string         `json:"name"`
	PluralName *string        `json:"pluralName"`
	LabelID    *string        `json:"labelId"`
	Label      *ShoppingLabel `json:"label"`
}

// ShoppingUnit is a unit as shopping items and the parser carry it; the
// parser returns unknown units (such as "large") with a null id.
type ShoppingUnit struct {
	ID           *string `json:"id"`
	Name         string  `json:"name"`
	PluralName   *string `json:"pluralName"`
	Abbreviation string  `json:"abbreviation"`
}

// ShoppingRecipeRef ties a shopping item to the recipe it was added for.
type ShoppingRecipeRef struct {
	RecipeID       string   `json:"recipeId"`
	RecipeQuantity float64  `json:"recipeQuantity"`
	RecipeScale    *float64 `json:"recipeScale,omitempty"`
}

// ShoppingItem is one row of a shopping list (services/mealplan/testdata/shopping_items__list.json).
// Raw keeps every field Mealie sent, because PUT needs the whole object:
// a partial body is a 422 (services/mealplan/testdata/shopping_items__put_partial.json).
type ShoppingItem struct {
	ID               string              `json:"id"`
	ShoppingListID   string              `json:"shoppingListId"`
	Quantity         float64             `json:"quantity"`
	Unit             *ShoppingUnit       `json:"unit"`
	Food             *ShoppingFood       `json:"food"`
	Note             *string             `json:"note"`
	IsFood           bool                `json:"isFood"`
	DisableAmount    *bool               `json:"disableAmount"`
	Display          string              `json:"display"`
	Checked          bool                `json:"checked"`
	Position         int                 `json:"position"`
	FoodID           *string             `json:"foodId"`
	UnitID           *string             `json:"unitId"`
	LabelID          *string             `json:"labelId"`
	Label            *ShoppingLabel      `json:"label"`
	RecipeReferences []ShoppingRecipeRef `json:"recipeReferences"`
	// Extras is Mealie's key/value store for integrations on the row; sous
	// keeps its write marker there (WriteMarker).
	Extras map[string]any `json:"extras"`
	// CreatedAt orders rows of one position as they were made: Mealie
	// orders a list's rows by position alone, and PostgreSQL returns the
	// ties in no fixed order (TestShoppingListRenameKeepsItems in
	// integration/contract, recordings/3.20-pg and 2.8-pg).
	CreatedAt string         `json:"createdAt"`
	Raw       map[string]any `json:"-"`
}

// WriteMarkerKey is the key of a row's extras under which sous keeps the
// ids of its last writes to the row (MaxWriteMarks of them, space-separated,
// newest last). Mealie's app saves a row whole, extras included, as it
// last read it, and Mealie's own merge writes back the row it read, extras
// included (TestShoppingItemExtrasMarkWrites in the contract package), so
// a row read back without the id of a sous write was saved over by a
// writer that had read it before that write: the write's amount was lost.
// A write that builds on the row as read keeps the ids it read, so a
// second sous process that added once more on top of this one's write
// still shows this one's id, and nothing is added twice.
const WriteMarkerKey = "sous_write"

// MaxWriteMarks bounds the ids a row keeps: a row is written a few times
// between two reads of any one writer, and the extras value stays short.
const MaxWriteMarks = 8

// WriteMarks are the ids of the sous writes the row carries, oldest first.
func (it *ShoppingItem) WriteMarks() []string {
	s, _ := it.Extras[WriteMarkerKey].(string)
	return strings.Fields(s)
}

// HasWrite reports whether the row as read includes the sous write id.
func (it *ShoppingItem) HasWrite(id string) bool {
	return slices.Contains(it.WriteMarks(), id)
}

// UnmarshalJSON reads the typed fields and keeps the whole object in Raw.
func (it *ShoppingItem) UnmarshalJSON(b []byte) error {
	type plain ShoppingItem
	*it = ShoppingItem{}
	return decodeKeepingRaw(b, (*plain)(it), &it.Raw)
}

// decodeKeepingRaw decodes b into typed and, whole, into raw: the shopping
// payloads sous PUTs back need every field Mealie sent. typed is the
// payload, zeroed (a decode into a reused slice element must not keep the
// last one's fields), converted to a type without its UnmarshalJSON, which
// would otherwise call itself.
func decodeKeepingRaw(b []byte, typed any, raw *map[string]any) error {
	if err := json.Unmarshal(b, typed); err != nil {
		return err
	}
	return json.Unmarshal(b, raw)
}

// ShoppingListRecipeRef is a recipe recorded on a list, with its summary.
type ShoppingListRecipeRef struct {
	RecipeID string `json:"recipeId"`
	// RecipeQuantity is how many times the recipe is on the list: Mealie
	// adds each add's scale and subtracts each removal's
	// (ShoppingListService.add_recipe_ingredients_to_list in 2.0, 2.8 and
	// 3.11 alike).
	RecipeQuantity float64        `json:"recipeQuantity"`
	Recipe         *RecipeSummary `json:"recipe"`
}

// ShoppingLabelSetting places one label on a list: Mealie's app shows a
// list's sections in the order of position
// (testdata/recordings/<version>/TestShoppingListRenameKeepsItems.json in
// the contract package).
type ShoppingLabelSetting struct {
	LabelID  string         `json:"labelId"`
	Position int            `json:"position"`
	Label    *ShoppingLabel `json:"label"`
}

// ShoppingList is a household shopping list. Name is null for a list
// created without one (services/mealplan/testdata/shopping_lists__create_no_name.json). ListItems is
// only present on GET /lists/{id}, not in the paged overview
// (services/mealplan/testdata/shopping_lists__list_after.json).
type ShoppingList struct {
	ID               string                  `json:"id"`
	Name             *string                 `json:"name"`
	ListItems        []ShoppingItem          `json:"listItems"`
	RecipeReferences []ShoppingListRecipeRef `json:"recipeReferences"`
	LabelSettings    []ShoppingLabelSetting  `json:"labelSettings"`
	// Raw keeps every field Mealie sent: PUT of a list replaces it whole,
	// listItems included, so a rename sends the list back as read.
	Raw map[string]any `json:"-"`
}

// UnmarshalJSON reads the typed fields and keeps the whole object in Raw.
func (l *ShoppingList) UnmarshalJSON(b []byte) error {
	type plain ShoppingList
	*l = ShoppingList{}
	return decodeKeepingRaw(b, (*plain)(l), &l.Raw)
}

// ShoppingItemCreate is one row to create. Quantity is always sent: Mealie
// defaults a missing one to 1, and 3.11 then shows a note row written as
// "2 onions" as "1 2 onions" (its display prints any non-zero quantity;
// 2.x hides a quantity of 1 on a row that is not a food:
// testdata/recordings/<version>/TestShoppingNoteRowDisplay.json in the
// contract package). Zero shows no quantity on every version.
type ShoppingItemCreate struct {
	ShoppingListID   string              `json:"shoppingListId"`
	Quantity         float64             `json:"quantity"`
	FoodID           string              `json:"foodId,omitempty"`
	UnitID           string              `json:"unitId,omitempty"`
	Note             string              `json:"note"`
	IsFood           bool                `json:"isFood"`
	DisableAmount    bool                `json:"disableAmount"`
	RecipeReferences []ShoppingRecipeRef `json:"recipeReferences,omitempty"`
}

// ShoppingItemsChange is Mealie's answer to item writes: the rows it
// created, the rows it updated (an item with the same food and unit as an
// existing row is merged into it:
// services/mealplan/testdata/shopping_items__create_same_food_merges.json)
// and the rows it deleted. Writes never return the bare item.
type ShoppingItemsChange struct {
	CreatedItems []ShoppingItem `json:"createdItems"`
	UpdatedItems []ShoppingItem `json:"updatedItems"`
	DeletedItems []ShoppingItem `json:"deletedItems"`
}

// ListShoppingLists reads every shopping list of the household (without
// their items).
func (c *Client) ListShoppingLists(ctx context.Context) ([]ShoppingList, error) {
	return shoppingPages[ShoppingList](ctx, c, "/api/households/shopping/lists", nil, "shopping lists")
}

// ListShoppingItems reads every shopping item of the household, all lists.
func (c *Client) ListShoppingItems(ctx context.Context) ([]ShoppingItem, error) {
	return shoppingPages[ShoppingItem](ctx, c, "/api/households/shopping/items", nil, "shopping items")
}

// GetShoppingList reads one list with its items; an unknown id is
// KindNotFound.
func (c *Client) GetShoppingList(ctx context.Context, id string) (*ShoppingList, error) {
	var l ShoppingList
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/households/shopping/lists/" + url.PathEscape(id), Resource: fmt.Sprintf("shopping list '%s'", id)}, &l); err != nil {
		return nil, err
	}
	return &l, nil
}

// CreateShoppingItems creates rows in one call
// (POST /api/households/shopping/items/create-bulk, answered 201 with a
// ShoppingItemsChange:
// services/mealplan/testdata/shopping_items__create_bulk.json).
func (c *Client) CreateShoppingItems(ctx context.Context, items []ShoppingItemCreate) (*ShoppingItemsChange, error) {
	var ch ShoppingItemsChange
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/households/shopping/items/create-bulk", Body: items, Resource: "shopping items", Subject: "the shopping items"}, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}

// UpdateShoppingItem PUTs item's full object (Raw) with changes applied on
// top, such as {"checked": true} (services/mealplan/testdata/shopping_items__put_check.json).
func (c *Client) UpdateShoppingItem(ctx context.Context, item *ShoppingItem, changes map[string]any) (*ShoppingItemsChange, error) {
	body := maps.Clone(item.Raw)
	if body == nil {
		body = map[string]any{}
	}
	maps.Copy(body, changes)
	var ch ShoppingItemsChange
	if err := c.Do(ctx, Request{Method: http.MethodPut, Path: "/api/households/shopping/items/" + url.PathEscape(item.ID), Body: body, Resource: fmt.Sprintf("shopping item '%s'", item.ID)}, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}

// GetShoppingItem reads one row; an unknown id is KindNotFound
// (services/mealplan/testdata/shopping_items__get_one.json).
func (c *Client) GetShoppingItem(ctx context.Context, id string) (*ShoppingItem, error) {
	var it ShoppingItem
	if err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/households/shopping/items/" + url.PathEscape(id), Resource: fmt.Sprintf("shopping item '%s'", id)}, &it); err != nil {
		return nil, err
	}
	return &it, nil
}

// ShoppingItemMerge is an amount sous adds to a row already on a list: one
// PUT of the row with the summed quantity, rather than Mealie's own merge,
// which reads and writes in two steps and loses amounts when two adds
// arrive together.
type ShoppingItemMerge struct {
	// Quantity is the row's new quantity (what it held plus the addition).
	Quantity float64
	// Note, when not empty, joins the row's note as Mealie's own merge
	// joins notes (" | ", each once).
	Note string
	// Refs are recipe references to add, at most one a recipe (the lines
	// of one recipe that fall on one row sum their quantities into it): a
	// reference to a recipe the row already refers to adds its scale, as
	// Mealie's merge_items does.
	Refs []ShoppingRecipeRef
	// Marker is this write's id, added to the ids the row's extras keep
	// (WriteMarkerKey).
	Marker string
}

// MergeIntoShoppingItem writes a merge into item, as read: the whole row
// (Mealie's PUT needs it whole: services/mealplan/testdata/shopping_items__put_partial.json)
// with the new quantity, notes and references, and the write's marker in
// its extras. Mealie stores the references and extras the body carries
// (TestShoppingItemExtrasMarkWrites in the contract package).
func (c *Client) MergeIntoShoppingItem(ctx context.Context, item *ShoppingItem, m ShoppingItemMerge) (*ShoppingItemsChange, error) {
	extras := maps.Clone(item.Extras)
	if extras == nil {
		extras = map[string]any{}
	}
	marks := append(item.WriteMarks(), m.Marker)
	if len(marks) > MaxWriteMarks {
		marks = marks[len(marks)-MaxWriteMarks:]
	}
	extras[WriteMarkerKey] = strings.Join(marks, " ")
	changes := map[string]any{"quantity": m.Quantity, "extras": extras}
	if note := joinNotes(deref(item.Note), m.Note); note != deref(item.Note) {
		changes["note"] = note
	}
	if len(m.Refs) > 0 {
		changes["recipeReferences"] = mergeRefs(item, m.Refs)
	}
	return c.UpdateShoppingItem(ctx, item, changes)
}

// joinNotes adds a note to a row's as Mealie's merge_items does: each note
// once, joined with " | ".
func joinNotes(have, add string) string {
	for _, a := range strings.Split(add, " | ") {
		have = joinNote(have, a)
	}
	return have
}

func joinNote(have, add string) string {
	add = strings.TrimSpace(add)
	if add == "" {
		return have
	}
	if strings.TrimSpace(have) == "" {
		return add
	}
	for _, n := range strings.Split(have, " | ") {
		if strings.TrimSpace(n) == add {
			return have
		}
	}
	return have + " | " + add
}

// mergeRefs is the row's recipe references as Mealie sent them, with refs
// added: a recipe the row already refers to gets the scale added.
func mergeRefs(item *ShoppingItem, refs []ShoppingRecipeRef) []any {
	var out []any
	raw, _ := item.Raw["recipeReferences"].([]any)
	taken := map[string]bool{}
	for _, r := range raw {
		o, ok := r.(map[string]any)
		if !ok {
			continue
		}
		o = maps.Clone(o)
		id, _ := o["recipeId"].(string)
		for _, add := range refs {
			if add.RecipeID != id || taken[id] {
				continue
			}
			taken[id] = true
			scale, _ := o["recipeScale"].(float64)
			if scale == 0 {
				// Mealie reads a missing scale as 1 (merge_items).
				scale = 1
			}
			o["recipeScale"] = scale + deref64(add.RecipeScale)
		}
		out = append(out, o)
	}
	for _, add := range refs {
		if taken[add.RecipeID] {
			continue
		}
		taken[add.RecipeID] = true
		out = append(out, map[string]any{"recipeId": add.RecipeID, "recipeQuantity": add.RecipeQuantity, "recipeScale": deref64(add.RecipeScale)})
	}
	return out
}

func deref64(p *float64) float64 {
	if p == nil {
		return 1
	}
	return *p
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// DeleteShoppingItem deletes one row (answered {"message":"","error":false}:
// services/mealplan/testdata/shopping_items__delete.json).
func (c *Client) DeleteShoppingItem(ctx context.Context, id string) error {
	return c.Do(ctx, Request{Method: http.MethodDelete, Path: "/api/households/shopping/items/" + url.PathEscape(id), Resource: fmt.Sprintf("shopping item '%s'", id)}, nil)
}

// CreateShoppingList creates an empty list named name
// (POST /api/households/shopping/lists, answered 201 with the list:
// services/mealplan/testdata/shopping_lists__create_ok.json).
func (c *Client) CreateShoppingList(ctx context.Context, name string) (*ShoppingList, error) {
	var l ShoppingList
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/households/shopping/lists", Body: map[string]any{"name": name}, Resource: "shopping lists", Subject: fmt.Sprintf("the shopping list '%s'", name)}, &l); err != nil {
		return nil, err
	}
	return &l, nil
}

// RenameShoppingList writes list back with a new name. Mealie's PUT
// replaces the whole list: a body without listItems empties it
// (testdata/recordings/<version>/TestShoppingListRenameKeepsItems.json in
// the contract package), so the body is the list as read (Raw), items,
// checked states and label settings included, with only the name changed.
func (c *Client) RenameShoppingList(ctx context.Context, list *ShoppingList, name string) (*ShoppingList, error) {
	body := maps.Clone(list.Raw)
	if body == nil {
		return nil, &Error{Kind: KindProtocol, Message: "renaming a shopping list needs the list as Mealie sent it"}
	}
	body["name"] = name
	var l ShoppingList
	if err := c.Do(ctx, Request{Method: http.MethodPut, Path: "/api/households/shopping/lists/" + url.PathEscape(list.ID), Body: body, Resource: fmt.Sprintf("shopping list '%s'", list.ID)}, &l); err != nil {
		return nil, err
	}
	return &l, nil
}

// DeleteShoppingList deletes a list and its items.
func (c *Client) DeleteShoppingList(ctx context.Context, id string) error {
	return c.Do(ctx, Request{Method: http.MethodDelete, Path: "/api/households/shopping/lists/" + url.PathEscape(id), Resource: fmt.Sprintf("shopping list '%s'", id)}, nil)
}

// AddRecipeToShoppingList puts a recipe's ingredients on a list through
// Mealie's own endpoint, POST /api/households/shopping/lists/{id}/recipe/{recipeId}
// with {recipeIncrementQuantity, recipeIngredients}: every item then carries
// its recipe reference, merges into a row of the same food and unit, and
// Mealie expands a referencedRecipe line (3.5 and later) into the
// sub-recipe's ingredients, scaled. 2.0 has only this form; 2.8 and 3.x
// also take a list at .../recipe and keep this one as a deprecated cast to
// it (routes/households/controller_shopping_lists.py of each version), so
// one form serves every version. ingredients, when not nil, replaces the
// recipe's own lines (Mealie's recipeIngredients override): the pantry
// skip leaves out what is in stock that way. The answer is the whole list
// (testdata/recordings/<version>/TestShoppingListAddRecipeIngredients.json
// in the contract package).
func (c *Client) AddRecipeToShoppingList(ctx context.Context, listID, recipeID string, scale float64, ingredients []json.RawMessage) (*ShoppingList, error) {
	body := map[string]any{"recipeIncrementQuantity": scale}
	if ingredients != nil {
		body["recipeIngredients"] = ingredients
	}
	var l ShoppingList
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/households/shopping/lists/" + url.PathEscape(listID) + "/recipe/" + url.PathEscape(recipeID), Body: body, Resource: fmt.Sprintf("shopping list '%s'", listID)}, &l); err != nil {
		return nil, err
	}
	return &l, nil
}

// RemoveRecipeFromShoppingList takes times portions of a recipe's
// ingredients off a list (POST .../recipe/{recipeId}/delete with
// {recipeDecrementQuantity}, on every version): rows the recipe alone
// put there go, merged rows keep what other recipes added.
func (c *Client) RemoveRecipeFromShoppingList(ctx context.Context, listID, recipeID string, times float64) (*ShoppingList, error) {
	var l ShoppingList
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/households/shopping/lists/" + url.PathEscape(listID) + "/recipe/" + url.PathEscape(recipeID) + "/delete", Body: map[string]any{"recipeDecrementQuantity": times}, Resource: fmt.Sprintf("shopping list '%s'", listID)}, &l); err != nil {
		return nil, err
	}
	return &l, nil
}

// ParsedShoppingLine is one answer of the ingredient parser
// (services/mealplan/testdata/parser_ingredients__brute.json), trimmed to what a shopping row needs.
type ParsedShoppingLine struct {
	Input      string `json:"input"`
	Ingredient struct {
		Quantity *float64      `json:"quantity"`
		Unit     *ShoppingUnit `json:"unit"`
		Food     *ShoppingFood `json:"food"`
		Note     string        `json:"note"`
	} `json:"ingredient"`
}

// ParseShoppingLines runs POST /api/parser/ingredients with the named parser
// ("nlp", "brute" or "openai") over lines, answered in order.
func (c *Client) ParseShoppingLines(ctx context.Context, parser string, lines []string) ([]ParsedShoppingLine, error) {
	var out []ParsedShoppingLine
	body := map[string]any{"parser": parser, "ingredients": lines}
	if err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/parser/ingredients", Body: body, Resource: "ingredient parser", Reads: true}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// shoppingPages reads every page of a paged list endpoint.
func shoppingPages[T any](ctx context.Context, c *Client, path string, q url.Values, what string) ([]T, error) {
	var out []T
	for page := 1; page <= MaxShoppingPages; page++ {
		v := url.Values{}
		maps.Copy(v, q)
		v.Set("page", strconv.Itoa(page))
		v.Set("perPage", strconv.Itoa(ShoppingPageSize))
		var p Page[T]
		if err := c.Do(ctx, Request{Method: http.MethodGet, Path: path, Query: v, Resource: what}, &p); err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if len(p.Items) == 0 || page >= p.TotalPages {
			return out, nil
		}
	}
	return nil, &Error{Kind: KindProtocol, Message: fmt.Sprintf("Mealie's %s run past %d pages", what, MaxShoppingPages)}
}
