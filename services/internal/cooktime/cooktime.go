// Package cooktime reads the free-text times Mealie stores for a recipe
// (totalTime, prepTime, performTime) into minutes, so sous can compare
// what Mealie's own filters cannot: Mealie keeps a time as text, and its
// query filter compares it as text.
//
// What Mealie stores comes from three places, and each is read:
//
//   - its scraper and migrations, which print a duration as "1 hour 30
//     minutes", "1 day 2 hours", "45 seconds", or "none" for a zero one
//     (clean_time and pretty_print_timedelta in Mealie's
//     mealie/services/scraper/cleaner.py, 2.0 to 3.20; older releases wrote
//     "2 Hours 48 Minutes"; the Tandoor and Cook'n migrations write "1 hour
//     5 minutes");
//   - a page's time the scraper could not read as ISO 8601, kept as the page
//     wrote it: "PT1H30M" when the cleaner is bypassed, "1h 5m", "90 min",
//     "1½ hours", "1 to 2 hours", "20-30 mins";
//   - what a person types in Mealie's app or gives sous: any of the above,
//     or a bare "30".
//
// A range is read as its upper bound, and parts added to each other ("1
// hour plus 2 hours chilling") as their sum. Text with no number and unit
// sous can read ("overnight", "a while", another language) has no minutes:
// callers count such recipes apart rather than guess.
package cooktime

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// iso is an ISO 8601 duration as schema.org pages write it ("PT1H30M",
// "P0DT1H", "PT90M", "PT1H30M0S"); Mealie's cleaner reads the same form
// (MATCH_ISO_STR in cleaner.py). Years and months are left out there too.
var iso = regexp.MustCompile(`^(?i)P(?:(\d+)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$`)

// vulgar are the Unicode fractions cooks write ("1½ hours").
var vulgar = map[rune]float64{
	'½': 0.5, '⅓': 1.0 / 3, '⅔': 2.0 / 3, '¼': 0.25, '¾': 0.75,
	'⅕': 0.2, '⅖': 0.4, '⅗': 0.6, '⅘': 0.8, '⅙': 1.0 / 6, '⅚': 5.0 / 6, '⅛': 0.125,
	'⅜': 0.375, '⅝': 0.625, '⅞': 0.875,
}

// units are the words of a time unit, by their minutes: English as Mealie
// and recipe pages write them, and the words Mealie's own translations
// print a scraped time with in a German, French, Spanish, Italian,
// Portuguese or Dutch Mealie ("datetime" in mealie/lang/messages/*.json).
var units = map[string]float64{
	"d": 1440, "day": 1440, "days": 1440,
	"h": 60, "hr": 60, "hrs": 60, "hour": 60, "hours": 60,
	"m": 1, "min": 1, "mins": 1, "minute": 1, "minutes": 1, "mn": 1,
	"s": 1.0 / 60, "sec": 1.0 / 60, "secs": 1.0 / 60, "second": 1.0 / 60, "seconds": 1.0 / 60,
	// de
	"tag": 1440, "tage": 1440, "std": 60, "stunde": 60, "stunden": 60, "minuten": 1, "sekunde": 1.0 / 60, "sekunden": 1.0 / 60,
	// fr
	"jour": 1440, "jours": 1440, "heure": 60, "heures": 60, "seconde": 1.0 / 60, "secondes": 1.0 / 60,
	// es, pt, it
	"día": 1440, "días": 1440, "dia": 1440, "dias": 1440, "hora": 60, "horas": 60, "minuto": 1, "minutos": 1,
	"segundo": 1.0 / 60, "segundos": 1.0 / 60, "giorno": 1440, "giorni": 1440, "ora": 60, "ore": 60, "minuti": 1,
	"secondi": 1.0 / 60,
	// nl
	"dag": 1440, "dagen": 1440, "uur": 60, "minuut": 1, "seconden": 1.0 / 60,
}

// rangeWords split a range's two ends: "1 to 2 hours", "20-30 minutes",
// "1 or 2 hours".
var rangeWords = regexp.MustCompile(`(?i)\s*(?:\bto\b|\bor\b|[-–—])\s*`)

// token is a number and the unit written after it (0 when none).
type token struct {
	n    float64
	unit float64
}

// mixedHyphen is a mixed number written with a hyphen, "1-1/2 hours",
// which is not a range.
var mixedHyphen = regexp.MustCompile(`(\d)-(\d+/\d+)`)

// Minutes reads one time text into whole minutes (seconds round up: a
// recipe of 45 seconds takes a minute). ok is false for text with nothing
// sous can read, "none" (Mealie's zero duration) and zero.
func Minutes(text string) (int, bool) {
	s := strings.TrimSpace(text)
	if s == "" {
		return 0, false
	}
	if m := iso.FindStringSubmatch(s); m != nil {
		var total float64
		for i, per := range []float64{1440, 60, 1, 1.0 / 60} {
			if m[i+1] != "" {
				v, _ := strconv.ParseFloat(m[i+1], 64)
				total += v * per
			}
		}
		return whole(total)
	}
	s = strings.ToLower(s)
	// "1:30" is an hour and a half, as a clock reads it.
	if m := clock.FindStringSubmatch(s); m != nil {
		h, _ := strconv.Atoi(m[1])
		mm, _ := strconv.Atoi(m[2])
		return whole(float64(h*60 + mm))
	}
	best, found := 0.0, false
	var lastUnit float64
	sides := rangeWords.Split(mixedHyphen.ReplaceAllString(s, "$1 $2"), -1)
	// Read the ends right to left, so "1 to 2 hours" gives its "1" the
	// hours of the other end.
	for i := len(sides) - 1; i >= 0; i-- {
		v, unit, ok := side(sides[i], lastUnit)
		if !ok {
			continue
		}
		if unit != 0 {
			lastUnit = unit
		}
		if !found || v > best {
			best, found = v, true
		}
	}
	if !found {
		return 0, false
	}
	return whole(best)
}

// clock is "h:mm".
var clock = regexp.MustCompile(`^(\d{1,2}):([0-5]\d)$`)

// maxMinutes is a year: a longer time is a typo, not a recipe.
const maxMinutes = 366 * 1440

// whole rounds minutes up to a whole number; zero is no time.
func whole(v float64) (int, bool) {
	if math.IsNaN(v) || v > maxMinutes {
		return 0, false
	}
	n := int(math.Ceil(v - 1e-9))
	if n <= 0 {
		return 0, false
	}
	return n, true
}

// side reads one end of a range: the sum of its numbers, each in the unit
// written after it. A number with no unit of its own takes the unit the
// text's last unit implies: minutes after hours ("1 hour 15"), or, for a
// side with no unit at all, the other end's (fallback), else minutes.
// unit is the first unit the side names, for the end before it.
func side(s string, fallback float64) (total, unit float64, ok bool) {
	toks := tokens(s)
	if len(toks) == 0 {
		return 0, 0, false
	}
	for i, t := range toks {
		u := t.unit
		if u == 0 {
			switch {
			case i > 0 && toks[i-1].unit >= 60:
				u = toks[i-1].unit / 60 // "1 hour 15": minutes
				if toks[i-1].unit == 1440 {
					u = 60
				}
			case fallback != 0:
				u = fallback
			default:
				u = 1
			}
		}
		if unit == 0 && t.unit != 0 {
			unit = t.unit
		}
		total += t.n * u
	}
	return total, unit, true
}

// tokens reads the numbers of s with the unit word that follows each: "1½
// hours", "1 1/2 hrs", "1h5m", "1.5 hours", "90 min".
func tokens(s string) []token {
	var out []token
	r := []rune(s)
	i := 0
	for i < len(r) {
		if !unicode.IsDigit(r[i]) && vulgar[r[i]] == 0 {
			i++
			continue
		}
		n, j := number(r, i)
		i = j
		// the unit word right after it, spaces allowed
		k := i
		for k < len(r) && r[k] == ' ' {
			k++
		}
		w := k
		for w < len(r) && unicode.IsLetter(r[w]) {
			w++
		}
		t := token{n: n}
		if u, ok := units[string(r[k:w])]; ok {
			t.unit = u
			i = w
		} else if w > k {
			// a number followed by a word that is no time unit ("2
			// eggs", "30 Minuten" of a language not read here) says
			// nothing sous can count
			i = w
			continue
		}
		out = append(out, t)
	}
	return out
}

// number reads a number at r[i]: an integer or decimal, a fraction "1/2",
// a mixed number "1 1/2" or "1½", or a vulgar fraction alone.
func number(r []rune, i int) (float64, int) {
	readInt := func(i int) (string, int) {
		j := i
		for j < len(r) && (unicode.IsDigit(r[j]) || r[j] == '.' || r[j] == ',') {
			j++
		}
		return strings.ReplaceAll(string(r[i:j]), ",", "."), j
	}
	if v, ok := vulgar[r[i]]; ok {
		return v, i + 1
	}
	txt, j := readInt(i)
	n, _ := strconv.ParseFloat(strings.TrimRight(txt, "."), 64)
	// a fraction: "1/2"
	if j < len(r) && r[j] == '/' {
		den, k := readInt(j + 1)
		if d, err := strconv.ParseFloat(den, 64); err == nil && d != 0 {
			return n / d, k
		}
	}
	// "1½" or "1 ½"
	k := j
	if k < len(r) && r[k] == ' ' {
		k++
	}
	if k < len(r) {
		if v, ok := vulgar[r[k]]; ok {
			return n + v, k + 1
		}
	}
	// "1 1/2"
	if j < len(r) && r[j] == ' ' && j+1 < len(r) && unicode.IsDigit(r[j+1]) {
		num, k := readInt(j + 1)
		if k < len(r) && r[k] == '/' {
			den, e := readInt(k + 1)
			a, _ := strconv.ParseFloat(num, 64)
			if d, err := strconv.ParseFloat(den, 64); err == nil && d != 0 {
				return n + a/d, e
			}
		}
	}
	return n, j
}

// Total is a recipe's time in minutes: its total time when sous can read
// it, else its preparation and cooking times added (a recipe whose page
// gave only those; either alone counts). ok is false when none of them can
// be read.
func Total(total, prep, cook string) (int, bool) {
	if n, ok := Minutes(total); ok {
		return n, true
	}
	p, pok := Minutes(prep)
	c, cok := Minutes(cook)
	if !pok && !cok {
		return 0, false
	}
	return p + c, true
}

// TagSuffix ends the name of every tag sous owns for recipes by time,
// after its minutes ("30 min or less (sous)").
const TagSuffix = " min or less (sous)"

// tagName reads a time tag's name back.
var tagName = regexp.MustCompile(`^([1-9]\d{0,4}) min or less \(sous\)$`)

// TagName is the name of the tag sous keeps on every recipe of at most
// minutes in all ("30 min or less (sous)"): readable on a recipe card in
// Mealie's app, and marked as sous's so a cook knows it is kept for them
// (a cookbook by time filters on it, since Mealie's query filter cannot
// compare text times).
func TagName(minutes int) string { return strconv.Itoa(minutes) + TagSuffix }

// TagBound reads the minutes of a time tag's name; ok is false for any
// other tag.
func TagBound(name string) (int, bool) {
	m := tagName.FindStringSubmatch(strings.TrimSpace(name))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}
