package mealplan

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// zoneName names loc for a person, as GetTodaysMeals reports it. A zone
// loaded by name (Config.Location, or TZ=Europe/Paris) keeps that name.
// time.Local is always called "Local", which tells a reader nothing, so it
// is named by tz (the TZ variable, without the leading ':' POSIX allows)
// when that is set, else by its abbreviation and UTC offset at the instant
// at: "CET (UTC+01:00)", "UTC+05:45" for a zone whose abbreviation is only
// a number, and plain "UTC" for UTC.
func zoneName(loc *time.Location, at time.Time, tz string) string {
	if name := loc.String(); name != "Local" {
		return name
	}
	if tz = strings.TrimPrefix(strings.TrimSpace(tz), ":"); tz != "" {
		return tz
	}
	abbr, offset := at.In(loc).Zone()
	sign := '+'
	if offset < 0 {
		sign, offset = '-', -offset
	}
	utc := fmt.Sprintf("UTC%c%02d:%02d", sign, offset/3600, offset%3600/60)
	switch {
	case abbr == "UTC" && offset == 0:
		return abbr
	case abbr == "" || strings.ContainsAny(abbr[:1], "+-0123456789"):
		return utc
	}
	return abbr + " (" + utc + ")"
}

// localZoneName is zoneName with the process's TZ.
func localZoneName(loc *time.Location, at time.Time) string {
	return zoneName(loc, at, os.Getenv("TZ"))
}
