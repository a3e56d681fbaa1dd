package recipes

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// MaxLineEdits caps each of replace_ingredients, remove_ingredients and
// add_ingredients (limits.LineEdits).
const MaxLineEdits = limits.LineEdits

// hasLineEdits reports whether an update edits single ingredient lines.
func hasLineEdits(m *recipesv1.UpdateRecipeRequest) bool {
	return len(m.GetReplaceIngredients())+len(m.GetRemoveIngredients())+len(m.GetAddIngredients()) > 0
}

// checkLineEdits refuses malformed line edits before any request: the
// whole list and line edits together, too many edits, an empty match or
// line, text past its bound.
func checkLineEdits(m *recipesv1.UpdateRecipeRequest) error {
	if !hasLineEdits(m) {
		return nil
	}
	if m.GetSetIngredients() {
		return invalid("give ingredients (the whole list) or replace_ingredients, remove_ingredients and add_ingredients (single lines), not both")
	}
	for _, l := range []struct {
		field string
		n     int
	}{{"replace_ingredients", len(m.GetReplaceIngredients())}, {"remove_ingredients", len(m.GetRemoveIngredients())}, {"add_ingredients", len(m.GetAddIngredients())}} {
		if l.n > MaxLineEdits {
			return invalid("%s: at most %d lines, got %d", l.field, MaxLineEdits, l.n)
		}
	}
	match := func(field, v string) error {
		if strings.TrimSpace(v) == "" {
			return invalid("%s is empty: give a food or words of the line", field)
		}
		return checkText(field, v, MaxLineChars)
	}
	line := func(field, v string) error {
		if strings.TrimSpace(v) == "" {
			return invalid("%s is empty: give the line as a cook writes it, such as \"4 cups vegetable broth\"", field)
		}
		return checkText(field, v, MaxLineChars)
	}
	for i, e := range m.GetReplaceIngredients() {
		if err := match(fmt.Sprintf("replace_ingredients[%d].match", i), e.GetMatch()); err != nil {
			return err
		}
		if err := line(fmt.Sprintf("replace_ingredients[%d].with", i), e.GetLine()); err != nil {
			return err
		}
	}
	for i, v := range m.GetRemoveIngredients() {
		if err := match(fmt.Sprintf("remove_ingredients[%d]", i), v); err != nil {
			return err
		}
	}
	for i, e := range m.GetAddIngredients() {
		if err := line(fmt.Sprintf("add_ingredients[%d].line", i), e.GetLine()); err != nil {
			return err
		}
		if e.GetAfter() != "" {
			if err := match(fmt.Sprintf("add_ingredients[%d].after", i), e.GetAfter()); err != nil {
				return err
			}
		}
	}
	return nil
}

// storedLine is what one stored line says, for matching and for answers:
// its section title aside, what Mealie's app shows.
func storedLine(in *mealie.RecipeIngredient) string {
	if d := strings.TrimSpace(in.Display); d != "" {
		return d
	}
	if t := lineText(in); t != "" {
		return t
	}
	if in.Food != nil {
		return in.Food.Name
	}
	return ""
}

// findLine finds the one line of lines a match names. A match is read, in
// order, the first way that finds anything:
//
//  1. as a food, the way every name is read (services/internal/names): a
//     line whose food is the name itself, another name of it or its
//     plural, else one whose food the name covers as a kind ("broth"
//     finds "chicken broth");
//  2. as words of the line's text, whole words in order ("vegetable
//     broth" in "4 cups low-sodium vegetable broth");
//  3. as a piece of the line's text, case and accents aside.
//
// Two lines found at the first way that finds any is an error naming both;
// none is an error naming the lines there are. Lines with no text (a
// section's empty heading) are never found.
func findLine(lines []mealie.RecipeIngredient, field, match string) (int, error) {
	var es []names.Entry
	for i := range lines {
		if f := lines[i].Food; f != nil && strings.TrimSpace(f.Name) != "" {
			es = append(es, names.Entry{ID: strconv.Itoa(i), Name: f.Name})
		}
	}
	var found []int
	if r := names.NewIndex(es).Resolve(match); r.Found() {
		for _, e := range r.Matches {
			i, _ := strconv.Atoi(e.ID)
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		want := names.Words(match)
		for i := range lines {
			if containsWords(names.Words(storedLine(&lines[i])+" "+str(lines[i].Note)), want) {
				found = append(found, i)
			}
		}
	}
	if len(found) == 0 {
		piece := names.Fold(match)
		for i := range lines {
			if t := names.Fold(storedLine(&lines[i])); piece != "" && strings.Contains(t, piece) {
				found = append(found, i)
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		var all []string
		for i := range lines {
			if t := storedLine(&lines[i]); t != "" {
				all = append(all, t)
			}
		}
		return 0, invalid("%s %q fits no line of the recipe, so nothing was written; its lines are %s", field, match, listSome(all, 40))
	}
	var both []string
	for _, i := range found {
		both = append(both, storedLine(&lines[i]))
	}
	return 0, invalid("%s %q fits %d lines (%s), so nothing was written: give more of the line you mean", field, match, len(found), listSome(both, 5))
}

// lineEdits is an update's line edits applied to the recipe as read: the
// whole new list, and what each edit did, for the answer.
type lineEdits struct {
	lines []mealie.IngredientLine
	ir    *ingredientResult
	// did says what each edit did, in the order given; after the write
	// the new lines' displays are filled in from Mealie's answer (see
	// report).
	did []lineDid
}

// lineDid is one edit's account: what it did, the line it found, and the
// reference of the line it wrote, whose stored display the answer quotes.
type lineDid struct {
	verb, old, ref, note string
}

// editLines applies the line edits of m to cur. Every match is found
// first, against the lines as read, so an edit that names nothing, or two
// lines, or a line another edit already takes, fails the whole update
// before anything is parsed or written. The new lines are read as
// CreateRecipe reads text lines (buildIngredients: Mealie's parser, then
// the names resolver), in one call. Every other line goes back exactly as
// Mealie sent it (mealie.KeptLine). A replaced line keeps its reference id,
// so a step that names it still does, and its section title; a removed
// line that opened a section hands its title to the line after it, when
// that one has none, or the section would lose its heading.
func (s *Service) editLines(ctx context.Context, cur *mealie.Recipe, m *recipesv1.UpdateRecipeRequest) (*lineEdits, error) {
	raw, err := cur.IngredientsRaw()
	if err != nil || len(raw) != len(cur.Ingredients) {
		return nil, &mealie.Error{Kind: mealie.KindProtocol, Message: fmt.Sprintf("recipe '%s': its ingredient lines could not be read whole (%v)", cur.Slug, err)}
	}
	taken := map[int]string{}
	take := func(field, match string) (int, error) {
		i, err := findLine(cur.Ingredients, field, match)
		if err != nil {
			return 0, err
		}
		if prev, ok := taken[i]; ok {
			return 0, invalid("%s %q and %s both name the line %q, so nothing was written: edit a line once", field, match, prev, storedLine(&cur.Ingredients[i]))
		}
		taken[i] = fmt.Sprintf("%s %q", field, match)
		return i, nil
	}
	var inputs []*recipesv1.IngredientInput
	replaced := map[int]int{} // recipe line -> its new line among inputs
	replacedLine := make([]int, len(m.GetReplaceIngredients()))
	for k, e := range m.GetReplaceIngredients() {
		i, err := take(fmt.Sprintf("replace_ingredients[%d].match", k), e.GetMatch())
		if err != nil {
			return nil, err
		}
		replaced[i], replacedLine[k] = len(inputs), i
		inputs = append(inputs, textInput(e.GetLine()))
	}
	removed := map[int]bool{}
	removedLine := make([]int, len(m.GetRemoveIngredients()))
	for k, v := range m.GetRemoveIngredients() {
		i, err := take(fmt.Sprintf("remove_ingredients[%d]", k), v)
		if err != nil {
			return nil, err
		}
		removed[i], removedLine[k] = true, i
	}
	after := map[int][]int{} // recipe line -> new lines added after it
	var appended []int
	for k, e := range m.GetAddIngredients() {
		if e.GetAfter() == "" {
			appended = append(appended, len(inputs))
		} else {
			i, err := findLine(cur.Ingredients, fmt.Sprintf("add_ingredients[%d].after", k), e.GetAfter())
			if err != nil {
				return nil, err
			}
			after[i] = append(after[i], len(inputs))
		}
		inputs = append(inputs, textInput(e.GetLine()))
	}
	ir, err := s.buildIngredients(ctx, inputs)
	if err != nil {
		return nil, err
	}
	out := &lineEdits{ir: ir}
	// A replaced line keeps its reference and its section title.
	for i, k := range replaced {
		l := &ir.lines[k]
		if ref := str(cur.Ingredients[i].ReferenceID); ref != "" {
			l.ReferenceID = ref
		}
		if t := str(cur.Ingredients[i].Title); t != "" {
			l.Title = t
		}
	}
	var heading string // the title of a removed line opening a section
	for i := range cur.Ingredients {
		title := str(cur.Ingredients[i].Title)
		k, isReplaced := replaced[i]
		switch {
		case removed[i]:
			if title != "" {
				heading = title
			}
		case isReplaced:
			l := ir.lines[k]
			if l.Title == "" && heading != "" {
				l.Title = heading
			}
			heading = ""
			out.lines = append(out.lines, l)
		case heading != "" && title == "":
			out.lines = append(out.lines, mealie.KeptLineTitled(raw[i], heading))
			heading = ""
		default:
			heading = ""
			out.lines = append(out.lines, mealie.KeptLine(raw[i]))
		}
		for _, k := range after[i] {
			out.lines = append(out.lines, ir.lines[k])
		}
	}
	for _, k := range appended {
		out.lines = append(out.lines, ir.lines[k])
	}
	for k, i := range replacedLine {
		out.did = append(out.did, lineDid{verb: "replaced", old: storedLine(&cur.Ingredients[i]), ref: ir.lines[k].ReferenceID})
	}
	for _, i := range removedLine {
		d := lineDid{verb: "removed", old: storedLine(&cur.Ingredients[i])}
		if t := str(cur.Ingredients[i].Title); t != "" {
			d.note = fmt.Sprintf("its section title '%s' went to the line after it", t)
		}
		out.did = append(out.did, d)
	}
	for k := len(m.GetReplaceIngredients()); k < len(inputs); k++ {
		out.did = append(out.did, lineDid{verb: "added", ref: ir.lines[k].ReferenceID})
	}
	return out, nil
}

// textInput is a cook's line as an ingredient input.
func textInput(line string) *recipesv1.IngredientInput {
	return &recipesv1.IngredientInput{Kind: &recipesv1.IngredientInput_Text{Text: strings.TrimSpace(line)}}
}

// report words each edit with the line as Mealie stored it, read from the
// recipe Mealie answered the write with (after); a line it does not show
// is quoted as written.
func (e *lineEdits) report(after *mealie.Recipe, m *recipesv1.UpdateRecipeRequest) []string {
	stored := map[string]string{}
	if after != nil {
		for i := range after.Ingredients {
			if ref := str(after.Ingredients[i].ReferenceID); ref != "" {
				stored[ref] = storedLine(&after.Ingredients[i])
			}
		}
	}
	written := make([]string, 0, len(e.did))
	for _, r := range m.GetReplaceIngredients() {
		written = append(written, strings.TrimSpace(r.GetLine()))
	}
	for _, a := range m.GetAddIngredients() {
		written = append(written, strings.TrimSpace(a.GetLine()))
	}
	var out []string
	w := 0
	for _, d := range e.did {
		now := ""
		if d.verb != "removed" {
			now = written[w]
			w++
			if s, ok := stored[d.ref]; ok && s != "" {
				now = s
			}
		}
		var line string
		switch d.verb {
		case "replaced":
			line = fmt.Sprintf("replaced '%s' with '%s'", d.old, now)
		case "removed":
			line = fmt.Sprintf("removed '%s'", d.old)
		default:
			line = fmt.Sprintf("added '%s'", now)
		}
		if d.note != "" {
			line += "; " + d.note
		}
		out = append(out, line)
	}
	return slices.Clip(out)
}
