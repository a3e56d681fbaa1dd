package svcauth

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestValid(t *testing.T) {
	want := []byte("s3cret")
	tests := []struct {
		header string
		ok     bool
	}{
		{"Bearer s3cret", true},
		{"bearer s3cret", true},
		{"Bearer  s3cret ", true},
		{"Bearer s3cre", false},
		{"Bearer s3cretX", false},
		{"Basic s3cret", false},
		{"s3cret", false},
		{"", false},
		{"Bearer ", false},
	}
	for _, tt := range tests {
		if got := Valid(tt.header, want); got != tt.ok {
			t.Errorf("Valid(%q) = %v, want %v", tt.header, got, tt.ok)
		}
	}
}

func TestMiddleware(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	tests := []struct {
		name     string
		token    string
		header   string
		ctype    string
		wantCode int
	}{
		{"disabled", "", "", "application/json", http.StatusNoContent},
		{"right token", "tok", "Bearer tok", "application/json", http.StatusNoContent},
		{"missing token, connect", "tok", "", "application/json", http.StatusUnauthorized},
		{"wrong token, connect", "tok", "Bearer nope", "application/json", http.StatusUnauthorized},
		// gRPC answers HTTP 200 with the status in trailers.
		{"missing token, grpc", "tok", "", "application/grpc", http.StatusOK},
		{"missing token, plain http", "tok", "", "text/plain", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/sous.recipes.v1.RecipesService/GetRecipe", nil)
			req.Header.Set("Content-Type", tt.ctype)
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			rec := httptest.NewRecorder()
			Middleware(tt.token, ok).ServeHTTP(rec, req)
			if rec.Code != tt.wantCode {
				t.Fatalf("status = %d, want %d", rec.Code, tt.wantCode)
			}
			if tt.ctype == "application/grpc" && rec.Header().Get("Grpc-Status") != "16" {
				t.Errorf("grpc-status = %q, want 16 (UNAUTHENTICATED)", rec.Header().Get("Grpc-Status"))
			}
		})
	}
}
