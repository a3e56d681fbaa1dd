package recipes_test

// The edits a household says, through the recipes service, read back from
// Mealie: single ingredient lines replaced, removed and added with every
// other line as Mealie stored it, searches by time and history, and names
// some of which the library does not know. Each runs on every emulator
// profile and, with MEALIE_INTEGRATION=1, on a live Mealie.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// lineFields are the fields of a stored line that say what it is; a line
// sous did not edit must read back with each of them as it was.
var lineFields = []string{"quantity", "unit", "food", "note", "referenceId", "title", "originalText", "display", "isFood", "disableAmount", "referencedRecipe"}

// sameLine compares two stored lines field by field (a food or unit by its
// id and name) and says what differs.
func sameLine(a, b map[string]any) []string {
	var diff []string
	for _, k := range lineFields {
		av, bv := a[k], b[k]
		if o, ok := av.(map[string]any); ok {
			av = fmt.Sprint(o["id"], " ", o["name"])
		}
		if o, ok := bv.(map[string]any); ok {
			bv = fmt.Sprint(o["id"], " ", o["name"])
		}
		ja, _ := json.Marshal(av)
		jb, _ := json.Marshal(bv)
		if string(ja) != string(jb) {
			diff = append(diff, fmt.Sprintf("%s: %s → %s", k, ja, jb))
		}
	}
	return diff
}

func storedLines(rec map[string]any) []map[string]any {
	var out []map[string]any
	for _, l := range rec["recipeIngredient"].([]any) {
		out = append(out, l.(map[string]any))
	}
	return out
}

// lineWith is the stored line whose food is named name, or nil.
func lineWith(lines []map[string]any, name string) map[string]any {
	for _, l := range lines {
		if f, _ := l["food"].(map[string]any); f != nil && f["name"] == name {
			return l
		}
	}
	return nil
}

// TestLineEditsKeepTheOtherLines: "swap the chicken broth for vegetable
// broth", "drop the lemon", "add parmesan after the rice" are one update
// each, found by the food as a cook says it or by words of the line;
// Mealie then holds every other line exactly as before (quantity, unit,
// food, note, reference id, section title, field by field), the replaced
// line keeps its place, reference and section title, and a match that
// fits two lines or none writes nothing and says which lines there are.
func TestLineEditsKeepTheOtherLines(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		w := word()
		food := func(n string) string { return w + " " + n }
		for _, n := range []string{"arborio rice", "olive oil", "chicken broth", "beef broth", "lemon", "vegetable broth", "parmesan"} {
			m.taxonomy("foods", food(n))
		}
		in := []*recipesv1.IngredientInput{
			{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(1.5), Food: food("arborio rice"), Title: "For the risotto"}}},
			structuredLine(2, "", food("olive oil"), "extra virgin"),
			structuredLine(4, "", food("chicken broth"), "warm"),
			structuredLine(1, "", food("beef broth"), "or water"),
			{Kind: &recipesv1.IngredientInput_Structured{Structured: &recipesv1.StructuredIngredient{Quantity: proto.Float64(1), Food: food("lemon"), Note: "zest and juice", Title: "To finish"}}},
			structuredLine(3, "", food("parmesan"), "grated, to serve"),
		}
		var slug string
		m.forget(&slug)
		res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: unique("risotto"), Ingredients: in}))
		if err != nil {
			t.Fatal(err)
		}
		slug = res.Msg.Slug
		before := storedLines(m.recipe(slug))
		if len(before) != 6 {
			t.Fatalf("stored %d lines, want 6", len(before))
		}
		up, err := m.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{
			Slug:               slug,
			ReplaceIngredients: []*recipesv1.LineEdit{{Match: "chicken broth", Line: "4 " + food("vegetable broth") + ", warm"}},
			RemoveIngredients:  []string{"lemon"},
			AddIngredients:     []*recipesv1.LineEdit{{Line: "1 " + food("parmesan") + " rind", After: "rice"}},
		}))
		if err != nil {
			t.Fatal(err)
		}
		if len(up.Msg.LineEdits) != 3 || !strings.Contains(up.Msg.LineEdits[0], "replaced") || !strings.Contains(up.Msg.LineEdits[1], `removed`) || !strings.Contains(up.Msg.LineEdits[2], "added") {
			t.Errorf("line_edits = %q", up.Msg.LineEdits)
		}
		after := storedLines(m.recipe(slug))
		if len(after) != 6 {
			t.Fatalf("after the edits Mealie holds %d lines, want 6: %v", len(after), after)
		}
		// rice, its new neighbour, oil, the replaced broth, beef broth, parmesan
		for _, k := range []struct{ was, now int }{{0, 0}, {1, 2}, {3, 4}} {
			if d := sameLine(before[k.was], after[k.now]); len(d) > 0 {
				t.Errorf("line %d (%v) changed: %s", k.was, before[k.was]["display"], strings.Join(d, "; "))
			}
		}
		// the last line took the removed lemon's section title, and is
		// otherwise as it was
		last := after[5]
		if last["title"] != "To finish" {
			t.Errorf("the section title of the removed first line did not move down: %v", last)
		}
		was := before[5]
		was["title"] = "To finish"
		if d := sameLine(was, last); len(d) > 0 {
			t.Errorf("the parmesan line changed beyond its title: %s", strings.Join(d, "; "))
		}
		repl := after[3]
		if !strings.Contains(fmt.Sprint(repl["display"], repl["note"], repl["food"]), "vegetable broth") {
			t.Errorf("the replaced line reads %v, want the vegetable broth", repl)
		}
		if repl["referenceId"] != before[2]["referenceId"] {
			t.Errorf("the replaced line's reference id moved: %v → %v", before[2]["referenceId"], repl["referenceId"])
		}
		if lineWith(after, food("lemon")) != nil || lineWith(after, food("chicken broth")) != nil {
			t.Errorf("the lemon or the chicken broth is still there: %v", after)
		}
		if added := after[1]; !strings.Contains(fmt.Sprint(added["display"], added["note"], added["food"]), "parmesan") {
			t.Errorf("the added line is not after the rice: %v", after)
		}
		// A match that fits two lines, or none, writes nothing.
		for _, bad := range []struct {
			req  *recipesv1.UpdateRecipeRequest
			want []string
		}{
			{&recipesv1.UpdateRecipeRequest{Slug: slug, RemoveIngredients: []string{"broth"}}, []string{"fits 2 lines", "vegetable broth", "beef broth"}},
			{&recipesv1.UpdateRecipeRequest{Slug: slug, ReplaceIngredients: []*recipesv1.LineEdit{{Match: "anchovy", Line: "2 anchovies"}}}, []string{"fits no line", "beef broth"}},
			{&recipesv1.UpdateRecipeRequest{Slug: slug, RemoveIngredients: []string{"olive oil"}, ReplaceIngredients: []*recipesv1.LineEdit{{Match: "extra virgin", Line: "2 tbsp butter"}}}, []string{"both name the line"}},
		} {
			_, err := m.client.UpdateRecipe(c, connect.NewRequest(bad.req))
			if connect.CodeOf(err) != connect.CodeInvalidArgument {
				t.Errorf("%v: err = %v, want InvalidArgument", bad.req, err)
				continue
			}
			for _, w := range bad.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v: %v does not say %q", bad.req, err, w)
				}
			}
		}
		again := storedLines(m.recipe(slug))
		for i := range after {
			if d := sameLine(after[i], again[i]); len(d) > 0 {
				t.Errorf("a refused edit changed line %d: %s", i, strings.Join(d, "; "))
			}
		}
	})
}

// TestLineEditsRefusedBeforeAnyRequest: line edits with the whole list,
// or with an empty match or line, are refused before Mealie hears of them.
func TestLineEditsRefusedBeforeAnyRequest(t *testing.T) {
	s := newStack(t, "3.20")
	c := ctx(t)
	for _, req := range []*recipesv1.UpdateRecipeRequest{
		{Slug: "pancakes", SetIngredients: true, Ingredients: textLinesOf("1 egg"), RemoveIngredients: []string{"milk"}},
		{Slug: "pancakes", RemoveIngredients: []string{" "}},
		{Slug: "pancakes", ReplaceIngredients: []*recipesv1.LineEdit{{Match: "milk", Line: ""}}},
		{Slug: "pancakes", AddIngredients: []*recipesv1.LineEdit{{Line: ""}}},
	} {
		n := len(s.mealie.Requests())
		if _, err := s.client.UpdateRecipe(c, connect.NewRequest(req)); connect.CodeOf(err) != connect.CodeInvalidArgument {
			t.Errorf("%v: err = %v, want InvalidArgument", req, err)
		}
		if got := len(s.mealie.Requests()); got != n {
			t.Errorf("%v: %d Mealie requests before the refusal", req, got-n)
		}
	}
}

// TestSearchByTimeAndHistory: max_total_minutes reads every time Mealie
// stores ("1 hour 5 minutes", "PT25M", a prep and a cook time with no
// total) into minutes, leaves out and counts the recipes with none, and
// never_made keeps the recipes never made; total_minutes is a field of
// the results.
func TestSearchByTimeAndHistory(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		w := word()
		make := func(name string, patch map[string]any) string {
			t.Helper()
			st, o := m.api(http.MethodPost, "/api/recipes", map[string]any{"name": name})
			if st != http.StatusCreated {
				t.Fatalf("create %s: %d %v", name, st, o)
			}
			var slug string
			m.t.Cleanup(func() { m.api(http.MethodDelete, "/api/recipes/"+slug, nil) })
			// the create answers the slug as a bare string
			_, r := m.api(http.MethodGet, "/api/recipes?perPage=1&search="+strings.ReplaceAll(name, " ", "+"), nil)
			items, _ := r["items"].([]any)
			if len(items) == 0 {
				t.Fatalf("%s not found after create", name)
			}
			slug = items[0].(map[string]any)["slug"].(string)
			if st, o := m.api(http.MethodPatch, "/api/recipes/"+slug, patch); st != http.StatusOK {
				t.Fatalf("patch %s: %d %v", name, st, o)
			}
			return slug
		}
		quick := make(w+" quick", map[string]any{"totalTime": "25 minutes"})
		iso := make(w+" iso", map[string]any{"totalTime": "PT25M"})
		parts := make(w+" parts", map[string]any{"prepTime": "10 minutes", "performTime": "15 minutes"})
		slow := make(w+" slow", map[string]any{"totalTime": "1 hour 5 minutes"})
		make(w+" untimed", map[string]any{"description": "no time given"})
		made := make(w+" made", map[string]any{"totalTime": "20 min"})
		if st, o := m.api(http.MethodPatch, "/api/recipes/"+made+"/last-made", map[string]any{"timestamp": "2026-01-15T18:00:00"}); st != http.StatusOK {
			t.Fatalf("last-made: %d %v", st, o)
		}
		res, err := m.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Query: w, MaxTotalMinutes: proto.Int32(30)}))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range res.Msg.Items {
			got = append(got, fmt.Sprintf("%s %d", it.GetSlug(), it.GetTotalMinutes()))
		}
		slices.Sort(got)
		want := []string{iso + " 25", made + " 20", parts + " 25", quick + " 25"}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("at most 30 minutes: %q, want %q", got, want)
		}
		if res.Msg.NoTime != 1 || res.Msg.Total != 4 {
			t.Errorf("no_time = %d, total = %d; want 1 and 4", res.Msg.NoTime, res.Msg.Total)
		}
		never, err := m.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Query: w, MaxTotalMinutes: proto.Int32(30), NeverMade: true, Limit: proto.Int32(2), Page: proto.Int32(2)}))
		if err != nil {
			t.Fatal(err)
		}
		if never.Msg.Total != 3 || never.Msg.TotalPages != 2 || len(never.Msg.Items) != 1 {
			t.Errorf("never made, page 2 of 2: total %d, pages %d, items %v", never.Msg.Total, never.Msg.TotalPages, never.Msg.Items)
		}
		all, err := m.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Query: w, NeverMade: true, Fields: []string{"total_minutes"}, Limit: proto.Int32(100)}))
		if err != nil {
			t.Fatal(err)
		}
		var slow1 *recipesv1.RecipeSummary
		for _, it := range all.Msg.Items {
			if it.GetSlug() == made {
				t.Errorf("never_made listed the recipe made on 2026-01-15")
			}
			if it.GetSlug() == slow {
				slow1 = it
			}
		}
		if all.Msg.Total != 5 || slow1 == nil || slow1.GetTotalMinutes() != 65 {
			t.Errorf("never made: total %d, the slow one %v", all.Msg.Total, slow1)
		}
	})
}

// TestSeveralNamesSomeUnknown: a search or a suggestion naming several
// foods (or tags), some of which the library does not know, runs with the
// ones it knows and answers each unknown one with the names closest in
// meaning: the foods of the recipes that mention it, never a staple or a
// name that only looks alike; a call whose names are all unknown is
// refused with the same closest names.
func TestSeveralNamesSomeUnknown(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		w := word()
		pasta, salt, spaghetti, dragon := "pasta"+w, w+" salt", "spaghetti"+w, "dragonfruit"+w
		m.taxonomy("foods", pasta)
		m.taxonomy("foods", salt)
		tag := m.organizer("tags", "weeknight"+w)
		recipe := func(name string, foods ...string) {
			t.Helper()
			var in []*recipesv1.IngredientInput
			for _, f := range foods {
				in = append(in, structuredLine(1, "", f, ""))
			}
			var slug string
			m.forget(&slug)
			res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: name, Ingredients: in, Tags: []string{tag}}))
			if err != nil {
				t.Fatal(err)
			}
			slug = res.Msg.Slug
		}
		recipe(spaghetti+" bake", pasta, salt)
		recipe("Salted soup "+w, salt)
		recipe("Salted bread "+w, salt)
		res, err := m.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Foods: []string{pasta, spaghetti}, Tags: []string{tag, "veggie" + w}}))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Msg.Items) != 1 || !strings.Contains(res.Msg.Items[0].GetName(), spaghetti) {
			t.Errorf("searched with %s: %v", pasta, res.Msg.Items)
		}
		got := map[string][]string{}
		for _, u := range res.Msg.Unknown {
			got[u.GetField()+":"+u.GetName()] = u.GetClosest()
		}
		if cl := got["foods:"+spaghetti]; len(cl) == 0 || cl[0] != pasta || slices.Contains(cl, salt) {
			t.Errorf("closest to %s = %q, want %s first and never %s", spaghetti, cl, pasta, salt)
		}
		if _, ok := got["tags:veggie"+w]; !ok || len(got) != 2 {
			t.Errorf("unknown = %v", got)
		}
		_, err = m.client.SearchRecipes(c, connect.NewRequest(&recipesv1.SearchRecipesRequest{Foods: []string{spaghetti, dragon}}))
		if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), `"`+pasta+`"`) || !strings.Contains(err.Error(), dragon) {
			t.Errorf("every food unknown: err = %v", err)
		}
		sg, err := m.client.SuggestRecipes(c, connect.NewRequest(&recipesv1.SuggestRecipesRequest{Foods: []string{pasta, spaghetti}, MaxMissingFoods: proto.Int32(5)}))
		if err != nil {
			t.Fatal(err)
		}
		if len(sg.Msg.Items) == 0 || !slices.Equal(sg.Msg.Items[0].GetUses(), []string{pasta}) {
			t.Errorf("suggestions = %v, want the bake first, using %s", sg.Msg.Items, pasta)
		}
		if !slices.Equal(sg.Msg.UnknownFoods, []string{spaghetti}) || len(sg.Msg.Unknown) != 1 || len(sg.Msg.Unknown[0].GetClosest()) == 0 || sg.Msg.Unknown[0].GetClosest()[0] != pasta {
			t.Errorf("unknown_foods = %q, unknown = %v", sg.Msg.UnknownFoods, sg.Msg.Unknown)
		}
		_, err = m.client.SuggestRecipes(c, connect.NewRequest(&recipesv1.SuggestRecipesRequest{Foods: []string{spaghetti}}))
		if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), pasta) {
			t.Errorf("suggest with every food unknown: err = %v", err)
		}
	})
}

// organizer creates a tag, category or tool through Mealie's API and
// deletes it at the end; it returns the name.
func (m *mealieTarget) organizer(kind, name string) string {
	m.t.Helper()
	st, o := m.api(http.MethodPost, "/api/organizers/"+kind, map[string]any{"name": name})
	id, _ := o["id"].(string)
	if st != http.StatusCreated && st != http.StatusOK || id == "" {
		m.t.Fatalf("creating %s %q: %d %v", kind, name, st, o)
	}
	m.t.Cleanup(func() { m.api(http.MethodDelete, "/api/organizers/"+kind+"/"+id, nil) })
	return name
}

// TestSuggestNeverDropsARecipeUsingMoreNamedFoods: asked for two foods
// with room for nine missing, a recipe using both and missing nine is
// offered first, though four recipes using one of them and missing
// nothing fill Mealie's own finder's limit (its order is fewest missing).
func TestSuggestNeverDropsARecipeUsingMoreNamedFoods(t *testing.T) {
	eachMealie(t, func(t *testing.T, m *mealieTarget) {
		c := ctx(t)
		w := word()
		thighs, lime := "thighs"+w, "lime"+w
		m.taxonomy("foods", thighs)
		m.taxonomy("foods", lime)
		recipe := func(name string, foods ...string) string {
			t.Helper()
			var in []*recipesv1.IngredientInput
			for _, f := range foods {
				in = append(in, structuredLine(1, "", f, ""))
			}
			var slug string
			m.forget(&slug)
			res, err := m.client.CreateRecipe(c, connect.NewRequest(&recipesv1.CreateRecipeRequest{Name: name, Ingredients: in}))
			if err != nil {
				t.Fatal(err)
			}
			slug = res.Msg.Slug
			return slug
		}
		var others []string
		for i := range 9 {
			f := fmt.Sprintf("other%d%s", i, w)
			m.taxonomy("foods", f)
			others = append(others, f)
		}
		both := recipe("Both "+w, append([]string{thighs, lime}, others...)...)
		for i := range 4 {
			recipe(fmt.Sprintf("Lime only %d %s", i, w), lime)
		}
		res, err := m.client.SuggestRecipes(c, connect.NewRequest(&recipesv1.SuggestRecipesRequest{Foods: []string{thighs, lime}, MaxMissingFoods: proto.Int32(9), Limit: 3}))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range res.Msg.Items {
			got = append(got, it.GetRecipe().GetSlug())
		}
		if len(got) == 0 || got[0] != both || !slices.Equal(res.Msg.Items[0].GetUses(), []string{thighs, lime}) {
			t.Errorf("suggestions %q, the first using %q; want %s first, using both", got, res.Msg.Items[0].GetUses(), both)
		}
	})
}

// word is a lower-case word of letters no other run uses, for names that go
// through Mealie's parser: a digit inside a word ("w123 broth") is read as
// an amount by the real nlp parser, and the test would be of the parser.
func word() string {
	n := time.Now().UnixNano()
	b := []byte("z")
	for range 9 {
		b = append(b, byte('a'+n%26))
		n /= 26
	}
	return string(b)
}
