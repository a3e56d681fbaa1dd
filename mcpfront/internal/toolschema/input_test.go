package toolschema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// args is the input of the tests' tool.
type args struct {
	Name  string   `json:"name" jsonschema:"The name."`
	Code  string   `json:"code,omitempty" jsonschema:"A code."`
	Day   string   `json:"day,omitempty" jsonschema:"The day."`
	Limit int      `json:"limit,omitempty" jsonschema:"How many."`
	Tags  []string `json:"tags,omitempty" jsonschema:"Tags."`
	Flag  *bool    `json:"flag,omitempty" jsonschema:"A flag."`
}

// TestForRefusesWhatIsNotChecked: a keyword, format or shape the checker
// does not implement is an error at start-up, never a schema that shows a
// check no call is held to.
func TestForRefusesWhatIsNotChecked(t *testing.T) {
	tests := []struct {
		name   string
		refine Refine
		prop   string
		want   string
	}{
		{"a keyword of another type", func(p *Param) { p.MinLength = ptr(1) }, "limit", "minLength"},
		{"an unknown keyword", func(p *Param) { p.MultipleOf = ptr(2.0) }, "limit", "multipleOf"},
		{"an extension mark", func(p *Param) { p.Extra = map[string]any{"x-sous-guard": true} }, "name", "x-sous-guard"},
		{"a format not implemented", func(p *Param) { p.Format = "email" }, "code", `format "email"`},
		{"a pattern that does not compile", func(p *Param) { p.Pattern = "([" }, "code", "pattern"},
		{"an enum of numbers", func(p *Param) { p.Enum = []any{1, 2} }, "code", "not text"},
		{"a capped number without a maximum", func(p *Param) { p.rules().capped = true }, "limit", "capped without a maximum"},
		{"a hidden length on a number", GuardLen(3), "limit", "hidden length"},
		{"a hidden count on a string", GuardCount(3), "name", "hidden count"},
		{"two anyOf branches of one type", func(p *Param) {
			p.Items = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "string"}}}
		}, "tags", "distinct JSON types"},
		{"an open object", func(p *Param) {
			p.Items = &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Type: "string"}}
		}, "tags", "additionalProperties"},
		{"a default its own schema refuses", IntRange(1, 10, 20), "limit", "default of limit"},
		{"a property to refine that is not there", nil, "nope", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.refine == nil {
				defer func() {
					if recover() == nil {
						t.Error("refining a missing property did not panic")
					}
				}()
			}
			_, err := For[args]("t", Props{tt.prop: tt.refine}, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one naming %q", err, tt.want)
			}
		})
	}
}

// TestCheck pins the checks and their sentences: a general pattern, a
// date, hidden caps, a capped limit with its note, and nulls (an argument
// sent as null is omitted; a null item of a list is refused).
func TestCheck(t *testing.T) {
	in, err := For[args]("t", Props{
		"name":  Both(NonEmpty, GuardLen(5)),
		"code":  func(p *Param) { p.Pattern = `^[A-Z]{3}$` },
		"day":   Date,
		"limit": Capped(1, 10, 3),
		"tags":  GuardCount(2),
	}, Options{MaxText: 4})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, args string
		want       string // the refusal, or the checked arguments as JSON
		notes      string
	}{
		{"defaults filled", `{"name":"ab"}`, `{"limit":3,"name":"ab"}`, ""},
		{"a pattern met", `{"name":"ab","code":"ABC"}`, `{"code":"ABC","limit":3,"name":"ab"}`, ""},
		{"a pattern missed", `{"name":"ab","code":"abc"}`, "code 'abc' is not in the form code takes", ""},
		{"a date", `{"name":"ab","day":" 2026-03-10 "}`, `{"day":"2026-03-10","limit":3,"name":"ab"}`, ""},
		{"not a date", `{"name":"ab","day":"10/03/2026"}`, "day '10/03/2026' is not a date; use YYYY-MM-DD, e.g. 2026-03-10", ""},
		{"a hidden maximum length", `{"name":"abcdef"}`, "name is 6 characters long; at most 5 are accepted", ""},
		{"a hidden minimum length", `{"name":""}`, "name is empty; give a value", ""},
		{"the shared text cap", `{"name":"ab","tags":["abcde"]}`, "tags[0] is 5 characters long; at most 4 are accepted", ""},
		{"a hidden count", `{"name":"ab","tags":["a","b","c"]}`, "tags has 3 items; at most 2 are accepted in one call", ""},
		{"a capped limit", `{"name":"ab","limit":50}`, `{"limit":10,"name":"ab"}`, "limit 50 capped at 10"},
		{"a null argument is omitted", `{"name":"ab","limit":null,"flag":null}`, `{"limit":3,"name":"ab"}`, ""},
		{"a null list item is refused", `{"name":"ab","tags":["a",null]}`, `tags[1] is null; give "text"`, ""},
		{"a required argument missing", `{}`, "name is missing: the name", ""},
		{"an unknown argument", `{"nmae":"ab"}`, "unknown argument 'nmae' (did you mean name?); t takes name, code, day, limit, tags, flag", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a map[string]any
			if err := DecodeJSON([]byte(tt.args), &a); err != nil {
				t.Fatal(err)
			}
			notes, err := in.Check(a)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				raw, _ := json.Marshal(a)
				got = string(raw)
			}
			if got != tt.want || strings.Join(notes, "; ") != tt.notes {
				t.Errorf("got %s (notes %q)\nwant %s (notes %q)", got, notes, tt.want, tt.notes)
			}
		})
	}
}

// TestDecodeNulls: absent arguments and a JSON null are the empty object;
// anything else that is not an object is refused in one sentence.
func TestDecodeNulls(t *testing.T) {
	in, err := For[struct {
		N int `json:"n,omitempty" jsonschema:"A number."`
	}]("t", Props{"n": IntRange(1, 9, 2)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{``, `null`, ` null `, `{}`, `{"n":null}`} {
		got, _, err := Decode[struct {
			N int `json:"n"`
		}](in, json.RawMessage(raw))
		if err != nil || got.N != 2 {
			t.Errorf("Decode(%q) = %+v, %v; want the default 2", raw, got, err)
		}
	}
	for _, raw := range []string{`[]`, `"x"`, `3`, `{} {}`} {
		if _, _, err := Decode[struct{}](in, json.RawMessage(raw)); err == nil || err.Error() != "the arguments of t must be a JSON object of named values" {
			t.Errorf("Decode(%q): %v", raw, err)
		}
	}
}

// TestPublishedSchemaHidesGuards: the guard caps and the cap mark are
// checked but not shown, and a date shows as format "date" with no
// pattern.
func TestPublishedSchemaHidesGuards(t *testing.T) {
	in, err := For[args]("t", Props{"name": Both(NonEmpty, GuardLen(5)), "day": Date, "limit": Capped(1, 10, 3), "tags": GuardCount(2)}, Options{MaxText: 4})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(in.Schema())
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"minLength", "maxLength", "maxItems", "pattern", "x-"} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("published schema shows %s: %s", leak, raw)
		}
	}
	if !strings.Contains(string(raw), `"format":"date"`) || !strings.Contains(string(raw), `"The day, YYYY-MM-DD."`) {
		t.Errorf("the date is not published as one: %s", raw)
	}
}
