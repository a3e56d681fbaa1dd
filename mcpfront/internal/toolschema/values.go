package toolschema

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// numberText is a decimal number as JSON writes it, which is what a
// string may spell to be taken as a number ("1.5", "-2", "3e2"; not
// "0x10", "NaN" or "1,5").
var numberText = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func (c *checker) number(path string, s *jsonschema.Schema, v any) (any, error) {
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
			return nil, fmt.Errorf("%s %s is not %s; give %s", path, Quote(x), want, expect(s))
		}
	default:
		return nil, fmt.Errorf("%s must be %s, not %s; give %s", path, want, kind(v), expect(s))
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("%s %s is out of range; give %s", path, Quote(text), expect(s))
	}
	if s.Type == "integer" && f != math.Trunc(f) {
		return nil, fmt.Errorf("%s %s is not a whole number; give %s", path, Quote(text), expect(s))
	}
	if s.Minimum != nil && f < *s.Minimum {
		return nil, fmt.Errorf("%s %s is too small; give %s", path, num(f), expect(s))
	}
	if s.Maximum != nil && f > *s.Maximum {
		if h := c.in.hidden[s]; h == nil || !h.capped {
			return nil, fmt.Errorf("%s %s is too large; give %s", path, num(f), expect(s))
		}
		c.notes = append(c.notes, fmt.Sprintf("%s %s capped at %s", path, num(f), num(*s.Maximum)))
		f = *s.Maximum
	}
	if s.Type == "integer" {
		return json.Number(strconv.FormatInt(int64(f), 10)), nil
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

func (c *checker) boolean(path string, v any) (any, error) {
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
		return nil, fmt.Errorf("%s %s is not true or false", path, Quote(x))
	}
	return nil, fmt.Errorf("%s must be true or false, not %s", path, kind(v))
}

func (c *checker) array(path string, s *jsonschema.Schema, v any) (any, error) {
	list, ok := v.([]any)
	if !ok {
		str, isStr := v.(string)
		t := strings.TrimSpace(str)
		if !isStr || !strings.HasPrefix(t, "[") || DecodeJSON([]byte(t), &list) != nil {
			return nil, fmt.Errorf("%s must be a list, e.g. [%s], not %s", path, example(s.Items), kind(v))
		}
		// A list sent as its JSON text.
	}
	if s.MinItems != nil && len(list) < *s.MinItems {
		return nil, fmt.Errorf("%s is empty; give at least %d", path, *s.MinItems)
	}
	maxItems := s.MaxItems
	if h := c.in.hidden[s]; maxItems == nil && h != nil {
		maxItems = h.maxItems
	}
	if maxItems != nil && len(list) > *maxItems {
		return nil, fmt.Errorf("%s has %d items; at most %d are accepted in one call", path, len(list), *maxItems)
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
func (c *checker) anyOf(path string, s *jsonschema.Schema, v any) (any, error) {
	for _, b := range s.AnyOf {
		if b.Type == kindType(v) {
			return c.value(path, b, v)
		}
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
