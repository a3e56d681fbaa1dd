package mealietest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// capture is one recorded exchange of the Mealie 2.0 fixtures.
type capture struct {
	Case    string `json:"case"`
	Request struct {
		Method    string                     `json:"method"`
		Path      string                     `json:"path"`
		Query     json.RawMessage            `json:"query"`
		Headers   map[string]string          `json:"headers"`
		JSON      json.RawMessage            `json:"json"`
		Form      map[string]string          `json:"form"`
		Multipart map[string]json.RawMessage `json:"multipart_files"`
	} `json:"request"`
	Response struct {
		Status  int               `json:"status"`
		Headers map[string]string `json:"headers"`
		JSON    json.RawMessage   `json:"json"`
		Text    *string           `json:"text"`
		Binary  *int              `json:"binary_bytes"`
	} `json:"response"`
}

// skippedCaptures are exchanges the shape test does not replay, and why.
var skippedCaptures = map[string]string{
	// The capture server lacked the CRF++ binary and model, so these 500s are
	// an artefact of how the fixtures were made, not Mealie behaviour
	// (fixtures README, "What was run").
	"parser_ingredients__nlp.json":            "nlp parser unavailable where the captures were made",
	"parser_ingredients__default_parser.json": "nlp parser unavailable where the captures were made",
	"parser_ingredient__nlp_single.json":      "nlp parser unavailable where the captures were made",
}

// fixturesDir finds the captures beside the repository: shared/ is a sibling
// of the repo root, three levels up from this file's directory.
func fixturesDir(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "fixtures", "mealie-2.0")
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Skipf("Mealie 2.0 captures not found at %s", dir)
	}
	return dir
}

// captureOrder lists the capture files in the order they were made, which is
// the order of the README's file list.
func captureOrder(t *testing.T, dir string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	re := regexp.MustCompile("^- `([^`]+\\.json)`")
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil && m[1] != "openapi.json" {
			out = append(out, m[1])
		}
	}
	return out
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// replayer replays the captured session against one emulator, translating the
// ids the real server made into the ones the emulator made for the same rows.
type replayer struct {
	t      *testing.T
	srv    *Server
	ids    map[string]string
	minted string
}

func (rp *replayer) translate(s string) string {
	for from, to := range rp.ids {
		s = strings.ReplaceAll(s, from, to)
	}
	return s
}

// learn walks a captured body and the emulator's answer side by side and
// records id correspondences.
func (rp *replayer) learn(captured, got any) {
	switch c := captured.(type) {
	case string:
		if g, ok := got.(string); ok && uuidPattern.MatchString(c) && uuidPattern.MatchString(g) {
			if _, seen := rp.ids[c]; !seen {
				rp.ids[c] = g
			}
		}
	case map[string]any:
		if g, ok := got.(map[string]any); ok {
			for k, v := range c {
				rp.learn(v, g[k])
			}
		}
	case []any:
		if g, ok := got.([]any); ok {
			for i := range c {
				if i < len(g) {
					rp.learn(c[i], g[i])
				}
			}
		}
	}
}

func tinyPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{200, 40, 40, 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// request rebuilds the captured request for the emulator.
func (rp *replayer) request(c *capture) *http.Request {
	// The query is an object, or a list of [key, value] pairs when a key repeats.
	q := url.Values{}
	var asMap map[string]any
	var asPairs [][2]any
	if json.Unmarshal(c.Request.Query, &asMap) == nil {
		for k, v := range asMap {
			q.Add(k, rp.translate(fmt.Sprint(v)))
		}
	} else if json.Unmarshal(c.Request.Query, &asPairs) == nil {
		for _, p := range asPairs {
			q.Add(fmt.Sprint(p[0]), rp.translate(fmt.Sprint(p[1])))
		}
	}
	u := rp.srv.URL + rp.translate(c.Request.Path)
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var body io.Reader
	ct := ""
	switch {
	case len(c.Request.JSON) > 0 && string(c.Request.JSON) != "null":
		body, ct = strings.NewReader(rp.translate(string(c.Request.JSON))), "application/json"
	case c.Request.Form != nil:
		f := url.Values{}
		for k, v := range c.Request.Form {
			f.Set(k, v)
		}
		body, ct = strings.NewReader(f.Encode()), "application/x-www-form-urlencoded"
	case c.Request.Multipart != nil:
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for name := range c.Request.Multipart {
			if name == "extension" {
				_ = mw.WriteField("extension", "png")
				continue
			}
			fw, _ := mw.CreateFormFile(name, "pic.png")
			if strings.Contains(c.Case, "not_an_image") {
				_, _ = fw.Write([]byte("this is not an image at all"))
			} else {
				_, _ = fw.Write(tinyPNG())
			}
		}
		_ = mw.Close()
		body, ct = &b, mw.FormDataContentType()
	}
	req, err := http.NewRequest(c.Request.Method, u, body)
	if err != nil {
		rp.t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if _, ok := c.Request.Headers["Authorization"]; ok {
		tok := rp.srv.Token
		switch {
		case strings.Contains(c.Case, "bad_token"):
			tok = "garbage"
		case strings.Contains(c.Case, "api_token") && rp.minted != "":
			tok = rp.minted
		}
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	return req
}

// shapeDiff lists where got differs from want in keys, JSON types or nesting.
// Values are not compared: null matches any type and an empty array any
// array. Non-empty arrays compare each element with the captured element at
// the same index (or the last one).
func shapeDiff(path string, want, got any) []string {
	kind := func(v any) string {
		switch v.(type) {
		case nil:
			return "null"
		case map[string]any:
			return "object"
		case []any:
			return "array"
		case string:
			return "string"
		case float64:
			return "number"
		case bool:
			return "boolean"
		}
		return fmt.Sprintf("%T", v)
	}
	// A null on either side is a value, not a shape: which nullable fields
	// hold data depends on the state (a random meal plan's recipe, an image
	// key), so null matches any type.
	if want == nil || got == nil {
		return nil
	}
	if kind(want) != kind(got) {
		return []string{fmt.Sprintf("%s: %s, want %s", path, kind(got), kind(want))}
	}
	var out []string
	switch w := want.(type) {
	case map[string]any:
		g := got.(map[string]any)
		var keys []string
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if _, ok := g[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			out = append(out, shapeDiff(path+"."+k, w[k], g[k])...)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: unexpected key", path, k))
			}
		}
	case []any:
		g := got.([]any)
		// An empty array says nothing about its elements' shape, and how
		// many rows a list holds is state (which recipe a random meal plan
		// picked), so only non-empty arrays are compared.
		if len(w) == 0 || len(g) == 0 {
			return out
		}
		for i := range g {
			out = append(out, shapeDiff(fmt.Sprintf("%s[%d]", path, i), w[min(i, len(w)-1)], g[i])...)
		}
	}
	return out
}

// TestCaptureShapes replays every captured exchange, in the order it was
// made, against one emulator with the 2.0 profile that starts empty as the
// captured server did, and checks each answer's status and its body's keys,
// types and nesting against the capture.
func TestCaptureShapes(t *testing.T) {
	dir := fixturesDir(t)
	srv := NewServer(t, WithVersion("2.0"), WithSeed("empty"))
	rp := &replayer{t: t, srv: srv, ids: map[string]string{}}
	for _, name := range captureOrder(t, dir) {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var c capture
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if why, skip := skippedCaptures[name]; skip {
			t.Logf("skip %s: %s", name, why)
			continue
		}
		resp, err := http.DefaultClient.Do(rp.request(&c))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.Response.Status {
			t.Errorf("%s: status %d, want %d (body %.300s)", name, resp.StatusCode, c.Response.Status, body)
			continue
		}
		switch {
		case c.Response.Binary != nil:
			// Media: the emulator serves the uploaded bytes, not Mealie's
			// WebP renditions, so only the status and an image type are checked.
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "image/") {
				t.Errorf("%s: content type %q, want an image", name, ct)
			}
		case c.Response.Text != nil:
			if string(body) != *c.Response.Text {
				t.Errorf("%s: body %q, want %q", name, body, *c.Response.Text)
			}
		case len(c.Response.JSON) > 0:
			var want, got any
			_ = json.Unmarshal(c.Response.JSON, &want)
			if err := json.Unmarshal(body, &got); err != nil {
				t.Errorf("%s: body is not JSON: %.200s", name, body)
				continue
			}
			rp.learn(want, got)
			if name == "users_api_tokens__create_ok.json" {
				rp.minted, _ = got.(map[string]any)["token"].(string)
			}
			for _, d := range shapeDiff("$", want, got) {
				t.Errorf("%s: %s", name, d)
			}
		}
	}
}
