package pantry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
)

// The testdata payloads are the food API's answers for the demo kitchen
// (foodapi kitchen/demo.py): GET /api/pantry/,
// /api/what-can-i-cook/?servings=4 and /api/meta-recipes/.

func load(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func TestNumberReadsNumbersStringsAndNull(t *testing.T) {
	tests := []struct {
		in   string
		want *float64
	}{
		{`2.5`, ptr(2.5)},
		{`"0.125"`, ptr(0.125)},
		{`null`, nil},
		{`""`, nil},
	}
	for _, tt := range tests {
		var n number
		if err := json.Unmarshal([]byte(tt.in), &n); err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		got := n.ptr()
		if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
			t.Errorf("%s = %v, want %v", tt.in, got, tt.want)
		}
	}
	var n number
	if err := json.Unmarshal([]byte(`"a lot"`), &n); err == nil {
		t.Error(`"a lot" read as a number`)
	}
}

func ptr(v float64) *float64 { return &v }

func TestGroupPantry(t *testing.T) {
	var items []apiItem
	load(t, "pantry.json", &items)
	tests := []struct {
		name       string
		includeOut bool
		listed     int
	}{
		{"without out items", false, 24},
		{"with out items", true, 27},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			groups, counts := groupPantry(items, tt.includeOut)
			if counts.InStock != 19 || counts.Low != 5 || counts.Out != 3 {
				t.Errorf("counts = %v, want 19 in, 5 low, 3 out whatever is listed", counts)
			}
			var listed int
			var order []pantryv1.Location
			for _, g := range groups {
				order = append(order, g.Location)
				listed += len(g.Items)
				for i := 1; i < len(g.Items); i++ {
					if g.Items[i-1].Name > g.Items[i].Name {
						t.Errorf("%v: %s before %s", g.Location, g.Items[i-1].Name, g.Items[i].Name)
					}
				}
				for _, it := range g.Items {
					if it.State == pantryv1.ItemState_ITEM_STATE_OUT && !tt.includeOut {
						t.Errorf("%s is out but listed", it.Name)
					}
				}
			}
			if listed != tt.listed {
				t.Errorf("listed %d, want %d", listed, tt.listed)
			}
			want := []pantryv1.Location{pantryv1.Location_LOCATION_FRIDGE, pantryv1.Location_LOCATION_CUPBOARD, pantryv1.Location_LOCATION_FREEZER}
			if !slices.Equal(order, want) {
				t.Errorf("groups %v, want %v", order, want)
			}
		})
	}
}

func TestItemShape(t *testing.T) {
	var items []apiItem
	load(t, "pantry.json", &items)
	var milk, soy *pantryv1.PantryItem
	for _, a := range items {
		switch a.Ingredient {
		case "milk":
			milk = item(a)
		case "soy sauce":
			soy = item(a)
		}
	}
	if milk.GetState() != pantryv1.ItemState_ITEM_STATE_LOW || milk.GetLocation() != pantryv1.Location_LOCATION_FRIDGE ||
		milk.Quantity == nil || milk.GetQuantity() != 0.3 || milk.GetUnit() != "l" || len(milk.GetExpiry()) != len("2006-01-02") || !milk.GetIsStaple() {
		t.Errorf("milk = %v", milk)
	}
	if soy.Quantity != nil || soy.GetExpiry() != "" || !slices.Contains(soy.GetAliases(), "light soy") {
		t.Errorf("soy sauce = %v; want no quantity, no expiry, alias light soy", soy)
	}
}

func TestMatches(t *testing.T) {
	var body struct {
		Results []apiMatch `json:"results"`
	}
	load(t, "what_can_i_cook.json", &body)
	items, warnings := matches(body.Results)
	if len(items) != 4 {
		t.Fatalf("%d matches, want 4", len(items))
	}
	for i := 1; i < len(items); i++ {
		if items[i-1].Status > items[i].Status {
			t.Errorf("%s (%v) before %s (%v)", items[i-1].Name, items[i-1].Status, items[i].Name, items[i].Status)
		}
	}
	byName := map[string]*pantryv1.MetaRecipeMatch{}
	for _, m := range items {
		byName[m.Name] = m
	}
	fr := byName["Frittata"]
	if fr.Status != pantryv1.MatchStatus_MATCH_STATUS_PARTIAL || !slices.Equal(fr.MissingBase, []string{"eggs"}) {
		t.Errorf("Frittata = %v, want partial, missing eggs", fr)
	}
	var filling *pantryv1.SlotAvailability
	for _, s := range fr.Slots {
		if s.Slot == "filling" {
			filling = s
		}
	}
	if !slices.Equal(filling.GetAvailable(), []string{"frozen peas", "spring onions"}) ||
		!slices.Equal(filling.GetLow(), []string{"spring onions"}) || !slices.Equal(filling.GetMissing(), []string{"bacon"}) {
		t.Errorf("Frittata filling = %v", filling)
	}

	// One warning per pantry item, however many recipes use it.
	seen := map[string]bool{}
	for i, w := range warnings {
		key := w.Ingredient + "@" + w.Location.String()
		if seen[key] {
			t.Errorf("two warnings for %s", key)
		}
		seen[key] = true
		if i > 0 && warnings[i-1].DaysLeft > w.DaysLeft {
			t.Errorf("warnings not soonest first at %s", w.Ingredient)
		}
		if !slices.IsSorted(w.UsedBy) || len(w.UsedBy) == 0 {
			t.Errorf("%s used_by = %v", w.Ingredient, w.UsedBy)
		}
	}
	var pork *pantryv1.ExpiryWarning
	for _, w := range warnings {
		if w.Ingredient == "pork mince" {
			pork = w
		}
	}
	if pork == nil || pork.DaysLeft != 1 || pork.Location != pantryv1.Location_LOCATION_FRIDGE ||
		!slices.Equal(pork.UsedBy, []string{"Egg fried rice", "Weeknight stir-fry"}) {
		t.Errorf("pork mince warning = %v; want 1 day, fridge, used by fried rice and stir-fry", pork)
	}
}

func TestMetaRecipeShape(t *testing.T) {
	var list []apiMetaRecipe
	load(t, "meta_recipes.json", &list)
	var curry *pantryv1.MetaRecipe
	for _, a := range list {
		if a.Name == "Chickpea curry" {
			curry = metaRecipe(a)
		}
	}
	if curry == nil || curry.Id == 0 || curry.Method == "" || len(curry.Slots) != 2 || len(curry.BaseIngredients) != 7 {
		t.Fatalf("curry = %v", curry)
	}
	if o := curry.Slots[0].Options[0]; curry.Slots[0].Name != "greens" || o.Ingredient != "bok choy" || o.GetQuantity() != 2 || o.Unit != "heads" {
		t.Errorf("curry greens = %v", curry.Slots[0])
	}
}
