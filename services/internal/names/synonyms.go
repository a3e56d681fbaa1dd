package names

import (
	_ "embed"
	"slices"
	"strings"
)

// The tables of other Englishes (data/README.md says where each line comes
// from and under which licence).
var (
	//go:embed data/synonyms.txt
	synonymsTxt string
	//go:embed data/spellings.txt
	spellingsTxt string
)

// spellings maps a British spelling of a word to the American one
// ("yoghurt" -> "yogurt", "chillies" -> "chilies"): the same word, so
// every name is read in one spelling.
var spellings = parseSpellings(spellingsTxt)

func parseSpellings(txt string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(txt, "\n") {
		f := strings.Fields(l)
		if len(f) != 2 || strings.HasPrefix(l, "#") {
			continue
		}
		out[f[0]] = f[1]
	}
	return out
}

// spell is a word in the American spelling, before and after it is made
// singular ("yoghurts" and "chillies" are in the table; "chilli" only as
// itself).
func spell(w string) string {
	if a, ok := spellings[w]; ok {
		return a
	}
	return w
}

// synonym is one name of a thing in synonyms.txt, in the words matching
// reads (see phraseWords), and the thing's first name it is read as.
type synonym struct {
	words []string
	canon []string
	// not are phrases in which words do not name the thing: "ground
	// coriander" is not cilantro.
	not [][]string
}

// synonymsByWord holds each name of synonyms.txt by its first word, the
// longest first, so a name is read by its longest phrase ("icing sugar"
// before "icing").
var synonymsByWord = parseSynonyms(synonymsTxt)

// synonymLine is one line of synonyms.txt: the names of one thing, first
// name first, and the words after " ! " that a name must not be read in.
type synonymLine struct {
	text  string // the line as written, the " ! " part aside
	names []string
	not   string
}

// synonymLines reads synonyms.txt's lines, comments and blank lines aside.
func synonymLines(txt string) []synonymLine {
	var out []synonymLine
	for _, l := range strings.Split(txt, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		var not string
		if i := strings.Index(l, " ! "); i >= 0 {
			l, not = l[:i], l[i+3:]
		}
		out = append(out, synonymLine{text: l, names: strings.Split(l, " = "), not: not})
	}
	return out
}

func parseSynonyms(txt string) map[string][]synonym {
	out := map[string][]synonym{}
	for _, line := range synonymLines(txt) {
		var not [][]string
		if line.not != "" {
			for _, n := range strings.Split(line.not, ",") {
				if w := phraseWords(n); len(w) > 0 {
					not = append(not, w)
				}
			}
		}
		parts := line.names
		canon := phraseWords(parts[0])
		for _, p := range parts[1:] {
			w := phraseWords(p)
			if len(w) == 0 || slices.Equal(w, canon) {
				continue
			}
			out[w[0]] = append(out[w[0]], synonym{words: w, canon: canon, not: not})
		}
	}
	for k := range out {
		slices.SortStableFunc(out[k], func(a, b synonym) int { return len(b.words) - len(a.words) })
	}
	return out
}

// phraseWords are the words of a name as synonyms are matched on: folded
// and normalised (see Normalize), each in the American spelling and
// singular, preparation words kept ("minced beef" is ground beef, while
// "minced garlic" is garlic).
func phraseWords(s string) []string {
	fields := strings.Fields(Normalize(s))
	for i, w := range fields {
		fields[i] = spell(Singular(spell(w)))
	}
	return fields
}

// canonical reads words (see phraseWords) in the first names of
// synonyms.txt: "aubergine" is "eggplant", "king prawn" "king shrimp",
// "minced beef" "ground beef". Each place takes the longest name that
// starts there, unless one of that name's exceptions covers it.
func canonical(words []string) []string {
	var out []string
	for i := 0; i < len(words); {
		n := 0
		for _, s := range synonymsByWord[words[i]] {
			if hasAt(words, i, s.words) && !excepted(words, i, len(s.words), s.not) {
				out = append(out, s.canon...)
				n = len(s.words)
				break
			}
		}
		if n == 0 {
			out = append(out, words[i])
			n = 1
		}
		i += n
	}
	return out
}

// excepted reports whether one of the phrases not stands in words over
// the span [i, i+n).
func excepted(words []string, i, n int, not [][]string) bool {
	for _, p := range not {
		for j := max(0, i+n-len(p)); j <= i && j+len(p) <= len(words); j++ {
			if hasAt(words, j, p) {
				return true
			}
		}
	}
	return false
}

// synonymGroups holds every name of each thing of synonyms.txt, first name
// first, by the first name's words joined.
var synonymGroups = groupSynonyms(synonymsTxt)

func groupSynonyms(txt string) map[string][]string {
	out := map[string][]string{}
	for _, line := range synonymLines(txt) {
		parts := line.names
		key := strings.Join(phraseWords(parts[0]), " ")
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" && !slices.Contains(out[key], p) {
				out[key] = append(out[key], p)
			}
		}
	}
	return out
}

// SameNames are the other names synonyms.txt gives the thing s names as a
// whole ("eggplant": aubergine, brinjal; "prawns": shrimp; "king prawns":
// king shrimp), never a kind of it: what a search for s also looks for.
// Empty when s is not one of the table's things.
func SameNames(s string) []string {
	w := phraseWords(s)
	c := canonical(w)
	if len(c) == 0 {
		return nil
	}
	group := synonymGroups[strings.Join(c, " ")]
	if len(group) == 0 && !slices.Equal(c, w) {
		group = []string{strings.Join(c, " ")}
	}
	var out []string
	for _, n := range group {
		if !slices.Equal(phraseWords(n), w) {
			out = append(out, n)
		}
	}
	return out
}
