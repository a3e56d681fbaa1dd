package recipes

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/services/internal/mealie"
)

// TestRecordParses records how a live Mealie's parser reads the lines of
// testdata/parsed/lines.txt (the lines of a household's pasted recipe, then
// every ingredient line of the 38 public recipe pages a realistic library
// is imported from) into testdata/parsed/parsed-<parser>-<version>.json,
// which the tests replay (TestLineLosesNothing, TestRecordedParsesStore).
// It runs only when asked, against a Mealie that holds no foods and no
// units, so every name comes back as the parser read it:
//
//	MEALIE_RECORD_PARSES=nlp MEALIE_URL=… MEALIE_API_TOKEN=… go test -run TestRecordParses ./services/recipes/
//
// 2.8 and later read nlp with ingredient-parser's model and NLTK's
// averaged-perceptron tagger (the tagger files must be where NLTK_DATA
// points); 2.0's nlp needs CRF++, so 2.0 records brute.
func TestRecordParses(t *testing.T) {
	parser := os.Getenv("MEALIE_RECORD_PARSES")
	if parser == "" {
		t.Skip("records live parses only with MEALIE_RECORD_PARSES=nlp|brute, MEALIE_URL and MEALIE_API_TOKEN")
	}
	c, err := mealie.New(mealie.Config{BaseURL: os.Getenv("MEALIE_URL"), Token: os.Getenv("MEALIE_API_TOKEN")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	about, err := c.About(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "parsed", "lines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var rows []map[string]any
	for start := 0; start < len(lines); start += 50 {
		chunk := lines[start:min(start+50, len(lines))]
		got, err := c.ParseIngredients(ctx, parser, chunk)
		if err != nil {
			t.Fatalf("lines %d to %d: %v", start, start+len(chunk), err)
		}
		for _, p := range got {
			in := p.Ingredient
			row := map[string]any{"input": p.Input, "quantity": in.Quantity, "unit": nil, "food": nil, "note": in.Note, "display": in.Display}
			if in.Unit != nil {
				row["unit"] = in.Unit.Name
			}
			if in.Food != nil {
				row["food"] = in.Food.Name
			}
			rows = append(rows, row)
		}
	}
	folder := recordingFolder(about.Version)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(rows); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "parsed", "parsed-"+parser+"-"+folder+".json")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d lines read by %s on Mealie %s into %s", len(rows), parser, about.Version, path)
}

// recordingFolder names a Mealie version as the recordings do
// (docs/mealie-versions.md "Recording a version"): 2.0.x as 2.0, other 2.x
// as 2.8, 3.0 to 3.19 as 3.11, 3.20 and later as 3.20. A source build
// reports "develop": MEALIE_RECORD_AS names its folder.
func recordingFolder(v string) string {
	if as := os.Getenv("MEALIE_RECORD_AS"); as != "" {
		return as
	}
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimPrefix(v, "v"), "%d.%d", &major, &minor); err != nil {
		return "3.20"
	}
	switch {
	case major == 2 && minor == 0:
		return "2.0"
	case major == 2:
		return "2.8"
	case major == 3 && minor < 20:
		return "3.11"
	}
	return "3.20"
}
