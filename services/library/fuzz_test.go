package library

import (
	"strings"
	"testing"
)

// splitQuoted reads back the list quoteList wrote the way Mealie's filter
// parser does (integration/mealietest/queryfilter.go, from Mealie's
// QueryFilterBuilder): a string runs from one double quote to the next,
// with no escapes, and only commas and spaces may stand between strings.
// ok is false when the text is not a plain list of strings.
func splitQuoted(s string) (names []string, ok bool) {
	rest := s
	for {
		rest = strings.TrimLeft(rest, " ")
		if !strings.HasPrefix(rest, `"`) {
			return names, rest == ""
		}
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return nil, false
		}
		names = append(names, rest[1:1+end])
		rest = strings.TrimLeft(rest[2+end:], " ")
		if rest == "" {
			return names, true
		}
		if !strings.HasPrefix(rest, ",") {
			return nil, false
		}
		rest = rest[1:]
	}
}

// FuzzQuoteList: every list of taxonomy names that Mealie can spell in a
// filter comes back from the filter as exactly those names, whatever they
// hold (brackets, AND/OR, commas, parentheses that balance, emoji): a name
// can never turn into filter syntax. Names with a double quote cannot be
// written in Mealie's filter grammar at all; TestQuoteInTaxonomyName
// covers them.
func FuzzQuoteList(f *testing.F) {
	for _, seed := range []string{
		"Quick", "Quick\x1fEasy", `tags.name IN [x]`, "a, b\x1fc", "x] OR id IS NOT NULL OR tags.name IN [y",
		"Mom's\x1fAND\x1fOR", "(vegan)\x1f[gf]", "🌶️ hot\x1fשקשוקה", "", " leading\x1ftrailing ",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, joined string) {
		names := strings.Split(joined, "\x1f")
		for _, n := range names {
			if strings.Contains(n, `"`) {
				return // not expressible; see TestQuoteInTaxonomyName
			}
		}
		got, ok := splitQuoted(quoteList(names))
		if !ok || len(got) != len(names) {
			t.Fatalf("quoteList(%q) = %q does not read back as %d names (got %q)", names, quoteList(names), len(names), got)
		}
		for i := range names {
			if got[i] != names[i] {
				t.Fatalf("name %d: wrote %q, reads back as %q", i, names[i], got[i])
			}
		}
	})
}

// TestQuoteInTaxonomyName: a tag named `12" pizza` exists in many kitchens.
// Mealie's filter grammar has no escape for a double quote, so such a name
// must be refused with InvalidArgument naming it, never written into a
// filter where it ends the string early and the rest becomes syntax.
func TestQuoteInTaxonomyName(t *testing.T) {
	t.Skip(`BUG: quoteList writes a taxonomy name containing '"' unescaped into the cookbook filter, so the rest of the name becomes filter syntax, see docs/security.md`)
	names := []string{`12" pizza`, `x"] OR id IS NOT NULL OR tags.name IN ["y`}
	if got, ok := splitQuoted(quoteList(names)); ok && len(got) == len(names) && got[0] == names[0] {
		return
	}
	t.Errorf("quoteList(%q) = %s", names, quoteList(names))
}
