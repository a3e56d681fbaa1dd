package toolschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// checker checks one call's arguments against a tool's input.
type checker struct {
	in *Input
	// notes are what the call was forgiven (a limit capped), for the
	// answer to say.
	notes []string
}

// Decode reads a call's raw arguments into In: it checks them against the
// input (Check), fills in the schema's defaults, and decodes the result,
// with the notes of what was forgiven. Absent arguments and a JSON null
// are the empty object, as several clients send them; this is the one
// place nulls are read.
func Decode[In any](in *Input, raw json.RawMessage) (In, []string, error) {
	var out In
	args := map[string]any{}
	if t := bytes.TrimSpace(raw); len(t) > 0 && string(t) != "null" {
		if err := DecodeJSON(t, &args); err != nil || args == nil {
			return out, nil, fmt.Errorf("the arguments of %s must be a JSON object of named values", in.tool)
		}
	}
	notes, err := in.Check(args)
	if err != nil {
		return out, nil, err
	}
	filled, err := json.Marshal(args)
	if err != nil {
		return out, nil, err
	}
	if err := json.Unmarshal(filled, &out); err != nil {
		return out, nil, fmt.Errorf("the arguments of %s could not be read: %v", in.tool, err)
	}
	return out, notes, nil
}

// Check validates args against the input in place: strings that spell a
// number or a boolean become one, a limit past its cap is capped, nulls
// are dropped as if omitted, defaults are filled in. It returns the notes
// to add to the answer, or the first refusal as one sentence.
func (in *Input) Check(args map[string]any) ([]string, error) {
	c := &checker{in: in}
	if _, err := c.object("", in.schema, args); err != nil {
		return nil, err
	}
	return c.notes, nil
}

// DecodeJSON decodes JSON keeping numbers as json.Number, so an integer
// past 2^53 is not silently rounded before it is checked.
func DecodeJSON(raw []byte, v any) error {
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
func (c *checker) value(path string, s *jsonschema.Schema, v any) (any, error) {
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
func (c *checker) object(path string, s *jsonschema.Schema, m map[string]any) (any, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p, known := s.Properties[k]
		if !known {
			if closed(s) {
				return nil, unknown(c.in.tool, path, s, k)
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
			if err := DecodeJSON(p.Default, &d); err == nil {
				m[name] = d
			}
		}
	}
	return m, nil
}

// isoDateRE is the shape of a YYYY-MM-DD date (RFC 3339 full-date), what
// format "date" asks for; the services check the calendar (a 31 February
// is InvalidArgument there).
var isoDateRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

func (c *checker) str(path string, s *jsonschema.Schema, v any) (any, error) {
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
		return nil, fmt.Errorf("%s %s is not one of %s", path, Quote(str), enumList(s))
	}
	if s.Format == "date" {
		t := strings.TrimSpace(str)
		if !isoDateRE.MatchString(t) {
			return nil, fmt.Errorf("%s %s is not a date; use YYYY-MM-DD, e.g. 2026-03-10", path, Quote(str))
		}
		return t, nil
	}
	minLen, maxLen := c.lengths(s)
	n := utf8.RuneCountInString(str)
	if minLen != nil && n < *minLen {
		return nil, fmt.Errorf("%s is empty; give a value", path)
	}
	if maxLen != nil && n > *maxLen {
		return nil, fmt.Errorf("%s is %d characters long; at most %d are accepted", path, n, *maxLen)
	}
	if re := c.in.patterns[s]; re != nil && !re.MatchString(str) {
		return nil, fmt.Errorf("%s %s is not in the form %s takes", path, Quote(str), path)
	}
	return str, nil
}

// lengths are a string's length bounds: the published ones, else the
// hidden ones, else (for a string without a fixed set of values) the
// input's MaxText.
func (c *checker) lengths(s *jsonschema.Schema) (minLen, maxLen *int) {
	minLen, maxLen = s.MinLength, s.MaxLength
	if h := c.in.hidden[s]; h != nil {
		if minLen == nil {
			minLen = h.minLength
		}
		if maxLen == nil {
			maxLen = h.maxLength
		}
	}
	if maxLen == nil && len(s.Enum) == 0 && c.in.maxText > 0 {
		maxLen = &c.in.maxText
	}
	return minLen, maxLen
}
