package mealieemu

import (
	"bytes"
	"net/http"
	"strings"
)

// Count returns how many logged requests have the method (empty for any) and
// a path starting with pathPrefix (empty for any).
func (s *Server) Count(method, pathPrefix string) int {
	return len(s.Matching(method, pathPrefix))
}

// Matching returns the logged requests with the method (empty for any) and a
// path starting with pathPrefix (empty for any), oldest first.
func (s *Server) Matching(method, pathPrefix string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.matches(method, pathPrefix) {
			out = append(out, r)
		}
	}
	return out
}

// Writes returns the logged requests that can change Mealie's state (POST,
// PUT, PATCH, DELETE), oldest first. Logins (POST /api/auth/token) and
// ingredient parsing (POST /api/parser/...) change nothing and are left out.
func (s *Server) Writes() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.IsWrite() {
			out = append(out, r)
		}
	}
	return out
}

// RetriedWrites returns each logged write that repeats an earlier write with
// the same method, path, query and body: what a client's retry looks like
// from the server. Only the repeats are returned, oldest first; a write sent
// once is absent.
func (s *Server) RetriedWrites() []Request {
	type key struct{ method, path, query, body string }
	seen := map[key]bool{}
	var out []Request
	for _, r := range s.Writes() {
		k := key{r.Method, r.Path, r.RawQuery, string(r.Body)}
		if seen[k] {
			out = append(out, r)
		}
		seen[k] = true
	}
	return out
}

// Faulted returns the logged requests a fault rule hit, oldest first.
func (s *Server) Faulted() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Fault != "" {
			out = append(out, r)
		}
	}
	return out
}

// IsWrite reports whether the request can change state: a POST, PUT, PATCH
// or DELETE other than a login or an ingredient parse.
func (r Request) IsWrite() bool {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return false
	}
	return r.Path != "/api/auth/token" && !strings.HasPrefix(r.Path, "/api/parser/")
}

// SameAs reports whether two logged requests carry the same method, path,
// query and body.
func (r Request) SameAs(o Request) bool {
	return r.Method == o.Method && r.Path == o.Path && r.RawQuery == o.RawQuery && bytes.Equal(r.Body, o.Body)
}

func (r Request) matches(method, pathPrefix string) bool {
	return (method == "" || strings.EqualFold(method, r.Method)) && strings.HasPrefix(r.Path, pathPrefix)
}
