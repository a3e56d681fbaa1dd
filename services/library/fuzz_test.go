package library

import (
	"strings"
	"testing"

	"connectrpc.com/connect"
)

// splitQuoted reads back the inside of a list quoteList wrote the way
// Mealie's QueryFilterBuilder does (mealie/services/query_filter/builder.py,
// _break_components_into_base_components and strip_quotes_from_string): the
// text is split at every comma, quoted or not, each piece is trimmed, and
// its enclosing double quotes are dropped when it is longer than two
// characters. ok is false when a piece is not a quoted string (it would be
// read as something else), or the text holds a bracket (which would end
// the list or open another).
func splitQuoted(s string) (names []string, ok bool) {
	if strings.ContainsAny(s, "[]") {
		return nil, false
	}
	for _, piece := range strings.Split(s, ",") {
		piece = strings.TrimSpace(piece)
		if len(piece) <= 2 || piece[0] != '"' || piece[len(piece)-1] != '"' {
			return nil, false
		}
		inner := piece[1 : len(piece)-1]
		if strings.Contains(inner, `"`) {
			return nil, false
		}
		names = append(names, inner)
	}
	return names, true
}

// FuzzQuoteList: every list of taxonomy names quoteList accepts comes back
// from the filter as exactly those names, whatever they hold (AND/OR,
// parentheses, emoji, spaces): a name can never turn into filter syntax.
// The names it refuses are exactly those filterSafe rejects (holding a
// double quote, a comma or a bracket, or empty), which Mealie's list syntax
// cannot carry; TestQuoteInTaxonomyName covers them by name.
func FuzzQuoteList(f *testing.F) {
	for _, seed := range []string{
		"Quick", "Quick\x1fEasy", `tags.name IN [x]`, "a, b\x1fc", "x] OR id IS NOT NULL OR tags.name IN [y",
		"Mom's\x1fAND\x1fOR", "(vegan)\x1f[gf]", "🌶️ hot\x1fשקשוקה", "", " leading\x1ftrailing ",
		`12" pizza`, "a\x1f",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, joined string) {
		names := strings.Split(joined, "\x1f")
		safe := true
		for _, n := range names {
			safe = safe && filterSafe(n)
		}
		list, err := quoteList(names)
		if !safe {
			if err == nil || connect.CodeOf(err) != connect.CodeInvalidArgument {
				t.Fatalf("quoteList(%q) = %q, %v; want InvalidArgument", names, list, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("quoteList(%q) refused names Mealie can read: %v", names, err)
		}
		got, ok := splitQuoted(list)
		if !ok || len(got) != len(names) {
			t.Fatalf("quoteList(%q) = %q does not read back as %d names (got %q)", names, list, len(names), got)
		}
		for i := range names {
			if got[i] != names[i] {
				t.Fatalf("name %d: wrote %q, reads back as %q", i, names[i], got[i])
			}
		}
	})
}

// TestQuoteInTaxonomyName: a tag named `12" pizza` exists in many kitchens.
// Mealie's filter grammar has no escape for a double quote (nor for a comma
// or bracket inside a list), so such a name is refused with InvalidArgument
// naming it, never written into a filter where it ends the string early
// and the rest becomes syntax.
func TestQuoteInTaxonomyName(t *testing.T) {
	for _, name := range []string{`12" pizza`, `x"] OR id IS NOT NULL OR tags.name IN ["y`, "salt, pepper", "[gf]"} {
		list, err := quoteList([]string{"Quick", name})
		if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), name) {
			t.Errorf("quoteList(%q) = %q, %v; want InvalidArgument naming it", name, list, err)
		}
	}
}
