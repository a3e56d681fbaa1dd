package contract

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/souskitchen/sous/integration/contract/recording"
)

// recordEnv turns a live run (MEALIE_INTEGRATION=1) into a recording run:
// each test's exchanges are written to testdata/recordings/<version>/.
const recordEnv = "MEALIE_RECORD"

// recordingsDir holds one folder of cassettes per Mealie version profile.
const recordingsDir = "testdata/recordings"

// tape records a live target's exchanges or holds an emulator target's
// exchanges to a recording of the same test on the matching real Mealie.
type tape struct {
	norm *recording.Normalizer
	// recording is set on a live run with MEALIE_RECORD=1: what is written.
	recording *recording.Cassette
	// expected is set on an emulator run: the recording replayed.
	expected *recording.Cassette
	next     int
	path     string
	// ignore excuses known, cited differences (see replayIgnores).
	ignore func(where string) bool
	// sequences, on a PostgreSQL profile, renumber meal-plan ids on the
	// recorded side and the emulator's (see sequenceIDs).
	sequences [2]sequenceIDs
}

// cassettePath names the cassette of the running top-level test for a
// version profile.
func cassettePath(t *testing.T, profile string) string {
	top, _, _ := strings.Cut(t.Name(), "/")
	return filepath.Join(recordingsDir, profile, top+".json")
}

// recordTape starts a recording for a live target when MEALIE_RECORD=1, and
// writes it when the test and all its cleanups have run.
func recordTape(t *testing.T, profile, version string) *tape {
	tp := &tape{norm: recording.NewNormalizer()}
	top, _, _ := strings.Cut(t.Name(), "/")
	if _, ok := unrecorded[top]; ok || os.Getenv(recordEnv) != "1" {
		return tp
	}
	tp.path = cassettePath(t, profile)
	tp.recording = &recording.Cassette{Mealie: version}
	// Registered before the test's own cleanups, so it runs after them and
	// the cassette holds the deletes too.
	t.Cleanup(func() {
		if t.Skipped() {
			return
		}
		if err := tp.recording.Save(tp.path); err != nil {
			t.Errorf("writing %s: %v", tp.path, err)
		}
	})
	return tp
}

// unrecorded names the contract tests that have no recording, and why.
var unrecorded = map[string]string{
	// The page a URL import reads would have to be served to the real
	// Mealie from this machine, and 3.11 and 3.20 refuse loopback addresses
	// (safehttp's InvalidDomainError); nothing else is reachable from here.
	"TestURLImportWithoutRecipeIs201WithPlaceholders": "no page a real Mealie can import from here",
}

// replayTape loads the recording an emulator target is held to. Every
// contract test not in unrecorded has one per profile; a missing one fails
// the test with how to make it.
func replayTape(t *testing.T, profile string) *tape {
	top, _, _ := strings.Cut(t.Name(), "/")
	if why, ok := unrecorded[top]; ok {
		t.Logf("not replayed: %s", why)
		return &tape{norm: recording.NewNormalizer()}
	}
	tp := &tape{norm: recording.NewNormalizer(), path: cassettePath(t, profile)}
	c, err := recording.Load(tp.path)
	if err != nil {
		if os.IsNotExist(err) {
			t.Errorf("no recording %s: record it against a real Mealie %s with MEALIE_INTEGRATION=1 %s=1 (docs/mealie-versions.md)", tp.path, profile, recordEnv)
			return &tape{norm: recording.NewNormalizer()}
		}
		t.Fatal(err)
	}
	tp.expected = c
	tp.ignore = replayIgnores(profile)
	if strings.HasSuffix(profile, "-pg") {
		tp.sequences = [2]sequenceIDs{{}, {}}
	}
	t.Cleanup(func() {
		if t.Failed() || t.Skipped() {
			return
		}
		if rest := len(c.Exchanges) - tp.next; rest > 0 {
			e := c.Exchanges[tp.next]
			t.Errorf("replay of %s: the test sent %d requests, the recording has %d more, the next %s %s", tp.path, tp.next, rest, e.Method, e.Path)
		}
	})
	return tp
}

// nonce registers a per-run string a test puts into names.
func (tp *tape) nonce(s string) {
	if tp != nil {
		tp.norm.AddNonce(s)
	}
}

// observe records or checks one exchange.
func (tp *tape) observe(t *testing.T, method, path string, body any, status int, response any) {
	t.Helper()
	if tp == nil || (tp.recording == nil && tp.expected == nil) {
		return
	}
	ex := tp.norm.Exchange(method, path, body, status, response)
	if tp.recording != nil {
		tp.recording.Exchanges = append(tp.recording.Exchanges, ex)
		return
	}
	if tp.next >= len(tp.expected.Exchanges) {
		t.Errorf("replay of %s: exchange %d (%s %s) is not in the recording", tp.path, tp.next+1, ex.Method, ex.Path)
		tp.next++
		return
	}
	want := tp.expected.Exchanges[tp.next]
	tp.next++
	if tp.sequences[0] != nil {
		want, ex = tp.sequences[0].exchange(want), tp.sequences[1].exchange(ex)
		want.Response, ex.Response = positionTies(want.Response), positionTies(ex.Response)
	}
	want.Response, ex.Response = canonical(want.Response), canonical(ex.Response)
	if taggerConfidence(ex) {
		want.Response, ex.Response = confidenceFound(want.Response), confidenceFound(ex.Response)
	}
	for _, d := range recording.Diff(want, ex, tp.ignore) {
		t.Errorf("replay of %s, exchange %d (%s %s): %s", tp.path, tp.next, want.Method, want.Path, d)
	}
}

// sequenceIDs renumbers the meal-plan ids of one side of a PostgreSQL
// replay in order of first appearance. Mealie's only integer ids are meal
// plans', drawn from a sequence that PostgreSQL never turns back: a
// recording runs the whole suite in one database, so a test's first plan is
// numbered after every plan the tests before it made
// (testdata/recordings/3.20-pg/TestMealPlanFlow.json starts at 2), while
// each replay starts a fresh emulator. What the ids must show, that a
// deleted plan's number is not handed out again, survives the renumbering.
type sequenceIDs map[float64]float64

// mealplanPathRE finds a meal-plan id in a path.
var mealplanPathRE = regexp.MustCompile(`/mealplans/(\d+)`)

func (s sequenceIDs) id(v float64) float64 {
	n, ok := s[v]
	if !ok {
		n = float64(len(s) + 1)
		s[v] = n
	}
	return n
}

// exchange returns ex with its meal-plan ids renumbered: in the path, and
// every number under an "id" key of the response.
func (s sequenceIDs) exchange(ex recording.Exchange) recording.Exchange {
	ex.Path = mealplanPathRE.ReplaceAllStringFunc(ex.Path, func(m string) string {
		v, _ := strconv.ParseFloat(m[len("/mealplans/"):], 64)
		return "/mealplans/" + strconv.FormatFloat(s.id(v), 'f', -1, 64)
	})
	ex.Response = s.value("", ex.Response)
	return ex
}

func (s sequenceIDs) value(key string, v any) any {
	switch x := v.(type) {
	case float64:
		if key == "id" {
			return s.id(x)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = s.value(k, e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = s.value(key, e)
		}
		return out
	}
	return v
}

// positionTies returns v with every listItems list's items of equal
// position in one order (by display, then note). Mealie orders a shopping
// list's items by position alone, and PostgreSQL returns rows that tie on
// it in whatever order its plan yields: two re-records of 3.20.1 on
// PostgreSQL listed the two items of
// testdata/recordings/3.20-pg/TestShoppingNoteRowDisplay.json one way and
// then the other, and 2.8.0 listed TestShoppingListRenameKeepsItems.json's
// in creation order where 3.20.1 listed them newest first. So on a
// PostgreSQL profile, items of one position compare as a set; their
// position and everything else about them still compare.
func positionTies(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			e = positionTies(e)
			if l, ok := e.([]any); ok && k == "listItems" {
				l = append([]any(nil), l...)
				sort.SliceStable(l, func(i, j int) bool {
					a, _ := l[i].(map[string]any)
					b, _ := l[j].(map[string]any)
					pa, _ := a["position"].(float64)
					pb, _ := b["position"].(float64)
					if pa != pb {
						return pa < pb
					}
					da, _ := a["display"].(string)
					db, _ := b["display"].(string)
					if da != db {
						return da < db
					}
					na, _ := a["note"].(string)
					nb, _ := b["note"].(string)
					return na < nb
				})
				e = l
			}
			out[k] = e
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = positionTies(e)
		}
		return out
	}
	return v
}

// idOrdered are the keys of lists Mealie sorts by their members' ids: a
// recipe's tags, categories and tools. Ids are random per run (a PATCH of
// tags [A, B, C, D] answers them in the order of their UUIDs on 3.11.0), so
// the recorded order is the chance order of that run's ids; such lists are
// compared sorted by name on both sides.
var idOrdered = map[string]bool{"tags": true, "recipeCategory": true, "tools": true}

// imageKeyRE matches the cache key Mealie stores as a recipe's image after
// an image is written: four random letters or digits each time, so only its
// form is compared.
var imageKeyRE = regexp.MustCompile(`^[A-Za-z0-9]{4}$`)

// canonical returns v with every idOrdered list sorted by its members' names
// and every image key written as <image-key>. The recorded cassette is not
// changed: what is rewritten is copied.
func canonical(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			e = canonical(e)
			if s, ok := e.(string); ok && k == "image" && imageKeyRE.MatchString(s) {
				e = "<image-key>"
			}
			if l, ok := e.([]any); ok && idOrdered[k] {
				l = append([]any(nil), l...)
				sort.SliceStable(l, func(i, j int) bool { return memberName(l[i]) < memberName(l[j]) })
				e = l
			}
			out[k] = e
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canonical(e)
		}
		return out
	}
	return v
}

func memberName(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["name"].(string)
	return s
}

// taggerConfidence reports an nlp parse (nlp is the default parser): its
// confidence numbers come from a tagger model, and the recording instances
// run a substitute for the one Mealie's build downloads (an averaged
// perceptron from the textblob-aptagger package), so their values are this
// machine's, not Mealie's.
func taggerConfidence(ex recording.Exchange) bool {
	if !strings.HasPrefix(ex.Path, "/api/parser/") {
		return false
	}
	req, _ := ex.Request.(map[string]any)
	p, _ := req["parser"].(string)
	return p == "" || p == "nlp"
}

// confidenceFound rewrites every positive confidence number as
// <confidence>, keeping 0 (a part the parser did not find) and null, so an
// nlp parse is compared on what it found, not on the tagger's scores.
func confidenceFound(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = confidenceFound(e)
		}
		return out
	case map[string]any:
		conf, ok := x["confidence"].(map[string]any)
		if !ok {
			return v
		}
		c := make(map[string]any, len(conf))
		for k, e := range conf {
			if f, ok := e.(float64); ok && f > 0 {
				e = "<confidence>"
			}
			c[k] = e
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		out["confidence"] = c
		return out
	}
	return v
}

// replayIgnores names the differences between the emulator and the
// recordings that are known and accepted, per profile, each with why.
func replayIgnores(profile string) func(string) bool {
	return func(where string) bool {
		return false
	}
}
