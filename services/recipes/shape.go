package recipes

import (
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/souskitchen/sous/internal/amount"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/cooktime"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// The shapers turn Mealie payloads into the curated views of the API. They
// are pure functions with no I/O, tested against payloads Mealie answered
// (testdata/): a full Mealie recipe costs 2-3k tokens of
// nutrition, settings, assets and timestamps that a cook never needs.

// str dereferences an optional Mealie string, trimming space.
func str(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

// date keeps the calendar date of a Mealie date or timestamp
// ("2026-08-08T23:16:13Z" -> "2026-08-08").
func date(s *string) string {
	d := str(s)
	if len(d) >= len("2006-01-02") {
		return d[:len("2006-01-02")]
	}
	return d
}

// cookTime is Mealie's performTime: its app labels performTime "Cook
// Time" and never shows cookTime (RecipeTimeCard.vue and
// RecipePageTitleContent.vue in Mealie 2.0 through 3.11), and its scraper
// fills performTime from a page's cook time. A cookTime alone is something
// the cook never sees, so it is not answered as the cook time.
func cookTime(r *mealie.RecipeSummary) string {
	return str(r.PerformTime)
}

func orgNames(orgs []mealie.Organizer) []string {
	out := make([]string, 0, len(orgs))
	for _, o := range orgs {
		if n := strings.TrimSpace(o.Name); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// summary shapes one item of the recipe list.
func summary(r *mealie.RecipeSummary) *recipesv1.RecipeSummary {
	return &recipesv1.RecipeSummary{
		Slug:         r.Slug,
		Name:         r.Name,
		Description:  str(r.Description),
		Id:           r.ID,
		Tags:         orgNames(r.Tags),
		Categories:   orgNames(r.Categories),
		Tools:        orgNames(r.Tools),
		Rating:       r.Rating,
		RecipeYield:  str(r.RecipeYield),
		TotalTime:    str(r.TotalTime),
		PrepTime:     str(r.PrepTime),
		CookTime:     cookTime(r),
		SourceUrl:    str(r.OrgURL),
		DateAdded:    date(r.DateAdded),
		DateUpdated:  updated(r),
		LastMade:     date(r.LastMade),
		HasImage:     str(r.Image) != "",
		TotalMinutes: totalMinutes(r),
	}
}

// recipeMinutes is a recipe's time in minutes (cooktime.Total of its
// total, preparation and cooking times); false when none can be read.
func recipeMinutes(r *mealie.RecipeSummary) (int, bool) {
	return cooktime.Total(str(r.TotalTime), str(r.PrepTime), cookTime(r))
}

// totalMinutes is a recipe's time in minutes, nil when none of its times
// can be read.
func totalMinutes(r *mealie.RecipeSummary) *int32 {
	n, ok := recipeMinutes(r)
	if !ok {
		return nil
	}
	v := int32(n)
	return &v
}

// updated is the day a recipe last changed: Mealie's dateUpdated, which
// its recipe writes set, else updatedAt, which every row write moves
// (both in every recorded recipe, TestRecipeLifecycle in
// integration/contract).
func updated(r *mealie.RecipeSummary) string {
	if d := date(r.DateUpdated); d != "" {
		return d
	}
	return date(r.UpdatedAt)
}

// ingredient shapes one ingredient line the parser read. Display is
// Mealie's own rendering; when it lacks the food (or the unit of a line
// without food), as 2.0's parser display does, the line is rendered from
// its parts; when it is empty the original text or the note stands in, so
// a line never reaches a model blank.
func ingredient(in *mealie.RecipeIngredient) *recipesv1.Ingredient {
	out := ingredientParts(in)
	if lacks(out.Display, out.Food) || (out.Food == "" && lacks(out.Display, out.Unit)) {
		out.Display = amount.Line(out.GetQuantity(), out.Unit, out.Food, "", out.Note)
	}
	return fallbackDisplay(out)
}

// ingredientParts copies a line's parts and Mealie's display.
func ingredientParts(in *mealie.RecipeIngredient) *recipesv1.Ingredient {
	out := &recipesv1.Ingredient{
		Display:      strings.TrimSpace(in.Display),
		Note:         str(in.Note),
		Title:        str(in.Title),
		OriginalText: str(in.OriginalText),
	}
	if in.Quantity != nil && *in.Quantity != 0 {
		q := *in.Quantity
		out.Quantity = &q
	}
	if in.Unit != nil {
		out.Unit, out.UnitId = in.Unit.Name, in.Unit.ID
	}
	if in.Food != nil {
		out.Food, out.FoodId = cleanFood(in.Food.Name), in.Food.ID
		if out.Food != in.Food.Name {
			// "1 cup rice ($0.60)" is the library's debris, not the line
			out.Display = strings.Replace(out.Display, in.Food.Name, out.Food, 1)
		}
	}
	return out
}

// cleanFood is a food's name as answers show it: without the prices and
// footnote marks imports leave in names ("rice ($0.60)" is rice), which
// the foods report lists for merging (names.Clean).
func cleanFood(name string) string { return names.Clean(name) }

func fallbackDisplay(out *recipesv1.Ingredient) *recipesv1.Ingredient {
	// Mealie writes fractions as "1 ¹/₂"; a cook writes 1½, as the
	// shopping list does.
	out.Display = amount.Fractions(out.Display)
	if out.Display == "" {
		out.Display = out.OriginalText
	}
	if out.Display == "" {
		out.Display = out.Note
	}
	return out
}

// recipeLine shapes one line of a stored recipe: the line as stored, so a
// quantity, unit and food are never lost from the answer. Mealie's display
// is kept where it renders the line (quantity, unit, food, note, with its
// plurals and abbreviations). With the 2.x setting disableAmount on
// (amountsHidden) Mealie recomputes the display without unit and food and
// its app shows the note alone (use-recipe-ingredients.ts in Mealie 2.0 and
// 2.8; TestIngredientDisplay in integration/contract), so a line with a
// unit or food is rendered from its parts, and the recipe says that the app
// hides them (Recipe.amounts_hidden). A line with neither and a quantity
// of 1 is its note, as the app shows it: 1 is the quantity 2.x gives every
// line, which the app never shows ("1 Cup Flour" of a new recipe,
// TestRecipeLifecycle).
func recipeLine(in *mealie.RecipeIngredient, amountsHidden bool) *recipesv1.Ingredient {
	out := ingredientParts(in)
	if sub := in.ReferencedRecipe; sub != nil && sub.Slug != "" {
		// Mealie's display of such a line leaves the sub-recipe out (it
		// formats quantity, unit, food and note only:
		// RecipeIngredientBase._format_display in 3.11), so the line is
		// written here, by the sub-recipe's name and slug.
		out.Food, out.RecipeSlug = sub.Name, sub.Slug
		out.Display = amount.Line(out.GetQuantity(), out.Unit, sub.Name, "", out.Note) + " (recipe " + sub.Slug + ")"
		return out
	}
	if amountsHidden {
		if !hidesAmount(out) {
			out.Quantity = nil
			out.Display = out.Note
			return fallbackDisplay(out)
		}
		out.Display = amount.Line(out.GetQuantity(), out.Unit, out.Food, "", out.Note)
	}
	return fallbackDisplay(out)
}

// hidesAmount reports whether Mealie's app, showing only notes, hides
// something of a line: a unit, a food, or a quantity other than 2.x's
// default 1.
func hidesAmount(l *recipesv1.Ingredient) bool {
	return l.Unit != "" || l.Food != "" || (l.Quantity != nil && *l.Quantity != 1)
}

// detail shapes a full recipe into the curated view.
func detail(r *mealie.Recipe) *recipesv1.Recipe {
	s := &r.RecipeSummary
	out := &recipesv1.Recipe{
		Slug:        s.Slug,
		Name:        s.Name,
		Description: str(s.Description),
		Id:          s.ID,
		RecipeYield: str(s.RecipeYield),
		PrepTime:    str(s.PrepTime),
		CookTime:    cookTime(s),
		TotalTime:   str(s.TotalTime),
		Tags:        orgNames(s.Tags),
		Categories:  orgNames(s.Categories),
		Tools:       orgNames(s.Tools),
		SourceUrl:   str(s.OrgURL),
		Rating:      s.Rating,
		LastMade:    date(s.LastMade),
		HasImage:    str(s.Image) != "",
		DateAdded:   date(s.DateAdded),
		DateUpdated: updated(s),
	}
	hidden := r.AmountsHidden()
	for i := range r.Ingredients {
		line := recipeLine(&r.Ingredients[i], hidden)
		out.Ingredients = append(out.Ingredients, line)
		if hidden && hidesAmount(line) {
			out.AmountsHidden = true
		}
	}
	for _, step := range r.Instructions {
		if t := strings.TrimSpace(step.Text); t != "" {
			out.Instructions = append(out.Instructions, t)
		}
	}
	for _, n := range r.Notes {
		if strings.TrimSpace(n.Text) == "" && strings.TrimSpace(n.Title) == "" {
			continue
		}
		out.Notes = append(out.Notes, &recipesv1.Note{Title: strings.TrimSpace(n.Title), Text: strings.TrimSpace(n.Text)})
	}
	return out
}

// project clears every field of m not named in fields (proto field names);
// keep names fields that stay whatever was asked (the identifier a model
// chains). An empty fields leaves m whole.
func project(m proto.Message, fields []string, keep ...string) {
	if len(fields) == 0 {
		return
	}
	want := make(map[protoreflect.Name]bool, len(fields)+len(keep))
	for _, f := range fields {
		want[protoreflect.Name(f)] = true
	}
	for _, k := range keep {
		want[protoreflect.Name(k)] = true
	}
	r := m.ProtoReflect()
	r.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		if !want[fd.Name()] {
			r.Clear(fd)
		}
		return true
	})
}

// fieldNames lists the proto field names of a message, for validating a
// fields parameter.
func fieldNames(m proto.Message) map[string]bool {
	fds := m.ProtoReflect().Descriptor().Fields()
	out := make(map[string]bool, fds.Len())
	for i := 0; i < fds.Len(); i++ {
		out[string(fds.Get(i).Name())] = true
	}
	return out
}

// lacks reports whether a display omits a non-empty name (case-insensitive).
func lacks(display, name string) bool {
	return name != "" && !strings.Contains(strings.ToLower(display), strings.ToLower(name))
}
