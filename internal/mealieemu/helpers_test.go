package mealieemu

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// newServer starts a server for one test and closes it when the test ends.
// The mealietest package offers the same to other packages; it cannot be
// imported here without a cycle.
func newServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := Start(opts...)
	if err != nil {
		t.Fatalf("mealieemu: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// call sends a request with the server's token and decodes a JSON answer.
// body may be nil, a []byte, or any value to encode as JSON.
func call(t *testing.T, s *Server, method, path string, body any) (int, any) {
	t.Helper()
	return callWith(t, s, s.Token, method, path, body)
}

func callWith(t *testing.T, s *Server, token, method, path string, body any) (int, any) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &v); err != nil {
			v = string(raw)
		}
	}
	return resp.StatusCode, v
}

// obj and list assert a decoded value's shape.
func obj(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("want a JSON object, got %T: %v", v, v)
	}
	return m
}

func list(t *testing.T, v any) []any {
	t.Helper()
	l, ok := v.([]any)
	if !ok {
		t.Fatalf("want a JSON array, got %T: %v", v, v)
	}
	return l
}

// slugsOf returns the slugs of a page's items.
func slugsOf(t *testing.T, page any) []string {
	t.Helper()
	var out []string
	for _, it := range list(t, obj(t, page)["items"]) {
		out = append(out, obj(t, it)["slug"].(string))
	}
	return out
}

// discardRecorder is a ResponseWriter that keeps only the status.
type discardRecorder struct {
	header http.Header
	status int
}

func newDiscardRecorder() *discardRecorder {
	return &discardRecorder{header: http.Header{}, status: 200}
}

func (d *discardRecorder) Header() http.Header         { return d.header }
func (d *discardRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardRecorder) WriteHeader(code int)        { d.status = code }

func newRequest(method, target, token string) *http.Request {
	req, _ := http.NewRequest(method, "http://emulator"+target, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}
