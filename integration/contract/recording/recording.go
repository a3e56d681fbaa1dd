// Package recording keeps sous's exchanges with a real Mealie as testdata and
// holds the emulator to them, the way go-vcr keeps cassettes: a live run of
// the contract suite writes one cassette per test and Mealie version
// (integration/contract/testdata/recordings/<version>/<Test>.json), and every
// plain `go test` replays the same test against the emulator's matching
// profile and compares each exchange with the recorded one.
//
// A cassette is normalised as it is written, so that a re-record is a
// readable diff: UUIDs become <uuid:N> in order of first appearance,
// timestamps become <time>, the per-run nonces a test puts into names become
// <nonce:N>, and tokens and passwords are redacted. The same normalisation is
// applied to the emulator's exchanges before they are compared.
//
// go-vcr itself does not fit: it replays answers to a client, while here the
// recorded answers are the expectation for a second server (the emulator),
// which must be driven by the same test code and compared loosely on
// identifiers.
package recording

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Exchange is one request to Mealie and its answer, normalised.
type Exchange struct {
	// Method is the HTTP method.
	Method string `json:"method"`
	// Path is the path and query, as sent, normalised.
	Path string `json:"path"`
	// Request is the JSON body sent, if any.
	Request any `json:"request,omitempty"`
	// Status is the HTTP status Mealie answered.
	Status int `json:"status"`
	// Response is the JSON body Mealie answered, or its text when it was not
	// JSON.
	Response any `json:"response"`
}

// Cassette is every exchange one test had with one Mealie.
type Cassette struct {
	// Mealie is the version GET /api/app/about reported.
	Mealie string `json:"mealie"`
	// Exchanges are in the order they happened.
	Exchanges []Exchange `json:"exchanges"`
}

// Load reads a cassette; a missing file is an error satisfying os.IsNotExist.
func Load(path string) (*Cassette, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Cassette
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range c.Exchanges {
		c.Exchanges[i].Request = fromNumbers(c.Exchanges[i].Request)
		c.Exchanges[i].Response = fromNumbers(c.Exchanges[i].Response)
	}
	return &c, nil
}

// fromNumbers turns json.Number into float64, as encoding/json decodes
// numbers into any, so that recorded and live values compare alike.
func fromNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = fromNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = fromNumbers(e)
		}
	}
	return v
}

// Save writes the cassette with sorted keys and two-space indentation, so a
// re-record diffs line by line.
func (c *Cassette) Save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

var (
	uuidRE     = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)
	datetimeRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$`)
	// uuidPlaceholderRE matches what Normalizer puts in place of a UUID.
	uuidPlaceholderRE = regexp.MustCompile(`<uuid:\d+>`)
)

// secretKeys are keys whose values never enter a cassette.
var secretKeys = map[string]bool{"token": true, "access_token": true, "refresh_token": true, "password": true}

// timeKeys are keys whose values are the moment of the run: a date-only
// value under them (dateAdded) changes every day, so it is replaced too.
var timeKeys = map[string]bool{
	"createdAt": true, "updatedAt": true, "updateAt": true, "dateAdded": true, "dateUpdated": true,
	"lastMade": true, "created_at": true, "update_at": true, "timestamp": true, "lastReadAnnouncement": true,
}

// Normalizer rewrites the run-specific parts of exchanges into placeholders.
// One Normalizer serves one cassette, so placeholder numbers are stable
// within it.
type Normalizer struct {
	nonces []string
	uuids  map[string]int
}

// NewNormalizer returns an empty Normalizer.
func NewNormalizer() *Normalizer { return &Normalizer{uuids: map[string]int{}} }

// AddNonce registers a per-run string a test put into names, so that it is
// written as <nonce:N>, N counting registrations from 1.
func (n *Normalizer) AddNonce(s string) {
	if s != "" {
		n.nonces = append(n.nonces, s)
	}
}

// Exchange normalises one exchange.
func (n *Normalizer) Exchange(method, path string, request any, status int, response any) Exchange {
	return Exchange{
		Method:   method,
		Path:     n.text(path),
		Request:  n.value("", request),
		Status:   status,
		Response: n.value("", response),
	}
}

func (n *Normalizer) text(s string) string {
	s = uuidRE.ReplaceAllStringFunc(s, func(u string) string {
		u = strings.ToLower(u)
		k, ok := n.uuids[u]
		if !ok {
			k = len(n.uuids) + 1
			n.uuids[u] = k
		}
		return "<uuid:" + strconv.Itoa(k) + ">"
	})
	for i, nonce := range n.nonces {
		s = strings.ReplaceAll(s, nonce, "<nonce:"+strconv.Itoa(i+1)+">")
	}
	return s
}

func (n *Normalizer) value(key string, v any) any {
	switch x := v.(type) {
	case string:
		switch {
		case secretKeys[key] && x != "":
			return "<redacted>"
		case timeKeys[key] && x != "":
			return "<time>"
		case datetimeRE.MatchString(x):
			return "<time>"
		}
		return n.text(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // placeholder numbers follow the order Save writes
		for _, k := range keys {
			out[k] = n.value(k, x[k])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = n.value(key, e)
		}
		return out
	}
	return v
}

// Diff compares an exchange the emulator made with the recorded one and
// lists every difference as "where: what". Identifiers compare loosely (any
// <uuid:N> matches any other), since the emulator mints its own. ignore, if
// not nil, is asked about each JSON location ("$.items[0].display") that
// differs and can excuse it.
func Diff(recorded, got Exchange, ignore func(where string) bool) []string {
	var out []string
	if recorded.Method != got.Method || looseIDs(recorded.Path) != looseIDs(got.Path) {
		return []string{fmt.Sprintf("request: recorded %s %s, sent %s %s", recorded.Method, recorded.Path, got.Method, got.Path)}
	}
	if recorded.Status != got.Status {
		out = append(out, fmt.Sprintf("status: recorded %d, emulator %d", recorded.Status, got.Status))
	}
	diffValue("$", recorded.Response, got.Response, ignore, &out)
	return out
}

func looseIDs(s string) string { return uuidPlaceholderRE.ReplaceAllString(s, "<uuid>") }

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

func diffValue(where string, rec, got any, ignore func(string) bool, out *[]string) {
	add := func(format string, args ...any) {
		if ignore != nil && ignore(where) {
			return
		}
		*out = append(*out, where+": "+fmt.Sprintf(format, args...))
	}
	if kind(rec) != kind(got) {
		add("recorded %s %s, emulator %s %s", kind(rec), brief(rec), kind(got), brief(got))
		return
	}
	switch r := rec.(type) {
	case map[string]any:
		g := got.(map[string]any)
		keys := map[string]bool{}
		for k := range r {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			rv, rok := r[k]
			gv, gok := g[k]
			sub := where + "." + k
			switch {
			case !gok:
				if ignore == nil || !ignore(sub) {
					*out = append(*out, sub+": missing from the emulator")
				}
			case !rok:
				if ignore == nil || !ignore(sub) {
					*out = append(*out, sub+": not in the recording")
				}
			default:
				diffValue(sub, rv, gv, ignore, out)
			}
		}
	case []any:
		g := got.([]any)
		if len(r) != len(g) {
			add("recorded %d items, emulator %d", len(r), len(g))
		}
		for i := 0; i < len(r) && i < len(g); i++ {
			diffValue(fmt.Sprintf("%s[%d]", where, i), r[i], g[i], ignore, out)
		}
	case string:
		if looseIDs(r) != looseIDs(got.(string)) {
			add("recorded %s, emulator %s", brief(r), brief(got))
		}
	default:
		if rec != got {
			add("recorded %s, emulator %s", brief(rec), brief(got))
		}
	}
}

// brief renders a value for a difference line, cut to keep lines readable.
func brief(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}
