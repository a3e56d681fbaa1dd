package recipes

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
)

// Text limits, checked before any request so a runaway caller's megabyte
// never reaches Mealie and is never echoed back in an answer. Each is far
// above what a cook writes. The numbers are in proto/limits, where
// mcpfront builds its tool schemas from them too.
const (
	// MaxSlugChars caps a slug: Mealie derives slugs from names, which
	// MaxNameChars caps at the same length.
	MaxSlugChars = limits.RecipeSlugChars
	// MaxTextChars caps free text: a description, one step, one note.
	// Ten thousand characters is several printed pages.
	MaxTextChars = limits.RecipeTextChars
	// MaxShortTextChars caps the free-text times and yield ("15 min",
	// "4 servings"); a sentence is already far more than they hold.
	MaxShortTextChars = limits.RecipeShortTextChars
	// MaxTaxonomyNameChars caps one tag, category, tool or food name; the
	// longest real ones ("gluten-free (with substitutions)") are a tenth
	// of it. The same cap bounds what unknown_foods can echo.
	MaxTaxonomyNameChars = limits.TaxonomyNameChars
	// MaxTaxonomyNames caps each list of names a search filters by or a
	// bulk action adds.
	MaxTaxonomyNames = limits.TaxonomyNames
	// MaxTaxonomyRefChars caps a taxonomy write's reference to one item,
	// an id or a name.
	MaxTaxonomyRefChars = limits.TaxonomyRefChars
	// MaxSearchQueryChars caps a recipe search's free text.
	MaxSearchQueryChars = limits.SearchQueryChars
	// MaxURLChars caps a URL Mealie is asked to fetch.
	MaxURLChars = limits.URLChars
	// MaxMadeNoteChars caps the timeline note of a cook.
	MaxMadeNoteChars = limits.MadeNoteChars
	// MaxConfirmChars caps the confirmation an update repeats back.
	MaxConfirmChars = limits.ConfirmChars
)

// checkCount refuses a list of more than maxItems names, naming the field
// and how many were given.
func checkCount(field string, n, maxItems int) error {
	if n > maxItems {
		return invalid("%s: at most %d names, got %d", field, maxItems, n)
	}
	return nil
}

// checkRating refuses a recipe rating outside limits.MinRecipeRating to
// limits.MaxRecipeRating; nil is no rating, and fine.
func checkRating(r *float64) error {
	if r != nil && (*r < limits.MinRecipeRating || *r > limits.MaxRecipeRating) {
		return invalid("rating must be between %d and %d, got %v", limits.MinRecipeRating, limits.MaxRecipeRating, *r)
	}
	return nil
}

// checkSlug trims a slug and refuses it when empty, longer than
// MaxSlugChars, holding control characters, or a dot segment ("." or
// ".."): no slug Mealie makes has any of these (internal/mealieslug keeps
// only [-a-z0-9]); sending one would only ask Mealie for a path it cannot
// have or, for a dot segment, for another path.
func checkSlug(field, v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", invalid("%s is required", field)
	}
	if n := utf8.RuneCountInString(v); n > MaxSlugChars {
		return "", invalid("%s: at most %d characters, got %d", field, MaxSlugChars, n)
	}
	if strings.IndexFunc(v, unicode.IsControl) >= 0 {
		return "", invalid("%s must not contain control characters (a slug is like \"pad-thai\")", field)
	}
	if v == "." || v == ".." {
		// url.PathEscape keeps dots, so "/api/recipes/.." would be a
		// dot-segment that a proxy or Mealie may resolve to /api: a
		// DELETE or PUT aimed at another path.
		return "", invalid("%s %q is not a slug: a slug is like \"pad-thai\"", field, v)
	}
	return v, nil
}

// checkText refuses a text longer than maxChars characters, naming the
// field and the length but never quoting the text.
func checkText(field, v string, maxChars int) error {
	if n := utf8.RuneCountInString(v); n > maxChars {
		return invalid("%s: at most %d characters, got %d", field, maxChars, n)
	}
	return nil
}

// checkTexts applies checkText to every item of a list, naming the item.
func checkTexts(field string, vs []string, maxChars int) error {
	for i, v := range vs {
		if err := checkText(fmt.Sprintf("%s[%d]", field, i), v, maxChars); err != nil {
			return err
		}
	}
	return nil
}

// checkTaxonomy caps the tag, category and tool names of a request.
func checkTaxonomy(tags, cats, tools []string) error {
	for _, l := range []struct {
		field string
		names []string
	}{{"tags", tags}, {"categories", cats}, {"tools", tools}} {
		if err := checkTexts(l.field, l.names, MaxTaxonomyNameChars); err != nil {
			return err
		}
	}
	return nil
}

// checkRecipeText caps the free text of a create or update: the
// description, the times and yield, every step and every note.
func checkRecipeText(description, yield, prep, cook, total string, steps []string, notes []*recipesv1.Note) error {
	if err := checkText("description", description, MaxTextChars); err != nil {
		return err
	}
	for _, f := range []struct{ field, v string }{
		{"recipe_yield", yield}, {"prep_time", prep}, {"cook_time", cook}, {"total_time", total},
	} {
		if err := checkText(f.field, f.v, MaxShortTextChars); err != nil {
			return err
		}
	}
	if err := checkTexts("instructions", steps, MaxTextChars); err != nil {
		return err
	}
	for i, n := range notes {
		if err := checkText(fmt.Sprintf("notes[%d].title", i), n.GetTitle(), MaxNameChars); err != nil {
			return err
		}
		if err := checkText(fmt.Sprintf("notes[%d].text", i), n.GetText(), MaxTextChars); err != nil {
			return err
		}
	}
	return nil
}
