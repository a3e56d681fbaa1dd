package bench

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestTap(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "{\n  \"a\": 1,\n  \"b\": [1, 2]\n}")
	}))
	defer backend.Close()
	tap, err := StartTap(backend.URL, map[string][]byte{"/fixed": []byte(`{"x": true}`)})
	if err != nil {
		t.Fatal(err)
	}
	defer tap.Close()
	tests := []struct {
		path      string
		wantBody  string
		wantBytes int64
	}{
		{"/proxied", "{\n  \"a\": 1,\n  \"b\": [1, 2]\n}", int64(len(`{"a":1,"b":[1,2]}`))},
		{"/fixed", `{"x": true}`, int64(len(`{"x":true}`))},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			tap.Reset()
			resp, err := http.Get(tap.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(body) != tt.wantBody {
				t.Errorf("body %q, want %q (the tap must pass answers through unchanged)", body, tt.wantBody)
			}
			n, b := tap.Totals()
			if n != 1 || b != tt.wantBytes {
				t.Errorf("totals %d requests %d bytes, want 1 and %d", n, b, tt.wantBytes)
			}
		})
	}
}

func TestTokenizerUnavailable(t *testing.T) {
	z := &Tokenizer{Dir: t.TempDir()}
	c := z.Add("hello")
	if err := z.Run(context.Background()); !errors.Is(err, ErrNoTokenizer) {
		t.Fatalf("Run = %v, want ErrNoTokenizer", err)
	}
	if c.String() != TokensUnavailable {
		t.Errorf("count renders %q, want %q", c.String(), TokensUnavailable)
	}
}
