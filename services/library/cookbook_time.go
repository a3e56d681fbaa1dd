package library

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"connectrpc.com/connect"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/cooktime"
)

// A cookbook by time filters on the tag the recipes service keeps on every
// recipe that fits (KeepTimeTag, services/recipes/timetag.go): Mealie's
// query filter compares its text times as text. The condition is asked
// with CONTAINS ALL of the tag twice, which every version reads as a
// subquery of its own, so it ANDs with any other filter, tags included
// (TestCookbookByTimeTag in integration/contract), where a second
// "tags.name IN" matches nothing; 3.11 and 3.20 read a CONTAINS ALL of one
// value as that IN, hence the tag twice.

// MaxCookbookMinutes caps a cookbook's max_total_minutes (a week).
const MaxCookbookMinutes = limits.TotalMinutes

// timeClause is the filter condition of a cookbook by time, as sous writes
// it and reads it back.
var timeClause = regexp.MustCompile(`\s*(?:AND\s+)?tags\.name CONTAINS ALL \["(\d+)` + regexp.QuoteMeta(cooktime.TagSuffix) + `"(?:, "\d+` + regexp.QuoteMeta(cooktime.TagSuffix) + `")?\]`)

// timeCondition is the condition for a bound.
func timeCondition(bound int) string {
	t := cooktime.TagName(bound)
	return fmt.Sprintf(`tags.name CONTAINS ALL ["%s", "%s"]`, t, t)
}

// cookbookBound reads the time bound of a cookbook's filter; 0 for none.
func cookbookBound(filter string) int {
	m := timeClause.FindStringSubmatch(filter)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// withoutTime is a filter without its time condition, and the parentheses
// sous put around the rest.
func withoutTime(filter string) string {
	if !timeClause.MatchString(filter) {
		return filter
	}
	f := strings.TrimSpace(timeClause.ReplaceAllString(filter, ""))
	if strings.HasPrefix(f, "(") && strings.HasSuffix(f, ")") && balanced(f[1:len(f)-1]) {
		f = f[1 : len(f)-1]
	}
	return strings.TrimSpace(f)
}

// balanced reports whether s's parentheses close in order, so stripping
// the pair around it keeps the filter's meaning.
func balanced(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// withTime is filter ANDed with the time condition for bound.
func withTime(filter string, bound int) string {
	f := strings.TrimSpace(filter)
	if f == "" {
		return timeCondition(bound)
	}
	return "(" + f + ") AND " + timeCondition(bound)
}

// checkBound refuses a max_total_minutes out of range.
func checkBound(v int32, zeroDrops bool) error {
	if (v == 0 && zeroDrops) || (v >= 1 && v <= MaxCookbookMinutes) {
		return nil
	}
	low := 1
	if zeroDrops {
		low = 0
	}
	return invalid("max_total_minutes must be between %d and %d, got %d", low, MaxCookbookMinutes, v)
}

// keepTime has the recipes service make the time tag of bound true across
// the library and says how the cookbook stays so.
func (s *Service) keepTime(ctx context.Context, bound int) (*libraryv1.TimeKeeping, error) {
	res, err := s.recipes.KeepTimeTag(ctx, connect.NewRequest(&recipesv1.KeepTimeTagRequest{MaxTotalMinutes: int32(bound)}))
	if err != nil {
		return nil, err
	}
	r := res.Msg
	note := fmt.Sprintf("Mealie cannot compare its text times, so this cookbook lists the recipes tagged %q, which sous adds to every recipe of %d minutes or less (its total time, else prep and cook added) and takes from every other. sous keeps the tag in step on each recipe it creates, imports or updates; a recipe whose time is changed in Mealie's app is seen when sous next writes it or when this cookbook is updated.", r.GetTag(), bound)
	if r.GetNoTime() > 0 {
		note += fmt.Sprintf(" %d recipes have no time sous can read, and are not in it.", r.GetNoTime())
	}
	if r.GetTotal() > r.GetScanned() {
		note += fmt.Sprintf(" Only the first %d of %d recipes were read.", r.GetScanned(), r.GetTotal())
	}
	return &libraryv1.TimeKeeping{Tag: r.GetTag(), Recipes: r.GetTagged(), NoTime: r.GetNoTime(), Note: note}, nil
}
