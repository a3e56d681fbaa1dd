package mealieemu

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// Accessors over a decoded JSON body. They report whether the key was present
// with a usable type, so handlers can tell "absent" from "null" from "wrong".

func (b jsonBody) str(k string) (string, bool) {
	s, ok := b[k].(string)
	return s, ok
}

// optStr returns the string at k, nil for null or absent.
func (b jsonBody) optStr(k string) *string {
	if s, ok := b[k].(string); ok {
		return &s
	}
	return nil
}

func (b jsonBody) boolean(k string) (bool, bool) {
	v, ok := b[k].(bool)
	return v, ok
}

// num returns the number at k; JSON numbers arrive as json.Number.
func (b jsonBody) num(k string) (float64, bool) {
	return toFloat(b[k])
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	case string:
		f, err := strconv.ParseFloat(n, 64)
		return f, err == nil
	}
	return 0, false
}

func (b jsonBody) obj(k string) (jsonBody, bool) {
	m, ok := b[k].(map[string]any)
	return jsonBody(m), ok
}

func (b jsonBody) list(k string) ([]any, bool) {
	l, ok := b[k].([]any)
	return l, ok
}

// asBody views a nested JSON value as an object.
func asBody(v any) (jsonBody, bool) {
	m, ok := v.(map[string]any)
	return jsonBody(m), ok
}

// decodeList reads a JSON array body.
func decodeList(r *http.Request, dst any) error {
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	return dec.Decode(dst)
}

// missingStrings is a "Field required" entry for each key the body lacks as a
// string, in the order given: Mealie lists them in its model's field order
// (services/mealplan/testdata/shopping_lists__put.json: groupId, userId, id).
func (b jsonBody) missingStrings(keys ...string) []valErr {
	var errs []valErr
	for _, k := range keys {
		if _, ok := b.str(k); !ok {
			errs = append(errs, missing(b.raw(), k))
		}
	}
	return errs
}

// requireStrings answers 422 when the body lacks any of keys as a string and
// reports whether it had them all.
func requireStrings(w http.ResponseWriter, b jsonBody, keys ...string) bool {
	if errs := b.missingStrings(keys...); len(errs) > 0 {
		writeValidation(w, errs...)
		return false
	}
	return true
}

// readPut reads a PUT .../{id}: the id must be a UUID (422 on the item_id
// path), then the body must decode and carry keys as strings (422). It
// reports whether the handler may go on; on false the answer is written.
func readPut(w http.ResponseWriter, r *http.Request, keys ...string) (string, jsonBody, bool) {
	id, ok := itemUUID(w, r)
	if !ok {
		return "", nil, false
	}
	b, ok := decodeBody(w, r)
	if !ok || !requireStrings(w, b, keys...) {
		return "", nil, false
	}
	return id, b, true
}
