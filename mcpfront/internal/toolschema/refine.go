package toolschema

import (
	"fmt"
	"strings"
)

// The refinements a tool's Props are made of. Those named Guard… and
// NonEmpty are checked on every call without being shown in tools/list
// (see hidden); the others are published.

// Enum gives a string parameter a fixed set of values.
func Enum(values ...string) Refine {
	return func(p *Param) {
		for _, v := range values {
			p.Enum = append(p.Enum, v)
		}
	}
}

// IntRange bounds an integer and gives its default.
func IntRange(lo, hi, def int) Refine {
	return func(p *Param) {
		p.Minimum, p.Maximum = ptr(float64(lo)), ptr(float64(hi))
		p.Default = []byte(fmt.Sprint(def))
	}
}

// Capped is IntRange whose maximum is a cap applied with a note (limit, as
// mcp-mealie words it: "capped at 100 per page"), not a refusal.
func Capped(lo, hi, def int) Refine {
	return func(p *Param) {
		IntRange(lo, hi, def)(p)
		p.rules().capped = true
	}
}

// IntBounds bounds an integer that has no default: unset means something
// other than any one value (such as "the recipe's own servings").
func IntBounds(lo, hi int) Refine {
	return func(p *Param) { p.Minimum, p.Maximum = ptr(float64(lo)), ptr(float64(hi)) }
}

// NumRange bounds a number.
func NumRange(lo, hi float64) Refine {
	return func(p *Param) { p.Minimum, p.Maximum = ptr(lo), ptr(hi) }
}

// BoolDefault gives a boolean its default.
func BoolDefault(def bool) Refine {
	return func(p *Param) { p.Default = []byte(fmt.Sprint(def)) }
}

// MaxLen caps a string at n characters, and says so.
func MaxLen(n int) Refine {
	return func(p *Param) { p.MaxLength = ptr(n) }
}

// GuardLen caps a string at n characters without showing it: a length past
// which a value is a runaway paste, not input. No model plans a
// 10,000-character description, and every session would pay for the
// number.
func GuardLen(n int) Refine {
	return func(p *Param) { p.rules().maxLength = ptr(n) }
}

// GuardItems applies GuardLen to every item of a string list.
func GuardItems(n int) Refine {
	return func(p *Param) { GuardLen(n)(p.Item()) }
}

// NonEmpty requires at least one character, without showing it: an empty
// name is refused with a sentence naming it.
func NonEmpty(p *Param) { p.rules().minLength = ptr(1) }

// GuardCount caps a list's length without showing it: a count past which
// a list is a runaway, not a request (no model sends 51 tags to one
// search), checked with the same refusal as a published maxItems; every
// session would pay for the number.
func GuardCount(n int) Refine {
	return func(p *Param) { p.rules().maxItems = ptr(n) }
}

// MaxItems caps a list's length.
func MaxItems(n int) Refine {
	return func(p *Param) { p.MaxItems = ptr(n) }
}

// ItemsRange bounds a list's length.
func ItemsRange(lo, hi int) Refine {
	return func(p *Param) { p.MinItems, p.MaxItems = ptr(lo), ptr(hi) }
}

// Date makes a parameter a YYYY-MM-DD date, shown as format "date" (which
// names that shape, RFC 3339 full-date, in a third of the bytes of its
// pattern), and says so in its description, which is what a model reads.
func Date(p *Param) {
	p.Format = "date"
	if !strings.Contains(p.Description, "YYYY-MM-DD") {
		p.Description = strings.TrimSuffix(p.Description, ".") + ", YYYY-MM-DD."
	}
}

// Describe replaces a parameter's description.
func Describe(d string) Refine { return func(p *Param) { p.Description = d } }

// Both applies several refinements to one parameter.
func Both(fs ...Refine) Refine {
	return func(p *Param) {
		for _, f := range fs {
			f(p)
		}
	}
}

// ToAny turns enum values into the []any a schema's Enum holds.
func ToAny(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

func ptr[T any](v T) *T { return &v }
