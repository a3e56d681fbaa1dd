package mealie

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// TestRecipePatchJSON holds the PATCH bodies to the bytes Mealie received
// from sous: the tags and settings bodies are the recorded requests of
// integration/contract/testdata/recordings/2.0 (TestPatchReplacesTags,
// TestIngredientDisplay), whose keys match sous's; the texts are
// TestRecipePatchFields' values as sous writes them; the full create is
// the body a create with lines, steps, a category and tags sent before the
// patch was typed (sorted keys, as encoding/json wrote the map, and its
// HTML escaping of "&").
func TestRecipePatchJSON(t *testing.T) {
	hidden := &Recipe{Settings: map[string]any{
		"disableAmount": true, "disableComments": false, "landscapeView": false, "locked": false,
		"public": false, "showAssets": false, "showNutrition": false,
	}}
	shown, ok := hidden.SettingsWith(false)
	if !ok || shown == nil {
		t.Fatalf("SettingsWith(false) = %v, %v", shown, ok)
	}
	for _, tc := range []struct {
		name  string
		patch RecipePatch
		want  string
	}{
		{"nothing", RecipePatch{}, `{}`},
		{"tags", RecipePatch{Tags: []Organizer{
			{ID: "49dbe942-2ccc-482f-ae9e-d0e256d0a70c", Name: "Contract Dinner 620893145", Slug: "contract-dinner-620893145"},
			{ID: "47b03eb4-4113-4667-b363-01da80325119", Name: "Contract Spicy 620894862", Slug: "contract-spicy-620894862"},
		}}, `{"tags":[{"id":"49dbe942-2ccc-482f-ae9e-d0e256d0a70c","name":"Contract Dinner 620893145","slug":"contract-dinner-620893145"},{"id":"47b03eb4-4113-4667-b363-01da80325119","name":"Contract Spicy 620894862","slug":"contract-spicy-620894862"}]}`},
		{"settings whole", RecipePatch{Settings: shown},
			`{"settings":{"disableAmount":false,"disableComments":false,"landscapeView":false,"locked":false,"public":false,"showAssets":false,"showNutrition":false}}`},
		{"texts and notes", RecipePatch{
			Description: ptr("Creamy."), Notes: []RecipeNote{{Title: "Tip", Text: "Stir often."}},
			OrgURL: ptr("https://example.org/risotto"), PerformTime: ptr("25 minutes"), PrepTime: ptr("10 minutes"),
			RecipeYield: ptr("4 servings"), TotalTime: ptr("35 minutes"),
		}, `{"description":"Creamy.","notes":[{"title":"Tip","text":"Stir often."}],"orgURL":"https://example.org/risotto","performTime":"25 minutes","prepTime":"10 minutes","recipeYield":"4 servings","totalTime":"35 minutes"}`},
		{"cleared", RecipePatch{
			Description: ptr(""), Notes: []RecipeNote{}, Ingredients: []IngredientLine{}, Instructions: []InstructionStep{},
			Tags: []Organizer{}, Categories: []Organizer{}, Tools: []Organizer{},
		}, `{"description":"","notes":[],"recipeCategory":[],"recipeIngredient":[],"recipeInstructions":[],"tags":[],"tools":[]}`},
		{"full create", RecipePatch{
			Categories: []Organizer{{ID: "4801c146-0d33-45a7-b8c8-97c30a20d912", Name: "Dinner", Slug: "dinner"}},
			Ingredients: []IngredientLine{
				{ReferenceID: "ee94d276-81bf-49ac-96bb-204d07b935c4", Quantity: ptr(2.0), Unit: &IngredientRef{ID: "69981471-1dfb-405b-9de5-c9d72f0ca869", Name: "cup"},
					Food: &IngredientRef{ID: "c20613de-050e-4228-9bb6-ec224754ffc0", Name: "flour"}, Note: "sifted", OriginalText: "2 cups flour, sifted"},
				{ReferenceID: "731e6eb2-f38f-4f0d-9afb-2428bfeb8d78", Quantity: ptr(1.5), Unit: &IngredientRef{ID: "6f71dac1-d901-4105-8a61-9a938bfb3d2a", Name: "tablespoon"},
					Note: "sugar", OriginalText: "1 1/2 tbsp sugar"},
				{ReferenceID: "ff16958e-367d-4a66-b260-f97e4abed5c8", Note: "salt to taste", OriginalText: "salt to taste", Display: "salt to taste"},
			},
			Instructions: []InstructionStep{{ID: "dee92e6d-720a-464d-a091-0d5de2e8047b", Text: "Mix.", IngredientReferences: []string{}}},
			Settings:     shown,
			Tags:         []Organizer{{ID: "d8a2a9d5-ac8a-4924-95af-a08c183019aa", Name: "Quick & Easy", Slug: "quick-easy"}},
		}, `{"recipeCategory":[{"id":"4801c146-0d33-45a7-b8c8-97c30a20d912","name":"Dinner","slug":"dinner"}],` +
			`"recipeIngredient":[{"referenceId":"ee94d276-81bf-49ac-96bb-204d07b935c4","quantity":2,"unit":{"id":"69981471-1dfb-405b-9de5-c9d72f0ca869","name":"cup"},"food":{"id":"c20613de-050e-4228-9bb6-ec224754ffc0","name":"flour"},"note":"sifted","originalText":"2 cups flour, sifted","display":""},` +
			`{"referenceId":"731e6eb2-f38f-4f0d-9afb-2428bfeb8d78","quantity":1.5,"unit":{"id":"6f71dac1-d901-4105-8a61-9a938bfb3d2a","name":"tablespoon"},"food":null,"note":"sugar","originalText":"1 1/2 tbsp sugar","display":""},` +
			`{"referenceId":"ff16958e-367d-4a66-b260-f97e4abed5c8","quantity":null,"unit":null,"food":null,"note":"salt to taste","originalText":"salt to taste","display":"salt to taste"}],` +
			`"recipeInstructions":[{"id":"dee92e6d-720a-464d-a091-0d5de2e8047b","title":"","text":"Mix.","ingredientReferences":[]}],` +
			`"settings":{"disableAmount":false,"disableComments":false,"landscapeView":false,"locked":false,"public":false,"showAssets":false,"showNutrition":false},` +
			`"tags":[{"id":"d8a2a9d5-ac8a-4924-95af-a08c183019aa","name":"Quick \u0026 Easy","slug":"quick-easy"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(&tc.patch)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("body\n got %s\nwant %s", got, tc.want)
			}
			if zero := tc.name == "nothing"; tc.patch.IsZero() != zero {
				t.Errorf("IsZero = %v, want %v", !zero, zero)
			}
		})
	}
}

// TestSettingsWith: the settings are sent whole (a partial object resets
// the others on 2.0 and 2.8, see Recipe.Settings), nothing is sent when the
// setting already reads as asked, and Mealie 3 has no such setting.
func TestSettingsWith(t *testing.T) {
	r := &Recipe{Settings: map[string]any{"disableAmount": false, "public": true}}
	if st, ok := r.SettingsWith(false); st != nil || !ok {
		t.Errorf("unchanged = %v, %v; want nil, true", st, ok)
	}
	st, ok := r.SettingsWith(true)
	if b, _ := json.Marshal(st); !ok || string(b) != `{"disableAmount":true,"public":true}` || !st.AmountsHidden() {
		t.Errorf("hide = %s, %v", b, ok)
	}
	if r.Settings["disableAmount"] != false {
		t.Errorf("the read recipe's settings changed: %v", r.Settings)
	}
	if st, ok := (&Recipe{Settings: map[string]any{"public": true}}).SettingsWith(true); st != nil || ok {
		t.Errorf("Mealie 3 = %v, %v; want nil, false", st, ok)
	}
}

// TestRenameBody: a rename PUTs the recipe as read, every field kept, with
// the patch, the new name and its slug, and taxonomy trimmed to what Mealie
// accepts back (recipes_get__before_put_rename, the recipe sous renamed on
// Mealie 2.0).
func TestRenameBody(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "recipes", "testdata", "recipes_get__before_put_rename.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c capture
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	var read map[string]any
	if err := json.Unmarshal(c.Response.JSON, &read); err != nil {
		t.Fatal(err)
	}
	out, err := renameBody(c.Response.JSON, &RecipePatch{Description: ptr("new")}, "Pancakes Deluxe")
	if err != nil {
		t.Fatal(err)
	}
	enc, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(enc, &body); err != nil {
		t.Fatal(err)
	}
	if body["name"] != "Pancakes Deluxe" || body["slug"] != "pancakes-deluxe" || body["description"] != "new" || body["id"] == nil {
		t.Errorf("name/slug/description/id = %v %v %v %v", body["name"], body["slug"], body["description"], body["id"])
	}
	for k := range read {
		if _, ok := body[k]; !ok {
			t.Errorf("field %q Mealie sent is not sent back", k)
		}
	}
	for _, tag := range body["tags"].([]any) {
		if len(tag.(map[string]any)) > 4 {
			t.Errorf("tag not trimmed: %v", tag)
		}
	}
	for _, in := range body["recipeIngredient"].([]any) {
		m := in.(map[string]any)
		if m["referenceId"] == nil {
			t.Errorf("ingredient without referenceId: %v", m)
		}
		if f, ok := m["food"].(map[string]any); ok && len(f) > 2 {
			t.Errorf("food not trimmed: %v", f)
		}
	}
	for _, st := range body["recipeInstructions"].([]any) {
		if st.(map[string]any)["ingredientReferences"] == nil {
			t.Errorf("step without ingredientReferences: %v", st)
		}
	}
	if _, err := renameBody([]byte(`[1]`), &RecipePatch{}, "x"); err == nil {
		t.Error("a body that is not an object was accepted")
	}
}

// TestTaxonomyChangeBody: a create sends the fields set and no others; an
// update sends the row as read, without the keys Mealie refuses back, with
// the change (keys sorted, as encoding/json writes a map).
func TestTaxonomyChangeBody(t *testing.T) {
	create := map[string]any{}
	(&TaxonomyChange{Name: ptr("tablespoon"), Abbreviation: ptr("tbsp"), Description: ptr("")}).applyTo(create)
	if b, _ := json.Marshal(create); string(b) != `{"abbreviation":"tbsp","description":"","name":"tablespoon"}` {
		t.Errorf("create body = %s", b)
	}
	var cur TaxonomyItem
	if err := json.Unmarshal([]byte(`{"id":"f1","name":"Flour","onHand":false,"createdAt":"2026-01-01","label":{"name":"Baking"},"extras":{"k":"v"}}`), &cur); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal((&TaxonomyChange{OnHand: ptr(true)}).onto(&cur)); string(b) != `{"extras":{"k":"v"},"id":"f1","name":"Flour","onHand":true}` {
		t.Errorf("update body = %s", b)
	}
	if _, ok := cur.Raw["createdAt"]; !ok {
		t.Error("the row as read lost a key")
	}
}

// A kept line goes back byte for byte as Mealie sent it, every field sous
// does not read included; a retitled one changes its title alone.
func TestKeptLineMarshalsAsRead(t *testing.T) {
	raw := json.RawMessage(`{"quantity":1.5,"unit":{"id":"u1","name":"cup","abbreviation":"c"},"food":{"id":"f1","name":"rice","labelId":null},"note":"","isFood":true,"disableAmount":false,"display":"1½ cups rice","title":null,"originalText":null,"referenceId":"r1"}`)
	b, err := json.Marshal(KeptLine(raw))
	if err != nil || string(b) != string(raw) {
		t.Fatalf("kept line = %s, %v", b, err)
	}
	var got map[string]any
	b, _ = json.Marshal(KeptLineTitled(raw, "For the rice"))
	_ = json.Unmarshal(b, &got)
	var want map[string]any
	_ = json.Unmarshal(raw, &want)
	want["title"] = "For the rice"
	if gb, wb := mustMarshal(got), mustMarshal(want); gb != wb {
		t.Errorf("retitled line = %s, want %s", gb, wb)
	}
	// a line sous builds still marshals from its fields
	if b, _ := json.Marshal(IngredientLine{ReferenceID: "r2", Note: "salt"}); !strings.Contains(string(b), `"note":"salt"`) {
		t.Errorf("built line = %s", b)
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
