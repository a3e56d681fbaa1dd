package names

import (
	"regexp"
	"strings"
	"unicode"
)

var (
	// bracketedPrice is a bracketed note holding a price, as recipe sites
	// that cost their lines leave in imported food names: "rice ($0.60)",
	// "tomato ($0.45)", "fresh cilantro [$0.15]".
	bracketedPrice = regexp.MustCompile(`\s*[(\[][^)\]]*\$\s*[0-9][^)\]]*[)\]]`)
	// marks are what a site puts after a name to point at a footnote:
	// "curry powder*", "vegetable oil†".
	marks = "*†‡#^~"
	// leadingCount is a count or a package word before the food, as the
	// parser leaves it in a name: "2 x 400g can chickpeas" keeps "400g
	// can", "pkt Ranch Seasoning".
	leadingCount = regexp.MustCompile(`^(?:[0-9][0-9/.,]*\s*(?:x\s+)?)+`)
)

// Clean is a stored name as answers and shopping lines show it: the food
// without the debris an import leaves in its name, a price ("rice
// ($0.60)" -> "rice"), a footnote mark ("curry powder*" -> "curry
// powder"), a leading count or package word ("pkt Ranch Seasoning" ->
// "Ranch Seasoning"), a word in capitals among lower-case ones ("COLD
// cooked brown rice" -> "cold cooked brown rice"). The cook's words of a
// name stay (matching reads through them, see Words). A name that is all
// debris is kept as it is.
func Clean(name string) string {
	s := bracketedPrice.ReplaceAllString(name, " ")
	s = price.ReplaceAllString(s, " ")
	s = strings.ReplaceAll(strings.ReplaceAll(s, "()", " "), "[]", " ")
	fields := strings.Fields(s)
	for i, f := range fields {
		fields[i] = strings.TrimRight(f, marks)
	}
	s = strings.Join(fields, " ")
	if t := strings.TrimSpace(leadingCount.ReplaceAllString(s, "")); t != "" && t != s && strings.ContainsFunc(t, unicode.IsLetter) {
		s = t
	}
	if f := strings.Fields(s); len(f) > 1 && packWords[strings.ToLower(f[0])] {
		s = strings.Join(f[1:], " ")
	}
	s = strings.Trim(s, " ,;:+&-")
	if !strings.ContainsFunc(s, unicode.IsLetter) {
		return strings.Join(strings.Fields(name), " ")
	}
	return lowerShouting(s)
}

// IsDebris reports whether a stored name carries debris Clean takes away.
func IsDebris(name string) bool { return Clean(name) != strings.Join(strings.Fields(name), " ") }

// lowerShouting lower-cases the words in capitals of a name that has
// lower-case words too ("COLD cooked brown rice"); a name all in capitals,
// or a short capital word ("BBQ sauce" is not shouting), is left as it is.
func lowerShouting(s string) string {
	fields := strings.Fields(s)
	lower := false
	for _, f := range fields {
		if strings.ContainsFunc(f, unicode.IsLower) {
			lower = true
		}
	}
	if !lower {
		return s
	}
	for i, f := range fields {
		if len(f) > 3 && !strings.ContainsFunc(f, unicode.IsLower) && strings.ContainsFunc(f, unicode.IsLetter) {
			fields[i] = strings.ToLower(f)
		}
	}
	return strings.Join(fields, " ")
}
