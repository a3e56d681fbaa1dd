package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/integration/harness"
	"github.com/souskitchen/sous/internal/foodapiproc"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// importPageURL and importPageHTML are the one web page the emulator serves
// to a URL import in these tests.
const importPageURL = "https://recipes.example.org/e2e-flapjacks"

const importPageHTML = `<html><head><script type="application/ld+json">
{"@context":"https://schema.org","@type":"Recipe","name":"E2E Flapjacks","description":"Oat bars.",
 "recipeIngredient":["250 g oats","125 g butter","125 g golden syrup"],
 "recipeInstructions":[{"@type":"HowToStep","text":"Melt the butter with the syrup."},{"@type":"HowToStep","text":"Stir in the oats and bake 20 minutes."}],
 "keywords":"baking, oats"}
</script></head><body></body></html>`

// writePNG writes a 2x2 PNG into dir and returns its name.
func writePNG(t *testing.T, dir string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "toast.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return "toast.png"
}

// str digs a string out of a decoded answer by keys and indexes.
func str(v any, path ...any) string {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return ""
			}
			v = l[k]
		}
	}
	s, _ := v.(string)
	return s
}

// catalogVersions are the emulator's Mealie profiles (internal/mealieemu
// profile.go); the whole catalog runs on each, over stdio, and on
// pantryVersion over Streamable HTTP too.
var catalogVersions = []string{"2.0", "2.8", "3.11", "3.20"}

// pantryVersion is the one profile whose catalog run also starts the Django
// food API and calls the pantry tools. Those tools talk to sous's food API,
// not to Mealie, so one profile covers them; starting the food API costs
// seconds, and a start per profile would push this package past a minute on a
// two-core machine.
const pantryVersion = "2.8"

// TestEveryTool calls every tool of the catalog at least once through a real
// MCP client against the Mealie emulator's demo seed on every Mealie
// profile, and on pantryVersion over both stdio and Streamable HTTP with,
// when its virtualenv is present, the Django food API.
func TestEveryTool(t *testing.T) {
	for _, version := range catalogVersions {
		t.Run(version, func(t *testing.T) {
			transports := []string{"stdio", "http"}
			if version != pantryVersion {
				// The transport sits above the services and does not see
				// Mealie's version: one is enough on the other profiles,
				// and keeps this package near a minute.
				transports = transports[:1]
			}
			for _, transport := range transports {
				t.Run(transport, func(t *testing.T) { everyTool(t, version, transport) })
			}
		})
	}
}

// everyTool is one catalog run: one emulator pretending to be version, one
// sous over transport.
func everyTool(t *testing.T, version, transport string) {
	em := mealietest.NewServer(t, mealieemu.WithVersion(version), mealieemu.WithSeed("demo"), mealieemu.WithWebPage(importPageURL, importPageHTML))
	imageDir := t.TempDir()
	pngName := writePNG(t, imageDir)
	// The emulator fetches nothing from the network; set_recipe_image
	// reports an image only when Mealie serves one.
	pngBytes, err := os.ReadFile(filepath.Join(imageDir, pngName))
	if err != nil {
		t.Fatal(err)
	}
	em.ServeImageAt("https://images.example.org/toast.jpg", pngBytes)
	env := []string{"SOUS_IMAGE_DIR=" + imageDir}
	withPantry := false
	_, venvErr := os.Stat(filepath.Join("..", "..", "foodapi", ".venv", "bin", "python"))
	switch {
	case version != pantryVersion:
		t.Logf("pantry tools run on the %s profile only", pantryVersion)
	case venvErr != nil:
		t.Log("the food API virtualenv is missing (make -C foodapi venv): pantry tools are not called")
	default:
		food := harness.StartFoodAPI(t, foodapiproc.Start, foodapiproc.Options{})
		env = append(env, foodEnv(food)...)
		withPantry = true
	}
	var cs *mcp.ClientSession
	if transport == "stdio" {
		cs = stdioSession(t, em, env...)
	} else {
		cs = httpSession(t, em, "/mcp", env...)
	}
	called := map[string]bool{}
	step := func(name string, f func(t *testing.T)) {
		t.Run(name, f)
	}
	ok := func(t *testing.T, tool string, args map[string]any) map[string]any {
		t.Helper()
		called[tool] = true
		return callOK(t, cs, tool, args)
	}
	fails := func(t *testing.T, tool string, args map[string]any, want string) {
		t.Helper()
		called[tool] = true
		text, isErr := callTool(t, cs, tool, args)
		if !isErr || !strings.Contains(text, want) {
			t.Errorf("%s: isError=%v %q, want an error containing %q", tool, isErr, text, want)
		}
	}
	today := time.Now()
	day := func(offset int) string { return today.AddDate(0, 0, offset).Format("2006-01-02") }

	// Recipes.
	step("search_recipes", func(t *testing.T) {
		got := items(t, ok(t, "search_recipes", map[string]any{"query": "chili"}))
		if len(got) == 0 || got[0]["slug"] != "weeknight-chili" {
			t.Errorf("search chili = %v", got)
		}
	})
	step("get_recipe", func(t *testing.T) {
		r := ok(t, "get_recipe", map[string]any{"slug": "weeknight-chili", "fields": []string{"name", "ingredients"}})
		if r["name"] != "Weeknight Chili" || r["ingredients"] == nil || r["description"] != nil {
			t.Errorf("get_recipe fields = %v", r)
		}
	})
	step("suggest_recipes", func(t *testing.T) {
		r := ok(t, "suggest_recipes", map[string]any{"foods": []string{"tomato", "onion"}, "max_missing_foods": 5})
		// 2.0 has no GET /api/recipes/suggestions (profile.go,
		// suggestions): the recipes service ranks locally and says so
		// in a note; later versions answer from Mealie, without one.
		if note, _ := r["note"].(string); (note != "") != (version == "2.0") {
			t.Errorf("note on %s = %q", version, note)
		}
		if len(items(t, r)) == 0 {
			t.Errorf("no suggestion for tomato and onion: %v", r)
		}
	})
	step("parse_ingredients", func(t *testing.T) {
		got := items(t, ok(t, "parse_ingredients", map[string]any{"lines": []string{"2 cups flour"}}))
		if len(got) != 1 || got[0]["input"] != "2 cups flour" {
			t.Errorf("parse = %v", got)
		}
	})
	step("manage_taxonomy", func(t *testing.T) {
		if got := items(t, ok(t, "manage_taxonomy", map[string]any{"resource": "tags"})); len(got) == 0 {
			t.Error("no tags listed")
		}
		created := items(t, ok(t, "manage_taxonomy", map[string]any{"resource": "tags", "action": "create", "name": "E2E Tag"}))
		id := str(created[0], "item_id")
		upd := items(t, ok(t, "manage_taxonomy", map[string]any{"resource": "tags", "action": "update", "item_id": id, "name": "E2E Tag Renamed"}))
		if upd[0]["name"] != "E2E Tag Renamed" {
			t.Errorf("rename = %v", upd)
		}
		del := ok(t, "manage_taxonomy", map[string]any{"resource": "tags", "action": "delete", "item_id": id})
		if fmt.Sprint(del["deleted"]) != "["+id+"]" {
			t.Errorf("delete = %v", del)
		}
		// A tag recipes carry (the demo seed's Spicy) is refused with its
		// count, before any delete reaches Mealie.
		spicy := items(t, ok(t, "manage_taxonomy", map[string]any{"resource": "tags", "search": "spicy"}))
		if len(spicy) != 1 {
			t.Fatalf("tags matching spicy = %v", spicy)
		}
		// The refusal is a tool error naming the tag and how many recipes
		// carry it.
		fails(t, "manage_taxonomy", map[string]any{"resource": "tags", "action": "delete", "item_id": str(spicy[0], "item_id")},
			"recipes use tag 'Spicy', so it was not deleted: delete it anyway with force=true")
		for _, r := range em.Requests() {
			if r.Method == http.MethodDelete && strings.HasSuffix(r.Path, "/"+str(spicy[0], "item_id")) {
				t.Errorf("the refused delete reached Mealie: %s %s", r.Method, r.Path)
			}
		}
		foods := items(t, ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "create", "items": []any{
			map[string]any{"name": "e2e shallot"}, map[string]any{"name": "e2e shallots"}, map[string]any{"name": "e2e Shallots"},
		}}))
		if len(foods) != 3 {
			t.Fatalf("created foods = %v", foods)
		}
		merged := ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "merge", "item_id": str(foods[1], "item_id"), "merge_into": str(foods[0], "item_id")})
		if merged["merged"] == nil {
			t.Errorf("merge = %v", merged)
		}
		// Names that differ only in case are two foods of a real library;
		// the name as written picks one, and Mealie keeps the other.
		ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "create", "items": []any{map[string]any{"name": "e2e SHALLOTS"}}})
		ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "merge", "item_id": "e2e Shallots", "merge_into": "e2e shallot"})
		var left []string
		for _, f := range items(t, ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "search": "e2e"})) {
			left = append(left, str(f, "name"))
		}
		if slices.Sort(left); !slices.Equal(left, []string{"e2e SHALLOTS", "e2e shallot"}) {
			t.Errorf("foods after merging 'e2e Shallots' by name = %q, want e2e SHALLOTS and e2e shallot", left)
		}
		// A food a recipe uses (the demo seed's arborio rice, in one
		// risotto) is refused by sous before any delete reaches
		// Mealie, on every profile.
		rice := items(t, ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "search": "arborio"}))
		if len(rice) != 1 || rice[0]["name"] != "arborio rice" {
			t.Fatalf("foods matching arborio = %v", rice)
		}
		riceID := str(rice[0], "item_id")
		fails(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "delete", "item_id": riceID},
			"1 recipe uses food 'arborio rice', so it was not deleted: use action=merge")
		for _, r := range em.Requests() {
			if r.Method == http.MethodDelete && strings.HasPrefix(r.Path, "/api/foods/") {
				t.Errorf("the refused delete reached Mealie: %s %s", r.Method, r.Path)
			}
		}
		// Forced, Mealie deletes it and blanks the ingredient on every
		// recorded version (contract testdata
		// recordings/<version>/TestDeleteFoodInUseNullsIngredient.json).
		forced := ok(t, "manage_taxonomy", map[string]any{"resource": "foods", "action": "delete", "item_id": riceID, "force": true})
		if fmt.Sprint(forced["deleted"]) != "["+riceID+"]" {
			t.Errorf("forced delete on %s = %v", version, forced)
		}
	})
	step("create_recipe", func(t *testing.T) {
		r := ok(t, "create_recipe", map[string]any{
			"name": "E2E Toast", "description": "Bread, toasted.", "ingredients": []any{"2 slices bread", "1 tablespoon butter"},
			"instructions": []string{"Toast the bread.", "Butter it."}, "tags": []string{"E2E Quick"}, "recipe_yield": "1 serving",
		})
		if r["slug"] != "e2e-toast" {
			t.Fatalf("create = %v", r)
		}
		got := ok(t, "get_recipe", map[string]any{"slug": "e2e-toast"})
		if len(got["instructions"].([]any)) != 2 || !strings.Contains(fmt.Sprint(got["tags"]), "E2E Quick") {
			t.Errorf("created recipe = %v", got)
		}
	})
	step("update_recipe", func(t *testing.T) {
		ok(t, "update_recipe", map[string]any{"slug": "e2e-toast", "tags": []string{"Breakfast"}, "rating": 4})
		got := ok(t, "get_recipe", map[string]any{"slug": "e2e-toast", "fields": []string{"tags", "rating"}})
		tags := fmt.Sprint(got["tags"])
		if !strings.Contains(tags, "Breakfast") || !strings.Contains(tags, "E2E Quick") {
			t.Errorf("tags after a merging update = %v", tags)
		}
	})
	step("set_recipe_image", func(t *testing.T) {
		ok(t, "set_recipe_image", map[string]any{"slug": "e2e-toast", "url": "https://images.example.org/toast.jpg"})
	})
	step("upload_recipe_image", func(t *testing.T) {
		ok(t, "upload_recipe_image", map[string]any{"slug": "e2e-toast", "path": pngName})
		fails(t, "upload_recipe_image", map[string]any{"slug": "e2e-toast", "path": "../../etc/passwd.png"}, "")
	})
	step("bulk_tag_recipes", func(t *testing.T) {
		r := ok(t, "bulk_tag_recipes", map[string]any{"slugs": []string{"e2e-toast", "pancakes"}, "categories": []string{"Breakfast"}})
		if !strings.Contains(fmt.Sprint(r["tagged"]), "pancakes") {
			t.Errorf("bulk tag = %v", r)
		}
	})
	step("mark_recipe_made", func(t *testing.T) {
		r := ok(t, "mark_recipe_made", map[string]any{"slug": "e2e-toast", "date": day(-1)})
		if r["last_made"] != day(-1) {
			t.Errorf("mark made = %v", r)
		}
		got := ok(t, "get_recipe", map[string]any{"slug": "e2e-toast", "fields": []string{"last_made"}})
		if got["last_made"] != day(-1) {
			t.Errorf("last_made after marking = %v", got)
		}
	})
	step("import_recipe_from_url", func(t *testing.T) {
		r := ok(t, "import_recipe_from_url", map[string]any{"url": importPageURL})
		if r["slug"] == "" || r["scrape_failed"] != nil {
			t.Errorf("import = %v", r)
		}
	})
	step("delete_recipe", func(t *testing.T) {
		fails(t, "delete_recipe", map[string]any{"slug": "e2e-toast", "confirm_slug": "e2e-toas"}, "nothing was deleted")
		ok(t, "delete_recipe", map[string]any{"slug": "e2e-toast", "confirm_slug": "e2e-toast"})
		fails(t, "get_recipe", map[string]any{"slug": "e2e-toast"}, "e2e-toast")
	})

	// Meal plan.
	step("get_meal_plan", func(t *testing.T) {
		ok(t, "get_meal_plan", map[string]any{"start_date": day(-7), "end_date": day(7)})
	})
	step("get_todays_meals", func(t *testing.T) {
		r := ok(t, "get_todays_meals", nil)
		if r["date"] == "" {
			t.Errorf("today = %v", r)
		}
	})
	step("add_and_delete_meal_plan_entry", func(t *testing.T) {
		e := ok(t, "add_meal_plan_entry", map[string]any{"date": day(30), "recipe_slug": "shakshuka", "entry_type": "lunch"})
		if e["recipe_slug"] != "shakshuka" || e["type"] != "lunch" {
			t.Errorf("entry = %v", e)
		}
		got := items(t, ok(t, "get_meal_plan", map[string]any{"start_date": day(30), "end_date": day(30)}))
		if len(got) != 1 {
			t.Errorf("plan on day +30 = %v", got)
		}
		moved := ok(t, "update_meal_plan_entry", map[string]any{"entry_id": str(e, "entry_id"), "date": day(31), "entry_type": "dinner"})
		if moved["entry_id"] != e["entry_id"] || moved["date"] != day(31) || moved["type"] != "dinner" || moved["recipe_slug"] != "shakshuka" {
			t.Errorf("moved entry = %v", moved)
		}
		ok(t, "delete_meal_plan_entry", map[string]any{"entry_id": str(e, "entry_id")})
	})
	step("random_meal_plan", func(t *testing.T) {
		r := ok(t, "random_meal_plan", map[string]any{"start_date": day(40), "end_date": day(41)})
		if len(items(t, r)) != 2 {
			t.Errorf("random = %v", r)
		}
		fails(t, "random_meal_plan", map[string]any{"start_date": day(40), "end_date": day(60)}, "14")
	})

	// Library.
	step("cookbooks", func(t *testing.T) {
		books := items(t, ok(t, "list_cookbooks", nil))
		if len(books) == 0 {
			t.Fatal("the demo seed has cookbooks")
		}
		ok(t, "get_cookbook_recipes", map[string]any{"cookbook": str(books[0], "slug")})
		c := ok(t, "create_cookbook", map[string]any{"name": "E2E Veggie", "tags": []string{"vegetarian"}})
		id := str(c, "cookbook_id")
		if !strings.Contains(str(c, "query_filter"), "Vegetarian") {
			t.Errorf("the tag was not resolved to Mealie's casing: %v", c)
		}
		u := ok(t, "update_cookbook", map[string]any{"cookbook_id": id, "description": "All the veg."})
		if u["cookbook_id"] != id || u["description"] != "All the veg." {
			t.Errorf("update = %v", u)
		}
		ok(t, "delete_cookbook", map[string]any{"cookbook_id": id})
	})
	step("library_stats", func(t *testing.T) {
		r := ok(t, "library_stats", map[string]any{"resource": "tags"})
		if len(items(t, r)) == 0 {
			t.Errorf("stats = %v", r)
		}
		r = ok(t, "library_stats", map[string]any{"resource": "foods", "max_recipes": 3})
		if r["truncated"] == nil {
			t.Errorf("a capped sweep must say what it truncated: %v", r)
		}
	})
	step("find_duplicate_recipes", func(t *testing.T) {
		ok(t, "find_duplicate_recipes", nil)
	})
	step("check_recipe_links", func(t *testing.T) {
		// Sources are not probed: that would reach the network.
		ok(t, "check_recipe_links", map[string]any{"check_sources": false})
	})

	// Shopping.
	step("shopping", func(t *testing.T) {
		// The demo seed's one list is shown whole without list_id.
		only := ok(t, "get_shopping_list", nil)
		id, _ := only["list_id"].(string)
		if id == "" || only["sections"] == nil {
			t.Fatalf("get_shopping_list on the demo's one list = %v, want that list shown", only)
		}
		ok(t, "get_shopping_list", map[string]any{"list_id": id})
		r := ok(t, "add_to_shopping_list", map[string]any{"list_id": id, "items": []string{"3 e2e lemons"}, "skip_in_stock": false})
		added, _ := r["added"].([]any)
		if len(added) != 1 {
			t.Fatalf("add = %v", r)
		}
		itemID := str(added[0], "item_id")
		u := ok(t, "update_shopping_items", map[string]any{"list_id": id, "check": []string{itemID}})
		if fmt.Sprint(u["checked"]) != "["+itemID+"]" {
			t.Errorf("check = %v", u)
		}
		// A name checks every row it covers and the answer names them,
		// with the counts rather than the whole list again.
		ok(t, "add_to_shopping_list", map[string]any{"list_id": id, "items": []string{"2 e2e eggs", "6 Organic Cage Free E2E Eggs"}, "skip_in_stock": false})
		u = ok(t, "update_shopping_items", map[string]any{"list_id": id, "check": []string{"e2e egg"}})
		if got := fmt.Sprint(u["rows"]); got != "[checked: 2 e2e eggs checked: 6 Organic Cage Free E2E Eggs]" {
			t.Errorf("rows = %s in %v", got, u)
		}
		if l, _ := u["list"].(map[string]any); l == nil || l["to_buy"] == nil || l["sections"] != nil || u["hint"] == nil {
			t.Errorf("check answer = %v", u)
		}
		made := ok(t, "manage_shopping_lists", map[string]any{"action": "create", "name": "E2E Spare"})
		rn := ok(t, "manage_shopping_lists", map[string]any{"action": "rename", "list_id": str(made, "list_id"), "name": "E2E Spare Two"})
		if rn["name"] != "E2E Spare Two" || rn["to_buy"] != 0.0 || rn["sections"] != nil {
			t.Errorf("rename answer = %v", rn)
		}
		ok(t, "manage_shopping_lists", map[string]any{"action": "delete", "list_id": str(made, "list_id"), "confirm_name": "e2e spare two"})
	})

	if withPantry {
		step("pantry", func(t *testing.T) {
			ok(t, "get_pantry", map[string]any{"include_out": true})
			metas := items(t, ok(t, "get_meta_recipes", nil))
			ok(t, "what_can_i_cook", nil)
			add := items(t, ok(t, "add_to_pantry", map[string]any{"items": []any{map[string]any{"name": "e2e quinoa", "location": "cupboard"}}}))
			if len(add) != 1 || add[0]["outcome"] != "created" {
				t.Errorf("add = %v", add)
			}
			s := ok(t, "set_item_state", map[string]any{"ingredient": "e2e quinoa", "state": "low"})
			if s["changed"] != true {
				t.Errorf("set state = %v", s)
			}
			// A restock of an item in stock takes the amount and use-by
			// date, and the pantry read back holds them.
			re := items(t, ok(t, "add_to_pantry", map[string]any{"items": []any{map[string]any{"name": "e2e quinoa", "quantity": 500, "unit": "g", "expiry": "2027-01-02"}}}))
			if len(re) != 1 || re[0]["outcome"] != "restocked" || re[0]["expiry"] != "2027-01-02" {
				t.Errorf("restock = %v", re)
			}
			if p := ok(t, "get_pantry", map[string]any{"location": "cupboard"}); !strings.Contains(fmt.Sprint(p), "expiry:2027-01-02") {
				t.Errorf("get_pantry after the restock = %v", p)
			}
			m := ok(t, "create_meta_recipe", map[string]any{"name": "E2E Bowl", "method": "Assemble.", "slots": []any{
				map[string]any{"name": "grain", "options": []any{map[string]any{"ingredient": "e2e quinoa"}, map[string]any{"ingredient": "noodles"}}},
			}})
			name := str(m, "meta_recipe", "name")
			if name != "E2E Bowl" || fmt.Sprint(m["resolved"]) != "map[noodles:egg noodles]" {
				t.Errorf("meta-recipe = %v; want noodles resolved to egg noodles", m)
			}
			if len(metas) > 0 {
				ok(t, "log_cook", map[string]any{"meta_recipe": "E2E Bowl", "rating": 5, "notes": "good"})
				// What was cooked is logged even when the template does
				// not list it.
				lc := ok(t, "log_cook", map[string]any{"meta_recipe": "E2E Bowl", "slot_choices": []any{map[string]any{"slot": "grain", "ingredient": "e2e farro"}}})
				if fmt.Sprint(lc["off_template"]) != "map[grain:e2e farro]" || fmt.Sprint(lc["created_ingredients"]) != "[e2e farro]" {
					t.Errorf("off-template log_cook = %v", lc)
				}
			}
			ok(t, "suggest_recipes", map[string]any{"from_pantry": true, "max_missing_foods": 10})
		})
	}

	var missing []string
	for _, name := range toolNames(t, cs) {
		if !called[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("tools never called: %v", missing)
	}
}
