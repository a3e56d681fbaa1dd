package mealieemu

import (
	"slices"
	"strings"
	"unicode"
)

// Mealie on PostgreSQL searches with the pg_trgm extension: a recipe, food,
// unit or organizer matches when PostgreSQL's word_similarity of the search
// in a column reaches a threshold (the %> operator), and rows are ordered by
// 1 - word_similarity (the <->> operator). What follows computes
// word_similarity as pg_trgm 1.6 (PostgreSQL 15) does, so the emulator's
// PostgreSQL profiles filter and order as that Mealie does;
// testdata/word_similarity.json holds values PostgreSQL 15 computed, which
// TestWordSimilarity holds this to.

// trigramThreshold is the word_similarity Mealie sets for a fuzzy search of
// recipes by name and description, and of foods, units and organizers
// ("set pg_trgm.word_similarity_threshold = 0.5" in its search filters).
const trigramThreshold = 0.5

// trigramDefaultThreshold is pg_trgm's default word_similarity_threshold.
// Mealie's fuzzy recipe search reads ingredient notes and original texts in
// a query it runs before it sets its own threshold, and the setting is
// undone when the request's transaction ends, so ingredient lines are held
// to this one (testdata/recordings/<version>-pg/TestSearchByEngine.json in
// the contract package).
const trigramDefaultThreshold = 0.6

// trigrams are the trigrams of s in order, as pg_trgm's generate_trgm_only
// makes them: s split into words of letters and digits, each lowercased and
// padded with two spaces before and one after, and every run of three
// characters of each padded word. A trigram is kept as its three runes
// (pg_trgm keeps ASCII trigrams as bytes and hashes others; equality is the
// same).
func trigrams(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		rs := []rune("  " + strings.ToLower(w) + " ")
		for i := 0; i+3 <= len(rs); i++ {
			out = append(out, string(rs[i:i+3]))
		}
	}
	return out
}

// wordSimilarity is pg_trgm's word_similarity(a, b): the greatest
// similarity between a's set of trigrams and a continuous extent of b's
// ordered trigrams, where similarity is shared / (a's + the extent's
// distinct trigrams - shared). It follows calc_word_similarity and
// iterate_word_similarity of pg_trgm's trgm_op.c step by step, because the
// extents it tries are not every extent: an extent's upper end is each
// trigram of b that a has, and its lower end moves up only while that
// raises the similarity.
func wordSimilarity(a, b string) float32 {
	t1, t2 := trigrams(a), trigrams(b)
	if len(t1) == 0 || len(t2) == 0 {
		return 0
	}
	// Number every distinct trigram of both, and mark those of a (found).
	ids := map[string]int{}
	all := slices.Concat(t1, t2)
	slices.Sort(all)
	all = slices.Compact(all)
	for i, t := range all {
		ids[t] = i
	}
	found := make([]bool, len(all))
	ulen1 := 0
	for _, t := range t1 {
		if !found[ids[t]] {
			found[ids[t]] = true
			ulen1++
		}
	}
	idx := make([]int, len(t2))
	for i, t := range t2 {
		idx[i] = ids[t]
	}
	calc := func(count, ulen2 int) float32 {
		return float32(count) / float32(ulen1+ulen2-count)
	}
	lastpos := make([]int, len(all))
	for i := range lastpos {
		lastpos[i] = -1
	}
	var smlrMax float32
	ulen2, count, lower := 0, 0, -1
	for i := range idx {
		ti := idx[i]
		if lower >= 0 || found[ti] {
			if lastpos[ti] < 0 {
				ulen2++
				if found[ti] {
					count++
				}
			}
			lastpos[ti] = i
		}
		if !found[ti] {
			continue
		}
		upper := i
		if lower == -1 {
			lower = i
			ulen2 = 1
		}
		smlrCur := calc(count, ulen2)
		tmpCount, tmpUlen2, prevLower := count, ulen2, lower
		for tmpLower := lower; tmpLower <= upper; tmpLower++ {
			if s := calc(tmpCount, tmpUlen2); s > smlrCur {
				smlrCur, ulen2, lower, count = s, tmpUlen2, tmpLower, tmpCount
			}
			if tt := idx[tmpLower]; lastpos[tt] == tmpLower {
				tmpUlen2--
				if found[tt] {
					tmpCount--
				}
			}
		}
		smlrMax = max(smlrMax, smlrCur)
		for tmpLower := prevLower; tmpLower < lower; tmpLower++ {
			if tt := idx[tmpLower]; lastpos[tt] == tmpLower {
				lastpos[tt] = -1
			}
		}
	}
	return smlrMax
}
