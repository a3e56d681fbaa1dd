package mealieemu

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestAboutAndSelf(t *testing.T) {
	for _, v := range []string{"2.0", "2.8", "3.11"} {
		t.Run(v, func(t *testing.T) {
			s := newServer(t, WithVersion(v))
			code, body := callWith(t, s, "", http.MethodGet, "/api/app/about", nil)
			if code != 200 {
				t.Fatalf("about: %d", code)
			}
			want := profiles[v].version
			if got := obj(t, body)["version"]; got != want {
				t.Errorf("version = %v, want %v", got, want)
			}
			code, body = call(t, s, http.MethodGet, "/api/users/self", nil)
			if code != 200 {
				t.Fatalf("self: %d %v", code, body)
			}
			if obj(t, body)["email"] != adminEmail || obj(t, body)["householdSlug"] != "family" {
				t.Errorf("self = %v", body)
			}
		})
	}
}

func TestAuthFailures(t *testing.T) {
	s := newServer(t)
	tests := []struct {
		name, token string
	}{
		{"missing", ""},
		{"garbage", "not-a-token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := callWith(t, s, tt.token, http.MethodGet, "/api/recipes", nil)
			if code != 401 {
				t.Fatalf("status %d, want 401", code)
			}
			// TestBadTokenIs401 in integration/contract
			if want := map[string]any{"detail": "Could not validate credentials"}; !reflect.DeepEqual(body, want) {
				t.Errorf("body = %v, want %v", body, want)
			}
		})
	}
}

func TestMintedTokenLifecycle(t *testing.T) {
	s := newServer(t, WithSeed("empty"))
	code, body := call(t, s, http.MethodPost, "/api/users/api-tokens", map[string]any{"name": "sous"})
	if code != 201 {
		t.Fatalf("create token: %d %v", code, body)
	}
	tok := obj(t, body)["token"].(string)
	id := int(obj(t, body)["id"].(float64))
	if code, _ := callWith(t, s, tok, http.MethodGet, "/api/users/self", nil); code != 200 {
		t.Fatalf("minted token refused: %d", code)
	}
	if code, body := call(t, s, http.MethodDelete, "/api/users/api-tokens/"+itoa(id), nil); code != 200 || obj(t, body)["tokenDelete"] != "sous" {
		t.Fatalf("delete token: %d %v", code, body)
	}
	code, body = callWith(t, s, tok, http.MethodGet, "/api/users/self", nil)
	if code != 401 || obj(t, body)["detail"] != "Unauthorized" {
		t.Errorf("deleted token: %d %v, want 401 Unauthorized", code, body)
	}
}

func TestLoginFormOnly(t *testing.T) {
	s := newServer(t, WithSeed("empty"))
	post := func(ct, body string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/auth/token", strings.NewReader(body))
		req.Header.Set("Content-Type", ct)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	if code, m := post("application/json", `{"username":"changeme@example.com","password":"MyPassword"}`); code != 401 || m["detail"] != "Unauthorized" {
		t.Errorf("json login: %d %v", code, m)
	}
	code, m := post("application/x-www-form-urlencoded", "username=changeme%40example.com&password=MyPassword")
	if code != 200 || m["token_type"] != "bearer" {
		t.Fatalf("form login: %d %v", code, m)
	}
	if code, _ := callWith(t, s, m["access_token"].(string), http.MethodGet, "/api/users/self", nil); code != 200 {
		t.Errorf("session token refused: %d", code)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	s := newServer(t, WithSeed("empty"))
	if code, body := call(t, s, http.MethodGet, "/api/nope", nil); code != 404 || obj(t, body)["detail"] != "Not Found" {
		t.Errorf("unknown route: %d %v", code, body)
	}
	if code, body := call(t, s, http.MethodPost, "/api/app/about", nil); code != 405 || obj(t, body)["detail"] != "Method Not Allowed" {
		t.Errorf("wrong method: %d %v", code, body)
	}
}

// TestRecipeListPaging pins the envelope of the 2.0 captures; the link order
// of 2.8 and 3.11 is in TestLinkParamOrder.
func TestRecipeListPaging(t *testing.T) {
	s := newServer(t, WithVersion("2.0"))
	total := len(demoRecipes)
	tests := []struct {
		query                 string
		page, perPage, nItems int
		totalPages            int
		next, previous        any
	}{
		{"perPage=2&page=1", 1, 2, 2, (total + 1) / 2, "/recipes?page=2&perPage=2&orderDirection=desc", nil},
		{"perPage=2&page=2", 2, 2, 2, (total + 1) / 2, "/recipes?page=3&perPage=2&orderDirection=desc", "/recipes?page=1&perPage=2&orderDirection=desc"},
		// TestPerPageMinusOneReturnsAll in integration/contract: every row, per_page = row count.
		{"perPage=-1", 1, total, total, 1, nil, nil},
		{"perPage=0", 1, 0, 0, 0, nil, nil},
		{"page=0&perPage=5", 1, 5, 5, (total + 4) / 5, "/recipes?page=2&perPage=5&orderDirection=desc", nil},
		// Empty items, previous points at page-1.
		{"page=99&perPage=5", 99, 5, 0, (total + 4) / 5, nil, "/recipes?page=98&perPage=5&orderDirection=desc"},
		{"page=-1&perPage=5", (total + 4) / 5, 5, total - 5*((total+4)/5-1), (total + 4) / 5, nil, "/recipes?page=4&perPage=5&orderDirection=desc"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			code, body := call(t, s, http.MethodGet, "/api/recipes?"+tt.query, nil)
			if code != 200 {
				t.Fatalf("status %d: %v", code, body)
			}
			p := obj(t, body)
			got := []any{p["page"], p["per_page"], p["total"], p["total_pages"], len(list(t, p["items"])), p["next"], p["previous"]}
			want := []any{float64(tt.page), float64(tt.perPage), float64(total), float64(tt.totalPages), tt.nItems, tt.next, tt.previous}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("page/per_page/total/total_pages/items/next/previous =\n %v, want\n %v", got, want)
			}
		})
	}
}

func TestRecipeListBadQuery(t *testing.T) {
	s := newServer(t)
	code, body := call(t, s, http.MethodGet, "/api/recipes?perPage=abc", nil)
	if code != 422 {
		t.Fatalf("perPage=abc: %d", code)
	}
	d := obj(t, list(t, obj(t, body)["detail"])[0])
	if d["type"] != "int_parsing" || !reflect.DeepEqual(d["loc"], []any{"query", "perPage"}) {
		t.Errorf("detail = %v", d)
	}
	code, body = call(t, s, http.MethodGet, "/api/recipes?orderBy=nonexistent", nil)
	if code != 400 || obj(t, body)["detail"] != `Invalid order_by statement "nonexistent": "nonexistent" is invalid` {
		t.Errorf("bad orderBy: %d %v", code, body)
	}
	if code, _ := call(t, s, http.MethodGet, "/api/recipes?orderBy=random", nil); code != 422 {
		t.Errorf("random without seed: %d, want 422", code)
	}
}

func TestRecipeListSearchAndOrder(t *testing.T) {
	s := newServer(t)
	tests := []struct {
		query string
		want  []string
	}{
		{"search=chili", []string{"weeknight-chili"}},
		// Ingredient notes are searched.
		{"search=julienned", []string{"vegetable-stir-fry"}},
		{"search=creme", []string{"creme-brulee"}},
		{"orderBy=name&orderDirection=asc&perPage=3", []string{"apple-crumble", "banana-bread", "beef-stew"}},
		{"perPage=2", []string{"creme-brulee", "apple-crumble"}},
		{"tags=spicy&categories=breakfast", []string{"shakshuka"}},
		{"tags=no-such-tag&perPage=1", []string{"creme-brulee"}},
		{"tools=wok", []string{"vegetable-stir-fry"}},
		{"foods=" + seedID("food", "pancetta"), []string{"spaghetti-carbonara"}},
		{"cookbook=sweet-things&orderBy=name&orderDirection=asc", []string{"apple-crumble", "banana-bread", "chocolate-chip-cookies", "creme-brulee"}},
		{`queryFilter=tags.name IN ["Vegan"] AND recipeCategory.name IN ["Snack"]`, []string{"guacamole"}},
		{`queryFilter=name LIKE "%25CHICKEN%25"&orderBy=name&orderDirection=asc`, []string{"chicken-curry", "roast-chicken-with-lemon"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			code, body := call(t, s, http.MethodGet, "/api/recipes?"+strings.ReplaceAll(tt.query, " ", "+"), nil)
			if code != 200 {
				t.Fatalf("status %d: %v", code, body)
			}
			if got := slugsOf(t, body); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("slugs = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRecipeListFilterErrors(t *testing.T) {
	s := newServer(t)
	tests := []struct {
		query  string
		status int
		detail any
	}{
		{"cookbook=no-such-cookbook", 404, "cookbook not found"},
		{`queryFilter=nonexistent+%3D+"x"`, 400, "invalid attribute string: 'nonexistent' does not exist on this schema"},
		{"queryFilter=name+%3D+", 500, "Internal Server Error"},
		{"foods=flour", 500, "Internal Server Error"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			code, body := call(t, s, http.MethodGet, "/api/recipes?"+tt.query, nil)
			if code != tt.status {
				t.Fatalf("status %d, want %d (%v)", code, tt.status, body)
			}
			got := body
			if m, ok := body.(map[string]any); ok {
				got = m["detail"]
			}
			if got != tt.detail {
				t.Errorf("detail = %v, want %v", got, tt.detail)
			}
		})
	}
}

func TestGetRecipeBySlugAndID(t *testing.T) {
	s := newServer(t)
	code, body := call(t, s, http.MethodGet, "/api/recipes/weeknight-chili", nil)
	if code != 200 {
		t.Fatalf("by slug: %d %v", code, body)
	}
	r := obj(t, body)
	code, byID := call(t, s, http.MethodGet, "/api/recipes/"+r["id"].(string), nil)
	if code != 200 || !reflect.DeepEqual(byID, body) {
		t.Fatalf("by id: %d, differs from by slug", code)
	}
	ings := list(t, r["recipeIngredient"])
	first := obj(t, ings[0])
	if first["display"] != "1 tbsp olive oil" || obj(t, first["food"])["name"] != "olive oil" || first["referenceId"] == nil {
		t.Errorf("first ingredient = %v", first)
	}
	steps := list(t, r["recipeInstructions"])
	refs := list(t, obj(t, steps[0])["ingredientReferences"])
	if len(refs) != 3 || obj(t, refs[0])["referenceId"] != first["referenceId"] {
		t.Errorf("step 1 references = %v", refs)
	}
	if len(list(t, r["tags"])) != 4 || r["orgURL"] == nil || r["lastMade"] == nil || len(list(t, r["notes"])) != 1 {
		t.Errorf("recipe = %v", r)
	}
	// services/internal/mealie/testdata/recipes_get__unknown_404.json
	code, body = call(t, s, http.MethodGet, "/api/recipes/no-such-recipe", nil)
	want := map[string]any{"detail": map[string]any{"message": "No Entry Found", "error": true, "exception": nil}}
	if code != 404 || !reflect.DeepEqual(body, want) {
		t.Errorf("unknown: %d %v", code, body)
	}
}

func TestDemoSeedIsDeterministic(t *testing.T) {
	clock := func(d string) func() time.Time {
		return func() time.Time { tm, _ := time.Parse(layoutDate, d); return tm }
	}
	a := newServer(t, WithClock(clock("2025-03-03")))
	b := newServer(t, WithClock(clock("2026-07-15")))
	_, la := call(t, a, http.MethodGet, "/api/recipes?perPage=-1", nil)
	_, lb := call(t, b, http.MethodGet, "/api/recipes?perPage=-1", nil)
	if !reflect.DeepEqual(la, lb) {
		t.Error("recipe lists differ between two starts")
	}
	_, ra := call(t, a, http.MethodGet, "/api/recipes/pancakes", nil)
	_, rb := call(t, b, http.MethodGet, "/api/recipes/pancakes", nil)
	if !reflect.DeepEqual(ra, rb) {
		t.Error("recipe payloads differ between two starts")
	}
	if got := len(slugsOf(t, la)); got != len(demoRecipes) || got < 20 {
		t.Errorf("demo has %d recipes", got)
	}
}

func TestRequestLog(t *testing.T) {
	s := newServer(t, WithSeed("empty"))
	call(t, s, http.MethodGet, "/api/recipes?page=2", nil)
	call(t, s, http.MethodPost, "/api/users/api-tokens", map[string]any{"name": "x"})
	got := s.Requests()
	if len(got) != 2 {
		t.Fatalf("log has %d entries", len(got))
	}
	if got[0].Method != "GET" || got[0].Path != "/api/recipes" || got[0].RawQuery != "page=2" || got[0].Status != 200 {
		t.Errorf("first = %+v", got[0])
	}
	if got[1].Status != 201 || string(got[1].Body) != `{"name":"x"}` {
		t.Errorf("second = %+v", got[1])
	}
	s.ResetRequests()
	if len(s.Requests()) != 0 {
		t.Error("ResetRequests left entries")
	}
}

func TestLatencyHonoursClientCancel(t *testing.T) {
	s := newServer(t, WithSeed("empty"), WithLatency(time.Minute))
	client := &http.Client{Timeout: 100 * time.Millisecond}
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/api/app/about", nil)
	if _, err := client.Do(req); err == nil {
		t.Fatal("request finished despite a minute of latency")
	}
	// Close must not wait for the abandoned minute.
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung on a delayed request")
	}
}

func TestUnknownVersionAndSeed(t *testing.T) {
	if _, err := Start(WithVersion("1.0")); err == nil {
		t.Error("version 1.0 accepted")
	}
	if _, err := Start(WithSeed("lots")); err == nil {
		t.Error("seed lots accepted")
	}
}

func TestQuantityDisplay(t *testing.T) {
	cup := &unit{Name: "cup", Fraction: true}
	gram := &unit{Name: "gram", Fraction: false}
	flour := &food{Name: "flour", PluralName: strp("flours")}
	tests := []struct {
		version string
		qty     float64
		u       *unit
		note    string
		useFood bool
		want    string
	}{
		// Mealie 2.0 with disableAmount on.
		{"2.0", 2, cup, "sifted", false, "2 sifted"},
		{"2.0", 1.5, cup, "", false, "1 ¹/₂"},
		{"2.0", 1, nil, "1 Cup Flour", false, "1 Cup Flour"},
		{"2.0", 7.5, cup, "", false, "7 ¹/₂"},
		{"2.0", 0.333333, cup, "", true, "¹/₃ cup flour"},
		{"2.0", 2.5, gram, "", true, "2.5 gram flours"},
		// 3.11 shows the plural food only without a unit.
		{"3.11", 2.5, gram, "", true, "2.5 gram flour"},
		{"3.11", 3, nil, "", true, "3 flours"},
		{"3.11", 1, nil, "", true, "1 flour"},
	}
	for _, tt := range tests {
		st := &store{profile: profiles[tt.version]}
		if got := st.ingredientDisplay(&tt.qty, tt.u, flour, tt.note, tt.useFood); got != tt.want {
			t.Errorf("%s display(%v) = %q, want %q", tt.version, tt.qty, got, tt.want)
		}
	}
}

// TestLinkParamOrder pins where page and perPage sit in a next link
// (testdata/recordings/<version>/TestPaginationEnvelope.json in the contract
// package).
func TestLinkParamOrder(t *testing.T) {
	for v, want := range map[string]string{
		"2.0":  "/recipes?page=2&perPage=2&orderDirection=desc",
		"2.8":  "/recipes?orderDirection=desc&page=2&perPage=2",
		"3.11": "/recipes?orderDirection=desc&page=2&perPage=2",
	} {
		s := newServer(t, WithVersion(v))
		_, body := call(t, s, http.MethodGet, "/api/recipes?page=1&perPage=2", nil)
		if got := obj(t, body)["next"]; got != want {
			t.Errorf("%s next = %v, want %s", v, got, want)
		}
	}
}

// ExampleStart is the package documentation's example, compiled and run so
// it cannot drift from the API: a server, a client's request with the token,
// and the request log that shows what the client sent. Tests use
// mealietest.NewServer(t) the same way, without the Close.
func ExampleStart() {
	srv, err := Start(WithSeed("empty"), WithVersion("2.8"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/api/users/self", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	req.Header.Set("Authorization", "Bearer "+srv.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = resp.Body.Close()
	fmt.Println(resp.StatusCode)
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Path)
	}
	// Output:
	// 200
	// GET /api/users/self
}
