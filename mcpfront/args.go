package mcpfront

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
	"github.com/google/jsonschema-go/jsonschema"
)

// Arguments are checked here rather than by a JSON-schema validator, for
// two reasons a model notices. A validator words its refusals for schema
// authors ("validating root: validating /properties/end_date: pattern: …
// does not match regular expression …"); these are one sentence naming the
// argument, what was given and what is expected. And several MCP clients
// send every argument as a string: "2", "1.5", "true" are taken as the
// number or boolean the schema asks for, where a validator refuses them.
//
// The checks cover what the tools' schemas use: type, enum, the date
// pattern, length and item bounds, minimum and maximum, required
// properties, refused unknown properties, defaults, and anyOf.

// capKey marks an integer whose maximum is a cap applied with a note
// (limit, as mcp-mealie words it: "capped at 100 per page"), not a
// refusal.
const capKey = "x-sous-cap"

// capped applies intRange and marks the maximum as a cap.
func capped(lo, hi, def int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		intRange(lo, hi, def)(s)
		if s.Extra == nil {
			s.Extra = map[string]any{}
		}
		s.Extra[capKey] = true
	}
}

// argChecker checks one call's arguments against a tool's strict schema.
type argChecker struct {
	// tool names the tool in "unknown argument" sentences.
	tool string
	// notes are what the call was forgiven (a limit capped), for the
	// answer to say.
	notes []string
}

// checkArgs validates args against schema in place: strings that spell a
// number or a boolean become one, a limit past its cap is capped, nulls
// are dropped as if omitted, defaults are filled in. It returns the notes
// to add to the answer, or the first refusal as one sentence.
func checkArgs(tool string, schema *jsonschema.Schema, args map[string]any) ([]string, error) {
	c := &argChecker{tool: tool}
	if _, err := c.object("", schema, args); err != nil {
		return nil, err
	}
	return c.notes, nil
}

// decodeJSON decodes an argument object keeping numbers as json.Number,
// so an integer past 2^53 is not silently rounded before it is checked.
func decodeJSON(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the object")
	}
	return nil
}

// value checks v at path against s and returns it, possibly coerced.
func (c *argChecker) value(path string, s *jsonschema.Schema, v any) (any, error) {
	if len(s.AnyOf) > 0 {
		return c.anyOf(path, s, v)
	}
	typ := s.Type
	if typ == "" {
		// ["null", T], as inferred for a pointer: null was dropped
		// before, so T is what to check.
		for _, t := range s.Types {
			if t != "null" {
				typ = t
			}
		}
	}
	switch typ {
	case "string":
		return c.str(path, s, v)
	case "integer", "number":
		return c.number(path, s, v)
	case "boolean":
		return c.boolean(path, v)
	case "array":
		return c.array(path, s, v)
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			if str, isStr := v.(string); isStr && json.Unmarshal([]byte(str), &m) == nil && m != nil {
				// An object sent as its JSON text.
				return c.object(path, s, m)
			}
			return nil, fmt.Errorf("%s must be an object with %s, not %s", path, propList(s), kind(v))
		}
		return c.object(path, s, m)
	}
	return v, nil
}

// object checks an object's properties: unknown ones refused where the
// schema says so, nulls dropped, required ones present, defaults filled.
func (c *argChecker) object(path string, s *jsonschema.Schema, m map[string]any) (any, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p, known := s.Properties[k]
		if !known {
			if closed(s) {
				return nil, c.unknown(path, s, k)
			}
			continue
		}
		if m[k] == nil {
			// null is how several clients say "not given".
			delete(m, k)
			continue
		}
		v, err := c.value(join(path, k), p, m[k])
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
	for _, r := range s.Required {
		if _, ok := m[r]; !ok {
			return nil, missing(join(path, r), s.Properties[r])
		}
	}
	for name, p := range s.Properties {
		if _, ok := m[name]; !ok && len(p.Default) > 0 {
			var d any
			if err := decodeJSON(p.Default, &d); err == nil {
				m[name] = d
			}
		}
	}
	return m, nil
}

// closed reports whether an object schema refuses unknown properties.
func closed(s *jsonschema.Schema) bool {
	return s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil
}

// unknown words the refusal of an undeclared argument: what the tool (or
// the object) takes instead, and the closest name when one is near.
func (c *argChecker) unknown(path string, s *jsonschema.Schema, k string) error {
	where := c.tool
	if path != "" {
		where = path
	}
	msg := fmt.Sprintf("unknown argument %s", quote(k))
	if path != "" {
		msg = fmt.Sprintf("unknown field %s in %s", quote(k), path)
	}
	if best := closest(k, names(s)); best != "" {
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

// names lists an object's properties in declaration order.
func names(s *jsonschema.Schema) []string {
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

func propList(s *jsonschema.Schema) string {
	n := names(s)
	if len(n) == 0 {
		return "no fields"
	}
	return strings.Join(n, ", ")
}

func (c *argChecker) str(path string, s *jsonschema.Schema, v any) (any, error) {
	str, ok := v.(string)
	if !ok {
		if len(s.Enum) > 0 {
			return nil, fmt.Errorf("%s must be one of %s, not %s", path, enumList(s), kind(v))
		}
		return nil, fmt.Errorf("%s must be text, not %s", path, kind(v))
	}
	if len(s.Enum) > 0 {
		t := strings.TrimSpace(str)
		for _, e := range s.Enum {
			if es, ok := e.(string); ok && strings.EqualFold(es, t) {
				return es, nil
			}
		}
		return nil, fmt.Errorf("%s %s is not one of %s", path, quote(str), enumList(s))
	}
	if s.Pattern == isoDatePattern {
		t := strings.TrimSpace(str)
		if !isoDateRE.MatchString(t) {
			return nil, fmt.Errorf("%s %s is not a date; use YYYY-MM-DD, e.g. 2026-03-10", path, quote(str))
		}
		return t, nil
	}
	n := utf8.RuneCountInString(str)
	if s.MinLength != nil && n < *s.MinLength {
		return nil, fmt.Errorf("%s is empty; give a value", path)
	}
	if s.MaxLength != nil && n > *s.MaxLength {
		return nil, fmt.Errorf("%s is %d characters long; at most %d are accepted", path, n, *s.MaxLength)
	}
	return str, nil
}

var isoDateRE = regexp.MustCompile(isoDatePattern)

// numberText is a decimal number as JSON writes it, which is what a
// string may spell to be taken as a number ("1.5", "-2", "3e2"; not
// "0x10", "NaN" or "1,5").
var numberText = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func (c *argChecker) number(path string, s *jsonschema.Schema, v any) (any, error) {
	want := "a number"
	if s.Type == "integer" {
		want = "a whole number"
	}
	var text string
	switch x := v.(type) {
	case json.Number:
		text = x.String()
	case float64:
		text = strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		text = strings.TrimSpace(x)
		if !numberText.MatchString(text) {
			return nil, fmt.Errorf("%s %s is not %s; give %s", path, quote(x), want, expect(s))
		}
	default:
		return nil, fmt.Errorf("%s must be %s, not %s; give %s", path, want, kind(v), expect(s))
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("%s %s is out of range; give %s", path, quote(text), expect(s))
	}
	if s.Type == "integer" && f != math.Trunc(f) {
		return nil, fmt.Errorf("%s %s is not a whole number; give %s", path, quote(text), expect(s))
	}
	if s.Minimum != nil && f < *s.Minimum {
		return nil, fmt.Errorf("%s %s is too small; give %s", path, num(f), expect(s))
	}
	if s.Maximum != nil && f > *s.Maximum {
		if s.Extra[capKey] != nil {
			c.notes = append(c.notes, fmt.Sprintf("%s %s capped at %s", path, num(f), num(*s.Maximum)))
			f = *s.Maximum
		} else {
			return nil, fmt.Errorf("%s %s is too large; give %s", path, num(f), expect(s))
		}
	}
	if s.Type == "integer" {
		return json.Number(strconv.FormatInt(int64(f), 10)), nil
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
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

func (c *argChecker) boolean(path string, v any) (any, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("%s %s is not true or false", path, quote(x))
	}
	return nil, fmt.Errorf("%s must be true or false, not %s", path, kind(v))
}

func (c *argChecker) array(path string, s *jsonschema.Schema, v any) (any, error) {
	list, ok := v.([]any)
	if !ok {
		str, isStr := v.(string)
		t := strings.TrimSpace(str)
		if !isStr || !strings.HasPrefix(t, "[") || decodeJSON([]byte(t), &list) != nil {
			return nil, fmt.Errorf("%s must be a list, e.g. [%s], not %s", path, example(s.Items), kind(v))
		}
		// A list sent as its JSON text.
	}
	if s.MinItems != nil && len(list) < *s.MinItems {
		return nil, fmt.Errorf("%s is empty; give at least %d", path, *s.MinItems)
	}
	if s.MaxItems != nil && len(list) > *s.MaxItems {
		return nil, fmt.Errorf("%s has %d items; at most %d are accepted in one call", path, len(list), *s.MaxItems)
	}
	if s.Items == nil {
		return list, nil
	}
	for i, it := range list {
		p := fmt.Sprintf("%s[%d]", path, i)
		if it == nil {
			return nil, fmt.Errorf("%s is null; give %s", p, example(s.Items))
		}
		got, err := c.value(p, s.Items, it)
		if err != nil {
			return nil, err
		}
		list[i] = got
	}
	return list, nil
}

// anyOf takes the first branch v fits; a refusal comes from the branch of
// v's own JSON type (an object's unknown field, say), else names them all.
func (c *argChecker) anyOf(path string, s *jsonschema.Schema, v any) (any, error) {
	var sameKind *jsonschema.Schema
	for _, b := range s.AnyOf {
		if b.Type == kindType(v) {
			sameKind = b
			break
		}
	}
	if sameKind != nil {
		return c.value(path, sameKind, v)
	}
	var alts []string
	for _, b := range s.AnyOf {
		alts = append(alts, example(b))
	}
	return nil, fmt.Errorf("%s must be %s, not %s", path, strings.Join(alts, " or "), kind(v))
}

// kindType is the schema type of a decoded JSON value.
func kindType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case json.Number, float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "null"
}

// kind names a decoded JSON value's type for a sentence.
func kind(v any) string {
	switch x := v.(type) {
	case string:
		return "text " + quote(x)
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

// quote shows a value the caller sent in single quotes, clipped: enough to
// recognise it, never a runaway paste echoed back.
func quote(s string) string {
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
		d := editDistance(lk, lc)
		if len(lk) >= 3 && (strings.HasPrefix(lc, lk) || strings.HasPrefix(lk, lc) || strings.Contains(lc, lk)) {
			d = min(d, 1)
		}
		if d <= limit && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, by runes.
func editDistance(a, b string) int { return levenshtein.ComputeDistance(a, b) }
