package abuse_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/foodapiproc"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// answerDropper forwards every request to the food API and, for writes to a
// path ending in dropSuffix, drops the connection instead of passing the
// answer back: the write is applied, the answer is lost.
type answerDropper struct {
	next       http.Handler
	dropSuffix string
	dropped    atomic.Int32
}

func (d *answerDropper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet || !strings.HasSuffix(r.URL.Path, d.dropSuffix) {
		d.next.ServeHTTP(w, r)
		return
	}
	d.next.ServeHTTP(httptest.NewRecorder(), r)
	d.dropped.Add(1)
	if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
		conn.Close()
	}
}

// TestFoodAPILostAnswer: a food API write whose answer is lost is reported
// as maybe saved, naming what to check, and is sent once; the check shows
// it was applied.
func TestFoodAPILostAnswer(t *testing.T) {
	f := harness.StartFoodAPI(t, foodapiproc.Start, foodapiproc.Options{})
	target, err := url.Parse(f.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, suffix string
		args         map[string]any
		check        string
	}{
		{tool: "set_item_state", suffix: "/set-state/", args: map[string]any{"ingredient": "cinnamon", "state": "low"}, check: "get_pantry"},
		{tool: "log_cook", suffix: "/log-cook/", args: map[string]any{"recipe": "Toast"}, check: "get_meta_recipes"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			d := &answerDropper{next: httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host}), dropSuffix: tt.suffix}
			proxy := httptest.NewServer(d)
			t.Cleanup(proxy.Close)
			s := newFaultStack(t, backends{mealie: mealietest.NewServer(t), foodBase: proxy.URL + target.Path, foodTok: f.Token})
			text, isErr := call(t, s.cs, tt.tool, tt.args)
			if !isErr || !strings.Contains(text, "may have saved") || !strings.Contains(text, tt.check) {
				t.Errorf("%s with its answer lost: %v %q, want a tool error saying it may have been saved and to check %s", tt.tool, isErr, text, tt.check)
			}
			oneSentence(t, text)
			if n := d.dropped.Load(); n != 1 {
				t.Errorf("the food API received %d writes, want 1", n)
			}
		})
	}
	// The state change did land: what the check shows.
	s := newFaultStack(t, backends{mealie: mealietest.NewServer(t), foodBase: f.BaseURL, foodTok: f.Token})
	text, isErr := call(t, s.cs, "get_pantry", map[string]any{})
	if isErr || !strings.Contains(text, `{"name":"cinnamon","state":"low"`) {
		t.Errorf("get_pantry after the lost answer: %s", text)
	}
}
