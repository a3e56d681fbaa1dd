package pantry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
)

// stub serves one canned answer and counts calls.
func stub(t *testing.T, status int, body string) (*foodClient, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if got := r.Header.Get("Authorization"); got != "Token secret-token" {
			t.Errorf("Authorization = %q", got)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := newFoodClient(srv.URL+"/api/", "secret-token", srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.conn.Retry.Backoff = 0 // no waiting between retries in tests
	return c, &calls
}

func TestNewFoodClientNamesTheVariable(t *testing.T) {
	tests := []struct{ base, token, want string }{
		{"", "t", "FOOD_API_BASE"},
		{"127.0.0.1:8042/api", "t", "FOOD_API_BASE"},
		{"ftp://x/api", "t", "FOOD_API_BASE"},
		{"http://127.0.0.1:8042/api", " ", "FOOD_API_TOKEN"},
	}
	for _, tt := range tests {
		if _, err := newFoodClient(tt.base, tt.token, nil, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("newFoodClient(%q, %q) = %v, want an error naming %s", tt.base, tt.token, err, tt.want)
		}
	}
}

func TestStatusErrors(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		body      string
		code      connect.Code
		msg       string
		matches   []string
		ambiguous bool
		given     string // the name asked for; "noodle" when empty
	}{
		{"unknown name", 404, `{"detail": "No ingredient is called 'noodle'.", "close_matches": ["egg noodles", "rice noodles"], "candidates": []}`,
			connect.CodeNotFound, "No ingredient is called 'noodle'; did you mean egg noodles, rice noodles?", []string{"egg noodles", "rice noodles"}, false, ""},
		{"unknown name, nothing close", 404, `{"detail": "No ingredient is called 'xyzzy'.", "close_matches": [], "candidates": []}`,
			connect.CodeNotFound, "No ingredient is called 'xyzzy'.", []string{}, false, "xyzzy"},
		{"unknown name, matches that are not near are dropped", 404, `{"detail": "No ingredient is called 'unicorn'.", "close_matches": ["onions"], "candidates": []}`,
			connect.CodeNotFound, "No ingredient is called 'unicorn'.", []string{}, false, "unicorn"},
		{"unknown name, the near match kept, the far one dropped", 404, `{"detail": "No ingredient is called 'nodles'.", "close_matches": ["noodles", "lentils"], "candidates": []}`,
			connect.CodeNotFound, "No ingredient is called 'nodles'; did you mean noodles?", []string{"noodles"}, false, "nodles"},
		{"unknown name, a slip of one word of a match", 404, `{"detail": "No ingredient is called 'nooodles'.", "close_matches": ["egg noodles", "lentils"], "candidates": []}`,
			connect.CodeNotFound, "No ingredient is called 'nooodles'; did you mean egg noodles?", []string{"egg noodles"}, false, "nooodles"},
		{"ambiguous name", 400, `{"detail": "'onion' could mean more than one ingredient (red onion, spring onion); use the full name.", "close_matches": ["red onion", "spring onion"]}`,
			connect.CodeInvalidArgument, "'onion' could mean more than one ingredient (red onion, spring onion); use the full name.", []string{"red onion", "spring onion"}, true, ""},
		{"two locations is not a name error", 400, `{"detail": "pork mince is in more than one location (freezer, fridge); say which location.", "close_matches": ["pork mince"]}`,
			connect.CodeInvalidArgument, "pork mince is in more than one location (freezer, fridge); say which location.", nil, false, ""},
		{"no pantry item is not a name error", 404, `{"detail": "tahini has no pantry item; add it with bulk-pantry-add.", "close_matches": ["tahini"]}`,
			connect.CodeNotFound, "tahini has no pantry item; add it with bulk-pantry-add.", nil, false, ""},
		{"validation", 400, `{"detail": "state: \"gone\" is not a valid choice.", "errors": {"state": ["\"gone\" is not a valid choice."]}}`,
			connect.CodeInvalidArgument, `state: "gone" is not a valid choice.`, nil, false, ""},
		{"token refused", 401, `{"detail": "Invalid token."}`,
			connect.CodeUnauthenticated, "the food API refused the token — check FOOD_API_TOKEN", nil, false, ""},
		{"forbidden", 403, `<html>Forbidden</html>`,
			connect.CodeUnauthenticated, "the food API refused the token — check FOOD_API_TOKEN", nil, false, ""},
		{"HTML 404", 404, "<html><body>Not Found</body></html>",
			connect.CodeNotFound, "the food API has no such resource (is FOOD_API_BASE the /api root?)", nil, false, ""},
		{"traceback is never shown", 500, "Traceback (most recent call last):\n  File \"views.py\"",
			connect.CodeUnavailable, "the food API failed with HTTP 500; it may be restarting, try again shortly", nil, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := stub(t, tt.status, tt.body)
			given := tt.given
			if given == "" {
				given = "noodle"
			}
			err := connectError(c.send(context.Background(), http.MethodPost, "/pantry/set-state/", map[string]string{}, nil), given)
			var ce *connect.Error
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a connect error", err)
			}
			if ce.Code() != tt.code || ce.Message() != tt.msg {
				t.Errorf("got %v %q, want %v %q", ce.Code(), ce.Message(), tt.code, tt.msg)
			}
			var nm *pantryv1.NameMatches
			for _, d := range ce.Details() {
				v, _ := d.Value()
				nm, _ = v.(*pantryv1.NameMatches)
			}
			if (nm != nil) != (tt.matches != nil) {
				t.Fatalf("NameMatches = %v, want matches %v", nm, tt.matches)
			}
			if nm != nil && (nm.Name != given || strings.Join(nm.CloseMatches, ",") != strings.Join(tt.matches, ",") || nm.Ambiguous != tt.ambiguous) {
				t.Errorf("NameMatches = %v, want %v ambiguous=%v", nm, tt.matches, tt.ambiguous)
			}
		})
	}
}

func TestLongDetailIsClipped(t *testing.T) {
	c, _ := stub(t, 400, `{"detail": "`+strings.Repeat("word ", 200)+`"}`)
	err := c.send(context.Background(), http.MethodPost, "/log-cook/", map[string]string{}, nil)
	if n := len([]rune(err.Error())); n > maxDetailChars+1 {
		t.Errorf("message is %d characters, want at most %d", n, maxDetailChars+1)
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name   string
		method string
		status int
		calls  int32
	}{
		{"GET retried on 5xx", http.MethodGet, 503, 1 + ReadRetries},
		{"POST never retried", http.MethodPost, 503, 1},
		{"PUT never retried", http.MethodPut, 502, 1},
		{"GET not retried on 4xx", http.MethodGet, 404, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, calls := stub(t, tt.status, `{"detail": "x"}`)
			var err error
			if tt.method == http.MethodGet {
				err = c.get(context.Background(), "/pantry/", nil, nil)
			} else {
				err = c.send(context.Background(), tt.method, "/bulk-pantry-add/", map[string]any{}, nil)
			}
			if err == nil {
				t.Fatal("no error")
			}
			if got := calls.Load(); got != tt.calls {
				t.Errorf("%d calls, want %d", got, tt.calls)
			}
		})
	}
}

func TestUnreachableIsOneSentence(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL + "/api"
	srv.Close() // nothing listens there any more
	c, err := newFoodClient(base, "secret-token", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.conn.Retry.Backoff = 0
	ce := new(connect.Error)
	if !errors.As(connectError(c.get(context.Background(), "/pantry/", nil, nil), ""), &ce) || ce.Code() != connect.CodeUnavailable {
		t.Fatalf("got %v, want Unavailable", ce)
	}
	if msg := ce.Message(); !strings.HasPrefix(msg, "food API unreachable at "+base+" (") || strings.Count(msg, base) != 1 {
		t.Errorf("message %q, want one sentence naming %s once", msg, base)
	}
}

func TestDecodeFailureIsInternal(t *testing.T) {
	c, _ := stub(t, 200, `<html>not json</html>`)
	var out []apiItem
	err := connectError(c.get(context.Background(), "/pantry/", nil, &out), "")
	if connect.CodeOf(err) != connect.CodeInternal || strings.Contains(err.Error(), "html") {
		t.Errorf("got %v, want Internal without the body", err)
	}
}
