package recipes

import (
	"context"
	"slices"
	"strings"
	"unicode"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// A search with a query is read by sous, the same whichever database Mealie
// runs on. Mealie's own search differs by engine: on SQLite any word is a
// substring of the name, the description or an ingredient line, on
// PostgreSQL a search without quotes is trigram similarity of the whole
// query ("chicken" finds chickpeas, "tomato pasta" only what holds both
// words close together, "currry" the curries), and a search holding a
// quoted part is the substring search on both
// (integration/contract/testdata/recordings/<version>-pg/TestSearchByEngine.json).
// So sous sends every word quoted, which gives it Mealie's substring search
// on either engine, reads all of it, and ranks it itself: whole words before
// words inside others, every word before some, the name before the rest.

// queryTerm is one word of a query, or a quoted phrase: its folded words.
type queryTerm []string

// queryTerms reads a query into terms: "quoted words" stay one phrase, the
// rest is split into words of letters and digits, folded (lower case,
// accents removed) as names.Fold folds them. Joining words ("and", "with",
// "the") are left out when other words remain: "chicken and rice" is
// chicken and rice, and a recipe is not found for its "and".
func queryTerms(q string) []queryTerm {
	var out, joins []queryTerm
	for i, part := range strings.Split(q, `"`) {
		words := textWords(part)
		if len(words) == 0 {
			continue
		}
		if i%2 == 1 {
			out = append(out, words)
			continue
		}
		for _, w := range words {
			if joiningWords[w] {
				joins = append(joins, queryTerm{w})
				continue
			}
			out = append(out, queryTerm{w})
		}
	}
	if len(out) == 0 {
		return joins
	}
	return out
}

// joiningWords are the words a query joins others with.
var joiningWords = map[string]bool{
	"a": true, "an": true, "and": true, "the": true, "with": true, "of": true,
	"in": true, "or": true, "for": true, "to": true, "on": true, "&": true,
}

// textWords are the folded words of a text, split on anything that is not a
// letter or a digit.
func textWords(s string) []string {
	return strings.FieldsFunc(names.Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// mealieSearch is the query as sous sends it: each term quoted, so Mealie
// reads it as words on either engine, and a single word with its singular
// and plural too, so a substring search for "leaf" also finds "leaves".
func mealieSearch(forms []termForms) string {
	var parts []string
	add := func(s string) {
		if q := `"` + s + `"`; s != "" && !slices.Contains(parts, q) {
			parts = append(parts, q)
		}
	}
	for _, f := range forms {
		for _, t := range f {
			if len(t) > 1 {
				add(strings.Join(t, " "))
				continue
			}
			add(t[0])
			add(names.Singular(t[0]))
			add(names.PluralOf(t[0]))
		}
	}
	return strings.Join(parts, " ")
}

// termForms are a term and the other names of the same thing in sous's
// table of other Englishes ("eggplant": aubergine, brinjal; "prawns":
// shrimp), each as folded words: a recipe holding any of them holds the
// term, as the foods filter and the pantry read names.
type termForms []queryTerm

// sameForms reads each term's forms once, for a whole search.
func sameForms(terms []queryTerm) []termForms {
	out := make([]termForms, len(terms))
	for i, t := range terms {
		out[i] = termForms{t}
		for _, n := range names.SameNames(strings.Join(t, " ")) {
			if w := queryTerm(textWords(n)); len(w) > 0 && !slices.ContainsFunc(out[i], func(f queryTerm) bool { return slices.Equal(f, w) }) {
				out[i] = append(out[i], w)
			}
		}
	}
	return out
}

// heldBy reports whether words hold one of the forms whole.
func (f termForms) heldBy(words []string) bool {
	return slices.ContainsFunc(f, func(t queryTerm) bool { return t.heldBy(words) })
}

// inside reports whether one of the forms stands in text at all.
func (f termForms) inside(text string) bool {
	return slices.ContainsFunc(f, func(t queryTerm) bool { return t.inside(text) })
}

// sameWord reports whether a text's word is the query's, once English
// singular and plural are set aside ("tomatoes" for "tomato").
func sameWord(text, query string) bool {
	return text == query || names.Singular(text) == names.Singular(query)
}

// holds reports whether words hold the term whole: its words in a row.
func (t queryTerm) heldBy(words []string) bool {
	for i := 0; i+len(t) <= len(words); i++ {
		ok := true
		for j, w := range t {
			if !sameWord(words[i+j], w) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// inside reports whether the term stands in a text at all, inside another
// word too (what Mealie's substring search matched): "pea" in "chickpea".
// A word of fewer than minInside letters inside another ("it" in "with")
// is chance, and does not count.
func (t queryTerm) inside(text string) bool {
	p := strings.Join(t, " ")
	return len([]rune(p)) >= minInside && strings.Contains(names.Fold(text), p)
}

// minInside is the shortest word found inside another: "pea" in "chickpea".
const minInside = 3

// Where a term stands in a recipe, best first.
const (
	inNothing = iota
	inLines
	inDescription
	inName
)

// queryMatch is how one recipe holds a query's terms.
type queryMatch struct {
	sum *mealie.RecipeSummary
	// where each term stands whole (inName, inDescription, inLines or
	// inNothing), in query order
	where []int
	// seen marks the terms that stand anywhere, inside a word too
	seen []bool
}

// whole counts the terms the recipe holds whole; named those in its name.
func (m *queryMatch) whole() (whole, named int) {
	for _, w := range m.where {
		if w > inNothing {
			whole++
		}
		if w == inName {
			named++
		}
	}
	return whole, named
}

// matchSummary reads a recipe's name and description against the terms;
// it reports whether every term was found whole there, so its lines need
// not be read.
func matchSummary(sum *mealie.RecipeSummary, terms []termForms) (*queryMatch, bool) {
	m := &queryMatch{sum: sum, where: make([]int, len(terms)), seen: make([]bool, len(terms))}
	name, desc := textWords(sum.Name), textWords(str(sum.Description))
	done := true
	for i, t := range terms {
		switch {
		case t.heldBy(name):
			m.where[i] = inName
		case t.heldBy(desc):
			m.where[i] = inDescription
		default:
			done = false
		}
		m.seen[i] = m.where[i] > inNothing || t.inside(sum.Name) || t.inside(str(sum.Description))
	}
	return m, done
}

// matchLines reads a recipe's ingredient lines (note, original text and
// food) for the terms its name and description lack.
func (m *queryMatch) matchLines(r *mealie.Recipe, terms []termForms) {
	for i := range r.Ingredients {
		in := &r.Ingredients[i]
		texts := []string{str(in.Note), str(in.OriginalText)}
		if in.Food != nil {
			texts = append(texts, in.Food.Name)
		}
		for _, text := range texts {
			words := textWords(text)
			for ti, t := range terms {
				if m.where[ti] == inNothing && t.heldBy(words) {
					m.where[ti] = inLines
				}
				m.seen[ti] = m.seen[ti] || m.where[ti] > inNothing || t.inside(text)
			}
		}
	}
}

// rankQuery reads every recipe Mealie's substring search found (list) and
// ranks them: a recipe holding no term whole is dropped when any recipe
// holds one (a word inside another, "pea" in "chickpea", is a last resort);
// then recipes holding more terms whole first, more of them in the name
// first, then by name and slug. seen reports, per term, whether any recipe
// holds it at all.
func (s *Service) rankQuery(ctx context.Context, list []mealie.RecipeSummary, forms []termForms) (ranked []*queryMatch, seen []bool, err error) {
	var all []*queryMatch
	var partial []mealie.RecipeSummary
	byID := map[string]*queryMatch{}
	for i := range list {
		m, done := matchSummary(&list[i], forms)
		all = append(all, m)
		byID[list[i].ID] = m
		if !done {
			partial = append(partial, list[i])
		}
	}
	if len(partial) > 0 {
		err := s.details(ctx, partial, func(sum *mealie.RecipeSummary, r *mealie.Recipe, err error) error {
			m := byID[sum.ID]
			if err != nil {
				// Mealie matched it and its lines cannot be read: kept,
				// as holding a term in its lines.
				if m.where[0] == inNothing {
					m.where[0] = inLines
				}
				return nil
			}
			m.matchLines(r, forms)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	seen = make([]bool, len(forms))
	anyWhole := false
	for _, m := range all {
		for i := range seen {
			seen[i] = seen[i] || m.seen[i]
		}
		if w, _ := m.whole(); w > 0 {
			anyWhole = true
		}
	}
	for _, m := range all {
		if w, _ := m.whole(); w > 0 || !anyWhole && slices.Contains(m.seen, true) {
			ranked = append(ranked, m)
		}
	}
	slices.SortStableFunc(ranked, func(a, b *queryMatch) int {
		wa, na := a.whole()
		wb, nb := b.whole()
		if wa != wb {
			return wb - wa
		}
		if na != nb {
			return nb - na
		}
		if c := strings.Compare(names.Fold(a.sum.Name), names.Fold(b.sum.Name)); c != 0 {
			return c
		}
		return strings.Compare(a.sum.Slug, b.sum.Slug)
	})
	return ranked, seen, nil
}

// minCorrectable is the shortest word sous offers a close spelling for: a
// shorter one is a close spelling of too many ("ham", "jam", "yam").
const minCorrectable = 4

// correctQuery reads the terms no recipe holds as the closest word of the
// library's recipe names and descriptions (names.Index's close spellings: at
// most one edit in four letters), the way Mealie on PostgreSQL finds
// "currry" but Mealie on SQLite does not. It returns the corrected terms and
// whether any changed.
func (s *Service) correctQuery(ctx context.Context, terms []queryTerm, seen []bool) ([]queryTerm, bool, error) {
	list, _, err := s.mealie.AllRecipes(ctx, mealie.MaxLibraryRecipes)
	if err != nil {
		return nil, false, err
	}
	vocab := map[string]bool{}
	for i := range list {
		for _, w := range textWords(list[i].Name + " " + str(list[i].Description)) {
			vocab[w] = true
		}
	}
	entries := make([]names.Entry, 0, len(vocab))
	for w := range vocab {
		entries = append(entries, names.Entry{ID: w, Name: w})
	}
	slices.SortFunc(entries, func(a, b names.Entry) int { return strings.Compare(a.Name, b.Name) })
	ix := names.NewIndex(entries)
	out := slices.Clone(terms)
	changed := false
	for i, t := range terms {
		if seen[i] || len(t) != 1 || len([]rune(t[0])) < minCorrectable {
			continue
		}
		if r := ix.Resolve(t[0]); !r.Found() && len(r.Suggestions) > 0 {
			out[i] = queryTerm{r.Suggestions[0]}
			changed = true
		}
	}
	return out, changed, nil
}

// termsText writes terms back as a query: phrases in quotes.
func termsText(terms []queryTerm) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = strings.Join(t, " ")
		if len(t) > 1 {
			parts[i] = `"` + parts[i] + `"`
		}
	}
	return strings.Join(parts, " ")
}

// searchByQuery answers a search with a query: every recipe Mealie's
// substring search finds with q's filters, ranked by sous (rankQuery), and
// when a term stands in no recipe, the search again with its close
// spelling (didYouMean is then the query as read).
func (s *Service) searchByQuery(ctx context.Context, q mealie.RecipeQuery, terms []queryTerm) (ranked []*queryMatch, didYouMean string, err error) {
	run := func(terms []queryTerm) ([]*queryMatch, []bool, error) {
		forms := sameForms(terms)
		list, err := s.allMatching(ctx, q, mealieSearch(forms))
		if err != nil {
			return nil, nil, err
		}
		return s.rankQuery(ctx, list, forms)
	}
	ranked, seen, err := run(terms)
	if err != nil || !slices.Contains(seen, false) {
		return ranked, "", err
	}
	fixed, changed, err := s.correctQuery(ctx, terms, seen)
	if err != nil || !changed {
		return ranked, "", err
	}
	again, _, err := run(fixed)
	if err != nil {
		return nil, "", err
	}
	// The close spelling must find a recipe holding it whole, or it is
	// not what the library says.
	found := false
	for _, m := range again {
		for i := range fixed {
			found = found || m.where[i] > inNothing && !slices.Equal(fixed[i], terms[i])
		}
	}
	if !found {
		return ranked, "", nil
	}
	return again, termsText(fixed), nil
}

// allMatching reads every recipe of Mealie's list for q with search set,
// by name. A cookbook's list is read whole in one request: its filter joins
// tags and categories, and Mealie cuts pages from the joined rows, so paged
// reads would repeat some recipes and miss others
// (integration/contract/testdata/recordings/<version>/TestFilterPagesJoinedRows.json);
// perPage=-1 lists each once on every version. Otherwise pages of
// mealie.RecipePageSize are read, up to mealie.MaxLibraryRecipes.
func (s *Service) allMatching(ctx context.Context, q mealie.RecipeQuery, search string) ([]mealie.RecipeSummary, error) {
	q.Search, q.OrderBy, q.OrderDirection = search, "name", "asc"
	if q.Cookbook != "" {
		q.Page, q.PerPage = 1, -1
		p, err := s.mealie.ListRecipes(ctx, q)
		if err != nil {
			return nil, err
		}
		return uniqueRecipes(p.Items), nil
	}
	var out []mealie.RecipeSummary
	q.PerPage = mealie.RecipePageSize
	for q.Page = 1; len(out) < mealie.MaxLibraryRecipes; q.Page++ {
		p, err := s.mealie.ListRecipes(ctx, q)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if len(p.Items) == 0 || q.Page >= p.TotalPages {
			break
		}
	}
	return uniqueRecipes(out), nil
}

// uniqueRecipes drops a recipe listed twice, keeping the first.
func uniqueRecipes(list []mealie.RecipeSummary) []mealie.RecipeSummary {
	seen := map[string]bool{}
	return slices.DeleteFunc(list, func(r mealie.RecipeSummary) bool {
		dup := seen[r.ID]
		seen[r.ID] = true
		return dup
	})
}

// pageOf cuts page (from 1) of limit items from all, with the true total
// and page count.
func pageOf[T any](all []T, page, limit int32) (items []T, total, totalPages int32) {
	total = int32(len(all))
	totalPages = (total + limit - 1) / limit
	lo := min(int64(page-1)*int64(limit), int64(total))
	hi := min(lo+int64(limit), int64(total))
	return all[lo:hi], total, totalPages
}

// summaries of matches, in order.
func matchSummaries(ms []*queryMatch) []*recipesv1.RecipeSummary {
	out := make([]*recipesv1.RecipeSummary, len(ms))
	for i, m := range ms {
		out[i] = summary(m.sum)
	}
	return out
}
