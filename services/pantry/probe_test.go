package pantry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
)

// TestProbeNamesTheBase: the startup probe's first call 404s only when
// FOOD_API_BASE is not the /api root, so whatever detail the server sends
// (Django says "Not found."), the message names the variable
// (docs/troubleshooting.md quotes it).
func TestProbeNamesTheBase(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		code   connect.Code
		msg    string
	}{
		{"Django's 404 detail", http.StatusNotFound, `{"detail": "Not found."}`, connect.CodeNotFound,
			"the food API has no such resource (is FOOD_API_BASE the /api root?)"},
		{"a bare 404", http.StatusNotFound, `<h1>Not Found</h1>`, connect.CodeNotFound,
			"the food API has no such resource (is FOOD_API_BASE the /api root?)"},
		{"a refused token is still about the token", http.StatusUnauthorized, `{"detail": "Invalid token."}`, connect.CodeUnauthenticated,
			"the food API refused the token — check FOOD_API_TOKEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			t.Cleanup(srv.Close)
			c := client(t, Config{FoodAPIBase: srv.URL, FoodAPIToken: "t"})
			_, err := c.GetStatus(context.Background(), connect.NewRequest(&pantryv1.GetStatusRequest{}))
			if connect.CodeOf(err) != tt.code {
				t.Fatalf("code = %v (%v), want %v", connect.CodeOf(err), err, tt.code)
			}
			var ce *connect.Error
			if !errors.As(err, &ce) || ce.Message() != tt.msg {
				t.Errorf("message = %q, want %q", err, tt.msg)
			}
		})
	}
}
