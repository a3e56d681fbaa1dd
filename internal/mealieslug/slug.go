// Package mealieslug turns a display name into the slug Mealie stores for it.
//
// Mealie derives the slug of a recipe, tag, category, tool and cookbook from its
// name with python-slugify's default settings (Mealie 2.0
// mealie/schema/recipe/recipe.py Recipe.validate_slug and
// mealie/schema/recipe/recipe_category.py call `slugify(name)`). sous must compute
// the same slug when it renames something, so that it can report the new slug
// without a second round trip, and the emulator in internal/mealieemu must
// answer under the same slug a real server would.
//
// It imports only the standard library, golang.org/x/text and a port of Python's
// Unidecode transliteration tables.
package mealieslug

import (
	"html"
	"regexp"
	"strings"

	"github.com/mozillazg/go-unidecode"
	"golang.org/x/text/unicode/norm"
)

// The patterns below follow python-slugify 8's defaults (lowercase, separator
// "-", no length limit, no stop words), applied in the order it applies them.
var (
	// quotes become separators before transliteration ("l'été" -> "l-ete"); any
	// quote that transliteration itself produces is dropped afterwards.
	quotes = regexp.MustCompile(`'+`)
	// entity matches the character references python-slugify decodes: named,
	// decimal and hexadecimal, each closed by a semicolon.
	entity = regexp.MustCompile(`&(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);`)
	// digitComma is a thousands separator between digits: "1,000" -> "1000".
	digitComma = regexp.MustCompile(`(\d),(\d)`)
	// disallowed is everything that is not an ASCII letter, digit or dash.
	disallowed = regexp.MustCompile(`[^-a-z0-9]+`)
	// dashes collapses runs of separators.
	dashes = regexp.MustCompile(`-{2,}`)
)

// Make returns the slug Mealie stores for name: accents and other scripts
// transliterated to ASCII, HTML character references decoded, lowercased, every
// run of characters other than a-z and 0-9 replaced by one "-", and leading and
// trailing dashes removed. "Feta-Käse" gives "feta-kase"; "Quick & Easy" gives
// "quick-easy"; "Grandma's Pie" gives "grandma-s-pie". A name with no letters or
// digits gives "".
func Make(name string) string {
	s := quotes.ReplaceAllString(name, "-")
	s = norm.NFKD.String(s)
	s = unidecode.Unidecode(s)
	s = entity.ReplaceAllStringFunc(s, html.UnescapeString)
	s = norm.NFKD.String(s)
	s = strings.ToLower(s)
	s = quotes.ReplaceAllString(s, "")
	// Twice, because the second digit of one match cannot start the next match
	// ("1,000,000"); python-slugify's lookaround pattern has no such overlap.
	s = digitComma.ReplaceAllString(s, "$1$2")
	s = digitComma.ReplaceAllString(s, "$1$2")
	s = disallowed.ReplaceAllString(s, "-")
	s = dashes.ReplaceAllString(s, "-")
	return strings.Trim(s, "-")
}
