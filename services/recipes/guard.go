package recipes

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// Mealie keeps no history of a recipe: an update that empties its
// ingredients, steps or notes destroys them for good, and a model that
// sends ingredients: [] to "clear the shopping list" or half a list by
// mistake answers {"slug": …} like any other update. So an update that
// would leave one of them empty, or drop most of its lines, writes
// nothing until it is sent again with the confirmation its refusal
// answered (guardDestructive). The confirmation is the second call's own
// argument: MCP clients such as claude.ai declare no elicitation, so
// asking the user is the model's part, between the two calls. Times,
// yield, tags, categories and tools are never guarded: a wrong value
// there is seen and set again.

// loss is one list an update would mostly or wholly drop.
type loss struct {
	field    string   // "ingredients", "instructions", "notes"
	from, to int      // lines now, lines after
	lines    []string // the current lines, as the cook reads them
}

// drops reports whether going from n lines to k loses most of them: all
// of a non-empty list, or more than half.
func drops(n, k int) bool {
	return n > 0 && (k == 0 || (n-k)*2 > n)
}

// losses lists what an update would drop, from the recipe as read.
func losses(cur *mealie.Recipe, m *recipesv1.UpdateRecipeRequest) []loss {
	var out []loss
	if m.GetSetIngredients() {
		var lines []string
		hidden := cur.AmountsHidden()
		for i := range cur.Ingredients {
			if l := recipeLine(&cur.Ingredients[i], hidden); l.GetDisplay() != "" || l.GetTitle() != "" {
				lines = append(lines, strings.TrimSpace(l.GetTitle()+" "+l.GetDisplay()))
			}
		}
		if k := len(m.GetIngredients()); drops(len(lines), k) {
			out = append(out, loss{"ingredients", len(lines), k, lines})
		}
	}
	if n := len(m.GetRemoveIngredients()); n > 0 {
		// line edits that take most of the lines away are guarded as a
		// whole list would be
		var lines []string
		hidden := cur.AmountsHidden()
		for i := range cur.Ingredients {
			if l := recipeLine(&cur.Ingredients[i], hidden); l.GetDisplay() != "" || l.GetTitle() != "" {
				lines = append(lines, strings.TrimSpace(l.GetTitle()+" "+l.GetDisplay()))
			}
		}
		if k := len(cur.Ingredients) - n + len(m.GetAddIngredients()); drops(len(cur.Ingredients), k) {
			out = append(out, loss{"ingredients", len(cur.Ingredients), k, lines})
		}
	}
	if m.GetSetInstructions() {
		var lines []string
		for _, st := range cur.Instructions {
			if t := strings.TrimSpace(st.Text); t != "" {
				lines = append(lines, t)
			}
		}
		if k := len(steps(m.GetInstructions())); drops(len(lines), k) {
			out = append(out, loss{"instructions", len(lines), k, lines})
		}
	}
	if m.GetSetNotes() {
		var lines []string
		for _, n := range cur.Notes {
			if t := strings.TrimSpace(strings.TrimSpace(n.Title) + " " + strings.TrimSpace(n.Text)); t != "" {
				lines = append(lines, t)
			}
		}
		if k := len(notesPayload(m.GetNotes())); drops(len(lines), k) {
			out = append(out, loss{"notes", len(lines), k, lines})
		}
	}
	return out
}

// confirmation is the token that lets one destructive update through:
// bound to the recipe (its id) and to the new ingredients, instructions and
// notes, so it confirms exactly the update the refusal described and no
// other recipe or values. It is a digest, not a secret: it guards against
// a mistaken update, not against a caller that means it.
func confirmation(recipeID string, m *recipesv1.UpdateRecipeRequest) string {
	bound := &recipesv1.UpdateRecipeRequest{
		Ingredients: m.GetIngredients(), SetIngredients: m.GetSetIngredients(),
		ReplaceIngredients: m.GetReplaceIngredients(), RemoveIngredients: m.GetRemoveIngredients(), AddIngredients: m.GetAddIngredients(),
		Instructions: m.GetInstructions(), SetInstructions: m.GetSetInstructions(),
		Notes: m.GetNotes(), SetNotes: m.GetSetNotes(),
	}
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(bound)
	sum := sha256.Sum256(append([]byte(recipeID+"\x00"), b...))
	return hex.EncodeToString(sum[:6])
}

// guardDestructive refuses, before any write, an update that would drop
// most or all of a recipe's ingredients, instructions or notes, unless
// m.confirm is the confirmation of exactly this update. The refusal says
// what would be lost and how to confirm.
func guardDestructive(cur *mealie.Recipe, slug string, m *recipesv1.UpdateRecipeRequest) error {
	ls := losses(cur, m)
	if len(ls) == 0 {
		return nil
	}
	token := confirmation(cur.ID, m)
	given := strings.TrimSpace(m.GetConfirm())
	if given == token {
		return nil
	}
	var parts []string
	for _, l := range ls {
		verb := "drop most of"
		if l.to == 0 {
			verb = "empty"
		}
		parts = append(parts, fmt.Sprintf("%s its %s (%d → %d; now %s)", verb, l.field, l.from, l.to, listSome(l.lines, 3)))
	}
	head := "nothing was written"
	if given != "" {
		head = "nothing was written: that confirmation was given for another update or recipe, and"
	} else {
		head += ":"
	}
	return connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf(
		"%s this update would %s of recipe '%s', and Mealie keeps no earlier version to get them back. If the user wants exactly that, send the same update again with confirm=%q; to change single lines, use replace_ingredients, remove_ingredients or add_ingredients",
		head, strings.Join(parts, " and "), slug, token))
}

// listSome quotes the first n items and counts the rest.
func listSome(items []string, n int) string {
	var q []string
	for i, it := range items {
		if i == n {
			q = append(q, fmt.Sprintf("and %d more", len(items)-n))
			break
		}
		if r := []rune(it); len(r) > 60 {
			it = string(r[:59]) + "…"
		}
		q = append(q, strconv.Quote(it))
	}
	return strings.Join(q, ", ")
}

// replacedFields words what an update replaces, before → after, one entry
// a field in the order the tool lists its parameters: counts for lists,
// values for short text, lengths for the description.
func replacedFields(cur *mealie.Recipe, patch *mealie.RecipePatch, m *recipesv1.UpdateRecipeRequest) []string {
	var out []string
	text := func(field string, before *string, after *string) {
		if after == nil {
			return
		}
		b, a := str(before), strings.TrimSpace(*after)
		if b != a {
			out = append(out, fmt.Sprintf("%s: %s → %s", field, shown(b), shown(a)))
		}
	}
	if m.Name != nil && strings.TrimSpace(m.GetName()) != cur.Name {
		out = append(out, fmt.Sprintf("name: %s → %s", shown(cur.Name), shown(strings.TrimSpace(m.GetName()))))
	}
	if m.Description != nil {
		if b, a := str(cur.Description), strings.TrimSpace(m.GetDescription()); b != a {
			out = append(out, fmt.Sprintf("description: %d → %d characters", len([]rune(b)), len([]rune(a))))
		}
	}
	if patch.Ingredients != nil {
		out = append(out, fmt.Sprintf("ingredients: %d → %d", len(cur.Ingredients), len(patch.Ingredients)))
	}
	if patch.Instructions != nil {
		out = append(out, fmt.Sprintf("instructions: %d → %d", len(cur.Instructions), len(patch.Instructions)))
	}
	text("recipe_yield", cur.RecipeYield, m.RecipeYield)
	text("prep_time", cur.PrepTime, m.PrepTime)
	text("cook_time", cur.PerformTime, m.CookTime)
	text("total_time", cur.TotalTime, m.TotalTime)
	for _, o := range []struct {
		field      string
		have, sent []mealie.Organizer
	}{{"tags", cur.Tags, patch.Tags}, {"categories", cur.Categories, patch.Categories}, {"tools", cur.Tools, patch.Tools}} {
		if o.sent != nil && !sameOrganizers(o.have, o.sent) {
			out = append(out, fmt.Sprintf("%s: %d → %d", o.field, len(o.have), len(o.sent)))
		}
	}
	text("source_url", cur.OrgURL, m.SourceUrl)
	if m.Rating != nil {
		b := "none"
		if cur.Rating != nil {
			b = strconv.FormatFloat(*cur.Rating, 'f', -1, 64)
		}
		out = append(out, fmt.Sprintf("rating: %s → %s", b, strconv.FormatFloat(m.GetRating(), 'f', -1, 64)))
	}
	if patch.Notes != nil {
		out = append(out, fmt.Sprintf("notes: %d → %d", len(cur.Notes), len(patch.Notes)))
	}
	if patch.Settings != nil {
		out = append(out, fmt.Sprintf("amounts shown in Mealie's app: %s → %s", yesNo(!cur.AmountsHidden()), yesNo(!patch.Settings.AmountsHidden())))
	}
	return out
}

// sameOrganizers reports whether two organizer lists hold the same ids.
func sameOrganizers(a, b []mealie.Organizer) bool {
	if len(a) != len(b) {
		return false
	}
	ids := make(map[string]bool, len(a))
	for _, o := range a {
		ids[o.ID] = true
	}
	for _, o := range b {
		if !ids[o.ID] {
			return false
		}
	}
	return true
}

// shown quotes a short text value in single quotes (which JSON leaves
// alone, where a double quote would read \"15 min\"), or says it was
// empty.
func shown(s string) string {
	if s == "" {
		return "(none)"
	}
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return "'" + s + "'"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
