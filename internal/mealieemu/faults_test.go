package mealieemu

import (
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// recipeCount returns the total of GET /api/recipes.
func recipeCount(t *testing.T, s *Server) int {
	t.Helper()
	code, body := call(t, s, http.MethodGet, "/api/recipes?perPage=1", nil)
	if code != 200 {
		t.Fatalf("list: %d %v", code, body)
	}
	return int(obj(t, body)["total"].(float64))
}

func TestFaultFirstNWakeUp(t *testing.T) {
	s := newServer(t, WithSeed("empty"), WithFault(FaultRule{Method: "POST", PathPrefix: "/api/recipes", Status: 503, FirstN: 2}))
	for i, want := range []int{503, 503, 201} {
		code, body := call(t, s, http.MethodPost, "/api/recipes", map[string]any{"name": "Woken Soup"})
		if code != want {
			t.Fatalf("attempt %d: %d %v, want %d", i, code, body, want)
		}
		if code == 503 && !reflect.DeepEqual(body, map[string]any{"detail": "Service Unavailable"}) {
			t.Errorf("attempt %d body = %v", i, body)
		}
	}
	if n := recipeCount(t, s); n != 1 {
		t.Errorf("%d recipes after two refused creates and one accepted, want 1", n)
	}
	if n := s.Count("POST", "/api/recipes"); n != 3 {
		t.Errorf("Count(POST) = %d, want 3", n)
	}
	if n := s.Count("GET", ""); n != 1 {
		t.Errorf("Count(GET) = %d, want 1", n)
	}
	f := s.Faulted()
	if len(f) != 2 || f[0].Fault != "status 503" || f[0].Status != 503 {
		t.Errorf("Faulted = %+v", f)
	}
	if r := s.RetriedWrites(); len(r) != 2 {
		t.Errorf("RetriedWrites = %d entries, want the 2 repeats", len(r))
	}
}

func TestFaultMatchesMethodAndPath(t *testing.T) {
	s := newServer(t, WithSeed("demo"), WithFault(FaultRule{Method: "PATCH", PathPrefix: "/api/recipes/", Status: 500}))
	if code, _ := call(t, s, http.MethodGet, "/api/recipes", nil); code != 200 {
		t.Errorf("GET hit by a PATCH rule: %d", code)
	}
	if code, _ := call(t, s, http.MethodPatch, "/api/foods/x", map[string]any{}); code == 500 {
		t.Errorf("PATCH /api/foods hit by a /api/recipes/ rule")
	}
	if code, _ := call(t, s, http.MethodPatch, "/api/recipes/anything", map[string]any{}); code != 500 {
		t.Errorf("PATCH /api/recipes/anything: %d, want 500", code)
	}
}

func TestFaultRateIsSeededAndPartial(t *testing.T) {
	pattern := func(seed uint64) []int {
		s := newServer(t, WithSeed("empty"), WithFaultSeed(seed), WithFault(FaultRule{PathPrefix: "/api/app/about", Rate: 0.5, Status: 502}))
		var out []int
		for range 64 {
			code, _ := callWith(t, s, "", http.MethodGet, "/api/app/about", nil)
			out = append(out, code)
		}
		return out
	}
	a, b := pattern(7), pattern(7)
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different fault pattern")
	}
	hits := 0
	for _, c := range a {
		if c == 502 {
			hits++
		}
	}
	if hits == 0 || hits == len(a) {
		t.Errorf("rate 0.5 hit %d of %d", hits, len(a))
	}
}

func TestFaultJitterWithinBounds(t *testing.T) {
	f := newFaultSet(1, []FaultRule{{Delay: 10 * time.Millisecond, Jitter: 5 * time.Millisecond}})
	seen := map[time.Duration]bool{}
	for range 50 {
		d := f.plan("GET", "/x").delay
		if d < 10*time.Millisecond || d >= 15*time.Millisecond {
			t.Fatalf("delay %v outside [10ms,15ms)", d)
		}
		seen[d] = true
	}
	if len(seen) < 2 {
		t.Error("jitter produced a single delay")
	}
}

func TestFaultResetDropsUnhandled(t *testing.T) {
	s := newServer(t, WithSeed("empty"), WithFault(FaultRule{Method: "POST", Reset: true, FirstN: 1}))
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/recipes", strings.NewReader(`{"name":"Lost"}`))
	req.Header.Set("Authorization", "Bearer "+s.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("reset answered %d", resp.StatusCode)
	}
	if n := recipeCount(t, s); n != 0 {
		t.Errorf("reset request was handled: %d recipes", n)
	}
	log := s.Matching("POST", "/api/recipes")
	if len(log) != 1 || log[0].Status != 0 || log[0].Fault != "reset" {
		t.Errorf("log = %+v", log)
	}
}

func TestFaultLateAnswerWriteLands(t *testing.T) {
	s := newServer(t, WithSeed("empty"), WithFault(FaultRule{Method: "POST", PathPrefix: "/api/recipes", LateAnswer: time.Minute, FirstN: 1}))
	client := &http.Client{Timeout: 200 * time.Millisecond}
	post := func() (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/recipes", strings.NewReader(`{"name":"Twice Soup"}`))
		req.Header.Set("Authorization", "Bearer "+s.Token)
		req.Header.Set("Content-Type", "application/json")
		return client.Do(req)
	}
	if resp, err := post(); err == nil {
		resp.Body.Close()
		t.Fatalf("late answer arrived within the client timeout: %d", resp.StatusCode)
	}
	// The write landed although the client saw a timeout; a naive retry
	// duplicates it, and the log shows the retry.
	if code, _ := call(t, s, http.MethodGet, "/api/recipes/twice-soup", nil); code != 200 {
		t.Fatalf("timed-out create did not land: %d", code)
	}
	resp, err := post()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(raw) != `"twice-soup-1"` {
		t.Errorf("retry created %s, want the suffixed duplicate", raw)
	}
	r := s.RetriedWrites()
	if len(r) != 1 || r[0].Path != "/api/recipes" {
		t.Errorf("RetriedWrites = %+v", r)
	}
	first := s.Matching("POST", "/api/recipes")[0]
	if first.Status != 201 || first.Fault != "late answer" {
		t.Errorf("first create logged as %d %q, want 201 late answer", first.Status, first.Fault)
	}
}

func TestFaultDelayBeyondClientTimeoutLeavesNoWrite(t *testing.T) {
	s := newServer(t, WithSeed("empty"), WithFault(FaultRule{Method: "POST", Delay: time.Minute}))
	client := &http.Client{Timeout: 100 * time.Millisecond}
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/recipes", strings.NewReader(`{"name":"Never"}`))
	req.Header.Set("Authorization", "Bearer "+s.Token)
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("answered despite a minute of delay")
	}
	s.ClearFaults()
	if n := recipeCount(t, s); n != 0 {
		t.Errorf("delayed write was handled after its client left: %d recipes", n)
	}
	// The abandoned request reaches the log with 499 once its handler sees
	// the client gone; wait for that without timing anything.
	deadline := time.Now().Add(5 * time.Second)
	for s.Matching("POST", "")[0].Status != statusClientClosed {
		if time.Now().After(deadline) {
			t.Fatalf("log = %+v", s.Matching("POST", ""))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestFaultSlowBody(t *testing.T) {
	s := newServer(t, WithSeed("demo"))
	_, plain := call(t, s, http.MethodGet, "/api/recipes?perPage=5", nil)
	s.SetFaults(FaultRule{Method: "GET", PathPrefix: "/api/recipes", SlowBody: 50 * time.Millisecond})
	code, slow := call(t, s, http.MethodGet, "/api/recipes?perPage=5", nil)
	if code != 200 || !reflect.DeepEqual(plain, slow) {
		t.Fatalf("slow body differs: %d", code)
	}
	// A body trickled over a minute cannot be read within a short timeout,
	// although the headers arrive at once.
	s.SetFaults(FaultRule{Method: "GET", PathPrefix: "/api/recipes", SlowBody: time.Minute})
	client := &http.Client{Timeout: 300 * time.Millisecond}
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/api/recipes?perPage=50", nil)
	req.Header.Set("Authorization", "Bearer "+s.Token)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("headers of a slow body did not arrive: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.ContentLength <= 0 {
		t.Errorf("status %d, length %d", resp.StatusCode, resp.ContentLength)
	}
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Error("a body trickled over a minute was read in full")
	}
}

func TestFaultsSwitchAtRuntime(t *testing.T) {
	s := newServer(t, WithSeed("empty"))
	if code, _ := call(t, s, http.MethodGet, "/api/users/self", nil); code != 200 {
		t.Fatalf("healthy: %d", code)
	}
	s.SetFaults(FaultRule{Status: 502, Body: "<html>Bad Gateway</html>"})
	code, body := call(t, s, http.MethodGet, "/api/users/self", nil)
	if code != 502 || body != "<html>Bad Gateway</html>" {
		t.Errorf("down: %d %v", code, body)
	}
	if got := s.Faults(); len(got) != 1 || got[0].Status != 502 {
		t.Errorf("Faults() = %+v", got)
	}
	s.AddFault(FaultRule{Reset: true})
	if len(s.Faults()) != 2 {
		t.Error("AddFault did not add")
	}
	s.ClearFaults()
	if code, _ := call(t, s, http.MethodGet, "/api/users/self", nil); code != 200 {
		t.Errorf("after ClearFaults: %d", code)
	}
}

func TestWritesSkipsReadsLoginsAndParses(t *testing.T) {
	s := newServer(t, WithSeed("empty"))
	call(t, s, http.MethodGet, "/api/recipes", nil)
	call(t, s, http.MethodPost, "/api/parser/ingredients", map[string]any{"parser": "nlp", "ingredients": []string{"1 cup flour"}})
	call(t, s, http.MethodPost, "/api/recipes", map[string]any{"name": "A"})
	call(t, s, http.MethodPost, "/api/recipes", map[string]any{"name": "B"})
	w := s.Writes()
	if len(w) != 2 || w[0].Method != "POST" || string(w[1].Body) != `{"name":"B"}` {
		t.Errorf("Writes = %+v", w)
	}
	if len(s.RetriedWrites()) != 0 {
		t.Error("two different creates counted as a retry")
	}
	if w[0].Header.Get("Authorization") != "Bearer "+s.Token {
		t.Error("log lost the request headers")
	}
}

func TestParseFaultRule(t *testing.T) {
	tests := []struct {
		spec string
		want FaultRule
	}{
		{"POST /api/recipes status=503 first=3", FaultRule{Method: "POST", PathPrefix: "/api/recipes", Status: 503, FirstN: 3}},
		{"/api/foods rate=0.2 status=500", FaultRule{PathPrefix: "/api/foods", Rate: 0.2, Status: 500}},
		{"delay=200ms jitter=100ms", FaultRule{Delay: 200 * time.Millisecond, Jitter: 100 * time.Millisecond}},
		{"PATCH late=5s reset", FaultRule{Method: "PATCH", LateAnswer: 5 * time.Second, Reset: true}},
		{"GET slow=2s reset=false", FaultRule{Method: "GET", SlowBody: 2 * time.Second}},
		{"", FaultRule{}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := ParseFaultRule(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			back, err := ParseFaultRule(got.String())
			if err != nil || back != got {
				t.Errorf("String %q does not parse back: %+v %v", got.String(), back, err)
			}
		})
	}
	for _, bad := range []string{"status=abc", "status=42", "rate=2", "delay=soon", "get", "colour=red"} {
		if _, err := ParseFaultRule(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestFaultResetThroughHandlerWithoutListener(t *testing.T) {
	s := newServer(t, WithSeed("empty"), WithFault(FaultRule{Reset: true}))
	defer func() {
		if r := recover(); !errors.Is(asError(r), http.ErrAbortHandler) {
			t.Errorf("recovered %v, want http.ErrAbortHandler", r)
		}
	}()
	s.Handler().ServeHTTP(newDiscardRecorder(), newRequest(http.MethodGet, "/api/users/self", s.Token))
	t.Error("reset without a connection to drop did not abort")
}

func asError(v any) error {
	err, _ := v.(error)
	return err
}
