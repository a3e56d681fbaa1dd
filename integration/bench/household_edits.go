package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The edits a household says, each run twice from the same starting state
// on the household library: as a model does it with the tools sous had
// before the edits were built (before), and with the tools made for it
// (after). Each script is written from the catalog alone, like the tasks'
// (household_tasks.go); the setup arranges the starting state through
// Mealie's own API and is not counted; the check reads Mealie back and
// judges the outcome as the household would.

// EditPair is one edit ask's two runs.
type EditPair struct {
	Key, Ask      string
	Before, After *HouseholdTask
}

// editAsk is one edit ask: its setup, its two scripts and its check.
// Closures of one ask share what the setup learned.
type editAsk struct {
	key, ask      string
	setup         func(x *hx) error
	before, after func(x *hx) error
	check         func(x *hx) (bool, string, error)
}

// mealieDo sends one request to the emulator's API, for a setup.
func (x *hx) mealieDo(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(x.ctx, method, x.em.URL+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+x.em.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := x.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: status %d: %.200s", method, path, resp.StatusCode, raw)
	}
	if out != nil && len(raw) > 0 {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// quiet calls a tool as part of a check, outside the task's record: what
// a household does next, not what the model did.
func (x *hx) quiet(tool string, args map[string]any) (map[string]any, error) {
	res, err := x.s.CallTool(x.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, err
	}
	var text string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text += t.Text
		}
	}
	if res.IsError {
		return nil, fmt.Errorf("%s: %s", tool, text)
	}
	var m map[string]any
	_ = json.Unmarshal([]byte(text), &m)
	return m, nil
}

func householdEditAsks() []editAsk {
	return []editAsk{moveDinner(), tickAllButTwo(), swapIngredient(), quickNeverMade(), quickCookbookByTime(), pasteAfterPreview(), twoNamesOneUnknown()}
}

// --- move a dinner ---

type planRow struct {
	ID        int     `json:"id"`
	Date      string  `json:"date"`
	EntryType string  `json:"entryType"`
	RecipeID  *string `json:"recipeId"`
	Text      string  `json:"text"`
	Title     string  `json:"title"`
}

func moveDinner() editAsk {
	var wed, thu planRow
	var week map[string]any
	day := func(x *hx, d int) string { return x.monday.AddDate(0, 0, 7+d).Format(time.DateOnly) }
	plan := func(x *hx) ([]planRow, error) {
		var p struct {
			Items []planRow `json:"items"`
		}
		err := x.mealie(fmt.Sprintf("/api/households/mealplans?start_date=%s&end_date=%s&perPage=-1", day(x, 0), day(x, 6)), &p)
		return p.Items, err
	}
	return editAsk{
		key: "move-dinner", ask: "Move Wednesday's dinner next week to Saturday.",
		setup: func(x *hx) error {
			week = map[string]any{"start_date": day(x, 0), "end_date": day(x, 6)}
			rows, err := plan(x)
			if err != nil {
				return err
			}
			for _, r := range rows {
				if err := x.mealieDo(http.MethodDelete, fmt.Sprintf("/api/households/mealplans/%d", r.ID), nil, nil); err != nil {
					return err
				}
			}
			all, err := x.recipes()
			if err != nil || len(all) < 2 {
				return fmt.Errorf("recipes: %v", err)
			}
			if err := x.mealieDo(http.MethodPost, "/api/households/mealplans", map[string]any{"date": day(x, 2), "entryType": "dinner", "recipeId": all[0].ID, "text": "double batch"}, &wed); err != nil {
				return err
			}
			return x.mealieDo(http.MethodPost, "/api/households/mealplans", map[string]any{"date": day(x, 3), "entryType": "dinner", "recipeId": all[1].ID}, &thu)
		},
		// before: add the dinner on Saturday, delete Wednesday's.
		before: func(x *hx) error {
			m, _, _, err := x.callJSON("get_meal_plan", week)
			if err != nil {
				return err
			}
			for _, e := range items(m) {
				if str(e, "date") == day(x, 2) && str(e, "type") == "dinner" {
					args := map[string]any{"date": day(x, 5), "entry_type": "dinner", "recipe_slug": str(e, "recipe_slug")}
					if n := str(e, "note"); n != "" {
						args["note"] = n
					}
					if _, _, err := x.call("add_meal_plan_entry", args); err != nil {
						return err
					}
					_, _, err := x.call("delete_meal_plan_entry", map[string]any{"entry_id": str(e, "entry_id")})
					return err
				}
			}
			return errors.New("get_meal_plan showed no dinner on Wednesday")
		},
		after: func(x *hx) error {
			m, _, _, err := x.callJSON("get_meal_plan", week)
			if err != nil {
				return err
			}
			for _, e := range items(m) {
				if str(e, "date") == day(x, 2) && str(e, "type") == "dinner" {
					_, _, err := x.call("update_meal_plan_entry", map[string]any{"entry_id": str(e, "entry_id"), "date": day(x, 5)})
					return err
				}
			}
			return errors.New("get_meal_plan showed no dinner on Wednesday")
		},
		// check: Wednesday's dinner, note and all, is Saturday's, and
		// Thursday's entry is as it was.
		check: func(x *hx) (bool, string, error) {
			rows, err := plan(x)
			if err != nil {
				return false, "", err
			}
			var sat, onWed int
			otherSame := false
			for _, r := range rows {
				switch {
				case r.Date == day(x, 5) && r.EntryType == "dinner" && r.RecipeID != nil && *r.RecipeID == *wed.RecipeID && r.Text == wed.Text:
					sat++
				case r.Date == day(x, 2):
					onWed++
				case r.ID == thu.ID:
					otherSame = r.Date == thu.Date && *r.RecipeID == *thu.RecipeID && r.Text == thu.Text
				}
			}
			kept := "a new entry"
			for _, r := range rows {
				if r.ID == wed.ID && r.Date == day(x, 5) {
					kept = "the same entry"
				}
			}
			held := sat == 1 && onWed == 0 && otherSame
			return held, fmt.Sprintf("Saturday: %d dinner of Wednesday's recipe with its note (%s); Wednesday: %d entries; Thursday's entry unchanged: %v", sat, kept, onWed, otherSame), nil
		},
	}
}

// --- tick all but two ---

func tickAllButTwo() editAsk {
	const listName = "Market"
	things := []string{"feta", "baby spinach", "lemons", "red onion", "cucumber", "cherry tomatoes", "olives", "pita bread", "greek yogurt", "mint", "garlic", "olive oil"}
	var listID string
	return editAsk{
		key: "tick-all-but-two", ask: "I got everything on the list except the feta and the spinach.",
		setup: func(x *hx) error {
			var lists struct {
				Items []struct {
					ID   string `json:"id"`
					Name string `json:"name"`
				} `json:"items"`
			}
			if err := x.mealie("/api/households/shopping/lists?perPage=-1", &lists); err != nil {
				return err
			}
			for _, l := range lists.Items {
				if l.Name == listName {
					if err := x.mealieDo(http.MethodDelete, "/api/households/shopping/lists/"+l.ID, nil, nil); err != nil {
						return err
					}
				}
			}
			var l struct {
				ID string `json:"id"`
			}
			if err := x.mealieDo(http.MethodPost, "/api/households/shopping/lists", map[string]any{"name": listName}, &l); err != nil {
				return err
			}
			listID = l.ID
			var rows []map[string]any
			for _, t := range things {
				rows = append(rows, map[string]any{"shoppingListId": listID, "note": t, "quantity": 0, "isFood": false})
			}
			return x.mealieDo(http.MethodPost, "/api/households/shopping/items/create-bulk", rows, nil)
		},
		// before: find the list, read its items, check all ids but two.
		before: func(x *hx) error {
			m, _, _, err := x.callJSON("get_shopping_list", nil)
			if err != nil {
				return err
			}
			id := ""
			for _, l := range items(m) {
				if str(l, "name") == listName {
					id = str(l, "list_id")
				}
			}
			if m, _, _, err = x.callJSON("get_shopping_list", map[string]any{"list_id": id}); err != nil {
				return err
			}
			var check []string
			for _, it := range objectsWith(m, "item_id") {
				text := strings.ToLower(str(it, "item") + " " + str(it, "note"))
				if !strings.Contains(text, "feta") && !strings.Contains(text, "spinach") {
					check = append(check, str(it, "item_id"))
				}
			}
			_, _, err = x.call("update_shopping_items", map[string]any{"list_id": id, "check": check})
			return err
		},
		after: func(x *hx) error {
			_, _, err := x.call("update_shopping_items", map[string]any{"list_id": listName, "check_all_except": []string{"feta", "spinach"}})
			return err
		},
		check: func(x *hx) (bool, string, error) {
			var full struct {
				Items []shopItem `json:"listItems"`
			}
			if err := x.mealie("/api/households/shopping/lists/"+listID, &full); err != nil {
				return false, "", err
			}
			var wrong []string
			checked := 0
			for _, it := range full.Items {
				keep := strings.Contains(it.Note, "feta") || strings.Contains(it.Note, "spinach")
				if it.Checked {
					checked++
				}
				if it.Checked == keep {
					wrong = append(wrong, it.Note)
				}
			}
			held := len(full.Items) == len(things) && len(wrong) == 0
			return held, fmt.Sprintf("%d of %d items checked, %d wrong%s", checked, len(full.Items), len(wrong), colon(wrong, 4)), nil
		},
	}
}

// --- swap one ingredient ---

func swapIngredient() editAsk {
	const name, slug = "Paprika Chicken Comfort Bowl", "paprika-chicken-comfort-bowl"
	var original json.RawMessage
	return editAsk{
		key: "swap-ingredient", ask: "In the " + name + ", swap the chicken broth for vegetable broth.",
		setup: func(x *hx) error {
			if original == nil {
				var r struct {
					Ingredients json.RawMessage `json:"recipeIngredient"`
				}
				if err := x.mealie("/api/recipes/"+slug, &r); err != nil {
					return err
				}
				original = r.Ingredients
				return nil
			}
			var lines []any
			_ = json.Unmarshal(original, &lines)
			return x.mealieDo(http.MethodPatch, "/api/recipes/"+slug, map[string]any{"recipeIngredient": lines}, nil)
		},
		// before: the whole list rewritten with the one line changed.
		before: func(x *hx) error {
			m, _, _, err := x.callJSON("search_recipes", map[string]any{"query": "paprika chicken comfort bowl", "limit": 50})
			if err != nil {
				return err
			}
			s := ""
			for _, it := range items(m) {
				if str(it, "name") == name {
					s = str(it, "slug")
				}
			}
			r, _, _, err := x.callJSON("get_recipe", map[string]any{"slug": s, "fields": []string{"ingredients"}})
			if err != nil {
				return err
			}
			lines := ingredientLines(r["ingredients"])
			for i, l := range lines {
				if strings.Contains(strings.ToLower(l), "chicken broth") {
					lines[i] = "2 cups vegetable broth"
				}
			}
			_, _, err = x.call("update_recipe", map[string]any{"slug": s, "ingredients": lines})
			return err
		},
		after: func(x *hx) error {
			_, _, err := x.call("update_recipe", map[string]any{"slug": name, "replace_ingredients": []any{map[string]any{"match": "chicken broth", "with": "2 cups vegetable broth"}}})
			return err
		},
		// check: the broth line is vegetable broth, 2 cups, and every
		// other line is as stored before, field by field.
		check: func(x *hx) (bool, string, error) {
			var before []map[string]any
			_ = json.Unmarshal(original, &before)
			var r struct {
				Ingredients []map[string]any `json:"recipeIngredient"`
			}
			if err := x.mealie("/api/recipes/"+slug, &r); err != nil {
				return false, "", err
			}
			after := r.Ingredients
			if len(after) != len(before) {
				return false, fmt.Sprintf("%d lines, was %d", len(after), len(before)), nil
			}
			swapped, changed := false, 0
			for i := range before {
				if food(before[i]) == "chicken broth" {
					swapped = food(after[i]) == "vegetable broth" && fmt.Sprint(after[i]["quantity"]) == "2"
					continue
				}
				if !sameStoredLine(before[i], after[i]) {
					changed++
				}
			}
			held := swapped && changed == 0
			return held, fmt.Sprintf("the broth line is 2 cups vegetable broth: %v; %d of the other %d lines changed (quantity, unit, food, note, reference or title)", swapped, changed, len(before)-1), nil
		},
	}
}

// food is a stored line's food name, "" for none.
func food(l map[string]any) string {
	if f, ok := l["food"].(map[string]any); ok {
		return fmt.Sprint(f["name"])
	}
	return ""
}

// sameStoredLine compares what a cook reads of a line and what ties it to
// the recipe's steps.
func sameStoredLine(a, b map[string]any) bool {
	id := func(v any) string {
		if o, ok := v.(map[string]any); ok {
			return fmt.Sprint(o["id"])
		}
		return ""
	}
	return fmt.Sprint(a["quantity"]) == fmt.Sprint(b["quantity"]) && id(a["unit"]) == id(b["unit"]) && id(a["food"]) == id(b["food"]) &&
		fmt.Sprint(a["note"]) == fmt.Sprint(b["note"]) && fmt.Sprint(a["referenceId"]) == fmt.Sprint(b["referenceId"]) && fmt.Sprint(a["title"]) == fmt.Sprint(b["title"])
}

// --- dinners under 30 minutes never made ---

// recipeMinutes is the household's reading of a recipe's time: the total,
// else prep and cook added (the bench's own minutes(), not sous's).
func recipeMinutes(total, prep, cook string) (int, bool) {
	if n, ok := minutes(total); ok && n > 0 {
		return n, true
	}
	p, pok := minutes(prep)
	c, cok := minutes(cook)
	return p + c, (pok || cok) && p+c > 0
}

type timedRecipe struct {
	Slug        string  `json:"slug"`
	TotalTime   string  `json:"totalTime"`
	PrepTime    string  `json:"prepTime"`
	PerformTime string  `json:"performTime"`
	LastMade    *string `json:"lastMade"`
	Categories  []struct {
		Name string `json:"name"`
	} `json:"recipeCategory"`
}

// quickDinners are the dinners of at most 30 minutes, never made when
// never is set, as the household reads Mealie.
func quickDinners(x *hx, never bool) (map[string]bool, error) {
	var page struct {
		Items []timedRecipe `json:"items"`
	}
	if err := x.mealie("/api/recipes?perPage=-1", &page); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, r := range page.Items {
		dinner := slices.ContainsFunc(r.Categories, func(c struct {
			Name string `json:"name"`
		}) bool {
			return c.Name == "Dinner"
		})
		n, ok := recipeMinutes(r.TotalTime, r.PrepTime, r.PerformTime)
		if dinner && ok && n <= 30 && (!never || r.LastMade == nil) {
			out[r.Slug] = true
		}
	}
	return out, nil
}

func quickNeverMade() editAsk {
	var answered []string
	return editAsk{
		key: "quick-never-made", ask: "Dinners that take 30 minutes or less that I've never made?",
		setup: func(*hx) error { answered = nil; return nil },
		// before: the dinners with their times and last made, read by
		// the model.
		before: func(x *hx) error {
			m, _, _, err := x.callJSON("search_recipes", map[string]any{"categories": []string{"Dinner"}, "fields": []string{"total_time", "prep_time", "cook_time", "last_made"}, "limit": 100})
			if err != nil {
				return err
			}
			for _, it := range items(m) {
				if n, ok := recipeMinutes(str(it, "total_time"), str(it, "prep_time"), str(it, "cook_time")); ok && n <= 30 && str(it, "last_made") == "" {
					answered = append(answered, str(it, "slug"))
				}
			}
			return nil
		},
		after: func(x *hx) error {
			m, _, _, err := x.callJSON("search_recipes", map[string]any{"categories": []string{"Dinner"}, "max_total_minutes": 30, "never_made": true, "limit": 100})
			if err != nil {
				return err
			}
			for _, it := range items(m) {
				answered = append(answered, str(it, "slug"))
			}
			return nil
		},
		check: func(x *hx) (bool, string, error) {
			want, err := quickDinners(x, true)
			if err != nil {
				return false, "", err
			}
			in, extra := 0, 0
			for _, s := range answered {
				if want[s] {
					in++
				} else {
					extra++
				}
			}
			held := len(want) > 0 && in == len(want) && extra == 0
			return held, fmt.Sprintf("answered %d of the %d quick dinners never made, and %d others", in, len(want), extra), nil
		},
	}
}

// --- a cookbook of quick dinners ---

func quickCookbookByTime() editAsk {
	const book, bookSlug = "Quick weeknight dinners", "quick-weeknight-dinners"
	return editAsk{
		key: "quick-cookbook", ask: "Make a cookbook of our quick dinners, 30 minutes or less (and keep it so).",
		setup: func(x *hx) error {
			var books struct {
				Items []struct {
					ID   string `json:"id"`
					Slug string `json:"slug"`
				} `json:"items"`
			}
			if err := x.mealie("/api/households/cookbooks?perPage=-1", &books); err != nil {
				return err
			}
			for _, b := range books.Items {
				if b.Slug == bookSlug {
					if err := x.mealieDo(http.MethodDelete, "/api/households/cookbooks/"+b.ID, nil, nil); err != nil {
						return err
					}
				}
			}
			return nil
		},
		// before: the dinners' times read, the quick ones tagged, the
		// cookbook made of the tag.
		before: func(x *hx) error {
			m, _, _, err := x.callJSON("search_recipes", map[string]any{"categories": []string{"Dinner"}, "fields": []string{"total_time", "prep_time", "cook_time"}, "limit": 100})
			if err != nil {
				return err
			}
			var quick []string
			for _, it := range items(m) {
				if n, ok := recipeMinutes(str(it, "total_time"), str(it, "prep_time"), str(it, "cook_time")); ok && n <= 30 {
					quick = append(quick, str(it, "slug"))
				}
			}
			if _, _, err := x.call("bulk_tag_recipes", map[string]any{"slugs": quick, "tags": []string{"Quick weeknight"}}); err != nil {
				return err
			}
			_, _, err = x.call("create_cookbook", map[string]any{"name": book, "tags": []string{"Quick weeknight"}, "categories": []string{"Dinner"}, "require_all": true})
			return err
		},
		after: func(x *hx) error {
			_, _, err := x.call("create_cookbook", map[string]any{"name": book, "categories": []string{"Dinner"}, "max_total_minutes": 30})
			return err
		},
		// check: the cookbook holds exactly the quick dinners, and still
		// does after the household adds a quick dinner through sous.
		check: func(x *hx) (bool, string, error) {
			added, err := x.quiet("create_recipe", map[string]any{"name": "Ten-minute quesadillas", "categories": []string{"Dinner"}, "total_time": "10 minutes",
				"ingredients": []string{"2 flour tortillas", "1 cup grated cheddar cheese"}})
			if err != nil {
				return false, "", err
			}
			defer func() {
				_ = x.mealieDo(http.MethodDelete, "/api/recipes/"+str(added, "slug"), nil, nil)
			}()
			want, err := quickDinners(x, false)
			if err != nil {
				return false, "", err
			}
			var got struct {
				Items []mRecipe `json:"items"`
			}
			if err := x.mealie("/api/recipes?perPage=-1&cookbook="+url.QueryEscape(bookSlug), &got); err != nil {
				return false, "", err
			}
			in, extra := 0, 0
			for _, r := range got.Items {
				if want[r.Slug] {
					in++
				} else {
					extra++
				}
			}
			later := ""
			if !slices.ContainsFunc(got.Items, func(r mRecipe) bool { return r.Slug == str(added, "slug") }) {
				later = "; it misses the quick dinner added afterwards"
			}
			held := len(want) > 0 && in == len(want) && extra == 0
			return held, fmt.Sprintf("the cookbook holds %d of the %d quick dinners and %d other recipes%s", in, len(want), extra, later), nil
		},
	}
}

// --- a pasted recipe after a preview ---

func pasteAfterPreview() editAsk {
	name := pastedRecipe.name + " (previewed)"
	var slug string
	return editAsk{
		key: "paste-after-preview", ask: "Save this recipe, checking first how the lines will be read: (13 pasted ingredient lines and 6 steps)",
		setup: func(x *hx) error {
			if slug != "" {
				if err := x.mealieDo(http.MethodDelete, "/api/recipes/"+slug, nil, nil); err != nil {
					return err
				}
			}
			slug = ""
			return nil
		},
		// before: the preview, a look-up of each food it flags, and the
		// lines written as the preview's objects.
		before: func(x *hx) error {
			p := pastedRecipe
			parsed, text, isErr, err := x.callJSON("parse_ingredients", map[string]any{"lines": p.lines})
			if err != nil {
				return err
			}
			if isErr || parsed == nil {
				return fmt.Errorf("parse_ingredients: %s", text)
			}
			for _, f := range unknownFoods(parsed) {
				if _, _, err := x.call("manage_taxonomy", map[string]any{"resource": "foods", "search": f}); err != nil {
					return err
				}
			}
			lines := parsedLines(parsed)
			args := map[string]any{"name": name, "ingredients": lines, "instructions": p.steps, "recipe_yield": p.yield, "total_time": p.total}
			m, text, isErr, err := x.callJSON("create_recipe", args)
			if err != nil {
				return err
			}
			if isErr {
				keys := takes(text)
				if len(keys) == 0 {
					return nil
				}
				args["ingredients"] = onlyKeys(lines, keys)
				if m, _, _, err = x.callJSON("create_recipe", args); err != nil {
					return err
				}
			}
			slug = str(m, "slug")
			return nil
		},
		// after: the preview says what sous will store, so the lines go
		// as pasted.
		after: func(x *hx) error {
			p := pastedRecipe
			if _, _, _, err := x.callJSON("parse_ingredients", map[string]any{"lines": p.lines}); err != nil {
				return err
			}
			m, _, _, err := x.callJSON("create_recipe", map[string]any{"name": name, "ingredients": p.lines, "instructions": p.steps, "recipe_yield": p.yield, "total_time": p.total})
			slug = str(m, "slug")
			return err
		},
		check: func(x *hx) (bool, string, error) {
			if slug == "" {
				return false, "no recipe was created", nil
			}
			var r mRecipe
			if err := x.mealie("/api/recipes/"+slug, &r); err != nil {
				return false, "", err
			}
			return linesHeld(r, pastedRecipe.lines)
		},
	}
}

// --- a two-name search with one unknown ---

func twoNamesOneUnknown() editAsk {
	var answered []string
	return editAsk{
		key: "two-names-one-unknown", ask: "Any recipes with chicken thighs or halloumi?",
		setup: func(*hx) error { answered = nil; return nil },
		// before: refused whole for the unknown name, then each name
		// searched on its own.
		before: func(x *hx) error {
			m, _, isErr, err := x.callJSON("search_recipes", map[string]any{"foods": []string{"chicken thighs", "halloumi"}})
			if err != nil {
				return err
			}
			if isErr {
				if m, _, _, err = x.callJSON("search_recipes", map[string]any{"foods": []string{"chicken thighs"}}); err != nil {
					return err
				}
				answered = append(answered, collectSlugs(m)...)
				if m, _, _, err = x.callJSON("search_recipes", map[string]any{"query": "halloumi"}); err != nil {
					return err
				}
			}
			answered = append(answered, collectSlugs(m)...)
			return nil
		},
		after: func(x *hx) error {
			m, _, _, err := x.callJSON("search_recipes", map[string]any{"foods": []string{"chicken thighs", "halloumi"}})
			answered = append(answered, collectSlugs(m)...)
			return err
		},
		// check: every recipe that uses chicken thighs was answered.
		check: func(x *hx) (bool, string, error) {
			all, err := x.recipeDetails()
			if err != nil {
				return false, "", err
			}
			var missed []string
			want := 0
			for _, r := range all {
				uses := slices.ContainsFunc(r.Ingredients, func(l mLine) bool { return strings.Contains(l.text(), "chicken thigh") })
				if uses {
					want++
					if !slices.Contains(answered, r.Slug) {
						missed = append(missed, r.Name)
					}
				}
			}
			held := want > 0 && len(missed) == 0
			return held, fmt.Sprintf("%d of the %d recipes with chicken thighs answered%s", want-len(missed), want, colon(missed, 3)), nil
		},
	}
}

// collectSlugs are the slugs of a search answer's items and text matches.
func collectSlugs(m map[string]any) []string {
	var out []string
	for _, k := range []string{"items", "text_matches"} {
		l, _ := m[k].([]any)
		for _, e := range l {
			if o, ok := e.(map[string]any); ok {
				out = append(out, str(o, "slug"))
			}
		}
	}
	return out
}
