package pantry

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"github.com/agnivade/levenshtein"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
)

// kind classifies a failed food API call.
type kind int

const (
	// kindUnreachable is a transport error or timeout: Unavailable.
	kindUnreachable kind = iota
	// kindAuth is a 401 or 403: Unauthenticated.
	kindAuth
	// kindNotFound is a 404: NotFound.
	kindNotFound
	// kindInvalid is a 400 or 422: InvalidArgument.
	kindInvalid
	// kindServer is a 5xx: Unavailable, as a restarting server is the
	// common cause and the call may succeed later.
	kindServer
	// kindProtocol is an answer sous cannot read: Internal.
	kindProtocol
)

// Caps on what of the food API's `detail` reaches a message: the API writes
// one sentence (foodapi kitchen/errors.py); anything longer is
// not meant for a person.
const (
	maxDetailChars = 300
	// maxCloseMatches is how many close names a message lists, the proto's
	// NameMatches limit.
	maxCloseMatches = 5
)

// apiError is a failed food API call. msg is one plain sentence, never a
// body or a traceback.
type apiError struct {
	kind   kind
	status int
	msg    string
	// matches is the body's close_matches; hasMatches says the key was
	// there, even empty (a name that matched nothing close).
	matches    []string
	hasMatches bool
}

func (e *apiError) Error() string { return e.msg }

func (e *apiError) retryable() bool { return e.kind == kindUnreachable || e.kind == kindServer }

func (e *apiError) code() connect.Code {
	switch e.kind {
	case kindAuth:
		return connect.CodeUnauthenticated
	case kindNotFound:
		return connect.CodeNotFound
	case kindInvalid:
		return connect.CodeInvalidArgument
	case kindProtocol:
		return connect.CodeInternal
	default:
		return connect.CodeUnavailable
	}
}

// nameError reports whether the error is about a name that resolved to no
// single ingredient or recipe, and whether it matched several. The food API
// sends close_matches with other 400/404s too (an ingredient with no pantry
// item, or kept in two places, names that one ingredient); those name it in
// their sentence, while an unknown name's sentence names none of its close
// matches and an ambiguous one offers several.
func (e *apiError) nameError() (isName, ambiguous bool) {
	if !e.hasMatches {
		return false, false
	}
	switch e.status {
	case http.StatusNotFound:
		return len(e.matches) == 0 || !mentionsAll(e.msg, e.matches), false
	case http.StatusBadRequest:
		return len(e.matches) > 1, len(e.matches) > 1
	}
	return false, false
}

func mentionsAll(sentence string, names []string) bool {
	s := strings.ToLower(sentence)
	for _, n := range names {
		if !strings.Contains(s, strings.ToLower(n)) {
			return false
		}
	}
	return true
}

// message is the sentence to show; for a name error it ends with the close
// matches ("No ingredient is called 'noodle'; did you mean egg noodles?").
func (e *apiError) message() string {
	isName, _ := e.nameError()
	if !isName || len(e.matches) == 0 || mentionsAll(e.msg, e.matches) {
		return e.msg
	}
	return strings.TrimRight(e.msg, ".") + "; did you mean " + strings.Join(limit(e.matches), ", ") + "?"
}

func limit(names []string) []string {
	if len(names) > maxCloseMatches {
		return names[:maxCloseMatches]
	}
	return names
}

// connectError converts err to a *connect.Error with the right code and one
// sentence. name is the name the call resolved, if any: a name error then
// carries a NameMatches detail so a caller can ask the user. Other errors
// become Internal.
func connectError(err error, name string) error {
	if err == nil {
		return nil
	}
	var ce *connect.Error
	if errors.As(err, &ce) {
		return err
	}
	var e *apiError
	if !errors.As(err, &e) {
		return connect.NewError(connect.CodeInternal, err)
	}
	if isName, ambiguous := e.nameError(); isName && !ambiguous && name != "" {
		e.matches = nearNames(name, e.matches)
	}
	out := connect.NewError(e.code(), errors.New(e.message()))
	if isName, ambiguous := e.nameError(); isName && name != "" {
		if d, derr := connect.NewErrorDetail(&pantryv1.NameMatches{
			Name: name, CloseMatches: limit(e.matches), Ambiguous: ambiguous,
		}); derr == nil {
			out.AddDetail(d)
		}
	}
	return out
}

// statusError builds the error of a non-2xx answer from the API's error
// shape, {"detail": "<one sentence>", "close_matches": [...], ...}.
func statusError(status int, body []byte) *apiError {
	var shape struct {
		Detail       any       `json:"detail"`
		CloseMatches *[]string `json:"close_matches"`
	}
	_ = json.Unmarshal(body, &shape)
	detail, _ := shape.Detail.(string)
	detail = clip(detail)
	e := &apiError{status: status, msg: detail}
	if shape.CloseMatches != nil {
		e.matches, e.hasMatches = *shape.CloseMatches, true
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.kind, e.msg = kindAuth, "the food API refused the token — check FOOD_API_TOKEN"
	case status == http.StatusNotFound:
		e.kind = kindNotFound
		if detail == "" {
			e.msg = msgNoSuchResource
		}
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		e.kind = kindInvalid
		if detail == "" {
			e.msg = "the food API rejected the request"
		}
	case status >= 500:
		e.kind, e.msg = kindServer, fmt.Sprintf("the food API failed with HTTP %d; it may be restarting, try again shortly", status)
	default:
		e.kind, e.msg = kindProtocol, fmt.Sprintf("the food API answered with an unexpected HTTP %d", status)
	}
	return e
}

// msgNoSuchResource is the sentence for a 404 that names no resource of
// the food API's own: the URL sous built does not exist there, which almost
// always means FOOD_API_BASE is not the /api root.
const msgNoSuchResource = "the food API has no such resource (is FOOD_API_BASE the /api root?)"

// probeError rewrites the error of the startup probe's first call. A 404
// there cannot be about a pantry item: the probe's endpoint always exists
// under the /api root, so Django's "Not found." (which it sends for any
// unknown path, foodapi) means FOOD_API_BASE points elsewhere.
func probeError(err error) error {
	var e *apiError
	if errors.As(err, &e) && e.kind == kindNotFound {
		return &apiError{kind: kindNotFound, status: e.status, msg: msgNoSuchResource}
	}
	return err
}

// clip collapses whitespace and cuts a detail to maxDetailChars.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxDetailChars {
		return string(r[:maxDetailChars]) + "…"
	}
	return s
}

// nearNames keeps the close matches that are near name as a person reads
// it: one containing the other, a word stem in common, or a few letters
// apart. The food API's matcher scores letters in common, so "unicorn"
// came back with "onions", which helps nobody pick.
func nearNames(name string, matches []string) []string {
	n := strings.ToLower(strings.TrimSpace(name))
	var out []string
	for _, m := range matches {
		l := strings.ToLower(m)
		if strings.Contains(l, n) || strings.Contains(n, l) || sharesStem(n, l) || slip(n, l) {
			out = append(out, m)
		}
	}
	return out
}

// slip reports whether a is a few letters from b, or from one of b's words
// ("nooodles" and "egg noodles"): a typing slip, not another food.
func slip(a, b string) bool {
	limit := max(2, len([]rune(a))/3)
	if editDistance(a, b) <= limit {
		return true
	}
	for _, w := range strings.Fields(b) {
		if editDistance(a, w) <= limit {
			return true
		}
	}
	return false
}

// sharesStem reports whether a word of a and a word of b start with the
// same four letters ("noodle" and "noodles", "egg noodle" and "noodles").
func sharesStem(a, b string) bool {
	const stem = 4
	for _, wa := range strings.Fields(a) {
		ra := []rune(wa)
		if len(ra) < stem {
			continue
		}
		for _, wb := range strings.Fields(b) {
			if rb := []rune(wb); len(rb) >= stem && string(ra[:stem]) == string(rb[:stem]) {
				return true
			}
		}
	}
	return false
}

// editDistance is the Levenshtein distance between a and b, by runes.
func editDistance(a, b string) int { return levenshtein.ComputeDistance(a, b) }
