package recipes_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// searchLibrary builds, under one new tag, recipes whose words Mealie's two
// engines read apart (integration/contract TestSearchByEngine): a chickpea
// beside chicken, tomatoes and passata beside pasta, curry in names and in a
// description. It returns the tag's name and the slugs by recipe name.
func searchLibrary(m *mealieTarget) (string, map[string]string) {
	m.t.Helper()
	tag := unique("search")
	st, o := m.api(http.MethodPost, "/api/organizers/tags", map[string]any{"name": tag})
	if st != http.StatusCreated {
		m.t.Fatalf("creating tag: %d %v", st, o)
	}
	m.t.Cleanup(func() { m.api(http.MethodDelete, "/api/organizers/tags/"+o["id"].(string), nil) })
	tagRef := map[string]any{"id": o["id"], "name": o["name"], "slug": o["slug"]}
	if g, ok := o["groupId"]; ok {
		tagRef["groupId"] = g
	}
	slugs := map[string]string{}
	for _, r := range []struct{ name, desc, line string }{
		{"Chicken Curry", "Weeknight chicken in a mild curry sauce", ""},
		{"Chickpea Stew", "A hearty stew of chickpeas and greens", ""},
		{"Tomato Pasta Bake", "Baked pasta in tomato sauce", ""},
		{"Garden Pasta", "Pasta with vegetables from the garden", "2 ripe tomatoes"},
		{"Passata Soup", "A smooth soup", "1 tin tomato passata"},
		{"Coconut Curry Lentils", "Red lentils simmered in coconut milk", ""},
		{"Aloo Gobi", "Potato and cauliflower curry", ""},
		{"Plain Salad", "Leaves and dressing", "1 cup chic croutons"},
		{"Smoky Aubergine Dip", "Roasted aubergine with tahini", ""},
		{"Sizzling Skillet", "A quick dinner", "16 ounces large shrimp -raw, peeled"},
	} {
		slug := m.newRecipe(r.name)
		patch := map[string]any{"description": r.desc, "tags": []any{tagRef}}
		if r.line != "" {
			patch["recipeIngredient"] = []any{map[string]any{"quantity": 0, "unit": nil, "food": nil, "note": r.line, "referenceId": uuid.NewString()}}
		}
		if st, body := m.api(http.MethodPatch, "/api/recipes/"+slug, patch); st != http.StatusOK {
			m.t.Fatalf("patching %s: %d %v", slug, st, body)
		}
		slugs[r.name] = slug
	}
	return tag, slugs
}

// newRecipe creates a recipe through Mealie's API, which answers its slug
// (a name the library holds already gets a suffix), and deletes it at the
// end.
func (m *mealieTarget) newRecipe(name string) string {
	m.t.Helper()
	b, _ := json.Marshal(map[string]any{"name": name})
	req, _ := http.NewRequest(http.MethodPost, m.url+"/api/recipes", bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+m.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	var slug string
	if err := json.NewDecoder(resp.Body).Decode(&slug); err != nil || resp.StatusCode != http.StatusCreated {
		m.t.Fatalf("creating %s: %d %v", name, resp.StatusCode, err)
	}
	m.forget(&slug)
	return slug
}

// TestSearchReadsWordsAlikeOnEveryEngine holds search_recipes' query to one
// reading on every profile, SQLite and PostgreSQL alike: whole words before
// words inside others, every word before some, the name before the rest,
// and a close spelling when a word stands in no recipe.
func TestSearchReadsWordsAlikeOnEveryEngine(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		tag, slug := searchLibrary(m)
		tests := []struct {
			query      string
			want       []string
			didYouMean string
		}{
			// the chickpea stew is not a chicken recipe, though Mealie on
			// PostgreSQL lists it
			{"chicken", []string{"Chicken Curry"}, ""},
			// both words before one; the name before the lines
			{"tomato pasta", []string{"Tomato Pasta Bake", "Garden Pasta", "Passata Soup"}, ""},
			{"pasta", []string{"Garden Pasta", "Tomato Pasta Bake"}, ""},
			// a typo: Mealie on SQLite finds nothing, on PostgreSQL the
			// curries
			{"currry", []string{"Chicken Curry", "Coconut Curry Lentils", "Aloo Gobi"}, "curry"},
			{"chiken curry", []string{"Chicken Curry", "Coconut Curry Lentils", "Aloo Gobi"}, "chicken curry"},
			// no whole word anywhere: words inside others are all there is
			{"chick", []string{"Chicken Curry", "Chickpea Stew"}, ""},
			// a plural finds its singular
			{"leaf", []string{"Plain Salad"}, ""},
			{`"curry sauce"`, []string{"Chicken Curry"}, ""},
			// another English's name for the same thing, both ways
			{"eggplant", []string{"Smoky Aubergine Dip"}, ""},
			{"prawns", []string{"Sizzling Skillet"}, ""},
			{"shrimp", []string{"Sizzling Skillet"}, ""},
			{"nothing like it", nil, ""},
		}
		for _, tt := range tests {
			res, err := m.client.SearchRecipes(ctx(t), connect.NewRequest(&recipesv1.SearchRecipesRequest{Query: tt.query, Tags: []string{tag}}))
			if err != nil {
				t.Fatalf("search %q: %v", tt.query, err)
			}
			var want []string
			for _, n := range tt.want {
				want = append(want, slug[n])
			}
			var got []string
			for _, it := range res.Msg.Items {
				got = append(got, it.GetSlug())
			}
			if !reflect.DeepEqual(got, want) || res.Msg.Total != int32(len(want)) || res.Msg.DidYouMean != tt.didYouMean {
				t.Errorf("search %q on %s = %v (total %d, did_you_mean %q), want %v (did_you_mean %q)", tt.query, m.name, got, res.Msg.Total, res.Msg.DidYouMean, want, tt.didYouMean)
			}
		}
		// Pages are cut from sous's ranking, with its true total.
		for page, want := range map[int32][]string{1: {slug["Chicken Curry"], slug["Coconut Curry Lentils"]}, 2: {slug["Aloo Gobi"]}} {
			res, err := m.client.SearchRecipes(ctx(t), connect.NewRequest(&recipesv1.SearchRecipesRequest{Query: "curry", Tags: []string{tag}, Limit: proto.Int32(2), Page: proto.Int32(page)}))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range res.Msg.Items {
				got = append(got, it.GetSlug())
			}
			if !reflect.DeepEqual(got, want) || res.Msg.Total != 3 || res.Msg.TotalPages != 2 || res.Msg.Page != page {
				t.Errorf("curry page %d on %s = %v (total %d of %d pages), want %v of 3 in 2 pages", page, m.name, got, res.Msg.Total, res.Msg.TotalPages, want)
			}
		}
	})
}

// TestCookbookCountsRecipes: a cookbook filtered by tags and categories
// lists each recipe once, with a total of recipes and pages that all hold
// recipes, though Mealie pages the filter's joined rows (2.x also counts
// them: integration/contract TestFilterPagesJoinedRows).
func TestCookbookCountsRecipes(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		org := func(kind string) map[string]any {
			st, o := m.api(http.MethodPost, "/api/organizers/"+kind, map[string]any{"name": unique(kind)})
			if st != http.StatusCreated {
				t.Fatalf("creating %s: %d %v", kind, st, o)
			}
			t.Cleanup(func() { m.api(http.MethodDelete, "/api/organizers/"+kind+"/"+o["id"].(string), nil) })
			ref := map[string]any{"id": o["id"], "name": o["name"], "slug": o["slug"]}
			if g, ok := o["groupId"]; ok {
				ref["groupId"] = g
			}
			return ref
		}
		a, b, c, d := org("tags"), org("tags"), org("categories"), org("categories")
		var want []string
		for _, n := range []string{"Joined A", "Joined B", "Joined C", "Joined D", "Joined E"} {
			s := m.newRecipe(n)
			if st, body := m.api(http.MethodPatch, "/api/recipes/"+s, map[string]any{"tags": []any{a, b}, "recipeCategory": []any{c, d}}); st != http.StatusOK {
				t.Fatalf("patching %s: %d %v", s, st, body)
			}
			want = append(want, s)
		}
		filter := `tags.name IN ["` + a["name"].(string) + `", "` + b["name"].(string) + `"] AND recipe_category.name IN ["` + c["name"].(string) + `", "` + d["name"].(string) + `"]`
		st, book := m.api(http.MethodPost, "/api/households/cookbooks", map[string]any{"name": unique("book"), "queryFilterString": filter})
		if st != http.StatusOK && st != http.StatusCreated {
			t.Fatalf("creating cookbook: %d %v", st, book)
		}
		t.Cleanup(func() { m.api(http.MethodDelete, "/api/households/cookbooks/"+book["id"].(string), nil) })
		var got []string
		for page := int32(1); page <= 3; page++ {
			res, err := m.client.SearchRecipes(ctx(t), connect.NewRequest(&recipesv1.SearchRecipesRequest{Cookbook: book["slug"].(string), Limit: proto.Int32(2), Page: proto.Int32(page)}))
			if err != nil {
				t.Fatal(err)
			}
			if res.Msg.Total != 5 || res.Msg.TotalPages != 3 {
				t.Errorf("page %d on %s: total %d in %d pages, want 5 in 3", page, m.name, res.Msg.Total, res.Msg.TotalPages)
			}
			if wantLen := min(2, 5-int(page-1)*2); len(res.Msg.Items) != wantLen {
				t.Errorf("page %d on %s holds %d recipes, want %d", page, m.name, len(res.Msg.Items), wantLen)
			}
			for _, it := range res.Msg.Items {
				got = append(got, it.GetSlug())
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("cookbook pages on %s list %v, want %v", m.name, got, want)
		}
	})
}
