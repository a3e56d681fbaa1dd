package cooktime

import "testing"

func TestMinutes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		// What Mealie's scraper prints (pretty_print_timedelta), and its
		// older capitalised form.
		{"1 hour 25 minutes", 85, true},
		{"1 hour", 60, true},
		{"30 minutes", 30, true},
		{"1 day 2 hours 30 minutes", 1590, true},
		{"2 Hours 48 Minutes", 168, true},
		{"45 seconds", 1, true},
		{"1 minute 30 seconds", 2, true},
		{"none", 0, false},
		// ISO 8601 kept as the page gave it.
		{"PT1H30M", 90, true},
		{"PT90M", 90, true},
		{"P0DT1H", 60, true},
		{"PT1H30M0S", 90, true},
		{"pt20m", 20, true},
		{"PT0M", 0, false},
		{"P1D", 1440, true},
		// What pages and people write.
		{"1h 5m", 65, true},
		{"1h5m", 65, true},
		{"1hr30", 90, true},
		{"90 min", 90, true},
		{"90 min.", 90, true},
		{"25 mins", 25, true},
		{"1½ hours", 90, true},
		{"1 ½ hours", 90, true},
		{"1 1/2 hours", 90, true},
		{"1-1/2 hours", 90, true},
		{"1.5 hours", 90, true},
		{"½ hour", 30, true},
		{"1 hour 15", 75, true},
		{"1 hour and 15 minutes", 75, true},
		{"about 30 minutes", 30, true},
		{"Ready in 45 min", 45, true},
		{"30", 30, true},
		{"1:30", 90, true},
		// Ranges read as their upper bound.
		{"1 to 2 hours", 120, true},
		{"1-2 hours", 120, true},
		{"20-30 minutes", 30, true},
		{"20–30 mins", 30, true},
		{"1 hour to 1 hour 30 minutes", 90, true},
		{"45 minutes to 1 hour", 60, true},
		{"1 or 2 hours", 120, true},
		// Parts added up.
		{"1 hour plus 2 hours chilling", 180, true},
		{"20 minutes (plus 1 hour marinating)", 80, true},
		// Mealie's own translations of a scraped time.
		{"1 Stunde 30 Minuten", 90, true},
		{"2 heures", 120, true},
		{"1 hora 10 minutos", 70, true},
		{"1 uur", 60, true},
		// Nothing to count.
		{"", 0, false},
		{"   ", 0, false},
		{"overnight", 0, false},
		{"a while", 0, false},
		{"0", 0, false},
		{"2 eggs", 0, false},
	} {
		got, ok := Minutes(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Minutes(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestTotal(t *testing.T) {
	for _, c := range []struct {
		total, prep, cook string
		want              int
		ok                bool
	}{
		{"1 hour", "10 minutes", "15 minutes", 60, true},
		{"", "10 minutes", "15 minutes", 25, true},
		{"", "10 minutes", "", 10, true},
		{"", "", "1 hour 5 minutes", 65, true},
		{"a while", "10 minutes", "20 minutes", 30, true},
		{"", "", "", 0, false},
		{"none", "overnight", "", 0, false},
	} {
		got, ok := Total(c.total, c.prep, c.cook)
		if got != c.want || ok != c.ok {
			t.Errorf("Total(%q, %q, %q) = %d, %v; want %d, %v", c.total, c.prep, c.cook, got, ok, c.want, c.ok)
		}
	}
}

// FuzzMinutes holds Minutes to never panic and never answer a negative or
// zero time as read.
func FuzzMinutes(f *testing.F) {
	for _, s := range []string{"1 hour 25 minutes", "PT1H30M", "1½ hours", "1 to 2 hours", "1-1/2", "1/0 h", "9999999999999999999 days"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, ok := Minutes(s); ok && n <= 0 {
			t.Errorf("Minutes(%q) = %d, true", s, n)
		}
	})
}

func TestTagNameRoundTrip(t *testing.T) {
	for _, n := range []int{1, 30, 45, 10080} {
		if got, ok := TagBound(TagName(n)); !ok || got != n {
			t.Errorf("TagBound(TagName(%d)) = %d, %v", n, got, ok)
		}
	}
	for _, name := range []string{"Quick", "30 min or less", "0 min or less (sous)", "30 minutes or less (sous)", "abc min or less (sous)"} {
		if n, ok := TagBound(name); ok {
			t.Errorf("TagBound(%q) = %d, true; want no time tag", name, n)
		}
	}
}
