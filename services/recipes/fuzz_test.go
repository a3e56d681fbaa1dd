package recipes

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/souskitchen/sous/services/internal/mealie"
)

// The shapers turn whatever Mealie sends into the compact recipe messages.
// Mealie is a third party whose payloads differ by version and whose
// fields are often null, missing or of another type, so the shapers must
// never panic and must always produce a message that marshals (valid
// UTF-8, no NaN surprises in the wire format). Seeds: the 2.0 captures in
// testdata plus the committed corpus in testdata/fuzz.

// addCaptureSeeds adds the response bodies of captures as seeds.
func addCaptureSeeds(f *testing.F, names ...string) {
	for _, n := range names {
		f.Add([]byte(captureBody(f, n, nil)))
	}
}

func FuzzShapeRecipeDetail(f *testing.F) {
	addCaptureSeeds(f, "recipes_get__fresh", "recipes_get__after_patches", "recipes_get__before_put_rename")
	f.Fuzz(func(t *testing.T, body []byte) {
		var r mealie.Recipe
		if json.Unmarshal(body, &r) != nil {
			return // the client reports an unreadable body as a protocol error
		}
		out := detail(&r)
		if out == nil {
			t.Fatal("detail returned nil for a decodable recipe")
		}
		raw, err := protojson.Marshal(out)
		if err != nil {
			t.Fatalf("shaped recipe does not marshal: %v", err)
		}
		if !utf8.Valid(raw) {
			t.Fatal("shaped recipe is not valid UTF-8")
		}
		for i := range r.Ingredients {
			if ing := ingredient(&r.Ingredients[i]); ing == nil {
				t.Fatal("ingredient returned nil")
			}
		}
	})
}

func FuzzShapeRecipeSummaries(f *testing.F) {
	addCaptureSeeds(f, "recipes_list__default")
	f.Fuzz(func(t *testing.T, body []byte) {
		var page mealie.Page[mealie.RecipeSummary]
		if json.Unmarshal(body, &page) != nil {
			return
		}
		for i := range page.Items {
			s := summary(&page.Items[i])
			if s == nil {
				t.Fatal("summary returned nil")
			}
			if _, err := protojson.Marshal(s); err != nil {
				t.Fatalf("shaped summary does not marshal: %v", err)
			}
			project(s, []string{"name", "tags", "last_made"}, "slug")
		}
	})
}
