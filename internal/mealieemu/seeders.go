package mealieemu

import (
	"net/http"
	"strings"
)

// seederUnits are the units Mealie's units seeder makes from its en-US
// locale file, in the file's order: name, plural, abbreviation, plural
// abbreviation. 2.x seeds the first 23; 3.x adds sprig
// (testdata/recordings/<version>/TestUnitsSeeder.json in the contract
// package).
var seederUnits = [][4]string{
	{"teaspoon", "teaspoons", "tsp", ""}, {"tablespoon", "tablespoons", "tbsp", ""}, {"cup", "cups", "c", ""},
	{"fluid ounce", "fluid ounces", "fl oz", ""}, {"pint", "pints", "pt", ""}, {"quart", "quarts", "qt", ""},
	{"gallon", "gallons", "gal", ""}, {"milliliter", "milliliters", "ml", ""}, {"liter", "liters", "l", ""},
	{"pound", "pounds", "lb", "lbs"}, {"ounce", "ounces", "oz", ""}, {"gram", "grams", "g", ""},
	{"kilogram", "kilograms", "kg", ""}, {"milligram", "milligrams", "mg", ""}, {"splash", "splashes", "", ""},
	{"dash", "dashes", "", ""}, {"serving", "servings", "", ""}, {"head", "heads", "", ""},
	{"clove", "cloves", "", ""}, {"can", "cans", "", ""}, {"bunch", "bunches", "", ""},
	{"pack", "packs", "", ""}, {"pinch", "pinches", "", ""}, {"sprig", "sprigs", "", ""},
}

// handleSeedUnits is POST /api/groups/seeders/units {"locale"}: the units
// of the seeder's list whose names the group lacks are created as the
// seeder makes them (fractions on, abbreviations not used for display),
// and the answer is {"message": "Seeding Successful", "error": false}. A
// body without a locale is a 422; the emulator seeds en-US whatever the
// locale, as Mealie does for a locale it has no file for.
func (s *Server) handleSeedUnits(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	if _, ok := b.str("locale"); !ok {
		writeValidation(w, missing(b.raw(), "locale"))
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	have := map[string]bool{}
	for _, u := range st.units {
		have[u.Name] = true
	}
	n := len(seederUnits)
	if !st.profile.seedsSprig {
		n--
	}
	for _, su := range seederUnits[:n] {
		if have[su[0]] {
			continue
		}
		now := st.now().UTC()
		plural := su[1]
		u := &unit{ID: newID(), Name: su[0], PluralName: &plural, Fraction: true,
			Abbreviation: su[2], PluralAbbreviation: su[3], pluralAbbrNull: true, Aliases: []string{}, CreatedAt: now, UpdatedAt: now}
		st.standardize(u)
		st.units = append(st.units, u)
	}
	writeJSON(w, http.StatusOK, object{{"message", "Seeding Successful"}, {"error", false}})
}

// unitStandards are the standard quantities 3.20 gives a unit it creates
// whose name, plural or abbreviation is a seeded unit's (by the seeder's
// list, ignoring case), seeded or POSTed alike; other units get none
// (testdata/recordings/3.20/TestUnitsSeeder.json).
var unitStandards = map[string]struct {
	qty  float64
	unit string
}{
	"teaspoon": {1.0 / 6, "fluid_ounce"}, "tablespoon": {0.5, "fluid_ounce"}, "cup": {1, "cup"},
	"fluid ounce": {1, "fluid_ounce"}, "pint": {2, "cup"}, "quart": {4, "cup"}, "gallon": {16, "cup"},
	"milliliter": {1, "milliliter"}, "liter": {1, "liter"}, "pound": {1, "pound"}, "ounce": {1, "ounce"},
	"gram": {1, "gram"}, "kilogram": {1, "kilogram"}, "milligram": {0.001, "gram"},
}

// standardize sets a new unit's standard quantity and unit where the
// profile has them (unitStandards) and its names are a seeded unit's.
func (st *store) standardize(u *unit) {
	if !st.profile.unitStandards {
		return
	}
	names := []string{u.Name, u.Abbreviation, u.PluralAbbreviation}
	if u.PluralName != nil {
		names = append(names, *u.PluralName)
	}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		for _, su := range seederUnits {
			if n != su[0] && n != su[1] && n != su[2] {
				continue
			}
			if std, ok := unitStandards[su[0]]; ok {
				q, unit := std.qty, std.unit
				u.StandardQuantity, u.StandardUnit = &q, &unit
				return
			}
		}
	}
}
