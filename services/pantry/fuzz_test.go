package pantry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The food API is another program on the network; a newer or older
// version, a proxy's error page or a half-written answer must never panic
// the pantry service or push more than one clipped sentence to the model.
// Seeds: the answers in testdata plus the committed corpus in testdata/fuzz.

func addFileSeed(f *testing.F, name string) {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

// marshals fails when a shaped message cannot go on the wire.
func marshals(t *testing.T, m proto.Message) {
	t.Helper()
	raw, err := protojson.Marshal(m)
	if err != nil {
		t.Fatalf("shaped message does not marshal: %v", err)
	}
	if !utf8.Valid(raw) {
		t.Fatal("shaped message is not valid UTF-8")
	}
}

func FuzzParsePantry(f *testing.F) {
	addFileSeed(f, "pantry.json")
	f.Fuzz(func(t *testing.T, body []byte) {
		var items []apiItem
		if json.Unmarshal(body, &items) != nil {
			return
		}
		for _, includeOut := range []bool{false, true} {
			groups, counts := groupPantry(items, includeOut)
			total := 0
			for _, g := range groups {
				marshals(t, g)
				total += len(g.GetItems())
			}
			marshals(t, counts)
			if total > len(items) {
				t.Fatalf("%d items grouped from %d rows", total, len(items))
			}
		}
		for _, it := range items {
			marshals(t, item(it))
		}
	})
}

func FuzzParseMatches(f *testing.F) {
	addFileSeed(f, "what_can_i_cook.json")
	addFileSeed(f, "meta_recipes.json")
	f.Fuzz(func(t *testing.T, body []byte) {
		var wrapped struct {
			Results []apiMatch `json:"results"`
		}
		if json.Unmarshal(body, &wrapped) == nil {
			got, warnings := matches(wrapped.Results)
			for _, m := range got {
				marshals(t, m)
			}
			for _, w := range warnings {
				marshals(t, w)
			}
		}
		var metas []apiMetaRecipe
		if json.Unmarshal(body, &metas) == nil {
			for _, m := range metas {
				marshals(t, metaRecipe(m))
			}
		}
	})
}

// FuzzStatusError: whatever body comes with an error status, the message is
// one line of at most maxDetailChars runes (plus the ellipsis) or one of the
// fixed sentences, and never the raw body.
func FuzzStatusError(f *testing.F) {
	f.Add(400, []byte(`{"detail":"no ingredient named 'eggz'","close_matches":["eggs"]}`))
	f.Add(404, []byte(`{"detail":"meta recipe 9 not found"}`))
	f.Add(500, []byte("<html><body><h1>Server Error (500)</h1><pre>Traceback (most recent call last):\n  File ...</pre></body></html>"))
	f.Add(502, []byte("<html>Bad Gateway</html>"))
	f.Add(422, []byte(`{"detail":["not","a","string"]}`))
	f.Add(400, []byte(`{"detail":"`+strings.Repeat("x ", 1000)+`"}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 400 || status > 599 {
			return
		}
		e := statusError(status, body)
		msg := e.message()
		if strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("multi-line message %q", msg)
		}
		if n := utf8.RuneCountInString(msg); n > maxDetailChars+100 {
			t.Fatalf("message of %d runes", n)
		}
		if len(body) > 20 && strings.Contains(msg, string(body)) {
			t.Fatalf("raw body in the message: %q", msg)
		}
		_ = connectError(e, "eggs")
	})
}

// FuzzQuantity: a quantity is a JSON number, a decimal string, null or
// empty; anything else is an error, never a panic or a silent zero.
func FuzzQuantity(f *testing.F) {
	for _, s := range []string{`2`, `"2.50"`, `null`, `""`, `" 1e3 "`, `"two"`, `true`, `[1]`, `-0`, `1e309`, `"NaN"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var n number
		err := n.UnmarshalJSON(b)
		if err != nil && n.set {
			t.Fatalf("error %v but a value was kept", err)
		}
		if p := n.ptr(); (p != nil) != n.set {
			t.Fatal("ptr disagrees with set")
		}
	})
}
