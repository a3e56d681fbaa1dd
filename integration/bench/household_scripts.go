package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// --- 1. plan a week's dinners and shop for it ---

// runPlanAndShop: the dinners are the library's (search by category), one a
// day, then the plan's ingredients onto the list, which skips what the
// pantry has. random_meal_plan draws from every recipe, desserts too, so a
// model asked for dinners searches instead.
func runPlanAndShop(x *hx) error {
	m, _, _, err := x.callJSON("search_recipes", map[string]any{"categories": []string{"Dinner"}, "limit": 20})
	if err != nil {
		return err
	}
	slugs := collect(map[string]any{"items": m["items"]}, "slug")
	if len(slugs) < 7 {
		return fmt.Errorf("search_recipes found %d dinners, want 7", len(slugs))
	}
	for i, slug := range slugs[:7] {
		if _, _, err := x.call("add_meal_plan_entry", map[string]any{"date": x.monday.AddDate(0, 0, i).Format(time.DateOnly), "entry_type": "dinner", "recipe_slug": slug}); err != nil {
			return err
		}
	}
	_, _, err = x.call("add_to_shopping_list", map[string]any{"meal_plan_range": weekArgs(x.monday)})
	return err
}

// checkPlanAndShop: a dinner with a recipe on each of the seven days, and
// every line of those recipes either on the shopping list or covered by the
// pantry's stock.
func checkPlanAndShop(x *hx) (bool, string, error) {
	w := weekArgs(x.monday)
	var plans struct {
		Items []struct {
			Date      string  `json:"date"`
			EntryType string  `json:"entryType"`
			RecipeID  *string `json:"recipeId"`
		} `json:"items"`
	}
	if err := x.mealie(fmt.Sprintf("/api/households/mealplans?start_date=%s&end_date=%s&perPage=-1", w["start_date"], w["end_date"]), &plans); err != nil {
		return false, "", err
	}
	days, planned := map[string]bool{}, map[string]bool{}
	for _, p := range plans.Items {
		if p.EntryType == "dinner" && p.RecipeID != nil {
			days[p.Date] = true
			planned[*p.RecipeID] = true
		}
	}
	list, err := x.shoppingItems()
	if err != nil {
		return false, "", err
	}
	names, err := x.pantryNames()
	if err != nil {
		return false, "", err
	}
	all, err := x.recipeDetails()
	if err != nil {
		return false, "", err
	}
	var missing []string
	lines := 0
	for _, r := range all {
		if !planned[r.ID] {
			continue
		}
		for _, l := range r.Ingredients {
			lines++
			if l.Food != nil {
				if inStock(names, l.Food.Name) || slices.ContainsFunc(list, func(it shopItem) bool {
					return it.FoodID == l.Food.ID || it.Food != nil && sameFood(it.Food.Name, l.Food.Name)
				}) {
					continue
				}
				missing = append(missing, l.Food.Name)
				continue
			}
			text := strings.ToLower(strings.TrimSpace(l.Note))
			if text == "" || inStock(names, textFood(text)) || slices.ContainsFunc(list, func(it shopItem) bool { return strings.Contains(strings.ToLower(it.Note+" "+it.Display), text) }) {
				continue
			}
			missing = append(missing, fmt.Sprintf("%q", l.Note))
		}
	}
	held := len(days) == 7 && len(missing) == 0
	return held, fmt.Sprintf("%d of 7 days have a dinner; %d lines of the plan, %d neither on the list nor in stock%s",
		len(days), lines, len(missing), colon(missing, 8)), nil
}

func colon(s []string, max int) string {
	if len(s) == 0 {
		return ""
	}
	return " (" + list(s, max) + ")"
}

type shopItem struct {
	ID      string `json:"id"`
	Note    string `json:"note"`
	Display string `json:"display"`
	Checked bool   `json:"checked"`
	FoodID  string `json:"foodId"`
	Food    *struct {
		Name string `json:"name"`
	} `json:"food"`
}

func (x *hx) shoppingItems() ([]shopItem, error) {
	var lists struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if err := x.mealie("/api/households/shopping/lists?perPage=-1", &lists); err != nil {
		return nil, err
	}
	var out []shopItem
	for _, l := range lists.Items {
		var full struct {
			Items []shopItem `json:"listItems"`
		}
		if err := x.mealie("/api/households/shopping/lists/"+l.ID, &full); err != nil {
			return nil, err
		}
		out = append(out, full.Items...)
	}
	return out, nil
}

// --- 2. save a pasted recipe ---

func runPaste(x *hx) error {
	p := pastedRecipe
	_, _, err := x.call("create_recipe", map[string]any{"name": p.name, "ingredients": p.lines, "instructions": p.steps,
		"recipe_yield": p.yield, "total_time": p.total})
	return err
}

// checkPaste: the recipe is there with all 13 lines, every line a food
// (so shopping lists, suggestions and reports can use it), and no word of
// a line missing from what Mealie shows.
func checkPaste(x *hx) (bool, string, error) {
	var r mRecipe
	if err := x.mealie("/api/recipes/spicy-sesame-noodles", &r); err != nil {
		return false, "", err
	}
	return linesHeld(r, pastedRecipe.lines)
}

// linesHeld reads a recipe's lines against the lines as written: each a
// food named as a food (no amount or unit inside the name, which a cook
// would not call an ingredient), and no word lost.
func linesHeld(r mRecipe, want []string) (bool, string, error) {
	text, lost, odd := 0, []string{}, []string{}
	for i, l := range r.Ingredients {
		if l.Food == nil {
			text++
		} else if amountInName(l.Food.Name) {
			odd = append(odd, fmt.Sprintf("%q", l.Food.Name))
		}
		if i < len(want) {
			if w := wordsLost(want[i], l); len(w) > 0 {
				lost = append(lost, fmt.Sprintf("%q lost %q", want[i], strings.Join(w, " ")))
			}
		}
	}
	held := len(r.Ingredients) == len(want) && text == 0 && len(lost) == 0 && len(odd) == 0
	return held, fmt.Sprintf("%d of %d lines stored, %d linked to a food (%d of them a food whose name holds an amount or unit%s), %s kept as text only; %s%s",
		len(r.Ingredients), len(want), len(r.Ingredients)-text, len(odd), colonInner(odd, 3), plural(text, "line", "lines"), plural(len(lost), "line lost words", "lines lost words"), colon(lost, 3)), nil
}

func colonInner(s []string, max int) string {
	if len(s) == 0 {
		return ""
	}
	return ": " + list(s, max)
}

// amountInName says whether a food's name carries an amount or a unit
// ("½ teaspoon salt"), what a parser leaves when it misreads a line.
func amountInName(name string) bool {
	if strings.ContainsAny(name, "0123456789½¼¾⅓⅔⅛") {
		return true
	}
	first, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(name)), " ")
	return unitWords[strings.TrimSuffix(first, ".")] && first != "to" && first != "about"
}

// --- 3. tidy an unparsed recipe ---

// runTidy: find the recipe, read its lines, parse them, create the foods
// the parser flags as unknown (the catalog: parse_ingredients "flags
// unknown foods"; create_recipe takes "parse_ingredients objects"), then
// write the parsed lines back.
func runTidy(x *hx) error {
	m, _, _, err := x.callJSON("search_recipes", map[string]any{"query": "chicken fajitas bowl"})
	if err != nil {
		return err
	}
	slug := ""
	for _, it := range items(m) {
		if strings.Contains(strings.ToLower(str(it, "name")), "fajitas bowl") {
			slug = str(it, "slug")
			break
		}
	}
	if slug == "" {
		return errors.New("search_recipes did not show the fajitas bowl")
	}
	r, _, _, err := x.callJSON("get_recipe", map[string]any{"slug": slug, "fields": []string{"ingredients"}})
	if err != nil {
		return err
	}
	x.kept = ingredientLines(r["ingredients"])
	if len(x.kept) == 0 {
		return fmt.Errorf("get_recipe %s showed no ingredient lines", slug)
	}
	parsed, text, isErr, err := x.callJSON("parse_ingredients", map[string]any{"lines": x.kept})
	if err != nil {
		return err
	}
	if isErr || parsed == nil {
		return fmt.Errorf("parse_ingredients: %s", text)
	}
	if unknown := unknownFoods(parsed); len(unknown) > 0 {
		var create []map[string]any
		for _, f := range unknown {
			create = append(create, map[string]any{"name": f})
		}
		if _, _, err := x.call("manage_taxonomy", map[string]any{"resource": "foods", "action": "create", "items": create}); err != nil {
			return err
		}
	}
	lines := parsedLines(parsed)
	text, isErr, err = x.call("update_recipe", map[string]any{"slug": slug, "ingredients": lines})
	if err != nil || !isErr {
		return err
	}
	// Refused: a model reads which fields the lines take and sends the
	// parsed lines again with only those.
	if keys := takes(text); len(keys) > 0 {
		_, _, err = x.call("update_recipe", map[string]any{"slug": slug, "ingredients": onlyKeys(lines, keys)})
	}
	return err
}

// takes reads "… takes a, b, c" off a refusal: the fields an argument
// takes.
func takes(msg string) []string {
	_, rest, ok := strings.Cut(msg, " takes ")
	if !ok {
		return nil
	}
	rest, _, _ = strings.Cut(rest, ";")
	rest = strings.TrimSuffix(strings.TrimSpace(rest), ".")
	var out []string
	for _, k := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' }) {
		if k != "and" && k != "or" {
			out = append(out, k)
		}
	}
	return out
}

// onlyKeys keeps the given keys of each object line.
func onlyKeys(lines []any, keys []string) []any {
	out := make([]any, 0, len(lines))
	for _, l := range lines {
		o, ok := l.(map[string]any)
		if !ok {
			out = append(out, l)
			continue
		}
		kept := map[string]any{}
		for k, v := range o {
			if slices.Contains(keys, k) {
				kept[k] = v
			}
		}
		out = append(out, kept)
	}
	return out
}

// ingredientLines reads get_recipe's ingredients as a model would: strings,
// or objects whose text is their display or note.
func ingredientLines(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, e := range list {
		switch t := e.(type) {
		case string:
			out = append(out, t)
		case map[string]any:
			for _, k := range []string{"display", "text", "original_text", "note"} {
				if s := str(t, k); s != "" {
					out = append(out, s)
					break
				}
			}
		}
	}
	return out
}

// parsedLines is the parse_ingredients answer's list of line objects, as
// the model passes it on.
func parsedLines(m map[string]any) []any {
	for _, k := range []string{"ingredients", "items", "lines", "parsed"} {
		if l, ok := m[k].([]any); ok {
			return l
		}
	}
	return nil
}

// unknownFoods are the foods the parse answer flags as not in Mealie.
func unknownFoods(m map[string]any) []string {
	var out []string
	for _, k := range []string{"unknown_foods", "new_foods"} {
		if l, ok := m[k].([]any); ok {
			for _, e := range l {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	for _, l := range parsedLines(m) {
		if o, ok := l.(map[string]any); ok {
			flagged, _ := o["unknown"].([]any)
			if b, _ := o["unknown_food"].(bool); b || slices.Contains(flagged, any("food")) {
				if f := str(o, "food"); f != "" && !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// checkTidy: every line of the recipe now names a food, and none lost a
// word against the line as imported.
func checkTidy(x *hx) (bool, string, error) {
	var r mRecipe
	if err := x.mealie("/api/recipes/easy-chicken-fajitas-bowl", &r); err != nil {
		return false, "", err
	}
	return linesHeld(r, x.kept)
}

// --- 4. merge duplicate foods ---

func runMerge(x *hx) error {
	m, _, _, err := x.callJSON("manage_taxonomy", map[string]any{"resource": "foods", "search": "tomato"})
	if err != nil {
		return err
	}
	// By name first, as item_id and merge_into invite ("id or exact
	// name"); after a refusal, by the ids the list showed.
	keepID, byID := "", false
	for _, it := range items(m) {
		if str(it, "name") == "tomato" {
			keepID = str(it, "item_id")
		}
	}
	for _, it := range items(m) {
		name := str(it, "name")
		if name == "tomato" || !strings.EqualFold(singular(strings.ToLower(name)), "tomato") {
			continue
		}
		args := map[string]any{"resource": "foods", "action": "merge", "item_id": name, "merge_into": "tomato"}
		if byID {
			args["item_id"], args["merge_into"] = str(it, "item_id"), keepID
		}
		_, isErr, err := x.call("manage_taxonomy", args)
		if err != nil {
			return err
		}
		if isErr && !byID {
			byID = true
			args["item_id"], args["merge_into"] = str(it, "item_id"), keepID
			if _, _, err := x.call("manage_taxonomy", args); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkMerge: one food is left of tomato, tomatoes and Tomatoes, named
// tomato, and every line that used any of them uses it.
func checkMerge(x *hx) (bool, string, error) {
	var foods struct {
		Items []struct {
			ID, Name string
		} `json:"items"`
	}
	if err := x.mealie("/api/foods?perPage=-1", &foods); err != nil {
		return false, "", err
	}
	var left []string
	keep := ""
	for _, f := range foods.Items {
		if strings.EqualFold(singular(strings.ToLower(f.Name)), "tomato") {
			left = append(left, f.Name)
			if f.Name == "tomato" {
				keep = f.ID
			}
		}
	}
	all, err := x.recipeDetails()
	if err != nil {
		return false, "", err
	}
	uses, other := 0, 0
	for _, r := range all {
		for _, l := range r.Ingredients {
			if l.Food != nil && strings.EqualFold(singular(strings.ToLower(l.Food.Name)), "tomato") {
				if l.Food.ID == keep {
					uses++
				} else {
					other++
				}
			}
		}
	}
	held := len(left) == 1 && keep != "" && other == 0 && uses > 0
	return held, fmt.Sprintf("tomato foods left: %s; %d lines use tomato, %d another", strings.Join(left, ", "), uses, other), nil
}

// --- 5. tag recipes by an ingredient ---

func runTagByIngredient(x *hx) error {
	m, _, _, err := x.callJSON("search_recipes", map[string]any{"foods": []string{"chicken thighs"}, "limit": 100})
	if err != nil {
		return err
	}
	// the answer's text_matches are recipes naming the food in unlinked
	// lines; a model tagging "every recipe that uses" them takes both
	slugs := append(collect(map[string]any{"items": m["items"]}, "slug"), collect(map[string]any{"items": m["text_matches"]}, "slug")...)
	if len(slugs) == 0 {
		return nil // the model tells the user none was found
	}
	_, _, err = x.call("bulk_tag_recipes", map[string]any{"slugs": slugs, "tags": []string{"Chicken thighs"}})
	return err
}

// checkTagByIngredient: the recipes tagged are exactly those with chicken
// thighs in a line (as a food, or in an unparsed line's text).
func checkTagByIngredient(x *hx) (bool, string, error) {
	all, err := x.recipeDetails()
	if err != nil {
		return false, "", err
	}
	var want, missed, extra []string
	for _, r := range all {
		uses := slices.ContainsFunc(r.Ingredients, func(l mLine) bool { return strings.Contains(l.text(), "chicken thigh") })
		has := slices.ContainsFunc(r.Tags, func(t struct {
			Name string `json:"name"`
		}) bool {
			return strings.EqualFold(t.Name, "Chicken thighs")
		})
		if uses {
			want = append(want, r.Slug)
		}
		if uses && !has {
			missed = append(missed, r.Name)
		}
		if has && !uses {
			extra = append(extra, r.Name)
		}
	}
	held := len(want) > 0 && len(missed) == 0 && len(extra) == 0
	return held, fmt.Sprintf("%d of %d recipes with chicken thighs tagged, %d tagged without%s", len(want)-len(missed), len(want), len(extra), colonPrefix(" missed", missed, 3)), nil
}

func colonPrefix(label string, s []string, max int) string {
	if len(s) == 0 {
		return ""
	}
	return ";" + label + ": " + list(s, max)
}

// --- 6. a cookbook of quick dinners ---

// runQuickCookbook: a cookbook is a saved filter on tags, categories and
// tools (create_cookbook's description), and Mealie's times are free text,
// so the model reads the dinners' times, tags the quick ones, and makes the
// cookbook of that tag.
func runQuickCookbook(x *hx) error {
	var quick []string
	for page := 1; ; page++ {
		m, _, _, err := x.callJSON("search_recipes", map[string]any{"categories": []string{"Dinner"}, "fields": []string{"total_time"}, "limit": 100, "page": page})
		if err != nil {
			return err
		}
		for _, it := range items(m) {
			if n, ok := minutes(str(it, "total_time")); ok && n <= 30 {
				quick = append(quick, str(it, "slug"))
			}
		}
		if len(items(m)) < 100 {
			break
		}
	}
	if len(quick) == 0 {
		return errors.New("no dinner of 30 minutes or less was shown")
	}
	if _, _, err := x.call("bulk_tag_recipes", map[string]any{"slugs": quick, "tags": []string{"Quick Dinner"}}); err != nil {
		return err
	}
	_, _, err := x.call("create_cookbook", map[string]any{"name": "Quick Dinners", "description": "Dinners in 30 minutes or less", "tags": []string{"Quick Dinner"}})
	return err
}

// checkQuickCookbook: the cookbook's recipes, as Mealie lists them, are
// exactly the dinners whose total time is 30 minutes or less.
func checkQuickCookbook(x *hx) (bool, string, error) {
	all, err := x.recipeDetails()
	if err != nil {
		return false, "", err
	}
	want := map[string]bool{}
	for _, r := range all {
		dinner := slices.ContainsFunc(r.Categories, func(c struct {
			Name string `json:"name"`
		}) bool {
			return c.Name == "Dinner"
		})
		if n, ok := minutes(r.TotalTime); dinner && ok && n <= 30 {
			want[r.Slug] = true
		}
	}
	var got struct {
		Items []mRecipe `json:"items"`
	}
	if err := x.mealie("/api/recipes?cookbook=quick-dinners&perPage=-1", &got); err != nil {
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
	held := len(want) > 0 && in == len(want) && extra == 0
	return held, fmt.Sprintf("the cookbook holds %d of the %d quick dinners and %d other recipes", in, len(want), extra), nil
}

// --- 7. log a cook ---

func runLogCook(x *hx) error {
	m, _, _, err := x.callJSON("get_meta_recipes", nil)
	if err != nil {
		return err
	}
	name := ""
	for _, n := range collect(m, "name") {
		if strings.Contains(strings.ToLower(n), "stir-fry") {
			name = n
			break
		}
	}
	if name == "" {
		return errors.New("get_meta_recipes showed no stir-fry")
	}
	_, _, err = x.call("log_cook", map[string]any{"meta_recipe": name, "slot_choices": []map[string]any{
		{"slot": "protein", "ingredient": "chicken thighs"}, {"slot": "veg", "ingredient": "broccoli"}, {"slot": "carb", "ingredient": "jasmine rice"},
	}})
	return err
}

// checkLogCook: the food API's newest cook log is today's stir-fry with
// the three things cooked.
func checkLogCook(x *hx) (bool, string, error) {
	out, err := x.food.Shell(x.ctx, `import json
from kitchen.models import CookLog
c = CookLog.objects.order_by("-id").first()
print(json.dumps(None if c is None else {"meta": c.meta_recipe.name if c.meta_recipe else "", "choices": c.slot_choices, "date": str(c.date)}))`)
	if err != nil {
		return false, "", err
	}
	var c *struct {
		Meta    string            `json:"meta"`
		Choices map[string]string `json:"choices"`
		Date    string            `json:"date"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		return false, "", fmt.Errorf("cook log: %w: %s", err, out)
	}
	if c == nil {
		return false, "no cook was logged", nil
	}
	var got []string
	for _, v := range c.Choices {
		got = append(got, strings.ToLower(v))
	}
	slices.Sort(got)
	held := strings.Contains(strings.ToLower(c.Meta), "stir-fry") && slices.Contains(got, "broccoli") && slices.Contains(got, "chicken thighs")
	return held, fmt.Sprintf("logged %q on %s with %s", c.Meta, c.Date, strings.Join(got, ", ")), nil
}

// --- 8. what can I make from the pantry ---

func runFromPantry(x *hx) error {
	if _, _, err := x.call("what_can_i_cook", nil); err != nil {
		return err
	}
	m, _, _, err := x.callJSON("suggest_recipes", map[string]any{"from_pantry": true})
	if err != nil {
		return err
	}
	x.kept = suggestedSlugs(m)
	return nil
}

// suggestedSlugs reads a suggest_recipes answer's recipes in order.
func suggestedSlugs(m map[string]any) []string {
	for _, k := range []string{"items", "suggestions", "recipes"} {
		if _, ok := m[k]; ok {
			return collect(map[string]any{k: m[k]}, "slug")
		}
	}
	return nil
}

// checkFromPantry: the library has recipes the pantry covers but for at
// most two foods (read leniently, as a cook would: the pantry's "rice"
// covers "jasmine rice", "fresh ginger" is ginger), and the first
// suggestion is one of them.
func checkFromPantry(x *hx) (bool, string, error) {
	makeable, err := x.makeable(2)
	if err != nil {
		return false, "", err
	}
	if len(x.kept) == 0 {
		return false, fmt.Sprintf("no suggestion, while %d recipes miss at most two foods", len(makeable)), nil
	}
	held := slices.Contains(makeable, x.kept[0])
	return held, fmt.Sprintf("%d suggested, the first %s; %d recipes miss at most two foods", len(x.kept), x.kept[0], len(makeable)), nil
}

// makeable lists the parsed recipes the pantry's stock covers but for at
// most maxMissing foods.
func (x *hx) makeable(maxMissing int) ([]string, error) {
	names, err := x.pantryNames()
	if err != nil {
		return nil, err
	}
	all, err := x.recipeDetails()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range all {
		foods, missing := 0, 0
		for _, l := range r.Ingredients {
			if l.Food == nil {
				continue
			}
			foods++
			if !inStock(names, l.Food.Name) {
				missing++
			}
		}
		if foods > 0 && missing <= maxMissing {
			out = append(out, r.Slug)
		}
	}
	return out, nil
}

// --- 9. used the last of something ---

func runUsedLast(x *hx) error {
	_, _, err := x.call("set_item_state", map[string]any{"ingredient": "rice", "state": "out"})
	return err
}

// checkUsedLast: the pantry's rice (the demo kitchen's jasmine rice) is out.
func checkUsedLast(x *hx) (bool, string, error) {
	items, err := x.pantryItems()
	if err != nil {
		return false, "", err
	}
	var states []string
	held := false
	for _, it := range items {
		if strings.Contains(strings.ToLower(it.Ingredient), "rice") {
			states = append(states, it.Ingredient+" "+it.State)
			held = it.State == "out"
		}
	}
	return held, "pantry: " + strings.Join(states, ", "), nil
}

// --- 10. bought two things ---

var egg, lime = regexp.MustCompile(`(?i)\beggs?\b`), regexp.MustCompile(`(?i)\blimes?\b`)

// runBoughtTwo: tick them off the list (update_shopping_items: "when the
// user bought something") and put them in the pantry (add_to_pantry: "when
// the user bought something").
func runBoughtTwo(x *hx) error {
	m, _, _, err := x.callJSON("get_shopping_list", nil)
	if err != nil {
		return err
	}
	listID := ""
	if its := items(m); len(its) > 0 && len(objectsWith(m, "item_id")) == 0 {
		for _, k := range []string{"list_id", "id"} {
			if listID = str(its[0], k); listID != "" {
				break
			}
		}
		if m, _, _, err = x.callJSON("get_shopping_list", map[string]any{"list_id": listID}); err != nil {
			return err
		}
	}
	if listID == "" {
		listID = str(m, "list_id")
	}
	var check []string
	for _, it := range objectsWith(m, "item_id") {
		text := str(it, "item") + " " + str(it, "display") + " " + str(it, "note") + " " + str(it, "food")
		if b, _ := it["checked"].(bool); b {
			continue
		}
		if egg.MatchString(text) || lime.MatchString(text) {
			check = append(check, str(it, "item_id"))
		}
	}
	if len(check) > 0 {
		if _, _, err := x.call("update_shopping_items", map[string]any{"list_id": listID, "check": check}); err != nil {
			return err
		}
	}
	_, _, err = x.call("add_to_pantry", map[string]any{"items": []map[string]any{{"name": "eggs", "location": "fridge"}, {"name": "limes", "location": "fridge"}}})
	return err
}

// checkBoughtTwo: nothing on the list still asks for eggs or limes, and the
// pantry has both in stock.
func checkBoughtTwo(x *hx) (bool, string, error) {
	list, err := x.shoppingItems()
	if err != nil {
		return false, "", err
	}
	open := 0
	for _, it := range list {
		text := it.Note + " " + it.Display
		if it.Food != nil {
			text += " " + it.Food.Name
		}
		if !it.Checked && (egg.MatchString(text) || lime.MatchString(text)) {
			open++
		}
	}
	items, err := x.pantryItems()
	if err != nil {
		return false, "", err
	}
	stock := map[string]string{}
	for _, it := range items {
		n := strings.ToLower(it.Ingredient)
		if egg.MatchString(n) || lime.MatchString(n) {
			stock[n] = it.State
		}
	}
	in := 0
	for _, s := range stock {
		if s == "in" {
			in++
		}
	}
	var parts []string
	for n, s := range stock {
		parts = append(parts, n+" "+s)
	}
	slices.Sort(parts)
	held := open == 0 && in >= 2
	return held, fmt.Sprintf("%s of eggs or limes still unticked on the list; pantry: %s", plural(open, "item", "items"), strings.Join(parts, ", ")), nil
}

// --- the pair: chicken thighs, rice and a lime ---

// runThighsRiceLime: the foods as said; for each the answer calls unknown,
// the model looks up the library's foods of that name and asks again with
// them.
func runThighsRiceLime(x *hx) error {
	args := map[string]any{"foods": []string{"chicken thighs", "rice", "lime"}}
	m, _, _, err := x.callJSON("suggest_recipes", args)
	if err != nil {
		return err
	}
	if unknown := collectList(m, "unknown_foods"); len(unknown) > 0 {
		// The library's foods of that name: those whose last word it is
		// ("jasmine rice", not "rice vinegar").
		known := slices.DeleteFunc(slices.Clone(args["foods"].([]string)), func(f string) bool { return slices.Contains(unknown, f) })
		for _, u := range unknown {
			t, _, _, err := x.callJSON("manage_taxonomy", map[string]any{"resource": "foods", "search": u})
			if err != nil {
				return err
			}
			for _, it := range items(t) {
				if n := str(it, "name"); covers(u, n) {
					known = append(known, n)
				}
			}
		}
		args["foods"] = known
		if m, _, _, err = x.callJSON("suggest_recipes", args); err != nil {
			return err
		}
	}
	if len(suggestedSlugs(m)) == 0 && strings.Contains(str(m, "hint"), "max_missing_foods") {
		// The hint says to allow more missing foods: a model allows the most.
		args["max_missing_foods"] = 10
		if m, _, _, err = x.callJSON("suggest_recipes", args); err != nil {
			return err
		}
	}
	x.kept = suggestedSlugs(m)
	return nil
}

// objectsWith returns every object anywhere in v that has key.
func objectsWith(v any, key string) []map[string]any {
	var out []map[string]any
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if _, ok := t[key]; ok {
				out = append(out, t)
				return
			}
			for _, e := range t {
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

func collectList(m map[string]any, key string) []string {
	var out []string
	if l, ok := m[key].([]any); ok {
		for _, e := range l {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// checkThighsRiceLime: among the first three suggestions is a recipe that
// uses all three, in its foods or its lines' text.
func checkThighsRiceLime(x *hx) (bool, string, error) {
	all, err := x.recipeDetails()
	if err != nil {
		return false, "", err
	}
	var all3 []string
	for _, r := range all {
		has := func(w string) bool {
			return slices.ContainsFunc(r.Ingredients, func(l mLine) bool { return strings.Contains(l.text(), w) })
		}
		if has("chicken thigh") && has("rice") && has("lime") {
			all3 = append(all3, r.Slug)
		}
	}
	top := x.kept[:min(3, len(x.kept))]
	held := slices.ContainsFunc(top, func(s string) bool { return slices.Contains(all3, s) })
	return held, fmt.Sprintf("first suggestions: %s; recipes with all three: %s", orNone(top), orNone(all3)), nil
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
