package mealie

import (
	"encoding/json"
	"errors"

	"github.com/google/uuid"

	"github.com/souskitchen/sous/internal/mealieslug"
)

// IngredientRef is a food or unit as an ingredient line writes it: id and
// name and nothing else Mealie does not read. Name-only objects are a 500,
// so an id is always set.
type IngredientRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// IngredientLine is one recipeIngredient entry of a write. ReferenceID is
// always set: without it Mealie 2.0 commits a null and the recipe becomes
// unreadable.
type IngredientLine struct {
	ReferenceID  string         `json:"referenceId"`
	Quantity     *float64       `json:"quantity"`
	Unit         *IngredientRef `json:"unit"`
	Food         *IngredientRef `json:"food"`
	Note         string         `json:"note"`
	Title        string         `json:"title,omitempty"`
	OriginalText string         `json:"originalText,omitempty"`
	Display      string         `json:"display"`
	// raw is set on a KeptLine: the line as Mealie sent it.
	raw json.RawMessage
}

// KeptLine is a line of a write that goes back to Mealie exactly as
// GetRecipe read it: every field of it, the ones sous does not read
// included (isFood, disableAmount, the food's and unit's whole objects, a
// 3.x sub-recipe), so an edit of one line leaves the others as Mealie
// stores them (TestLineEditsKeepTheOtherLines in services/recipes).
func KeptLine(raw json.RawMessage) IngredientLine { return IngredientLine{raw: raw} }

// KeptLineTitled is KeptLine with its section title set: the heading of a
// section whose first line was removed moves down to the next one.
func KeptLineTitled(raw json.RawMessage, title string) IngredientLine {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return KeptLine(raw)
	}
	t, _ := json.Marshal(title)
	m["title"] = t
	b, err := json.Marshal(m)
	if err != nil {
		return KeptLine(raw)
	}
	return KeptLine(b)
}

// MarshalJSON writes a kept line as it was read, any other line from its
// fields.
func (l IngredientLine) MarshalJSON() ([]byte, error) {
	if l.raw != nil {
		return l.raw, nil
	}
	type fields IngredientLine
	return json.Marshal(fields(l))
}

// IngredientsRaw are the recipe's ingredient lines as Mealie sent them, one
// JSON object each, in order; nil for a recipe not read by GetRecipe.
func (r *Recipe) IngredientsRaw() ([]json.RawMessage, error) {
	if r.body == nil {
		return nil, errors.New("the recipe was not read whole")
	}
	var b struct {
		Ingredients []json.RawMessage `json:"recipeIngredient"`
	}
	if err := json.Unmarshal(r.body, &b); err != nil {
		return nil, err
	}
	return b.Ingredients, nil
}

// Structured reports whether the line carries a quantity, unit or food,
// which Mealie 2.x's app hides while the recipe's disableAmount is on (see
// Recipe.AmountsHidden).
func (l IngredientLine) Structured() bool {
	return l.Quantity != nil || l.Unit != nil || l.Food != nil
}

// InstructionStep is one recipeInstructions entry of a write.
// IngredientReferences is always sent, [] when empty: without it Mealie 2.0
// answers 500.
type InstructionStep struct {
	ID                   string   `json:"id"`
	Title                string   `json:"title"`
	Text                 string   `json:"text"`
	IngredientReferences []string `json:"ingredientReferences"`
}

// RecipeSettings is a recipe's settings object, whole: a write that changes
// one setting sends every other one as read, because a partial object
// resets them (see Recipe.Settings). Build one with Recipe.SettingsWith.
type RecipeSettings struct {
	fields map[string]any
}

// MarshalJSON writes the settings as Mealie sent them, with the changes.
func (s *RecipeSettings) MarshalJSON() ([]byte, error) { return json.Marshal(s.fields) }

// AmountsHidden reports the disableAmount these settings write.
func (s *RecipeSettings) AmountsHidden() bool {
	v, _ := s.fields["disableAmount"].(bool)
	return v
}

// SettingsWith returns the recipe's settings whole with disableAmount set
// to hidden. ok is false on a Mealie without the setting (3.x, whose app
// always shows amounts); st is nil when the setting already has that value.
func (r *Recipe) SettingsWith(hidden bool) (st *RecipeSettings, ok bool) {
	v, has := r.Settings["disableAmount"].(bool)
	if !has {
		return nil, false
	}
	if v == hidden {
		return nil, true
	}
	out := make(map[string]any, len(r.Settings))
	for k, v := range r.Settings {
		out[k] = v
	}
	out["disableAmount"] = hidden
	return &RecipeSettings{fields: out}, true
}

// RecipePatch is the body of PATCH /api/recipes/{slug}, and what a rename
// changes besides the name. Only the fields set are sent: a nil text leaves
// the field as it is and a set one, empty included, replaces it; a nil list
// leaves it and a non-nil one, empty included, replaces it whole (PATCH
// replaces list fields wholesale, TestPatchReplacesTags in
// integration/contract).
//
// The fields are declared in the order of their JSON keys, sorted, so the
// body is byte for byte what sous sent when it built the patch as a map
// (encoding/json sorts map keys); recipebody_test.go holds it to recorded
// bodies.
type RecipePatch struct {
	Description *string      `json:"description,omitempty"`
	Notes       []RecipeNote `json:"notes,omitzero"`
	OrgURL      *string      `json:"orgURL,omitempty"`
	// PerformTime is what Mealie's app shows as "Cook Time" (see
	// RecipeSummary.PerformTime).
	PerformTime  *string           `json:"performTime,omitempty"`
	PrepTime     *string           `json:"prepTime,omitempty"`
	Categories   []Organizer       `json:"recipeCategory,omitzero"`
	Ingredients  []IngredientLine  `json:"recipeIngredient,omitzero"`
	Instructions []InstructionStep `json:"recipeInstructions,omitzero"`
	RecipeYield  *string           `json:"recipeYield,omitempty"`
	Settings     *RecipeSettings   `json:"settings,omitempty"`
	Tags         []Organizer       `json:"tags,omitzero"`
	Tools        []Organizer       `json:"tools,omitzero"`
	TotalTime    *string           `json:"totalTime,omitempty"`
}

// IsZero reports a patch that changes nothing, which is never sent.
func (p *RecipePatch) IsZero() bool {
	return p.Description == nil && p.Notes == nil && p.OrgURL == nil && p.PerformTime == nil &&
		p.PrepTime == nil && p.Categories == nil && p.Ingredients == nil && p.Instructions == nil &&
		p.RecipeYield == nil && p.Settings == nil && p.Tags == nil && p.Tools == nil && p.TotalTime == nil
}

// renameBody builds the whole-recipe PUT body of a rename: the recipe as
// read (raw, every field Mealie sent, known to sous or not), with patch
// applied, the new name and its slug, and taxonomy objects trimmed to
// writable keys (Mealie rebuilds the rest from ids and refuses some
// read-only ones). Ingredients read back carry their referenceId and steps
// their ingredientReferences, which 2.0 needs (see IngredientLine,
// InstructionStep). The body is a generic map so that every field sous does
// not know goes back as Mealie sent it; encoding/json writes its keys
// sorted.
func renameBody(raw []byte, patch *RecipePatch, name string) (map[string]any, error) {
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil || body == nil {
		return nil, errors.New("Mealie's payload is not a JSON object")
	}
	for _, k := range []string{"tags", "recipeCategory", "tools"} {
		if list, ok := body[k].([]any); ok {
			body[k] = trimObjects(list, "id", "name", "slug", "groupId")
		}
	}
	if list, ok := body["recipeIngredient"].([]any); ok {
		for _, it := range list {
			if ing, ok := it.(map[string]any); ok {
				for _, k := range []string{"unit", "food"} {
					if o, ok := ing[k].(map[string]any); ok {
						ing[k] = pick(o, "id", "name")
					}
				}
				if ing["referenceId"] == nil {
					ing["referenceId"] = uuid.NewString()
				}
			}
		}
	}
	if list, ok := body["recipeInstructions"].([]any); ok {
		for _, it := range list {
			if st, ok := it.(map[string]any); ok && st["ingredientReferences"] == nil {
				st["ingredientReferences"] = []any{}
			}
		}
	}
	// The patch's fields replace the recipe's, each written as PATCH
	// writes it.
	enc, err := json.Marshal(patch)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(enc, &fields); err != nil {
		return nil, err
	}
	for k, v := range fields {
		body[k] = v
	}
	body["name"] = name
	body["slug"] = mealieslug.Make(name)
	return body, nil
}

// pick keeps the non-null keys of o that are named.
func pick(o map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := o[k]; ok && v != nil {
			out[k] = v
		}
	}
	return out
}

// trimObjects picks keys from every object of list, dropping what is not
// an object.
func trimObjects(list []any, keys ...string) []any {
	out := make([]any, 0, len(list))
	for _, it := range list {
		if o, ok := it.(map[string]any); ok {
			out = append(out, pick(o, keys...))
		}
	}
	return out
}
