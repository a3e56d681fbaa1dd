package toolschema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
)

// keywords are the keywords the checker implements, by the type of the
// node that carries them; "" is a node without a type (an anyOf). Any
// other keyword, an x- extension included, is refused at start-up: a
// schema that shows a check the checker does not make would promise a
// client what no call is held to.
var keywords = map[string][]string{
	"":        {"anyOf", "description"},
	"string":  {"type", "description", "default", "enum", "format", "pattern", "minLength", "maxLength"},
	"integer": {"type", "description", "default", "minimum", "maximum"},
	"number":  {"type", "description", "default", "minimum", "maximum"},
	"boolean": {"type", "description", "default"},
	"array":   {"type", "description", "default", "items", "minItems", "maxItems"},
	"object":  {"type", "description", "default", "properties", "required", "additionalProperties"},
}

// formats are the values of "format" the checker implements.
var formats = []string{"date"}

// compile checks every node of the input's schema against what the checker
// implements, and compiles its patterns.
func (in *Input) compile() error {
	in.patterns = map[*jsonschema.Schema]*regexp.Regexp{}
	if err := in.compileNode("(arguments)", in.schema); err != nil {
		return err
	}
	for s := range in.hidden {
		if !in.reachable(in.schema, s) {
			return fmt.Errorf("a hidden rule on a node outside the schema")
		}
	}
	return nil
}

// compileNode checks one node and those under it.
func (in *Input) compileNode(path string, s *jsonschema.Schema) error {
	typ := s.Type
	if len(s.Types) > 0 {
		if len(s.Types) != 2 || s.Types[0] != "null" {
			return fmt.Errorf("%s: type %v is not implemented; only one type, or null and one", path, s.Types)
		}
		typ = s.Types[1]
	}
	allowed, ok := keywords[typ]
	if !ok {
		return fmt.Errorf("%s: type %q is not implemented", path, typ)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	var refused []string
	for k := range fields {
		if !slices.Contains(allowed, k) {
			refused = append(refused, k)
		}
	}
	if len(refused) > 0 {
		sort.Strings(refused)
		return fmt.Errorf("%s: keyword %v is not implemented by the argument checker for type %q", path, refused, typ)
	}
	if s.Format != "" && !slices.Contains(formats, s.Format) {
		return fmt.Errorf("%s: format %q is not implemented", path, s.Format)
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return fmt.Errorf("%s: pattern: %v", path, err)
		}
		in.patterns[s] = re
	}
	for _, e := range s.Enum {
		if _, ok := e.(string); !ok {
			return fmt.Errorf("%s: enum value %v is not text; only text values are implemented", path, e)
		}
	}
	if ap, ok := fields["additionalProperties"]; ok && string(ap) != "false" {
		return fmt.Errorf("%s: additionalProperties other than false is not implemented", path)
	}
	if h := in.hidden[s]; h != nil {
		if (h.minLength != nil || h.maxLength != nil) && typ != "string" {
			return fmt.Errorf("%s: a hidden length on a %q", path, typ)
		}
		if h.maxItems != nil && typ != "array" {
			return fmt.Errorf("%s: a hidden count on a %q", path, typ)
		}
		if h.capped && s.Maximum == nil {
			return fmt.Errorf("%s: capped without a maximum", path)
		}
	}
	return in.compileChildren(path, s)
}

// compileChildren checks the nodes under s.
func (in *Input) compileChildren(path string, s *jsonschema.Schema) error {
	for _, name := range Names(s) {
		if err := in.compileNode(join(path, name), s.Properties[name]); err != nil {
			return err
		}
	}
	if s.Items != nil {
		if err := in.compileNode(path+"[]", s.Items); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for _, b := range s.AnyOf {
		// anyOf picks the branch of the value's JSON type (checker.anyOf):
		// two branches of one type, or one no JSON value has, could never
		// be chosen between.
		if b.Type == "" || b.Type == "integer" || seen[b.Type] {
			return fmt.Errorf("%s: anyOf branches need distinct JSON types (string, number, boolean, array, object), not %q", path, b.Type)
		}
		seen[b.Type] = true
		if err := in.compileNode(path, b); err != nil {
			return err
		}
	}
	return nil
}

// reachable reports whether node is s or under it.
func (in *Input) reachable(s, node *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	if s == node {
		return true
	}
	for _, p := range s.Properties {
		if in.reachable(p, node) {
			return true
		}
	}
	for _, b := range s.AnyOf {
		if in.reachable(b, node) {
			return true
		}
	}
	return in.reachable(s.Items, node)
}

// closed reports whether an object schema refuses unknown properties.
func closed(s *jsonschema.Schema) bool {
	return s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil
}
