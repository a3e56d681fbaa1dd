package recipes

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"connectrpc.com/connect"
	"github.com/agnivade/levenshtein"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// Ingredient limits.
const (
	// MaxIngredients caps the lines one write carries; a recipe with more
	// is a paste gone wrong, and each text line costs parser time.
	MaxIngredients = limits.RecipeIngredients
	// MaxLineChars caps one ingredient or parser line.
	MaxLineChars = limits.IngredientLineChars
	// MaxInstructions caps the steps one write carries.
	MaxInstructions = limits.RecipeInstructions
)

// validateIngredients checks ingredient inputs before any request.
func validateIngredients(in []*recipesv1.IngredientInput) error {
	if len(in) > MaxIngredients {
		return invalid("ingredients: at most %d lines, got %d", MaxIngredients, len(in))
	}
	for i, it := range in {
		switch k := it.GetKind().(type) {
		case *recipesv1.IngredientInput_Text:
			t := strings.TrimSpace(k.Text)
			if t == "" {
				return invalid("ingredients[%d]: the text is empty", i)
			}
			if len([]rune(t)) > MaxLineChars {
				return invalid("ingredients[%d]: at most %d characters", i, MaxLineChars)
			}
		case *recipesv1.IngredientInput_Structured:
			s := k.Structured
			if strings.TrimSpace(s.GetFood()+s.GetNote()+s.GetUnit()+s.GetTitle()) == "" && s.Quantity == nil {
				return invalid("ingredients[%d]: the line is empty", i)
			}
		default:
			return invalid("ingredients[%d]: set text or structured", i)
		}
	}
	return nil
}

// parseLines reads text lines with Mealie's nlp parser, falling back to
// brute when nlp fails on the server, and returns nil with no error when
// both fail, so the caller keeps each line whole as a note (and names it).
// Seen on 2.0: nlp answers 500 where its CRF++ model is missing (real
// installs meet that too), while brute works; a recipe write must not fail
// whole, or lose its lines, for that. Only a server failure falls back: an
// unreachable Mealie or a refused token fails the write.
func (s *Service) parseLines(ctx context.Context, texts []string) ([]mealie.ParsedIngredient, error) {
	p, err := s.parseEither(ctx, texts)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return p, nil
}

func (s *Service) parseEither(ctx context.Context, texts []string) ([]mealie.ParsedIngredient, error) {
	var err error
	for _, parser := range []string{"nlp", "brute"} {
		var parsed []mealie.ParsedIngredient
		parsed, err = s.mealie.ParseIngredients(ctx, parser, texts)
		if err == nil {
			if len(parsed) != len(texts) {
				return nil, &mealie.Error{Kind: mealie.KindProtocol, Message: "Mealie's parser answered a different number of lines than it was sent"}
			}
			return parsed, nil
		}
		if !mealie.ServerFailed(err) {
			return nil, err
		}
		s.log.Warn("Mealie's ingredient parser failed", "parser", parser, "err", err)
	}
	return nil, nil
}

// ingredientResult is what building a write's lines found, for the answer.
type ingredientResult struct {
	lines      []mealie.IngredientLine
	unresolved []string
	unparsed   []string
	resolved   map[string]*recipesv1.Names
	created    []string
	// createdUnits are the units created for the write (see countUnits
	// and names.StandardUnits).
	createdUnits []string
	changed      []string
	// checks holds, by line, why sous is unsure of it ("" where it is
	// sure): what parse_ingredients shows beside the line.
	checks []string
}

// unitToCreate is a unit a write creates: a standard unit with the fields
// Mealie's seeder gives it, or a counting word with its plural.
type unitToCreate struct {
	name, plural, abbr, pluralAbbr string
}

// ingredientPlan is a write's lines read and bound, before anything is
// created: buildIngredients carries it out, parse_ingredients shows it.
type ingredientPlan struct {
	parts    []lineParts
	unparsed []string
	fx, ux   *itemIndex
	foods    []mealie.TaxonomyItem
	units    []mealie.TaxonomyItem
	// unitLost marks the lines whose unit is unknown and neither standard
	// nor a counting word: such a line is kept in the cook's order,
	// unlinked, so its food is not created for it.
	unitLost      []bool
	foodsToCreate []string
	unitsToCreate []unitToCreate
	// checks holds, by line, why sous is unsure of it.
	checks []string
}

// buildIngredients turns inputs into the recipeIngredient payload: text
// lines go through Mealie's parser in one call (see parseLines), mended
// where the line's own words contradict it (names.CleanParse), structured
// lines pass through, and every name is resolved against the cached
// snapshots (see resolveLine). A standard unit the library lacks is
// created as Mealie's units seeder makes it (names.StandardUnits), so
// "1 tsp turmeric" shows "1 teaspoon turmeric" on a library whose units
// were never seeded. A food no Mealie food binds is created, as Mealie's
// own editor offers after parsing, unless the service keeps unknown foods
// in notes (Config.KeepUnknownFoods) or the name is a close spelling of an
// existing food (a typo never becomes a new food). A name that fits two
// foods or units equally fails the whole write before anything is
// created.
func (s *Service) buildIngredients(ctx context.Context, in []*recipesv1.IngredientInput) (*ingredientResult, error) {
	pl, err := s.planIngredients(ctx, in, s.parseLines, false)
	if err != nil {
		return nil, err
	}
	return s.carryOut(ctx, pl, false)
}

// planIngredients reads and binds a write's lines without writing, its
// text lines read by parse (a write's parseLines; parse_ingredients may
// name a parser). With preview, a name that fits two foods or units marks
// its line (checks) instead of failing: parse_ingredients shows it, a
// write refuses it.
func (s *Service) planIngredients(ctx context.Context, in []*recipesv1.IngredientInput, parse func(context.Context, []string) ([]mealie.ParsedIngredient, error), preview bool) (*ingredientPlan, error) {
	pl := &ingredientPlan{}
	if len(in) == 0 {
		return pl, nil
	}
	var texts []string
	for _, it := range in {
		if t, ok := it.GetKind().(*recipesv1.IngredientInput_Text); ok {
			texts = append(texts, strings.TrimSpace(t.Text))
		}
	}
	var parsed []mealie.ParsedIngredient
	var err error
	if len(texts) > 0 {
		if parsed, err = parse(ctx, texts); err != nil {
			return nil, err
		}
		if parsed == nil {
			pl.unparsed = texts
		}
	}
	if pl.foods, err = s.mealie.Taxonomy(ctx, mealie.Foods); err != nil {
		return nil, mealie.ConnectError(err)
	}
	if pl.units, err = s.mealie.Taxonomy(ctx, mealie.Units); err != nil {
		return nil, mealie.ConnectError(err)
	}
	pl.fx, pl.ux = indexItems(pl.foods), indexItems(pl.units)
	pl.parts = make([]lineParts, 0, len(in))
	pl.checks = make([]string, len(in))
	ti := 0
	for i, it := range in {
		var p lineParts
		switch k := it.GetKind().(type) {
		case *recipesv1.IngredientInput_Text:
			if parsed == nil {
				p = lineParts{source: texts[ti], note: texts[ti]}
				pl.checks[i] = "no Mealie parser answered, so the line is kept whole as text"
			} else {
				p = parsedParts(texts[ti], &parsed[ti])
				if f := parsed[ti].Ingredient.Food; f != nil && names.QualityOnly(f.Name) {
					// 2.8's nlp reads "good-quality" of "3 cups good-quality
					// or homemade unsalted chicken stock" as the food
					// (testdata/parsed): the food is read from the line
					pl.checks[i] = fmt.Sprintf("Mealie's parser read the cook's word %q as the food; the food is read from the line as %q, the word kept in the note", strings.TrimSpace(f.Name), p.food)
				}
				if lost := parserLost(p); lost != "" && pl.checks[i] == "" {
					pl.checks[i] = fmt.Sprintf("Mealie's parser left %q out of the food; it is kept in the note", lost)
				}
			}
			ti++
		case *recipesv1.IngredientInput_Structured:
			p = structuredParts(k.Structured)
		}
		pl.parts = append(pl.parts, p)
	}
	// First every name is bound, so an ambiguous one fails the write
	// before a food is created; then the unknown foods are created.
	pl.unitLost = make([]bool, len(pl.parts))
	ambiguous := func(i int, kind, name string, err error) error {
		if preview {
			pl.checks[i] = fmt.Sprintf("the %s %q %s", kind, name, err.Error())
			return nil
		}
		return invalid("%s %q: %s; nothing was written", kind, name, err.Error())
	}
	for i, p := range pl.parts {
		if p.unit == "" || p.unitID != "" {
			continue
		}
		u, err := bindUnit(pl.ux, p.unit)
		if err != nil {
			if err := ambiguous(i, "unit", p.unit, err); err != nil {
				return nil, err
			}
			pl.unitLost[i] = true
			continue
		}
		if u != nil {
			continue
		}
		if std, ok := names.StandardUnit(p.unit); ok {
			if !slices.ContainsFunc(pl.unitsToCreate, func(c unitToCreate) bool { return c.name == std.Name }) {
				pl.unitsToCreate = append(pl.unitsToCreate, unitToCreate{std.Name, std.PluralName, std.Abbreviation, std.PluralAbbreviation})
			}
			continue
		}
		if !s.keepUnknownFoods && countUnit(p.unit, p.source) && len(misspelt(pl.ux, p.unit)) == 0 {
			c := names.Singular(strings.ToLower(p.unit))
			if !slices.ContainsFunc(pl.unitsToCreate, func(u unitToCreate) bool { return u.name == c }) {
				pl.unitsToCreate = append(pl.unitsToCreate, unitToCreate{name: c, plural: names.PluralOf(c)})
			}
			continue
		}
		pl.unitLost[i] = true
		if pl.checks[i] == "" {
			pl.checks[i] = fmt.Sprintf("the unit %q is neither a standard unit nor one of the library's, so the line is kept as text", p.unit)
		}
	}
	for i, p := range pl.parts {
		if p.food == "" || p.foodID != "" {
			continue
		}
		it, _, err := pl.fx.bind(p.food)
		if err != nil {
			if err := ambiguous(i, "food", p.food, err); err != nil {
				return nil, err
			}
			continue
		}
		if pl.unitLost[i] || it != nil || s.keepUnknownFoods {
			continue
		}
		if close := misspelt(pl.fx, p.food); len(close) > 0 {
			if pl.checks[i] == "" {
				pl.checks[i] = fmt.Sprintf("the food %q is close to the library's %s; it is kept in the note rather than created", p.food, strings.Join(quoted(close, 3), ", "))
			}
			continue
		}
		if !creatable(p.food) {
			if pl.checks[i] == "" {
				pl.checks[i] = fmt.Sprintf("no food could be read (the parser gave %q); the words are kept in the note", p.food)
			}
			continue
		}
		k := names.Key(p.food)
		if k == "" || slices.ContainsFunc(pl.foodsToCreate, func(n string) bool { return names.Key(n) == k }) {
			continue
		}
		pl.foodsToCreate = append(pl.foodsToCreate, p.food)
	}
	return pl, nil
}

// bindUnit finds the library's unit a unit name binds to (see
// itemIndex.bind); a standard unit the library keeps under another of its
// names ("tsp" where the library has "teaspoon" without an abbreviation)
// is found by those names.
func bindUnit(ux *itemIndex, name string) (*mealie.TaxonomyItem, error) {
	it, _, err := ux.bind(name)
	if it != nil || err != nil {
		return it, err
	}
	std, ok := names.StandardUnit(name)
	if !ok {
		return nil, nil
	}
	for _, n := range std.Names() {
		if it, _, _ := ux.bind(n); it != nil {
			return it, nil
		}
	}
	return nil, nil
}

// previewID marks a food or unit a write would create, in a preview: the
// answer shows its name without an id.
const previewID = "new:"

// carryOut creates what the plan needs and builds the lines. With preview
// nothing is created: the foods and units a write would create stand in
// under previewID ids, so the lines read exactly as a write would store
// them.
func (s *Service) carryOut(ctx context.Context, pl *ingredientPlan, preview bool) (*ingredientResult, error) {
	res := &ingredientResult{lines: make([]mealie.IngredientLine, 0, len(pl.parts)), resolved: map[string]*recipesv1.Names{}, unparsed: pl.unparsed, checks: pl.checks}
	made := map[string]*mealie.TaxonomyItem{}
	units := pl.units
	for _, u := range pl.unitsToCreate {
		ch := mealie.TaxonomyChange{Name: ptr(u.name), PluralName: ptr(u.plural)}
		if u.abbr != "" {
			ch.Abbreviation, ch.Description = ptr(u.abbr), ptr("")
		}
		if u.pluralAbbr != "" {
			ch.PluralAbbreviation = ptr(u.pluralAbbr)
		}
		var it *mealie.TaxonomyItem
		if preview {
			it = &mealie.TaxonomyItem{ID: previewID + u.name, Name: u.name, PluralName: ch.PluralName, Abbreviation: ch.Abbreviation}
		} else {
			var err error
			if it, err = s.mealie.CreateTaxonomy(ctx, mealie.Units, ch); err != nil {
				return nil, s.createFailed("unit", u.name, err, res)
			}
			s.mealie.AddTaxonomy(mealie.Units, *it)
		}
		units = append(units, *it)
		res.createdUnits = append(res.createdUnits, it.Name)
	}
	ux := pl.ux
	if len(pl.unitsToCreate) > 0 {
		ux = indexItems(units)
	}
	for _, n := range pl.foodsToCreate {
		name := foodName(n)
		var it *mealie.TaxonomyItem
		if preview {
			it = &mealie.TaxonomyItem{ID: previewID + name, Name: name}
		} else {
			var err error
			if it, err = s.mealie.CreateTaxonomy(ctx, mealie.Foods, mealie.TaxonomyChange{Name: &name}); err != nil {
				return nil, s.createFailed("food", n, err, res)
			}
			s.mealie.AddTaxonomy(mealie.Foods, *it)
		}
		made[names.Key(n)] = it
		res.created = append(res.created, it.Name)
	}
	var unresolved []string
	for _, p := range pl.parts {
		w, rep, err := resolveLine(p, pl.fx, ux, made)
		if err != nil {
			return nil, err
		}
		res.lines = append(res.lines, w)
		unresolved = append(unresolved, rep.unresolved...)
		for _, r := range rep.resolved {
			addResolved(res.resolved, r[0], r[1])
		}
		if rep.changed && p.source != "" && !slices.Contains(res.changed, p.source) {
			res.changed = append(res.changed, p.source)
		}
	}
	res.unresolved = uniqueNames(unresolved)
	return res, nil
}

func ptr[T any](v T) *T { return &v }

// parserLost is what of a text line's food Mealie's parser read nowhere
// (neither food, unit nor note) and sous could only keep in the note: a
// word that names the food, within the food's words before an "or", "and",
// "for" or "to" ("half" of "Juice of half a lime"), not the cook's "or
// canola oil", "to serve", "(2 oz)" or a counting word. Words sous itself
// takes through (a unit's abbreviation, a plural, a spelling) are not
// lost.
func parserLost(p lineParts) string {
	if p.source == "" {
		return ""
	}
	read := map[string]int{}
	for _, part := range []string{p.unit, p.food, p.note} {
		for _, x := range lineWords(part) {
			read[x]++
		}
	}
	if u, ok := names.StandardUnit(p.unit); ok {
		for _, n := range u.Names() {
			for _, x := range lineWords(n) {
				read[x]++
			}
		}
	}
	var lost []string
	for _, tok := range strings.Fields(names.FoodText(p.source)) {
		ws := lineWords(tok)
		if len(ws) == 1 && (ws[0] == "or" || ws[0] == "and" || ws[0] == "for" || ws[0] == "to") || tok == "&" || tok == "+" {
			break
		}
		for _, x := range ws {
			if read[x] > 0 {
				read[x]--
				continue
			}
			if _, unit := names.StandardUnit(x); unit || countUnits[x] || skipWords[x] || names.IsPrepWord(x) || x == "each" || x == "inch" || x == "cm" {
				continue
			}
			lost = append(lost, strings.Trim(tok, ",;:()"))
			break
		}
	}
	return strings.Join(lost, " ")
}

// createFailed words a failed food or unit creation: what was created
// before it is named, since those stay in Mealie although the recipe was
// not written.
func (s *Service) createFailed(kind, name string, err error, res *ingredientResult) error {
	made := append(slices.Clone(res.createdUnits), res.created...)
	if len(made) == 0 {
		return mealie.ConnectError(err)
	}
	return connect.NewError(mealie.ConnectCode(err), fmt.Errorf("creating %s %q failed (%s); created before the failure: %s; the recipe was not written", kind, name, errMessage(err), strings.Join(made, ", ")))
}

// countUnits are the counting words of kitchen lines Mealie does not seed
// as units (its en-US seed has can, bunch, head, clove, pinch, dash and
// splash; testdata of services/internal/names): "1 block extra-firm tofu",
// "2 sticks butter". A parsed unit that is one of them, written so in the
// line, is created as a unit when no Mealie unit matches, so the line keeps
// its food link and reads in the cook's order; any other unknown unit
// ("smidgen", "heaping cup") keeps the line as text, as before. Words that
// also begin a food ("rib eye", "cube steak") are left out, or the food
// would lose its first word.
var countUnits = map[string]bool{
	"block": true, "jar": true, "package": true, "packet": true, "pack": true,
	"bag": true, "box": true, "bottle": true, "carton": true, "container": true,
	"tub": true, "tin": true, "piece": true, "slice": true, "stick": true,
	"sprig": true, "stalk": true, "handful": true, "knob": true, "sheet": true,
	"loaf": true, "ear": true, "bulb": true, "bar": true,
	"envelope": true, "pouch": true, "wedge": true, "fillet": true,
	"scoop": true, "sachet": true, "punnet": true, "rasher": true, "link": true,
}

// countUnit reports whether a parsed unit is one of countUnits and stands
// in the source line as a word.
func countUnit(unit, source string) bool {
	u := strings.ToLower(strings.TrimSpace(unit))
	if strings.ContainsAny(u, " \t") || !countUnits[names.Singular(u)] {
		return false
	}
	return slices.Contains(strings.Fields(strings.ToLower(source)), u)
}

// foodName is the name a new food is created with: the parser's food as
// written (case, hyphens and digits kept), without the notes it sometimes
// carries ("salt to taste" is salt, "cornstarch +" cornstarch; the rest goes
// back to the line's note, see restoreWords). It keeps the fewest words,
// from either end, that read the same as the whole (names.Normalize).
func foodName(parsed string) string {
	n := strings.TrimSpace(bracketed.ReplaceAllString(parsed, " "))
	if i := strings.IndexAny(n, ",;"); i > 0 {
		n = n[:i]
	}
	w := strings.Fields(n)
	want := names.Normalize(parsed)
	if want == "" || len(w) == 0 {
		return strings.Join(strings.Fields(parsed), " ")
	}
	for k := 1; k < len(w); k++ {
		if names.Normalize(strings.Join(w[:k], " ")) == want {
			w = w[:k]
			break
		}
	}
	for k := len(w) - 1; k > 0; k-- {
		if names.Normalize(strings.Join(w[k:], " ")) == want {
			w = w[k:]
			break
		}
	}
	return strings.TrimRight(strings.Join(w, " "), ",;:*+& ")
}

// bracketed is a note in a parsed food's name: "tofu (extra firm)".
var bracketed = regexp.MustCompile(`\([^)]*\)?|\[[^\]]*\]?`)

// creatable reports whether a parsed food name can be a food: Mealie's nlp
// parser sometimes names a food by the words before it ("Juice from" of
// "Juice from one medium lemon", "Zest from"), and such a name is kept in
// the note rather than made a food.
func creatable(parsed string) bool {
	w := strings.Fields(names.Normalize(parsed))
	if len(w) == 0 {
		return false
	}
	switch w[len(w)-1] {
	case "from", "of", "with", "for", "to", "in", "into", "on", "about", "plus", "each":
		return false
	}
	return true
}

// misspelt are the existing foods name is a close spelling of (one edit,
// two from twelve letters; names of five letters or more): "tumeric" beside
// "turmeric" is a typo to report, not a food to create, while "live quince
// x" beside "live rice x" is another food.
func misspelt(x *itemIndex, name string) []string {
	f := names.Fold(name)
	n := len([]rune(f))
	if n < 5 {
		return nil
	}
	limit := 1
	if n >= 12 {
		limit = 2
	}
	var out []string
	for _, c := range x.Closest(name, 3) {
		if levenshtein.ComputeDistance(f, names.Fold(c)) <= limit {
			out = append(out, c)
		}
	}
	return out
}
