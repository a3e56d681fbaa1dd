package names

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Unit is a standard kitchen unit: the fields Mealie's units seeder gives
// each unit it seeds (its en-US set, testdata/seed-units-3.11-en-US.json;
// 2.x seeds the same less "sprig"), and the other ways cooks write it.
type Unit struct {
	Name               string
	PluralName         string
	Abbreviation       string
	PluralAbbreviation string
	// Others are further spellings and abbreviations ("tsp.", "t",
	// "millilitre", "Tbsp", "lbs."), each read with or without a full
	// stop and in any case but "T" and "t".
	Others []string
}

// Names are every name the unit answers to.
func (u Unit) Names() []string {
	out := []string{u.Name, u.PluralName}
	if u.Abbreviation != "" {
		out = append(out, u.Abbreviation)
	}
	if u.PluralAbbreviation != "" {
		out = append(out, u.PluralAbbreviation)
	}
	return append(out, u.Others...)
}

// StandardUnits are the units sous knows without the library's help, in
// the order Mealie's seeder makes them: the metric and US/imperial
// measures, then the counting words it seeds.
var StandardUnits = []Unit{
	{"teaspoon", "teaspoons", "tsp", "", []string{"tsps", "t", "ts", "tspn", "tspns", "teaspoonful", "teaspoonfuls", "tea spoon", "tea spoons"}},
	{"tablespoon", "tablespoons", "tbsp", "", []string{"tbsps", "T", "tbs", "tb", "tbl", "tbls", "tblsp", "tblspn", "tbspn", "tablespoonful", "tablespoonfuls", "table spoon", "table spoons"}},
	{"cup", "cups", "c", "", []string{"cupful", "cupfuls"}},
	{"fluid ounce", "fluid ounces", "fl oz", "", []string{"fl. oz", "floz", "fl ozs", "fluid oz"}},
	{"pint", "pints", "pt", "", []string{"pts"}},
	{"quart", "quarts", "qt", "", []string{"qts"}},
	{"gallon", "gallons", "gal", "", []string{"gals", "US gallon", "US gallons"}},
	{"milliliter", "milliliters", "ml", "", []string{"mls", "millilitre", "millilitres"}},
	{"liter", "liters", "l", "", []string{"litre", "litres", "ltr", "ltrs", "lt"}},
	{"pound", "pounds", "lb", "lbs", nil},
	{"ounce", "ounces", "oz", "", []string{"ozs"}},
	{"gram", "grams", "g", "", []string{"gr", "grs", "gm", "gms", "gramme", "grammes"}},
	{"kilogram", "kilograms", "kg", "", []string{"kgs", "kilo", "kilos", "kilogramme", "kilogrammes"}},
	{"milligram", "milligrams", "mg", "", []string{"mgs", "milligramme", "milligrammes"}},
	{"splash", "splashes", "", "", nil},
	{"dash", "dashes", "", "", nil},
	{"serving", "servings", "", "", nil},
	{"head", "heads", "", "", nil},
	{"clove", "cloves", "", "", nil},
	{"can", "cans", "", "", nil},
	{"bunch", "bunches", "", "", nil},
	{"pack", "packs", "", "", nil},
	{"pinch", "pinches", "", "", nil},
	{"sprig", "sprigs", "", "", nil},
}

// unitsByName holds each standard unit by every name it answers to (see
// unitKey), "T" and "t" by themselves.
var unitsByName = func() map[string]int {
	m := map[string]int{}
	for i, u := range StandardUnits {
		for _, n := range u.Names() {
			m[unitKey(n)] = i
		}
	}
	return m
}()

// unitKey is how a unit word is looked up: without full stops and spacing,
// lower case, except the one-letter "T" (tablespoon) and "t" (teaspoon),
// whose case is what tells them apart.
func unitKey(s string) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, ".", " ")), " ")
	if s == "T" || s == "t" {
		return s
	}
	return strings.ToLower(s)
}

// StandardUnit is the standard unit a unit word names ("tsp.", "Tbsp",
// "millilitres", "heaping cups": a cook's word before it is set aside), and
// whether it names one.
func StandardUnit(word string) (Unit, bool) {
	k := unitKey(word)
	if k == "" {
		return Unit{}, false
	}
	if i, ok := unitsByName[k]; ok {
		return StandardUnits[i], true
	}
	w := strings.Fields(k)
	for len(w) > 1 && prepWords[w[0]] {
		w = w[1:]
	}
	if i, ok := unitsByName[strings.Join(w, " ")]; ok {
		return StandardUnits[i], true
	}
	if len(w) == 1 {
		if i, ok := unitsByName[Singular(w[0])]; ok {
			return StandardUnits[i], true
		}
	}
	return Unit{}, false
}

// Amount is how a line of text begins: its quantity and the unit it is in,
// as sous reads them without Mealie's parser.
type Amount struct {
	// Quantity is the amount (the first of a range: "2-3" is 2); 0 when
	// the line has none.
	Quantity float64
	// HasQuantity reports whether the line begins with an amount.
	HasQuantity bool
	// Unit is the standard unit after the amount; zero when none follows.
	Unit Unit
	// UnitText is the unit as the line writes it ("Tbsp."), empty when
	// there is none.
	UnitText string
	// Size is a size the line writes in brackets after the amount or its
	// unit, as written: a pack's, "(14 oz)" of "1 (14 oz) can chopped
	// tomatoes", "(12-ounce/340g)", or the unit's measure in another
	// system, "(475ml)" of "2 cups (475ml) vegetable stock"; empty when
	// there is none. It is no part of Rest.
	Size string
	// Rest is the line after the amount, its size, its unit and an "of".
	Rest string
}

// HasUnit reports whether a standard unit follows the amount.
func (a Amount) HasUnit() bool { return a.Unit.Name != "" }

var (
	// amountRe is a leading amount: "2", "1.5", "1/2", "1 1/2", "½",
	// "1½", a range "2-3" or "2 to 3" (its first number counts).
	amountRe = regexp.MustCompile(`^\s*(\d+(?:[.,]\d+)?(?:\s+\d+/\d+|/\d+)?)(?:\s*(?:-|–|to)\s*\d+(?:[.,]\d+)?(?:/\d+)?)?\s*`)
	// packSize is a bracket after an amount that holds a number: a
	// pack's size ("1 (14 oz) can"), read as one by packAmounts.
	packSize = regexp.MustCompile(`^\(\s*[^()]*\d[^()]*\)\s*`)
	// sizeAmountRe is one amount of a pack's size: "14 oz", "15 oz.",
	// "28-ounce", "340g".
	sizeAmountRe = regexp.MustCompile(`(\d+(?:[.,]\d+)?)\s*-?\s*([A-Za-z]+\.?(?:\s[A-Za-z]+\.?)?)`)
	// countMarker is the word meal-kit pages put after a count:
	// "2 unit(s) Spring Onion".
	countMarker = regexp.MustCompile(`(?i)^units?(\(s\))?$`)
	vulgars     = strings.NewReplacer(
		"½", " 1/2", "¼", " 1/4", "¾", " 3/4", "⅓", " 1/3", "⅔", " 2/3",
		"⅛", " 1/8", "⅜", " 3/8", "⅝", " 5/8", "⅞", " 7/8", "⅕", " 1/5", "⅙", " 1/6",
	)
)

// ReadAmount reads the amount and standard unit a line of text begins
// with: "2 cups light brown sugar, packed" is 2 cup and "light brown
// sugar, packed"; "1 tsp. turmeric" 1 teaspoon; "1 T butter" 1
// tablespoon; "3 large eggs" 3 and no unit (a cook's word is not a unit).
// A unit without an amount ("pinch of salt") counts too.
func ReadAmount(line string) Amount {
	var a Amount
	rest := strings.TrimSpace(vulgars.Replace(line))
	if m := amountRe.FindStringSubmatch(rest); m != nil {
		if q, ok := parseQuantity(m[1]); ok {
			a.Quantity, a.HasQuantity = q, true
			rest = rest[len(m[0]):]
		}
	}
	if a.HasQuantity {
		// "1 (14 oz) can chopped tomatoes": the size is the can's, the
		// unit follows it
		a.Size, rest = leadingSize(rest)
	}
	fields := strings.Fields(rest)
	if a.HasQuantity && len(fields) > 1 && countMarker.MatchString(fields[0]) {
		// "2 unit(s) Spring Onion", as meal-kit pages write a count
		fields = fields[1:]
	}
	article := false
	if !a.HasQuantity && len(fields) > 2 && (strings.EqualFold(fields[0], "a") || strings.EqualFold(fields[0], "an")) {
		// "a pinch of salt" is one pinch
		article, fields = true, fields[1:]
	}
	// a unit is one or two words ("fl oz", "fluid ounces"), a cook's word
	// before it ("heaping cups") read as part of it
	for n := min(3, len(fields)-1); n >= 1; n-- {
		text := strings.Join(fields[:n], " ")
		if strings.ContainsFunc(text, unicode.IsDigit) {
			continue
		}
		u, ok := StandardUnit(strings.TrimRight(text, ",;:"))
		if !ok {
			continue
		}
		// a single letter is a unit only after an amount ("1 t salt", not
		// "T-bone")
		if len([]rune(unitKey(text))) == 1 && !a.HasQuantity {
			continue
		}
		a.Unit, a.UnitText = u, strings.TrimRight(text, ",;:")
		if article {
			a.Quantity, a.HasQuantity = 1, true
		}
		fields = fields[n:]
		if len(fields) > 1 && strings.EqualFold(fields[0], "of") {
			fields = fields[1:]
		}
		break
	}
	if article && !a.HasUnit() {
		fields = append([]string{strings.Fields(rest)[0]}, fields...)
	}
	if a.HasUnit() && a.Size == "" {
		// the unit's measure in another system, before the food: "2 cups
		// (475ml) vegetable stock"
		var r string
		a.Size, r = leadingSize(strings.Join(fields, " "))
		fields = strings.Fields(r)
	}
	a.Rest = strings.Join(fields, " ")
	return a
}

// leadingSize splits off the bracketed size s begins with ("(14 oz) can
// chopped tomatoes"), when one stands before more words; otherwise size
// is empty and rest is s.
func leadingSize(s string) (size, rest string) {
	if m := packSize.FindString(s); m != "" && len(packAmounts(m)) > 0 && strings.TrimSpace(s[len(m):]) != "" {
		return strings.TrimSpace(m), s[len(m):]
	}
	return "", s
}

// packAmount is one amount of a pack's size: its number as written and
// its standard unit.
type packAmount struct {
	Number string
	Unit   Unit
}

// packAmounts reads the amounts of a pack's size ("(12-ounce/340g)" is 12
// ounce and 340 gram); none when a number in it is not followed by a
// standard unit, so "(2 large)" or "(about 3)" is no size.
func packAmounts(size string) []packAmount {
	var out []packAmount
	for _, m := range sizeAmountRe.FindAllStringSubmatch(size, -1) {
		u, ok := StandardUnit(strings.TrimSpace(m[2]))
		if !ok {
			// "fl oz" reads as two words; a single one may still be a unit
			// ("14 oz can" never stands inside the brackets)
			if u, ok = StandardUnit(strings.Fields(m[2])[0]); !ok {
				return nil
			}
		}
		out = append(out, packAmount{Number: m[1], Unit: u})
	}
	return out
}

// parseQuantity reads "2", "1.5", "1,5", "1/2" and "1 1/2".
func parseQuantity(s string) (float64, bool) {
	total := 0.0
	for _, f := range strings.Fields(strings.ReplaceAll(s, ",", ".")) {
		if n, d, ok := strings.Cut(f, "/"); ok {
			a, err1 := strconv.ParseFloat(n, 64)
			b, err2 := strconv.ParseFloat(d, 64)
			if err1 != nil || err2 != nil || b == 0 {
				return 0, false
			}
			total += a / b
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return 0, false
		}
		total += v
	}
	return total, true
}
