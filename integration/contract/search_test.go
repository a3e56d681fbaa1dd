package contract

import (
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// onPostgres reports whether the target is Mealie on PostgreSQL: an
// emulator profile named "<version>-pg", or a live Mealie whose
// /api/admin/about says dbType "postgres" (profileFor).
func onPostgres(tg target) bool { return strings.HasSuffix(tg.profile, "-pg") }

// TestSearchByEngine pins how GET /api/recipes?search= reads a search on
// each engine (Mealie's SearchFilter, the same from 2.0 to 3.20). On SQLite
// it is tokenized: any word is a substring of the name, the description or
// an ingredient's note or original text, and names holding the whole
// search come first. On PostgreSQL a search without quotes is fuzzy:
// pg_trgm's word_similarity of the whole search reaches 0.5 in the name or
// description, or 0.6 in an ingredient line (Mealie sets its 0.5 only after
// it has read the lines), ordered by that similarity in the name; a search
// holding a quoted part is tokenized there too. The orderBy asked for comes
// after the search's own order. Foods search the same two ways.
func TestSearchByEngine(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		mark := newTag(t, tg, tg.uniqueName("Contract Search"))
		mk := func(name, desc string, lines ...string) string {
			s := newRecipe(t, tg, tg.uniqueName(name))
			var ings []any
			for _, l := range lines {
				ings = append(ings, map[string]any{"quantity": 0, "unit": nil, "food": nil, "note": l, "referenceId": uuid.NewString()})
			}
			patch := map[string]any{"description": desc, "tags": []any{mark}}
			if ings != nil {
				patch["recipeIngredient"] = ings
			}
			if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, patch); code != 200 {
				t.Fatalf("patch %s: %d %v", s, code, body)
			}
			return s
		}
		curry := mk("Chicken Curry", "Weeknight chicken in a mild curry sauce")
		stew := mk("Chickpea Stew", "A hearty stew of chickpeas and greens")
		bake := mk("Tomato Pasta Bake", "Baked pasta in tomato sauce")
		garden := mk("Garden Pasta", "Pasta with vegetables from the garden", "2 ripe tomatoes")
		passata := mk("Passata Soup", "A smooth soup", "1 tin tomato passata")
		lentils := mk("Coconut Curry Lentils", "Red lentils simmered in coconut milk")
		aloo := mk("Aloo Gobi", "Potato and cauliflower curry")
		// word_similarity("chicken", "1 cup chic croutons") is 0.5: enough
		// for a name, not for an ingredient line
		mk("Plain Salad", "Leaves and dressing", "1 cup chic croutons")

		search := func(q string) []string {
			t.Helper()
			v := url.Values{"search": {q}, "tags": {mark["slug"].(string)}, "orderBy": {"name"}, "orderDirection": {"asc"}, "perPage": {"-1"}}
			code, page := tg.call(t, http.MethodGet, "/api/recipes?"+v.Encode(), nil)
			if code != 200 {
				t.Fatalf("search %q: %d %v", q, code, page)
			}
			var out []string
			for _, it := range asObj(t, page)["items"].([]any) {
				out = append(out, asObj(t, it)["slug"].(string))
			}
			return out
		}
		tests := []struct {
			q                string
			sqlite, postgres []string
		}{
			// a chickpea is a close spelling of chicken on PostgreSQL
			{"chicken", []string{curry}, []string{curry, stew}},
			// any word on SQLite; the two words together on PostgreSQL
			{"tomato pasta", []string{bake, garden, passata}, []string{bake, passata}},
			// a typo finds nothing on SQLite
			{"currry", nil, []string{curry, lentils, aloo}},
			{"curry", []string{curry, lentils, aloo}, []string{curry, lentils, aloo}},
			// "passata" is close to "pasta" on PostgreSQL
			{"pasta", []string{garden, bake}, []string{garden, bake, passata}},
			// quoted, both engines tokenize: no name holds the whole
			// search (quotes included), so the order is the name's
			{`"chicken"`, []string{curry}, []string{curry}},
			{`"tomato" "pasta"`, []string{garden, passata, bake}, []string{garden, passata, bake}},
		}
		for _, tt := range tests {
			want := tt.sqlite
			if onPostgres(tg) {
				want = tt.postgres
			}
			if got := search(tt.q); !reflect.DeepEqual(got, want) {
				t.Errorf("search %q on %s = %v, want %v", tt.q, tg.profile, got, want)
			}
		}

		// Foods search their name and plural name the same two ways.
		var foods []string
		for _, n := range []string{"contract chicken breast", "contract chickpeas"} {
			code, f := tg.call(t, http.MethodPost, "/api/foods", map[string]any{"name": tg.uniqueName(n)})
			if code != 201 {
				t.Fatalf("create food: %d %v", code, f)
			}
			id := asObj(t, f)["id"].(string)
			foods = append(foods, id)
			t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/foods/"+id, nil) })
		}
		code, page := tg.call(t, http.MethodGet, "/api/foods?search=chicken&orderBy=name&orderDirection=asc&perPage=-1", nil)
		if code != 200 {
			t.Fatalf("food search: %d %v", code, page)
		}
		var got []string
		for _, it := range asObj(t, page)["items"].([]any) {
			if id := asObj(t, it)["id"].(string); slices.Contains(foods, id) {
				got = append(got, id)
			}
		}
		want := foods[:1]
		if onPostgres(tg) {
			want = foods
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("food search chicken on %s = %v, want %v", tg.profile, got, want)
		}
	})
}

// TestFilterPagesJoinedRows pins how a cookbook whose filter names two
// relations pages its recipes: the filter joins each recipe once with each
// tag and each category it names, and Mealie pages those joined rows. A
// recipe with two matching tags and two matching categories is four rows:
// on 2.x total counts rows and a page of two rows holds one recipe; on 3.x
// total counts recipes but pages are still cut from rows, so a page may
// repeat the last one's recipe. perPage=-1 lists every recipe once on all
// versions.
func TestFilterPagesJoinedRows(t *testing.T) {
	forEachTarget(t, func(t *testing.T, tg target) {
		a, b := newTag(t, tg, tg.uniqueName("Contract Join Tag")), newTag(t, tg, tg.uniqueName("Contract Join Tag"))
		c, d := newOrganizer(t, tg, "categories", tg.uniqueName("Contract Join Cat")), newOrganizer(t, tg, "categories", tg.uniqueName("Contract Join Cat"))
		mk := func(letter string, tags, cats []any) string {
			s := newRecipe(t, tg, tg.uniqueName("Contract Joined "+letter))
			if code, body := tg.call(t, http.MethodPatch, "/api/recipes/"+s, map[string]any{"tags": tags, "recipeCategory": cats}); code != 200 {
				t.Fatalf("patch %s: %d %v", s, code, body)
			}
			return s
		}
		two := []any{a, b}
		twoCats := []any{c, d}
		ra, rb, rc := mk("A", two, twoCats), mk("B", two, twoCats), mk("C", two, twoCats)
		rd := mk("D", []any{a}, []any{c})
		filter := `tags.name IN ["` + a["name"].(string) + `", "` + b["name"].(string) + `"] AND recipe_category.name IN ["` + c["name"].(string) + `", "` + d["name"].(string) + `"]`
		code, cb := tg.call(t, http.MethodPost, "/api/households/cookbooks", map[string]any{"name": tg.uniqueName("Contract Joined Book"), "queryFilterString": filter})
		if code != 200 && code != 201 {
			t.Fatalf("create cookbook: %d %v", code, cb)
		}
		book := asObj(t, cb)
		t.Cleanup(func() { tg.call(t, http.MethodDelete, "/api/households/cookbooks/"+book["id"].(string), nil) })
		list := func(page, perPage string) (total float64, slugs []string) {
			t.Helper()
			v := url.Values{"cookbook": {book["slug"].(string)}, "orderBy": {"name"}, "orderDirection": {"asc"}, "page": {page}, "perPage": {perPage}}
			code, body := tg.call(t, http.MethodGet, "/api/recipes?"+v.Encode(), nil)
			if code != 200 {
				t.Fatalf("cookbook page %s: %d %v", page, code, body)
			}
			p := asObj(t, body)
			for _, it := range p["items"].([]any) {
				slugs = append(slugs, asObj(t, it)["slug"].(string))
			}
			total, _ = p["total"].(float64)
			return total, slugs
		}
		total, all := list("1", "-1")
		if want := []string{ra, rb, rc, rd}; !reflect.DeepEqual(all, want) {
			t.Errorf("perPage=-1 on %s lists %v, want %v", tg.profile, all, want)
		}
		// 3 recipes of 4 rows and 1 of one row
		wantTotal := 4.0
		if is2x(tg) {
			wantTotal = 13
		}
		if total != wantTotal {
			t.Errorf("perPage=-1 on %s: total %v, want %v", tg.profile, total, wantTotal)
		}
		for i, want := range [][]string{{ra}, {ra}, {rb}} {
			_, got := list(string(rune('1'+i)), "2")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("page %d of 2 rows on %s = %v, want %v", i+1, tg.profile, got, want)
			}
		}
	})
}
