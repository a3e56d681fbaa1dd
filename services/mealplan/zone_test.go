package mealplan

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestZoneName(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skipf("no time zone database: %v: run apt-get install tzdata (as root)", err)
	}
	winter := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	summer := time.Date(2026, 7, 15, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		loc  *time.Location
		at   time.Time
		tz   string
		want string
	}{
		{"a named zone keeps its name", paris, winter, "", "Europe/Paris"},
		{"UTC", time.UTC, winter, "Europe/Paris", "UTC"},
		{"Local with TZ set is named by TZ", time.FixedZone("Local", 3600), winter, "Europe/Paris", "Europe/Paris"},
		{"TZ's leading colon is dropped", time.FixedZone("Local", 3600), winter, ":Europe/Paris", "Europe/Paris"},
		{"Local without TZ: abbreviation and offset", local(t, "Europe/Paris"), winter, "", "CET (UTC+01:00)"},
		{"in summer", local(t, "Europe/Paris"), summer, "", "CEST (UTC+02:00)"},
		{"a numeric abbreviation is left out", local(t, "America/Sao_Paulo"), winter, "", "UTC-03:00"},
		{"an offset with minutes", local(t, "Asia/Kathmandu"), winter, "", "UTC+05:45"},
		{"a host on UTC", local(t, "Etc/UTC"), winter, "", "UTC"},
		{"TZ wins over the abbreviation", local(t, "Europe/Paris"), winter, "Europe/Paris", "Europe/Paris"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := zoneName(tt.loc, tt.at, tt.tz); got != tt.want {
				t.Errorf("zoneName = %q, want %q", got, tt.want)
			}
		})
	}
}

// local is the named zone as time.Local looks when the host's zone comes
// from /etc/localtime: the same rules, called "Local".
func local(t *testing.T, name string) *time.Location {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("/usr/share/zoneinfo", name))
	if err != nil {
		t.Skipf("no system time zone database: %v: run apt-get install tzdata (as root)", err)
	}
	loc, err := time.LoadLocationFromTZData("Local", data)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
