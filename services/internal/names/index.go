// Package names reads a name the way a cook means it and finds what it names
// among Mealie's foods, units, tags, categories and tools, or the pantry's
// ingredients. It is pure (no I/O): a caller builds an Index from the list it
// already fetched and asks it.
//
// A name is read in this order, and the first level that finds anything is
// the answer (see How): the name itself (ignoring case, spacing and
// accents); another name the thing carries (Mealie's pluralName, aliases,
// abbreviations, a slug, the pantry's aliases); English singular/plural with
// prices, counts and notes in stored names set aside; a general name that
// covers specific kinds by head noun ("rice" covers "jasmine rice"); and last
// close spellings, which are only ever suggestions, never a match.
package names

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Entry is one thing a name can resolve to. Others are the other names it
// answers to: a food's pluralName and aliases, a unit's pluralName,
// abbreviation and pluralAbbreviation, a tag's slug, a pantry ingredient's
// aliases. Mealie seeds foods whose singular is not a word ("lemongras",
// pluralName "lemongrass"); passing the plural in Others is what finds them.
type Entry struct {
	ID     string
	Name   string
	Others []string
}

// How says how a name was read, in the order the levels are tried.
type How int

const (
	// None: nothing was found (Result.Suggestions may hold close spellings).
	None How = iota
	// Exact: the entry's name, ignoring case, spacing and accents.
	Exact
	// Alias: one of the entry's Others, ignoring case, spacing and accents.
	Alias
	// Plural: the same words once English singular/plural, preparation
	// words and the prices, counts and notes of stored names are set aside
	// ("tomatoes" for "tomato", "rice" for "rice ($0.60)").
	Plural
	// Synonym: the same thing in another English or spelling (see Canon):
	// "eggplant" for "aubergine", "prawns" for "shrimp", "yoghurt" for
	// "yogurt". A synonym is never a kind: "pepper" is not "bell pepper".
	Synonym
	// General: the name covers the entries' names by head noun (see Covers):
	// "rice" for "jasmine rice" and "long-grain white rice".
	General
)

// String names the level as answers show it.
func (h How) String() string {
	switch h {
	case Exact:
		return "exact"
	case Alias:
		return "alias"
	case Plural:
		return "plural"
	case Synonym:
		return "synonym"
	case General:
		return "general"
	case Kind:
		return "kind"
	}
	return "none"
}

// Result is how one name was read.
type Result struct {
	// Name is the name as given.
	Name string
	// Matches are the entries found at level How, best first; empty when
	// How is None.
	Matches []Entry
	How     How
	// Suggestions are the names of close spellings, closest first, given
	// only when nothing matched.
	Suggestions []string
}

// Found reports whether anything matched.
func (r Result) Found() bool { return len(r.Matches) > 0 }

// Resolved reports whether the name was read other than exactly, which an
// answer says (its "resolved" field) so the model knows what sous took.
func (r Result) Resolved() bool { return r.How > Exact && len(r.Matches) > 0 }

// MatchNames are the names of Matches, in order.
func (r Result) MatchNames() []string {
	out := make([]string, len(r.Matches))
	for i, m := range r.Matches {
		out[i] = m.Name
	}
	return out
}

type entry struct {
	Entry
	fold   string   // Fold(Name)
	others []string // Fold of each Other
	words  []string // Words(Name)
	keys   [][]string
	strict [][]string   // strictWords of Name and each Other, for Bind
	joined []string     // each key joined by spaces, for edit distances
	canon  [][]string   // Canon of Name and each Other, for Synonym
	cstric [][]string   // strictCanon of Name and each Other, for Bind
	alts   [][][]string // alternatives of each canon key, for General
	ralts  [][][]string // alternatives of each key as written, for General
	// debris marks a stored name that carries more than the food: a price,
	// a mark, a note ("rice ($0.60)", "curry powder*"); a clean name ranks
	// before it (see Clean).
	debris bool
}

// Index answers names against a fixed list of entries. It is safe for
// concurrent use once built.
type Index struct {
	entries []entry
}

// NewIndex indexes entries; entries with an empty name are skipped.
func NewIndex(entries []Entry) *Index {
	ix := &Index{entries: make([]entry, 0, len(entries))}
	for _, e := range entries {
		if strings.TrimSpace(e.Name) == "" {
			continue
		}
		ie := entry{Entry: e, fold: Fold(e.Name), words: Words(e.Name), debris: IsDebris(e.Name)}
		add := func(n string) {
			ie.keys = append(ie.keys, Words(n))
			ie.strict = append(ie.strict, strictWords(n))
			c := Canon(n)
			ie.canon = append(ie.canon, c)
			ie.cstric = append(ie.cstric, strictCanon(n))
			ie.alts = append(ie.alts, alternatives(c))
			ie.ralts = append(ie.ralts, alternatives(Words(n)))
		}
		add(e.Name)
		for _, o := range e.Others {
			if strings.TrimSpace(o) == "" {
				continue
			}
			ie.others = append(ie.others, Fold(o))
			add(o)
		}
		for _, k := range ie.keys {
			ie.joined = append(ie.joined, strings.Join(k, " "))
		}
		ix.entries = append(ix.entries, ie)
	}
	return ix
}

// Len is the number of entries indexed.
func (ix *Index) Len() int { return len(ix.entries) }

// rank orders matches within a level: a name over another name it answers
// to, and a name as written (case included) over a folded one.
type ranked struct {
	e    *entry
	rank int
}

// query is a name as every level reads it.
type query struct {
	name string
	f    string   // Fold(name)
	w    []string // Words(name)
	c    []string // Canon(name)
}

func newQuery(name string) query {
	return query{name: name, f: Fold(name), w: Words(name), c: Canon(name)}
}

// levels are the levels a read tries, in order.
var levels = []How{Exact, Alias, Plural, Synonym, General}

// Resolve reads name (see the package doc for the order). An empty name
// finds nothing.
func (ix *Index) Resolve(name string) Result {
	r := Result{Name: name}
	q := newQuery(name)
	if q.f == "" {
		return r
	}
	for _, how := range levels {
		var found []ranked
		for i := range ix.entries {
			if rk, ok := ix.entries[i].match(how, q); ok {
				found = append(found, ranked{&ix.entries[i], rk})
			}
		}
		if len(found) == 0 {
			continue
		}
		sort.SliceStable(found, func(a, b int) bool { return found[a].rank < found[b].rank })
		r.How = how
		for _, m := range found {
			r.Matches = append(r.Matches, m.e.Entry)
		}
		return r
	}
	r.Suggestions = ix.suggest(q.f, q.w, 5, true)
	return r
}

// match reports whether e matches at level how, and its rank there (lower
// is better): a name before another name it answers to, and past the
// exact level a clean name before one carrying debris ("tomato" before
// "tomato ($0.45)").
func (e *entry) match(how How, q query) (int, bool) {
	rk, ok := e.matchKey(how, q)
	if ok && how > Alias && e.debris {
		rk += 2
	}
	return rk, ok
}

func (e *entry) matchKey(how How, q query) (int, bool) {
	switch how {
	case Exact:
		if e.fold == q.f {
			if e.Name == strings.TrimSpace(q.name) {
				return 0, true
			}
			return 1, true
		}
	case Alias:
		if slices.Contains(e.others, q.f) {
			return 0, true
		}
	case Plural:
		if len(q.w) == 0 {
			return 0, false
		}
		for i, k := range e.keys {
			if slices.Equal(k, q.w) {
				return min(i, 1), true
			}
		}
	case Synonym:
		if len(q.c) == 0 {
			return 0, false
		}
		for i, k := range e.canon {
			if slices.Equal(k, q.c) {
				return min(i, 1), true
			}
		}
	case General:
		if len(q.c) == 0 {
			return 0, false
		}
		// a general name covers a kind in one English or the other:
		// "shrimp" covers "king prawns", "mince" covers "pork mince"
		for i, alts := range e.alts {
			for _, alt := range alts {
				if coversAlt(q.c, alt) {
					return min(i, 1), true
				}
			}
			for _, alt := range e.ralts[i] {
				if coversAlt(q.w, alt) {
					return min(i, 1), true
				}
			}
		}
	}
	return 0, false
}

// Covered is every entry name covers at any level (exact, alias, plural,
// synonym or general), in index order: what a search or a suggestion
// matches when the cook says "rice" and the library has "rice", "jasmine
// rice" and "rice ($0.60)".
func (ix *Index) Covered(name string) []Entry {
	return ix.matching(name, levels)
}

// Same is every entry name is another name for: the entries it matches at
// the exact, alias, plural or synonym level, never the general one, in
// index order. A pantry item's aliases are read this way (an alias
// "chicken" of "chicken thighs" names the thighs, not every chicken the
// library has).
func (ix *Index) Same(name string) []Entry {
	return ix.matching(name, levels[:4])
}

func (ix *Index) matching(name string, at []How) []Entry {
	q := newQuery(name)
	if q.f == "" {
		return nil
	}
	var out []Entry
	for i := range ix.entries {
		e := &ix.entries[i]
		for _, how := range at {
			if _, ok := e.match(how, q); ok {
				out = append(out, e.Entry)
				break
			}
		}
	}
	return out
}

// Closest are up to n entry names nearest to name by edit distance (on
// folded names and their keys), closest first, however far: what a tool
// error offers when a name finds nothing.
func (ix *Index) Closest(name string, n int) []string {
	return ix.suggest(Fold(name), Words(name), n, false)
}

// suggest ranks entries by the smallest edit distance from the folded name
// or its key to any of their names; near keeps only close spellings (at
// most one edit in four letters, at least one), names sharing a word with
// the name counting as close too.
func (ix *Index) suggest(f string, w []string, n int, near bool) []string {
	if f == "" || n <= 0 {
		return nil
	}
	key := strings.Join(w, " ")
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	seen := map[string]bool{}
	limit := max(1, len([]rune(f))/4)
	for i := range ix.entries {
		e := &ix.entries[i]
		if seen[e.fold] {
			continue
		}
		dist := func(a, b string) int {
			// an edit distance is at least the difference in length, which
			// spares computing it for most of a long list
			if near && abs(len(a)-len(b)) > limit {
				return limit + 1
			}
			return levenshtein.ComputeDistance(a, b)
		}
		d := dist(f, e.fold)
		for _, o := range e.others {
			d = min(d, dist(f, o))
		}
		for _, k := range e.joined {
			if key != "" {
				d = min(d, dist(key, k))
			}
		}
		if near {
			if d > limit {
				if !sharesWord(w, e.keys) {
					continue
				}
				d = limit + 1
			}
		}
		seen[e.fold] = true
		cs = append(cs, cand{e.Name, d})
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].d != cs[b].d {
			return cs[a].d < cs[b].d
		}
		return cs[a].name < cs[b].name
	})
	var out []string
	for _, c := range cs {
		if len(out) == n {
			break
		}
		out = append(out, c.name)
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func sharesWord(w []string, keys [][]string) bool {
	for _, k := range keys {
		for _, x := range k {
			if len(x) > 2 && slices.Contains(w, x) {
				return true
			}
		}
	}
	return false
}

// AmbiguousError is a write's name that fits two or more entries equally:
// the write changes nothing and the model is told the candidates.
type AmbiguousError struct {
	Name       string
	How        How
	Candidates []string
}

// Error lists the candidates in a sentence a model can act on.
func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%q fits %d names equally (%s): give the one you mean", e.Name, len(e.Candidates), strings.Join(quoteAll(e.Candidates), ", "))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// IsAmbiguous reports whether err is (or wraps) an *AmbiguousError.
func IsAmbiguous(err error) bool {
	var a *AmbiguousError
	return errors.As(err, &a)
}

// Bind picks the one entry a write binds name to. It binds at the Exact,
// Alias, Plural and Synonym levels, and at Plural and Synonym only when the
// stored name differs by noise alone (prices, counts, notes, marks, case,
// plural, spelling, another English) and adds none of the preparation
// words those levels set aside for a read (the given name may have them:
// "heaping cup" is "cup"). Past those levels, a stored name that differs
// from the given one only by a cook's word (see linkWord) is bound when it
// is the only such food: "grated ginger" is the library's "fresh ginger",
// "cilantro" its "fresh cilantro" (how is Plural or Synonym, and the caller
// reports it), while "brown rice" is never the stored "COLD cooked brown
// rice". A general name is never narrowed to one of the kinds it covers (a
// new "chicken" is not "chicken thighs"), so at the General level, or when
// nothing matched, how is None and the caller creates the name or refuses
// it (Resolve gives the covers and suggestions to say so). A clean name
// ranks before one carrying debris ("tomato" before "tomato ($0.45)").
// When two or more entries tie for best, err is an *AmbiguousError and the
// caller must write nothing.
func (ix *Index) Bind(name string) (e Entry, how How, err error) {
	q := newQuery(name)
	if q.f == "" {
		return Entry{}, None, nil
	}
	sw, sc := strictWords(name), strictCanon(name)
	for _, lvl := range levels[:4] {
		var found []ranked
		for i := range ix.entries {
			ie := &ix.entries[i]
			rk, ok := ie.match(lvl, q)
			if !ok || lvl == Plural && !addsNone(ie.strict, sw, nil) || lvl == Synonym && !addsNone(ie.cstric, sc, nil) {
				continue
			}
			found = append(found, ranked{ie, rk})
		}
		if len(found) == 0 {
			continue
		}
		best := found[0].rank
		for _, m := range found {
			best = min(best, m.rank)
		}
		var top []*entry
		for _, m := range found {
			if m.rank == best {
				top = append(top, m.e)
			}
		}
		if len(top) == 1 {
			return top[0].Entry, lvl, nil
		}
		if lvl > Alias {
			if e, ok := oneThing(top); ok {
				return e.Entry, lvl, nil
			}
		}
		amb := &AmbiguousError{Name: name, How: lvl}
		for _, t := range top {
			amb.Candidates = append(amb.Candidates, t.Name)
		}
		return Entry{}, None, amb
	}
	return ix.link(q, sw, sc)
}

// link is Bind's last step: the one stored food that is the given name
// with only cook's words (linkWord) added, clean names first. Two such
// foods bind neither: the caller creates the name, and the foods report
// shows the three as near-duplicates to merge.
func (ix *Index) link(q query, sw, sc []string) (Entry, How, error) {
	var clean, debris []*entry
	var how []How
	var dhow []How
	for i := range ix.entries {
		ie := &ix.entries[i]
		for _, lvl := range []How{Plural, Synonym} {
			if _, ok := ie.matchKey(lvl, q); !ok {
				continue
			}
			if lvl == Plural && !addsNone(ie.strict, sw, linkWord) || lvl == Synonym && !addsNone(ie.cstric, sc, linkWord) {
				continue
			}
			if ie.debris {
				debris, dhow = append(debris, ie), append(dhow, lvl)
			} else {
				clean, how = append(clean, ie), append(how, lvl)
			}
			break
		}
	}
	switch {
	case len(clean) == 1:
		return clean[0].Entry, how[0], nil
	case len(clean) == 0 && len(debris) == 1:
		return debris[0].Entry, dhow[0], nil
	}
	return Entry{}, None, nil
}

// strictWords is Words with the preparation words kept ("cooked brown
// rice" and "brown rice" differ, "rice ($0.60)" and "rice" do not).
func strictWords(s string) []string {
	fields := strings.Fields(Normalize(s))
	for i, w := range fields {
		fields[i] = Singular(w)
	}
	return fields
}

// strictCanon is Canon with the preparation words kept.
func strictCanon(s string) []string { return canonical(phraseWords(s)) }

// addsNone reports whether one of a stored entry's names (keys, in strict
// words) adds no word to the strict words w of the given name, beside the
// words allowed lets through. Bind asks it of a Plural or Synonym match,
// whose other words are equal: the stored name may lack a preparation word
// the given one has (a line's "heaping cup" is the unit "cup", its
// "heaping" kept in the note), and carries one the given lacks only where
// allowed says so.
func addsNone(keys [][]string, w []string, allowed func(string) bool) bool {
	for _, k := range keys {
		if !slices.ContainsFunc(k, func(x string) bool { return !slices.Contains(w, x) && (allowed == nil || !allowed(x)) }) {
			return true
		}
	}
	return false
}

// oneThing picks among entries that tie for a write's name when they are
// one thing stored twice: their names share a Key ("scallions, chopped"
// and "Spring Onion" for "green onions", which the foods report lists as
// near-duplicates to merge), so writing either changes nothing a cook
// reads. The one without debris or a note wins, then the shortest, then
// the first in the library's order. Entries of different Keys are two
// things, and a write refuses them.
func oneThing(top []*entry) (*entry, bool) {
	k := Key(top[0].Name)
	for _, e := range top[1:] {
		if Key(e.Name) != k {
			return nil, false
		}
	}
	best := top[0]
	score := func(e *entry) (int, int) {
		n := 0
		if e.debris {
			n += 2
		}
		if strings.ContainsAny(e.Name, ",;([") {
			n++
		}
		return n, len(e.Name)
	}
	for _, e := range top[1:] {
		a, al := score(e)
		b, bl := score(best)
		if a < b || a == b && al < bl {
			best = e
		}
	}
	return best, true
}
