package mealieemu

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// object is a JSON object whose keys keep the order they were added in. Mealie's
// pydantic models serialise fields in declaration order, and rendering through an
// ordered list keeps the emulator's bodies diffable against the captures while
// letting a version profile add or drop a key without a struct per version.
type object []field

type field struct {
	k string
	v any
}

// MarshalJSON writes the fields in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(f.k))
		b.WriteByte(':')
		if err := appendValue(&b, f.v); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// appendValue writes the common value types directly, which keeps a
// 2000-recipe list fast, and hands anything else to encoding/json.
func appendValue(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		enc, err := json.Marshal(x)
		if err != nil {
			return err
		}
		b.Write(enc)
	case object:
		enc, err := x.MarshalJSON()
		if err != nil {
			return err
		}
		b.Write(enc)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := appendValue(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		enc, err := marshal(v)
		if err != nil {
			return err
		}
		b.Write(enc)
	}
	return nil
}

// marshal encodes v without HTML escaping, as Python's json and orjson do.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// The layouts Mealie 2.0 uses for timestamps. A single object read through a
// response model comes back with a "Z" suffix (services/internal/mealie/testdata/recipes_get__fresh.json:
// "2026-11-30T10:59:30.470180Z"), while the recipe list, which Mealie serialises
// with orjson straight from the summary model, uses "+00:00"
// (services/recipes/testdata/recipes_list__default.json: "2026-11-30T10:59:33.088070+00:00").
const (
	layoutZ      = "2006-01-02T15:04:05.000000Z"
	layoutOffset = "2006-01-02T15:04:05.000000+00:00"
	layoutDate   = "2006-01-02"
)

// stamp renders a time the way single-object responses do.
type stamp time.Time

// MarshalJSON writes the "Z" form.
func (s stamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(s).UTC().Format(layoutZ) + `"`), nil
}

// offsetStamp renders a time the way the recipe list does.
type offsetStamp time.Time

// MarshalJSON writes the "+00:00" form.
func (s offsetStamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(s).UTC().Format(layoutOffset) + `"`), nil
}

// optStamp renders an optional time in "Z" form, or null.
func optStamp(t *time.Time) any {
	if t == nil {
		return nil
	}
	return stamp(*t)
}

// optOffsetStamp renders an optional time in "+00:00" form, or null.
func optOffsetStamp(t *time.Time) any {
	if t == nil {
		return nil
	}
	return offsetStamp(*t)
}

// optString renders an optional string, or null.
func optString(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// optFloat renders an optional number, or null.
func optFloat(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// strp returns a pointer to s, for seed tables.
func strp(s string) *string { return &s }

// floatp returns a pointer to f, for seed tables.
func floatp(f float64) *float64 { return &f }
