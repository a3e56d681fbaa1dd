package toolschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
	"github.com/google/jsonschema-go/jsonschema"
)

// unknown words the refusal of an undeclared argument: what the tool (or
// the object) takes instead, and the closest name when one is near.
func unknown(tool, path string, s *jsonschema.Schema, k string) error {
	where := tool
	if path != "" {
		where = path
	}
	msg := fmt.Sprintf("unknown argument %s", Quote(k))
	if path != "" {
		msg = fmt.Sprintf("unknown field %s in %s", Quote(k), path)
	}
	if best := closest(k, Names(s)); best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", best)
	}
	if len(s.Properties) == 0 {
		return fmt.Errorf("%s; %s takes no arguments", msg, where)
	}
	return fmt.Errorf("%s; %s takes %s", msg, where, propList(s))
}

// missing words the refusal of an absent required argument, with its
// description as the hint of what to give.
// An argument with a fixed set of values names them all, so the refusal
// is the way forward ("resource is missing: what to count; one of tags,
// categories, tools, foods, units").
func missing(path string, p *jsonschema.Schema) error {
	msg := path + " is missing"
	if p != nil && p.Description != "" {
		msg += ": " + lowerFirst(strings.TrimSuffix(p.Description, "."))
	}
	if p != nil && len(p.Enum) > 0 {
		sep := ": "
		if p.Description != "" {
			sep = "; "
		}
		msg += sep + "one of " + enumList(p)
	}
	return errors.New(msg)
}

// Names lists an object's properties in declaration order.
func Names(s *jsonschema.Schema) []string {
	out := slices.Clone(s.PropertyOrder)
	var rest []string
	for k := range s.Properties {
		if !slices.Contains(out, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// propList names an object's properties for a sentence.
func propList(s *jsonschema.Schema) string {
	n := Names(s)
	if len(n) == 0 {
		return "no fields"
	}
	return strings.Join(n, ", ")
}

// expect says what a number parameter takes.
func expect(s *jsonschema.Schema) string {
	what := "a number"
	if s.Type == "integer" {
		what = "a whole number"
	}
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		return fmt.Sprintf("%s from %s to %s", what, num(*s.Minimum), num(*s.Maximum))
	case s.Minimum != nil:
		return fmt.Sprintf("%s of at least %s", what, num(*s.Minimum))
	case s.Maximum != nil:
		return fmt.Sprintf("%s of at most %s", what, num(*s.Maximum))
	}
	return what
}

// num writes a number as given, in exponent form past 15 digits so a
// runaway value stays short.
func num(f float64) string {
	if math.Abs(f) >= 1e15 {
		return strconv.FormatFloat(f, 'g', 6, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// kind names a decoded JSON value's type for a sentence.
func kind(v any) string {
	switch x := v.(type) {
	case string:
		return "text " + Quote(x)
	case json.Number:
		return "the number " + x.String()
	case float64:
		return "the number " + num(x)
	case bool:
		return fmt.Sprintf("%v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return "null"
}

// example shows the shape of one value of s, for "must be a list, e.g.
// [...]" sentences.
func example(s *jsonschema.Schema) string {
	if s == nil {
		return "…"
	}
	switch s.Type {
	case "string":
		if len(s.Enum) > 0 {
			return fmt.Sprintf("%q", s.Enum[0])
		}
		return `"text"`
	case "integer", "number":
		return "a number"
	case "boolean":
		return "true"
	case "object":
		return "an object with " + propList(s)
	}
	if len(s.AnyOf) > 0 {
		var alts []string
		for _, b := range s.AnyOf {
			alts = append(alts, example(b))
		}
		return strings.Join(alts, " or ")
	}
	return "…"
}

// enumList names an enum's values for a sentence.
func enumList(s *jsonschema.Schema) string {
	var out []string
	for _, e := range s.Enum {
		out = append(out, fmt.Sprint(e))
	}
	return strings.Join(out, ", ")
}

// join extends a path to a property.
func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// Quote shows a value the caller sent in single quotes, clipped: enough to
// recognise it, never a runaway paste echoed back.
func Quote(s string) string {
	const max = 60
	if len(s) > max {
		return "'" + clipBytes(s, max) + fmt.Sprintf("…' (%d characters)", utf8.RuneCountInString(s))
	}
	return "'" + s + "'"
}

// lowerFirst lowers a description's first letter to continue a sentence,
// unless it starts an acronym ("URL").
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	if r2, _ := utf8.DecodeRuneInString(s[n:]); unicode.IsUpper(r2) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// synonyms are other words for a parameter that no spelling distance
// finds: a model that writes "quantity" where the pantry spec says "qty".
var synonyms = map[string][]string{
	"quantity": {"qty"}, "qty": {"quantity"}, "amount": {"qty", "quantity"},
	"servings": {"recipe_yield"}, "url": {"source_url"}, "id": {"item_id", "entry_id", "cookbook_id", "list_id"},
}

// closest returns the candidate nearest to k when it is near enough to be
// a slip (a short edit distance, one a prefix of the other, or a synonym),
// else "".
func closest(k string, candidates []string) string {
	lk := strings.ToLower(k)
	for _, syn := range synonyms[lk] {
		if slices.Contains(candidates, syn) {
			return syn
		}
	}
	best, bestD := "", 0
	limit := 1
	if n := utf8.RuneCountInString(lk); n >= 4 {
		limit = max(2, n/3)
	}
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := EditDistance(lk, lc)
		if len(lk) >= 3 && (strings.HasPrefix(lc, lk) || strings.HasPrefix(lk, lc) || strings.Contains(lc, lk)) {
			d = min(d, 1)
		}
		if d <= limit && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, by runes: the
// measure of a slip, for argument names here and for the names a tool
// looks up.
func EditDistance(a, b string) int { return levenshtein.ComputeDistance(a, b) }

// clipBytes returns s's longest prefix of at most n bytes that ends on a
// rune boundary.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
