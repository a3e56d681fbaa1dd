package recipes

import (
	"context"
	"strconv"
	"strings"

	"github.com/google/uuid"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
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

// ref is a taxonomy object as an ingredient write carries it: id, name and
// nothing else Mealie does not read. Name-only objects are a 500,
// so an id is always
// set.
type ref struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ingredientWrite is one recipeIngredient entry of a write. ReferenceID is
// always set: without it Mealie 2.0 commits a null and the recipe becomes
// unreadable.
type ingredientWrite struct {
	ReferenceID  string   `json:"referenceId"`
	Quantity     *float64 `json:"quantity"`
	Unit         *ref     `json:"unit"`
	Food         *ref     `json:"food"`
	Note         string   `json:"note"`
	Title        string   `json:"title,omitempty"`
	OriginalText string   `json:"originalText,omitempty"`
	Display      string   `json:"display"`
}

// stepWrite is one recipeInstructions entry. IngredientReferences is always
// sent, [] when empty: without it Mealie 2.0 answers 500.
type stepWrite struct {
	ID                   string   `json:"id"`
	Title                string   `json:"title"`
	Text                 string   `json:"text"`
	IngredientReferences []string `json:"ingredientReferences"`
}

// steps builds the instruction payload from text steps.
func steps(texts []string) []stepWrite {
	out := make([]stepWrite, 0, len(texts))
	for _, t := range texts {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, stepWrite{ID: uuid.NewString(), Text: t, IngredientReferences: []string{}})
		}
	}
	return out
}

// formatQty renders a quantity for a note ("1.5", "2").
func formatQty(q float64) string { return strconv.FormatFloat(q, 'f', -1, 64) }

// joinNote appends parts to a note with ", ", skipping empties.
func joinNote(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, ", ")
}

// lineParts is one ingredient before it is resolved: what the caller wrote
// or what the parser read.
type lineParts struct {
	source   string // the text line, or the structured parts joined
	quantity *float64
	unit     string // a name
	unitID   string // set when the parser matched a Mealie unit
	food     string
	foodID   string
	note     string
	title    string
}

// resolveLine turns parts into a write, resolving names against the food
// and unit snapshots. Names Mealie does not know fold into the note and are
// returned; nothing is created, so a typo never becomes a new food. When nothing resolved although a unit or food was named,
// the whole source line becomes the note and the quantity is dropped, or
// Mealie would render "500 500 g flour".
func resolveLine(p lineParts, foods, units []mealie.TaxonomyItem) (ingredientWrite, []string) {
	w := ingredientWrite{ReferenceID: uuid.NewString(), Quantity: p.quantity, Title: p.title}
	if p.source != "" {
		w.OriginalText = p.source
	}
	var unresolved []string
	var extra []string
	if p.unit != "" || p.unitID != "" {
		if p.unitID != "" {
			w.Unit = &ref{ID: p.unitID, Name: p.unit}
		} else if it := findItem(units, p.unit); it != nil {
			w.Unit = &ref{ID: it.ID, Name: it.Name}
		} else {
			unresolved = append(unresolved, p.unit)
			extra = append(extra, p.unit)
		}
	}
	if p.food != "" || p.foodID != "" {
		if p.foodID != "" {
			w.Food = &ref{ID: p.foodID, Name: p.food}
		} else if it := findItem(foods, p.food); it != nil {
			w.Food = &ref{ID: it.ID, Name: it.Name}
		} else {
			unresolved = append(unresolved, p.food)
			extra = append(extra, p.food)
		}
	}
	named := p.unit != "" || p.food != "" || p.unitID != "" || p.foodID != ""
	if named && w.Unit == nil && w.Food == nil {
		w.Quantity = nil
		w.Note = p.source
		if w.Note == "" {
			w.Note = joinNote(strings.Join(extra, " "), p.note)
		}
		w.Display = w.Note
		return w, unresolved
	}
	w.Note = joinNote(strings.Join(extra, " "), p.note)
	return w, unresolved
}

// structuredParts reads a StructuredIngredient.
func structuredParts(s *recipesv1.StructuredIngredient) lineParts {
	p := lineParts{unit: strings.TrimSpace(s.GetUnit()), food: strings.TrimSpace(s.GetFood()), note: strings.TrimSpace(s.GetNote()), title: strings.TrimSpace(s.GetTitle())}
	if s.Quantity != nil {
		q := s.GetQuantity()
		p.quantity = &q
	}
	var src []string
	if p.quantity != nil {
		src = append(src, formatQty(*p.quantity))
	}
	src = append(src, p.unit, p.food)
	p.source = strings.Join(strings.Fields(strings.Join(src, " ")), " ")
	if p.note != "" {
		p.source = joinNote(p.source, p.note)
	}
	return p
}

// parsedParts reads one parser answer for line. The parser returns foods
// and units it never matched, without an id; those count as names only.
func parsedParts(line string, pi *mealie.ParsedIngredient) lineParts {
	in := &pi.Ingredient
	p := lineParts{source: line, note: str(in.Note), title: str(in.Title)}
	if in.Quantity != nil && *in.Quantity != 0 {
		q := *in.Quantity
		p.quantity = &q
	}
	if in.Unit != nil {
		p.unit, p.unitID = strings.TrimSpace(in.Unit.Name), in.Unit.ID
	}
	if in.Food != nil {
		p.food, p.foodID = strings.TrimSpace(in.Food.Name), in.Food.ID
	}
	return p
}

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

// buildIngredients turns inputs into the recipeIngredient payload: text
// lines go through Mealie's parser in one call (see parseLines), structured
// lines pass through, and every name is resolved against the cached
// snapshots. unparsed lists the text lines no parser read, kept as notes.
func (s *Service) buildIngredients(ctx context.Context, in []*recipesv1.IngredientInput) (out []ingredientWrite, unresolvedNames, unparsed []string, err error) {
	out = make([]ingredientWrite, 0, len(in))
	if len(in) == 0 {
		return out, nil, nil, nil
	}
	var texts []string
	for _, it := range in {
		if t, ok := it.GetKind().(*recipesv1.IngredientInput_Text); ok {
			texts = append(texts, strings.TrimSpace(t.Text))
		}
	}
	var parsed []mealie.ParsedIngredient
	if len(texts) > 0 {
		if parsed, err = s.parseLines(ctx, texts); err != nil {
			return nil, nil, nil, err
		}
		if parsed == nil {
			unparsed = texts
		}
	}
	foods, err := s.mealie.Taxonomy(ctx, mealie.Foods)
	if err != nil {
		return nil, nil, nil, err
	}
	units, err := s.mealie.Taxonomy(ctx, mealie.Units)
	if err != nil {
		return nil, nil, nil, err
	}
	var unresolved []string
	ti := 0
	for _, it := range in {
		var p lineParts
		switch k := it.GetKind().(type) {
		case *recipesv1.IngredientInput_Text:
			if parsed == nil {
				p = lineParts{source: texts[ti], note: texts[ti]}
			} else {
				p = parsedParts(texts[ti], &parsed[ti])
			}
			ti++
		case *recipesv1.IngredientInput_Structured:
			p = structuredParts(k.Structured)
		}
		w, u := resolveLine(p, foods, units)
		out = append(out, w)
		unresolved = append(unresolved, u...)
	}
	return out, uniqueNames(unresolved), unparsed, nil
}
