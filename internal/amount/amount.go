// Package amount writes ingredient amounts as a cook does: "¾ cup milk",
// "1½ tsp salt", "4 avocados" (Mealie's plural), "1 onion". The recipes service (get_recipe),
// the mealplan service (shopping lists) and the MCP front (pantry
// templates) share it, so an amount reads the same wherever it appears.
package amount

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// glyphs are the fractions a cook writes, by denominator and numerator.
var glyphs = map[[2]int]string{
	{1, 2}: "½", {1, 3}: "⅓", {2, 3}: "⅔", {1, 4}: "¼", {3, 4}: "¾",
	{1, 8}: "⅛", {3, 8}: "⅜", {5, 8}: "⅝", {7, 8}: "⅞",
}

// tolerance is how near a quantity must be to a fraction to be written as
// one: 0.33 and 0.333 are ⅓, 0.3 is 0.3.
const tolerance = 0.005

// Quantity renders q: a whole number plainly, a half, third, quarter or
// eighth with its fraction sign ("¾", "1½"), anything else to at most two
// decimals ("0.3", "2.25" is "2¼").
func Quantity(q float64) string {
	if q < 0 || math.IsNaN(q) || math.IsInf(q, 0) {
		return strconv.FormatFloat(q, 'f', -1, 64)
	}
	whole := math.Floor(q + tolerance)
	frac := q - whole
	if math.Abs(frac) < tolerance {
		return strconv.FormatFloat(whole, 'f', -1, 64)
	}
	for _, den := range []int{2, 3, 4, 8} {
		num := int(math.Round(frac * float64(den)))
		if g, ok := glyphs[[2]int{num, den}]; ok && math.Abs(frac-float64(num)/float64(den)) < tolerance {
			if whole == 0 {
				return g
			}
			return strconv.FormatFloat(whole, 'f', -1, 64) + g
		}
	}
	return strconv.FormatFloat(math.Round(q*100)/100, 'f', -1, 64)
}

// supDigits and subDigits are the digits of Mealie's displayed fractions,
// which it writes as superscript over subscript: "1 ¹/₂", "³/₄".
const (
	supDigits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	subDigits = "₀₁₂₃₄₅₆₇₈₉"
)

// Fractions rewrites the fractions of a Mealie display line as a cook
// writes them: "1 ¹/₂ cups flour" becomes "1½ cups flour", "³/₄ tsp" "¾
// tsp"; a fraction with no sign of its own becomes "3/16".
func Fractions(display string) string {
	if !strings.ContainsAny(display, supDigits) {
		return display
	}
	rs := []rune(display)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		num, j := digits(rs, i, supDigits)
		if j == i || j >= len(rs) || (rs[j] != '/' && rs[j] != '⁄') {
			b.WriteRune(rs[i])
			continue
		}
		den, k := digits(rs, j+1, subDigits)
		if k == j+1 {
			b.WriteRune(rs[i])
			continue
		}
		// "1 ¹/₂": the space between the whole number and the fraction
		// goes.
		out := b.String()
		if n := len(out); n >= 2 && out[n-1] == ' ' && out[n-2] >= '0' && out[n-2] <= '9' {
			b.Reset()
			b.WriteString(out[:n-1])
		}
		if g, ok := glyphs[[2]int{num, den}]; ok {
			b.WriteString(g)
		} else {
			b.WriteString(strconv.Itoa(num) + "/" + strconv.Itoa(den))
		}
		i = k - 1
	}
	return b.String()
}

// digits reads the number written in table's digits at rs[i:], returning
// it and the index after it (i when there is none).
func digits(rs []rune, i int, table string) (int, int) {
	t := []rune(table)
	n, j := 0, i
	for j < len(rs) {
		d := -1
		for k, r := range t {
			if rs[j] == r {
				d = k
			}
		}
		if d < 0 {
			break
		}
		n = n*10 + d
		j++
	}
	return n, j
}

// Line writes an amount: quantity, unit and food, then the note. The food
// is plural when counted (no unit, more than one) and Mealie has a plural
// name for it (foodPlural); otherwise it stays as named, as Mealie's own
// display and app show it: Mealie never makes up a plural
// (RecipeIngredientBase._format_food_for_display uses plural_name or the
// name), and a made-up one goes wrong on the names real libraries hold
// ("12 sprigs cilantros"). unit is the name to show, already plural or
// abbreviated as the unit asks. A note follows after a comma ("2 cups
// flour, sifted"), or after a space when it is already in brackets ("1
// onion (finely diced)").
func Line(q float64, unit, food, foodPlural, note string) string {
	var parts []string
	if q > 0 {
		parts = append(parts, Quantity(q))
	}
	if unit != "" {
		parts = append(parts, unit)
	}
	if food != "" {
		if q > 1 && unit == "" && foodPlural != "" {
			food = foodPlural
		}
		parts = append(parts, food)
	}
	s := strings.Join(parts, " ")
	switch {
	case note == "":
	case food == "" || strings.HasPrefix(note, "("):
		s = strings.TrimSpace(s + " " + note)
	default:
		s += ", " + note
	}
	return s
}

// Plural returns the English plural of a food name's last word, for names
// with no plural of their own outside Mealie (the pantry's templates): "avocado"
// "avocados", "tomato" "tomatoes", "berry" "berries", "red onion" "red
// onions". A name that already ends in s, or whose last word is not
// lower-case letters ("7UP"), is returned as it is.
func Plural(name string) string {
	name = strings.TrimRightFunc(name, unicode.IsSpace)
	i := strings.LastIndexFunc(name, unicode.IsSpace) + 1
	head, word := name[:i], name[i:]
	if word == "" || strings.ContainsFunc(word, func(r rune) bool { return !unicode.IsLower(r) }) {
		return name
	}
	last, _ := utf8.DecodeLastRuneInString(word)
	switch {
	case last == 's':
		return name
	case strings.HasSuffix(word, "x"), strings.HasSuffix(word, "z"), strings.HasSuffix(word, "ch"), strings.HasSuffix(word, "sh"):
		return head + word + "es"
	case esNouns[word]:
		return head + word + "es"
	case last == 'y' && len(word) > 1 && !strings.ContainsRune("aeiou", rune(word[len(word)-2])):
		return head + word[:len(word)-1] + "ies"
	case strings.HasSuffix(word, "leaf"):
		return head + strings.TrimSuffix(word, "f") + "ves"
	}
	return head + word + "s"
}

// esNouns are the foods ending in o whose plural takes -es.
var esNouns = map[string]bool{"tomato": true, "potato": true, "mango": true}
