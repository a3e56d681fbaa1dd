package mealie

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/souskitchen/sous/proto/limits"
)

// Sweep limits: a library sweep pages the list and reads details a few at
// a time, so a 2,000-recipe library neither floods Mealie nor takes minutes.
const (
	// RecipePageSize is the page size of a library sweep.
	RecipePageSize = 100
	// MaxLibraryRecipes caps a sweep: Mealie has no "how many recipes use
	// this food" endpoint, and the cap bounds what one report may cost. It
	// is the API's max_recipes bound (limits.ScanRecipes), which the
	// recipes service checks SweepRecipes against.
	MaxLibraryRecipes = limits.ScanRecipes
	// Fanout is how many recipe details are read at once during a sweep:
	// enough to be quick, few enough not to load a homelab server.
	Fanout = 8
)

// AllRecipes pages the recipe list at RecipePageSize, ordered by name, up
// to max recipes (at most MaxLibraryRecipes). It returns the recipes read
// and the library's total, so callers can say what they truncated.
func (c *Client) AllRecipes(ctx context.Context, max int) ([]RecipeSummary, int, error) {
	if max <= 0 || max > MaxLibraryRecipes {
		max = MaxLibraryRecipes
	}
	var out []RecipeSummary
	total := 0
	for page := 1; len(out) < max; page++ {
		p, err := c.ListRecipes(ctx, RecipeQuery{Page: page, PerPage: RecipePageSize, OrderBy: "name"})
		if err != nil {
			return nil, 0, err
		}
		total = p.Total
		out = append(out, p.Items...)
		if len(p.Items) == 0 || page >= p.TotalPages {
			break
		}
	}
	if len(out) > max {
		out = out[:max]
	}
	return out, total, nil
}

// MinMajor is the oldest Mealie sous supports: 1.x has no /api/households
// layer (docs/mealie-versions.md).
const MinMajor = 2

// Status is what Probe learns.
type Status struct {
	Version string
	User    *User
}

// Probe reads Mealie's version (/api/app/about, no token) and the token's
// user (/api/users/self), refusing Mealie below 2.0 with FailedPrecondition.
func (c *Client) Probe(ctx context.Context) (*Status, error) {
	about, err := c.About(ctx)
	if err != nil {
		return nil, apiSuffixHint(c.conn.Base, err)
	}
	if major, ok := MajorVersion(about.Version); ok && major < MinMajor {
		return nil, &Error{Kind: KindConflict, Message: fmt.Sprintf("Mealie %s is not supported: sous needs Mealie 2.0 or newer (1.x has no households API)", about.Version)}
	}
	if Untested(about.Version) {
		untestedOnce.Do(func() {
			c.conn.Log.Warn(fmt.Sprintf("Mealie %s has not been tested with sous, which was tested with Mealie %s to %s; report what does not work", about.Version, OldestTested, NewestTested))
		})
	}
	user, err := c.Self(ctx)
	if err != nil {
		return nil, err
	}
	return &Status{Version: about.Version, User: user}, nil
}

// apiSuffixHint adds to a 404 of /api/app/about the likely cause when the
// base URL ends in /api: MEALIE_URL is Mealie's address, and sous adds the
// /api of every path itself (TestProbeHintsAtAPISuffix).
func apiSuffixHint(base string, err error) error {
	var me *Error
	if !errors.As(err, &me) || me.Kind != KindNotFound || !strings.HasSuffix(strings.ToLower(base), "/api") {
		return err
	}
	hinted := *me
	hinted.Message = fmt.Sprintf("%s: MEALIE_URL is Mealie's address without /api (set %s)", me.Message, base[:len(base)-len("/api")])
	return &hinted
}

// The Mealie releases sous is tested against: the contract and end-to-end
// suites pass on 2.0, 2.8.0, 3.11.0 and 3.20.1 (docs/mealie-versions.md).
// Newer releases are served, with one warning (Untested).
const (
	OldestTested = "2.0"
	NewestTested = "3.20"
)

// untestedOnce keeps the warning to one line per process, however many
// services (each with its own client) probe the same Mealie.
var untestedOnce sync.Once

// Untested reports a Mealie release newer than NewestTested. Unreleased
// builds ("develop", "nightly") have no number and are not flagged.
func Untested(v string) bool {
	major, ok := MajorVersion(v)
	if !ok {
		return false
	}
	newest, _ := MajorVersion(NewestTested)
	if major != newest {
		return major > newest
	}
	return minorVersion(v) > minorVersion(NewestTested)
}

// minorVersion reads the minor number of "v3.20.1" (0 when absent).
func minorVersion(v string) int {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	_, rest, _ := strings.Cut(v, ".")
	head, _, _ := strings.Cut(rest, ".")
	n, _ := strconv.Atoi(head)
	return n
}

// MajorVersion reads the major number of "v2.8.0" or "2.8.0". Unreleased
// builds report "develop" or "nightly" (testdata/app_about__ok.json), which have no
// number: ok is false and callers let them pass.
func MajorVersion(v string) (int, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	head, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(head)
	return n, err == nil
}
