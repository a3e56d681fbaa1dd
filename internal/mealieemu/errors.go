package mealieemu

import (
	"net/http"
)

// Mealie answers errors in several body shapes depending on where the error is
// raised (TestErrorBodyShapes in integration/contract). Each writer here
// produces one of them.

// writeJSON writes v as the JSON body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		// Every body the emulator renders is built from plain values, so this
		// is a bug in the emulator itself, surfaced like Mealie's own crashes.
		writeInternal(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeDetail writes the plain-string shape {"detail":"..."} used for 401,
// 400 from a bad queryFilter or orderBy, 404 "cookbook not found" and the
// router's 404/405 (services/library/testdata/cookbooks__get_unknown.json;
// TestBadTokenIs401 and TestErrorBodyShapes in integration/contract).
func writeDetail(w http.ResponseWriter, status int, detail string) {
	writeJSON(w, status, object{{"detail", detail}})
}

// writeErrorResponse writes Mealie's ErrorResponse shape
// {"detail":{"message","error":true,"exception"}} used by the recipe
// controller and the generic CRUD mixins
// (services/internal/mealie/testdata/recipes_get__unknown_404.json). An empty
// exception renders as null.
func writeErrorResponse(w http.ResponseWriter, status int, message, exception string) {
	var exc any
	if exception != "" {
		exc = exception
	}
	writeJSON(w, status, object{{"detail", object{
		{"message", message},
		{"error", true},
		{"exception", exc},
	}}})
}

// writeNoEntry is the recipe controller's 404 (services/internal/mealie/testdata/recipes_get__unknown_404.json).
func writeNoEntry(w http.ResponseWriter) {
	writeErrorResponse(w, http.StatusNotFound, "No Entry Found", "")
}

// writeUnknownError is the recipe controller's 500 for an exception it does not
// map, naming the Python exception class (services/internal/mealie/testdata/recipes_patch__tags_null_500.json).
func writeUnknownError(w http.ResponseWriter, exception string) {
	writeErrorResponse(w, http.StatusInternalServerError, "Unknown Error", exception)
}

// writeNotFoundMixin is the generic CRUD mixin's 404
// (services/mealplan/testdata/mealplans__get_unknown_int.json).
func writeNotFoundMixin(w http.ResponseWriter) {
	writeErrorResponse(w, http.StatusNotFound, "Not found.", "")
}

// writeNoRow is the generic mixin's answer when a delete or update finds no
// row: 400 on 2.0 (services/mealplan/testdata/mealplans__delete_again.json),
// 404 with the same body on profiles with missingRow404.
func (st *store) writeNoRow(w http.ResponseWriter) {
	status := http.StatusBadRequest
	if st.profile.missingRow404 {
		status = http.StatusNotFound
	}
	writeErrorResponse(w, status, "An unexpected error occurred", "No row was found when one was required")
}

// writeNoToken is DELETE /api/users/api-tokens/{id} for a token that is not
// there, which is not a generic mixin route: 400 as in 2.0.
func writeNoToken(w http.ResponseWriter) {
	writeErrorResponse(w, http.StatusBadRequest, "An unexpected error occurred", "No row was found when one was required")
}

// writeInternal is an unhandled exception: Starlette's text/plain 500
// (services/internal/mealie/testdata/organizers_tags__create_duplicate.json).
func writeInternal(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = w.Write([]byte("Internal Server Error"))
}

// valErr is one entry of a FastAPI validation error list.
type valErr struct {
	typ   string
	loc   []any
	msg   string
	input any
	ctx   any // nil: the key is absent
}

func (e valErr) render() object {
	o := object{{"type", e.typ}, {"loc", e.loc}, {"msg", e.msg}, {"input", e.input}}
	if e.ctx != nil {
		o = append(o, field{"ctx", e.ctx})
	}
	return o
}

// writeValidation writes FastAPI's 422 {"detail":[...]}.
func writeValidation(w http.ResponseWriter, errs ...valErr) {
	list := make([]any, 0, len(errs))
	for _, e := range errs {
		list = append(list, e.render())
	}
	writeJSON(w, http.StatusUnprocessableEntity, object{{"detail", list}})
}

// missing is the "Field required" entry; loc is relative to the body.
func missing(input any, loc ...any) valErr {
	return valErr{typ: "missing", loc: append([]any{"body"}, loc...), msg: "Field required", input: input}
}

// intParsing is the entry for a path or query value that is not an integer
// (services/mealplan/testdata/mealplans__get_uuid_instead_of_int_422.json).
func intParsing(where, name, input string) valErr {
	return valErr{typ: "int_parsing", loc: []any{where, name}, msg: "Input should be a valid integer, unable to parse string as an integer", input: input}
}
