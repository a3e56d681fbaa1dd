package mealieemu

import (
	"regexp"
	"strings"

	"github.com/mozillazg/go-unidecode"
)

// Mealie's SearchFilter (mealie/schema/response/query_search.py, the same
// from 2.0 to 3.20) reads a search one of two ways. On SQLite, and on
// PostgreSQL when the search holds a quoted part, it is tokenized: a row
// matches when any word or quoted phrase is a substring of a searchable
// column (SQL LIKE), and rows whose first column holds the whole search
// come first. On PostgreSQL without quotes it is fuzzy: a row matches when
// pg_trgm's word_similarity of the search in a searchable column reaches a
// threshold (trigram.go), and rows are ordered by that similarity in the
// first column. Either order comes before the orderBy the request asks for.

// searchPunctuation is what Mealie's SearchFilter turns into spaces before it
// splits a search into tokens: string.punctuation without the quotes.
const searchPunctuation = "!#$%&()*+,-./:;<=>?@[\\]^_`{|}~"

// quotedPart is SearchFilter's quoted_regex: a quote, the fewest
// characters, the same quote. An apostrophe counts, so "mom's chef's"
// holds one ('s chef').
var quotedPart = regexp.MustCompile(`"[^"]*"|'[^']*'`)

// normalizeSearch lowercases and transliterates, as Mealie's *_normalized
// columns and RecipeSummary._normalize_search do.
func normalizeSearch(s string) string {
	return strings.ToLower(unidecode.Unidecode(s))
}

// dropPunctuation turns searchPunctuation into spaces.
func dropPunctuation(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(searchPunctuation, r) {
			return ' '
		}
		return r
	}, s)
}

// searchQuery is a search as SearchFilter reads it.
type searchQuery struct {
	// whole is the normalized search: punctuation made spaces, then (for a
	// collection whose search is normalized) transliterated and
	// lowercased, and trimmed.
	whole string
	// tokens are its words and quoted phrases.
	tokens []string
	// fuzzy is the PostgreSQL reading.
	fuzzy bool
}

// readSearch reads a search for a collection: normalize is the schema's
// _normalize_search (recipes, foods and units; not organizers or labels),
// postgres the profile's engine.
func readSearch(search string, normalize, postgres bool) searchQuery {
	q := searchQuery{fuzzy: postgres && !quotedPart.MatchString(strings.TrimSpace(search))}
	q.whole = dropPunctuation(search)
	if normalize {
		q.whole = normalizeSearch(q.whole)
	}
	q.whole = strings.TrimSpace(q.whole)
	rest := q.whole
	for _, m := range quotedPart.FindAllString(rest, -1) {
		if p := strings.TrimSpace(m[1 : len(m)-1]); p != "" {
			q.tokens = append(q.tokens, p)
		}
	}
	rest = quotedPart.ReplaceAllString(rest, " ")
	q.tokens = append(q.tokens, strings.Fields(dropPunctuation(rest))...)
	return q
}

// searchTokens are a search's words and quoted phrases, normalized.
func searchTokens(search string) []string { return readSearch(search, true, false).tokens }

// like is SQL LIKE '%tok%' on a column: SQLite compares ASCII letters
// without regard to case, PostgreSQL with it. Recipes, foods and units
// search lowercased columns with a lowercased search, so case only counts
// for organizers and labels.
func like(column, tok string, postgres bool) bool {
	if postgres {
		return strings.Contains(column, tok)
	}
	return strings.Contains(strings.ToLower(column), strings.ToLower(tok))
}

// match reads one row's searchable columns (nil for a NULL column), the
// first being the one the order is taken from. It reports whether the row
// matches and its rank, lower first: tokenized, 0 when the first column
// holds the whole search and 1 otherwise; fuzzy, 1 - word_similarity in the
// first column (pg_trgm's <->> distance).
func (q searchQuery) match(columns []*string, threshold float32, postgres bool) (ok bool, rank float64) {
	if len(q.tokens) == 0 && !q.fuzzy {
		return true, 0
	}
	for _, c := range columns {
		if c == nil {
			continue
		}
		if q.fuzzy {
			ok = ok || wordSimilarity(q.whole, *c) >= threshold
			continue
		}
		for _, t := range q.tokens {
			ok = ok || like(*c, t, postgres)
		}
	}
	return ok, q.rank(columns, postgres)
}

// rank is the order key of match.
func (q searchQuery) rank(columns []*string, postgres bool) float64 {
	var first string
	if len(columns) > 0 && columns[0] != nil {
		first = *columns[0]
	} else if q.fuzzy {
		return 2 // NULL sorts last ascending on PostgreSQL
	}
	if q.fuzzy {
		return 1 - float64(wordSimilarity(q.whole, first))
	}
	if like(first, q.whole, postgres) {
		return 0
	}
	return 1
}

// searchRecipes keeps the recipes the search matches and returns their
// ranks (RecipeSummary.filter_search_query): tokenized, a word or phrase in
// the name, the description, or an ingredient's note or original text;
// fuzzy, the name or description at trigramThreshold, or an ingredient's
// note or original text at trigramDefaultThreshold.
func (st *store) searchRecipes(rows []*recipe, search string) ([]*recipe, map[*recipe]float64) {
	pg := st.profile.postgres
	q := readSearch(search, true, pg)
	if len(q.tokens) == 0 {
		return rows, nil
	}
	ranks := map[*recipe]float64{}
	var out []*recipe
	for _, r := range rows {
		name, desc := normalizeSearch(r.Name), normalizeSearch(r.Description)
		ok, rank := q.match([]*string{&name, &desc}, trigramThreshold, pg)
		for i := 0; !ok && i < len(r.Ingredients); i++ {
			in := &r.Ingredients[i]
			lines := []*string{ptr(normalizeSearch(in.Note))}
			if in.OriginalText != nil {
				lines = append(lines, ptr(normalizeSearch(*in.OriginalText)))
			}
			ok, _ = q.match(lines, trigramDefaultThreshold, pg)
		}
		if ok {
			out = append(out, r)
			ranks[r] = rank
		}
	}
	return out, ranks
}

func ptr[T any](v T) *T { return &v }

// normalizedOrNil is a nullable column's normalized value.
func normalizedOrNil(s *string) *string {
	if s == nil {
		return nil
	}
	return ptr(normalizeSearch(*s))
}
