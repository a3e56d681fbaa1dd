package toolschema

import (
	"fmt"
	"regexp"

	"github.com/google/jsonschema-go/jsonschema"
)

// Input is one tool's input: the schema tools/list publishes and the rules
// its checker applies beyond what that schema shows.
type Input struct {
	// tool names the tool in refusals ("get_pantry takes no arguments").
	tool string
	// schema is the published schema, the one that is checked.
	schema *jsonschema.Schema
	// hidden are the rules of the nodes that have some, by node.
	hidden map[*jsonschema.Schema]*hidden
	// patterns are the compiled patterns of the nodes that have one.
	patterns map[*jsonschema.Schema]*regexp.Regexp
	// maxText caps every string that has no length cap of its own.
	maxText int
}

// hidden are the checks on one node that tools/list does not show: no
// model plans a 10,000-character description, and every session would pay
// for the numbers.
type hidden struct {
	// minLength and maxLength bound a string's length in characters.
	minLength, maxLength *int
	// capped makes the node's maximum a cap applied with a note ("limit
	// 500 capped at 100") rather than a refusal.
	capped bool
	// maxItems bounds a list's length.
	maxItems *int
}

// Options are what every tool's input shares.
type Options struct {
	// MaxText is the length cap, in characters, of every string that has
	// no other and no fixed set of values, so no parameter, present or
	// added later, carries a megabyte to a service. 0 leaves such strings
	// uncapped.
	MaxText int
}

// Param is one node of an input schema while a tool refines it: the
// published schema, plus the hidden rules set through its methods.
type Param struct {
	*jsonschema.Schema
	in *Input
}

// Refine tweaks one parameter after its schema is inferred from the input
// struct: enums, defaults and bounds that struct tags cannot carry.
type Refine func(*Param)

// Props are a tool's refinements, by top-level property name.
type Props map[string]Refine

// Item is the parameter's array item schema.
func (p *Param) Item() *Param {
	if p.Items == nil {
		panic(fmt.Sprintf("tool %s: a parameter without items refined as a list", p.in.tool))
	}
	return &Param{Schema: p.Items, in: p.in}
}

// Prop is the parameter's property name; a name the schema lacks is a
// start-up panic, as a misspelt refinement would otherwise refine nothing.
func (p *Param) Prop(name string) *Param {
	s, ok := p.Properties[name]
	if !ok {
		panic(fmt.Sprintf("tool %s: no property %q to refine", p.in.tool, name))
	}
	return &Param{Schema: s, in: p.in}
}

// rules returns the node's hidden rules, creating them.
func (p *Param) rules() *hidden {
	h := p.in.hidden[p.Schema]
	if h == nil {
		h = &hidden{}
		p.in.hidden[p.Schema] = h
	}
	return h
}

// For builds the input of a tool whose arguments decode into In: the schema
// inferred from In's fields and their `jsonschema` descriptions, refined by
// props. It returns an error, which callers turn into a start-up panic, for
// a property without a description, a keyword the checker does not
// implement (keywords.go), or a default its own schema refuses.
func For[In any](tool string, props Props, opts Options) (*Input, error) {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, fmt.Errorf("tool %s: input schema: %v", tool, err)
	}
	DropNullTypes(s)
	in := &Input{tool: tool, schema: s, hidden: map[*jsonschema.Schema]*hidden{}, maxText: opts.MaxText}
	root := &Param{Schema: s, in: in}
	for name, f := range props {
		f(root.Prop(name))
	}
	for name, prop := range s.Properties {
		if prop.Description == "" {
			return nil, fmt.Errorf("tool %s: property %q has no description", tool, name)
		}
	}
	if s.Properties == nil {
		// An empty object says "no parameters" to clients that would
		// otherwise guess.
		s.Properties = map[string]*jsonschema.Schema{}
	}
	if err := in.compile(); err != nil {
		return nil, fmt.Errorf("tool %s: %v", tool, err)
	}
	if err := in.checkDefaults("", s); err != nil {
		return nil, fmt.Errorf("tool %s: %v", tool, err)
	}
	return in, nil
}

// Schema is the schema tools/list shows, and the one calls are held to.
func (in *Input) Schema() *jsonschema.Schema { return in.schema }

// checkDefaults holds every default to the checks of its own property, so
// a call that omits a parameter is never given a value a caller could not
// send.
func (in *Input) checkDefaults(path string, s *jsonschema.Schema) error {
	for _, name := range Names(s) {
		p := s.Properties[name]
		if len(p.Default) > 0 {
			var d any
			if err := DecodeJSON(p.Default, &d); err != nil {
				return fmt.Errorf("the default of %s: %v", join(path, name), err)
			}
			c := &checker{in: in}
			if _, err := c.value(join(path, name), p, d); err != nil {
				return fmt.Errorf("the default of %s is refused: %v", join(path, name), err)
			}
		}
		if err := in.checkDefaults(join(path, name), p); err != nil {
			return err
		}
	}
	return nil
}

// DropNullTypes rewrites the ["null", T] types jsonschema infers for
// pointers and slices to plain T, recursively. Omitting a parameter is how
// a caller leaves it unset; a null type adds tokens to every listing and
// invites models to send null.
func DropNullTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		DropNullTypes(p)
	}
	DropNullTypes(s.Items)
}
