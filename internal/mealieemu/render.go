package mealieemu

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/souskitchen/sous/internal/mealieslug"
)

// This file turns stored rows into the JSON objects Mealie returns, key for key
// and in Mealie's order, honouring the version profile.

func (s *store) renderLabel(l *label) object {
	return object{{"name", l.Name}, {"color", l.Color}, {"groupId", s.user.GroupID}, {"id", l.ID}}
}

// renderFood is IngredientFood.
func (s *store) renderFood(f *food) object {
	o := object{
		{"id", f.ID}, {"name", f.Name}, {"pluralName", optString(f.PluralName)},
		{"description", f.Description}, {"extras", map[string]any{}},
	}
	if s.profile.householdOnHand {
		o = append(o, field{"labelId", optString(f.LabelID)}, field{"aliases", aliases(f.Aliases)},
			field{"householdsWithIngredientFood", s.households(f.OnHand)})
	} else {
		o = append(o, field{"onHand", f.OnHand}, field{"labelId", optString(f.LabelID)}, field{"aliases", aliases(f.Aliases)})
	}
	var lbl any
	if f.LabelID != nil {
		if l := s.labelByID(*f.LabelID); l != nil {
			lbl = s.renderLabel(l)
		}
	}
	return append(o, field{"label", lbl}, field{"createdAt", stamp(f.CreatedAt)}, field{"updatedAt", stamp(f.UpdatedAt)})
}

// households is the list of household slugs that have a food or tool on hand
// (profiles with householdOnHand).
func (s *store) households(onHand bool) []string {
	if onHand {
		return []string{s.user.HouseholdSlug}
	}
	return []string{}
}

func aliases(a []string) []any {
	out := make([]any, 0, len(a))
	for _, n := range a {
		out = append(out, object{{"name", n}})
	}
	return out
}

// renderUnit is IngredientUnit.
func (s *store) renderUnit(u *unit) object {
	o := object{
		{"id", u.ID}, {"name", u.Name}, {"pluralName", optString(u.PluralName)},
		{"description", u.Description}, {"extras", map[string]any{}},
	}
	if !s.profile.householdOnHand {
		o = append(o, field{"onHand", u.OnHand})
	}
	o = append(o,
		field{"fraction", u.Fraction}, field{"abbreviation", u.Abbreviation},
		field{"pluralAbbreviation", pluralAbbr(u)}, field{"useAbbreviation", u.UseAbbreviation},
		field{"aliases", aliases(u.Aliases)})
	o = s.unitStandardFields(o, u)
	return append(o, field{"createdAt", stamp(u.CreatedAt)}, field{"updatedAt", stamp(u.UpdatedAt)})
}

// pluralAbbr is a unit's pluralAbbreviation as Mealie answers it.
func pluralAbbr(u *unit) any {
	if u.pluralAbbrNull && u.PluralAbbreviation == "" {
		return nil
	}
	return u.PluralAbbreviation
}

// unitStandardFields adds 3.20's standardQuantity and standardUnit to a
// unit (profile.go, unitStandards); the emulator stores neither, as a
// fresh 3.20 answers both null.
func (s *store) unitStandardFields(o object, u ...*unit) object {
	if s.profile.unitStandards {
		var q, su any
		if len(u) > 0 && u[0].StandardQuantity != nil {
			q, su = *u[0].StandardQuantity, *u[0].StandardUnit
		}
		o = append(o, field{"standardQuantity", q}, field{"standardUnit", su})
	}
	return o
}

// renderTagLike is a tag or category as embedded in recipes and listed under
// /api/organizers; withGroup adds groupId on
// profiles with organizerGroupID.
func (s *store) renderTagLike(o *organizer, withGroup bool) object {
	if withGroup && s.profile.organizerGroupID {
		return object{{"id", o.ID}, {"groupId", s.user.GroupID}, {"name", o.Name}, {"slug", o.Slug}}
	}
	return object{{"id", o.ID}, {"name", o.Name}, {"slug", o.Slug}}
}

// renderTool is a tool; groupId only on
// profiles with organizerGroupID
// (testdata/recordings/2.8/TestTaxonomyCreateRenameDelete.json has none).
func (s *store) renderTool(o *organizer) object {
	if s.profile.householdOnHand {
		o2 := object{{"id", o.ID}}
		if s.profile.organizerGroupID {
			o2 = append(o2, field{"groupId", s.user.GroupID})
		}
		return append(o2, field{"name", o.Name}, field{"slug", o.Slug},
			field{"householdsWithTool", s.households(o.OnHand)})
	}
	return object{{"id", o.ID}, {"name", o.Name}, {"slug", o.Slug}, {"onHand", o.OnHand}}
}

func (s *store) recipeOrganizers(r *recipe) (cats, tags, tools []any) {
	cats, tags, tools = []any{}, []any{}, []any{}
	for _, id := range r.CategoryIDs {
		if o := findOrganizer(s.categories, id); o != nil {
			cats = append(cats, s.renderTagLike(o, true))
		}
	}
	for _, id := range r.TagIDs {
		if o := findOrganizer(s.tags, id); o != nil {
			tags = append(tags, s.renderTagLike(o, true))
		}
	}
	for _, id := range r.ToolIDs {
		if o := findOrganizer(s.tools, id); o != nil {
			tools = append(tools, s.renderTool(o))
		}
	}
	return cats, tags, tools
}

// shownSlug is the slug a full read reports: Mealie's Recipe.validate_slug
// returns slugify(name) whenever a name is present, so after a PATCH rename a
// read shows the new slug although the stored one did not change
// (TestPatchNameKeepsStoredSlug in integration/contract).
func (r *recipe) shownSlug() string { return mealieslug.Make(r.Name) }

// summaryFields renders RecipeSummary's keys. list selects the list endpoint's
// timestamp layout and its stored slug; full reads show shownSlug.
func (s *store) summaryFields(r *recipe, list bool) object {
	ts := func(t time.Time) any {
		if list {
			return offsetStamp(t)
		}
		return stamp(t)
	}
	slug := r.shownSlug()
	if list {
		// The list summary keeps the stored slug after a PATCH rename
		// (TestPatchNameKeepsStoredSlug in integration/contract).
		slug = r.Slug
	}
	cats, tags, tools := s.recipeOrganizers(r)
	o := object{
		{"id", r.ID}, {"userId", s.user.ID}, {"householdId", s.user.HouseholdID}, {"groupId", s.user.GroupID},
		{"name", r.Name}, {"slug", slug}, {"image", optString(r.Image)},
	}
	if s.profile.structuredYield {
		o = append(o, field{"recipeServings", r.Servings}, field{"recipeYieldQuantity", r.YieldQuantity})
	}
	lastMade := optStamp(r.LastMade)
	if list {
		lastMade = optOffsetStamp(r.LastMade)
	}
	return append(o,
		field{"recipeYield", optString(r.Yield)}, field{"totalTime", optString(r.TotalTime)},
		field{"prepTime", optString(r.PrepTime)}, field{"cookTime", optString(r.CookTime)},
		field{"performTime", optString(r.PerformTime)}, field{"description", r.Description},
		field{"recipeCategory", cats}, field{"tags", tags}, field{"tools", tools},
		field{"rating", optFloat(r.Rating)}, field{"orgURL", optString(r.OrgURL)},
		field{"dateAdded", r.DateAdded.Format(layoutDate)}, field{"dateUpdated", ts(r.DateUpdated)},
		field{"createdAt", ts(r.CreatedAt)}, field{"updatedAt", ts(r.UpdatedAt)},
		field{"lastMade", lastMade})
}

// renderSummary is a RecipeSummary as the recipe list returns it.
func (s *store) renderSummary(r *recipe) object { return s.summaryFields(r, true) }

// renderEmbeddedSummary is a RecipeSummary inside another object (a meal-plan
// entry, a cookbook), which uses the "Z" layout (services/mealplan/testdata/mealplans__get_one.json).
func (s *store) renderEmbeddedSummary(r *recipe) object { return s.summaryFields(r, false) }

// nutritionKeys are the Nutrition model's keys in order (services/internal/mealie/testdata/recipes_get__fresh.json).
var nutritionKeys = []string{
	"calories", "carbohydrateContent", "cholesterolContent", "fatContent", "fiberContent",
	"proteinContent", "saturatedFatContent", "sodiumContent", "sugarContent",
	"transFatContent", "unsaturatedFatContent",
}

// renderRecipe is the full Recipe (services/internal/mealie/testdata/recipes_get__fresh.json).
func (s *store) renderRecipe(r *recipe) object {
	o := s.summaryFields(r, false)
	ings := make([]any, 0, len(r.Ingredients))
	for i := range r.Ingredients {
		ings = append(ings, s.renderIngredient(&r.Ingredients[i], r.Settings.DisableAmount))
	}
	steps := make([]any, 0, len(r.Instructions))
	for _, st := range r.Instructions {
		refs := make([]any, 0, len(st.IngredientReferences))
		for _, ref := range st.IngredientReferences {
			refs = append(refs, object{{"referenceId", ref}})
		}
		steps = append(steps, object{{"id", st.ID}, {"title", optString(st.Title)}, {"summary", optString(st.Summary)},
			{"text", st.Text}, {"ingredientReferences", refs}})
	}
	nut := object{}
	for _, k := range nutritionKeys {
		nut = append(nut, field{k, optString(r.Nutrition[k])})
	}
	st := r.Settings
	settings := object{{"public", st.Public}, {"showNutrition", st.ShowNutrition}, {"showAssets", st.ShowAssets},
		{"landscapeView", st.LandscapeView}, {"disableComments", st.DisableComments}}
	if s.profile.ingredientFlags {
		settings = append(settings, field{"disableAmount", st.DisableAmount})
	}
	settings = append(settings, field{"locked", st.Locked})
	notes := make([]any, 0, len(r.Notes))
	for _, n := range r.Notes {
		notes = append(notes, object{{"title", n.Title}, {"text", n.Text}})
	}
	assets := r.Assets
	if assets == nil {
		assets = []any{}
	}
	extras := r.Extras
	if extras == nil {
		extras = map[string]any{}
	}
	return append(o, field{"recipeIngredient", ings}, field{"recipeInstructions", steps},
		field{"nutrition", nut}, field{"settings", settings}, field{"assets", assets},
		field{"notes", notes}, field{"extras", extras}, field{"comments", []any{}})
}

// renderIngredient is RecipeIngredient.
func (s *store) renderIngredient(in *ingredient, recipeDisableAmount bool) object {
	var u *unit
	var f *food
	var unitJSON, foodJSON any
	if in.UnitID != nil {
		if u = s.unitByID(*in.UnitID); u != nil {
			unitJSON = s.renderUnit(u)
		}
	}
	if in.FoodID != nil {
		if f = s.foodByID(*in.FoodID); f != nil {
			foodJSON = s.renderFood(f)
		}
	}
	o := object{{"quantity", optFloat(in.Quantity)}, {"unit", unitJSON}, {"food", foodJSON}}
	if !s.profile.ingredientFlags {
		// The sub-recipe comes whole, as Mealie 3.11 sends it; one level
		// deep, so recipes that use each other cannot recurse.
		var sub any
		if in.RecipeID != nil && s.renderingSub == 0 {
			if rc := s.recipeByID(*in.RecipeID); rc != nil {
				s.renderingSub++
				sub = s.renderRecipe(rc)
				s.renderingSub--
			}
		}
		o = append(o, field{"referencedRecipe", sub})
	}
	o = append(o, field{"note", in.Note})
	// On 2.x the recipe's setting overrides whatever flags the ingredient was
	// written with (Recipe.calculate_missing_food_flags_and_format_display;
	// testdata/recordings/2.0/TestIngredientDisplay.json in the contract
	// package). 3.11 has no flags and always shows the food.
	useFood := true
	if s.profile.ingredientFlags {
		useFood = !recipeDisableAmount
		o = append(o, field{"isFood", useFood}, field{"disableAmount", !useFood})
	}
	return append(o, field{"display", s.ingredientDisplay(in.Quantity, u, f, in.Note, useFood)},
		field{"title", optString(in.Title)}, field{"originalText", optString(in.OriginalText)},
		field{"referenceId", optString(in.ReferenceID)})
}

// ingredientDisplay computes the display text as Mealie does
// (mealie/schema/recipe/recipe_ingredient.py RecipeIngredientBase._format_display):
// with amounts disabled (2.x only) only the quantity (unless it is 1) and the
// note show ("2 sifted"), otherwise quantity, unit, food and note. A food's
// plural name shows on 2.x when the quantity is 0 or above 1; on 3.11 when
// the quantity is above 1 and no unit shows (its default WITHOUT_UNIT plural
// handling).
func (s *store) ingredientDisplay(qty *float64, u *unit, f *food, noteText string, useFood bool) string {
	q := 0.0
	if qty != nil {
		q = *qty
	}
	var parts []string
	if q != 0 && (useFood || q != 1) {
		parts = append(parts, formatQuantity(q, u))
	}
	if !useFood {
		parts = append(parts, noteText)
	} else {
		if q != 0 && u != nil {
			parts = append(parts, unitDisplay(u, q))
		}
		if f != nil {
			plural := q == 0 || q > 1
			if !s.profile.ingredientFlags {
				plural = q > 1 && u == nil
				if q == 0 {
					plural = true
				}
			}
			if plural && f.PluralName != nil && *f.PluralName != "" {
				parts = append(parts, *f.PluralName)
			} else {
				parts = append(parts, f.Name)
			}
		}
		if noteText != "" {
			parts = append(parts, noteText)
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

func unitDisplay(u *unit, q float64) string {
	plural := q > 1
	val := ""
	if u.UseAbbreviation {
		if plural && u.PluralAbbreviation != "" {
			val = u.PluralAbbreviation
		} else {
			val = u.Abbreviation
		}
	}
	if val == "" {
		if plural && u.PluralName != nil && *u.PluralName != "" {
			val = *u.PluralName
		} else {
			val = u.Name
		}
	}
	return val
}

// maxDenominator is Mealie's MAX_INGREDIENT_DENOMINATOR: fractions are shown
// with a denominator of at most 32.
const maxDenominator = 32

// formatQuantity renders a quantity: decimals for units without fractions,
// otherwise a unicode fraction such as "1 ¹/₂".
func formatQuantity(q float64, u *unit) string {
	if u != nil && !u.Fraction {
		r := math.Round(q*1000) / 1000
		if r == math.Trunc(r) {
			return strconv.FormatInt(int64(r), 10)
		}
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	num, den := limitDenominator(q, maxDenominator)
	if den == 1 {
		return strconv.FormatInt(num, 10)
	}
	if num <= den {
		return superSub(num, den)
	}
	whole := num / den
	return strconv.FormatInt(whole, 10) + " " + superSub(num-whole*den, den)
}

func superSub(num, den int64) string {
	const sup, sub = "⁰¹²³⁴⁵⁶⁷⁸⁹", "₀₁₂₃₄₅₆₇₈₉"
	conv := func(n int64, table string) string {
		digits := []rune(table)
		var b strings.Builder
		for _, c := range strconv.FormatInt(n, 10) {
			b.WriteRune(digits[c-'0'])
		}
		return b.String()
	}
	return conv(num, sup) + "/" + conv(den, sub)
}

// limitDenominator returns the closest fraction to x whose denominator is at
// most maxDen, the best rational approximation from x's continued fraction
// (the same result as Python's Fraction.limit_denominator).
func limitDenominator(x float64, maxDen int64) (int64, int64) {
	r := new(big.Rat)
	if r.SetFloat64(x) == nil {
		return 0, 1
	}
	if r.Denom().IsInt64() && r.Denom().Int64() <= maxDen {
		return r.Num().Int64(), r.Denom().Int64()
	}
	// Convergents p/q of the continued fraction of n/d.
	n, d := new(big.Int).Set(r.Num()), new(big.Int).Set(r.Denom())
	p0, q0, p1, q1 := big.NewInt(0), big.NewInt(1), big.NewInt(1), big.NewInt(0)
	maxD := big.NewInt(maxDen)
	for {
		a := new(big.Int).Div(n, d)
		q2 := new(big.Int).Add(q0, new(big.Int).Mul(a, q1))
		if q2.Cmp(maxD) > 0 {
			break
		}
		p2 := new(big.Int).Add(p0, new(big.Int).Mul(a, p1))
		p0, q0, p1, q1 = p1, q1, p2, q2
		n, d = d, new(big.Int).Sub(n, new(big.Int).Mul(a, d))
		if d.Sign() == 0 {
			break
		}
	}
	// The semiconvergent with the largest k that keeps the denominator in range.
	k := new(big.Int).Div(new(big.Int).Sub(maxD, q0), q1)
	b1 := new(big.Rat).SetFrac(new(big.Int).Add(p0, new(big.Int).Mul(k, p1)), new(big.Int).Add(q0, new(big.Int).Mul(k, q1)))
	b2 := new(big.Rat).SetFrac(p1, q1)
	d1 := new(big.Rat).Abs(new(big.Rat).Sub(b1, r))
	d2 := new(big.Rat).Abs(new(big.Rat).Sub(b2, r))
	best := b2
	if d1.Cmp(d2) < 0 {
		best = b1
	}
	return best.Num().Int64(), best.Denom().Int64()
}

func itoa(i int) string { return strconv.Itoa(i) }
