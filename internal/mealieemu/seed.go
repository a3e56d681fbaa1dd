package mealieemu

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// seedBase is the fixed moment seeded rows are dated from, so that the demo
// library is byte-for-byte the same on every start. Only meal plans in the
// current week are placed relative to the clock (see seedMealplans).
var seedBase = time.Date(2025, time.January, 6, 9, 0, 0, 0, time.UTC)

// maxBenchRecipes bounds bench:N; 100,000 recipes is far past any library the
// sous reports are sized for and still seeds in well under a second.
const maxBenchRecipes = 100000

func newStore(p profile, now func() time.Time) *store {
	return &store{
		profile:   p,
		now:       now,
		sessions:  map[string]bool{},
		images:    map[string][]byte{},
		startedAt: now().UTC(),
		user: user{
			ID: seedID("user", "admin"), Username: adminUsername, FullName: "Change Me", Email: adminEmail,
			GroupID: seedID("group", "home"), GroupName: "Home", GroupSlug: "home",
			HouseholdID: seedID("household", "family"), HouseholdName: "Family", HouseholdSlug: "family",
		},
	}
}

// seed fills the store: "empty" leaves it as a fresh install, "demo" loads the
// demo library, "bench:N" loads the demo taxonomy and N generated recipes,
// "bench:N:long" the same with descriptions of about 1,200 characters, as
// scraped blog recipes carry, and a ":dup" suffix (after ":long" if both)
// names every second recipe as a copy of the one before ("… (1)"), a
// library imported twice; "household" loads 40 recipes from public recipe
// pages with their messy foods (seed_household.go).
func (s *store) seed(name string) error {
	switch {
	case name == "empty":
		return nil
	case name == "household":
		return s.seedHousehold()
	case name == "demo" || name == "":
		s.seedTaxonomy()
		s.seedDemoRecipes()
		s.seedMealplans()
		s.seedCookbooks()
		s.seedShoppingList()
		if name == "demo" {
			s.seedDemoImages()
		}
		return nil
	case strings.HasPrefix(name, "bench:"):
		count, dup := strings.CutSuffix(strings.TrimPrefix(name, "bench:"), ":dup")
		count, long := strings.CutSuffix(count, ":long")
		n, err := strconv.Atoi(count)
		if err != nil || n < 0 || n > maxBenchRecipes {
			return fmt.Errorf("mealieemu: bench seed wants a recipe count from 0 to %d, got %q", maxBenchRecipes, name)
		}
		s.seedTaxonomy()
		s.seedBench(n, long, dup)
		s.seedCookbooks()
		return nil
	}
	return fmt.Errorf("%w: %q", errUnknownSeed, name)
}

// seedLabels are the shopping labels; foods point at them by name.
var seedLabels = []struct{ name, color string }{
	{"Produce", "#4CAF50"}, {"Dairy", "#FFEB3B"}, {"Meat & Fish", "#F44336"},
	{"Pantry", "#795548"}, {"Bakery", "#FF9800"}, {"Spices", "#9C27B0"}, {"Frozen", "#2196F3"},
}

// seedUnits: name, plural, abbreviation, whether fractions are used.
var seedUnits = []struct {
	name, plural, abbr string
	fraction           bool
}{
	{"cup", "cups", "c", true}, {"tablespoon", "tablespoons", "tbsp", true}, {"teaspoon", "teaspoons", "tsp", true},
	{"gram", "grams", "g", false}, {"kilogram", "kilograms", "kg", false}, {"milliliter", "milliliters", "ml", false},
	{"liter", "liters", "l", false}, {"ounce", "ounces", "oz", true}, {"pound", "pounds", "lb", true},
	{"clove", "cloves", "", true}, {"pinch", "pinches", "", true}, {"can", "cans", "", true},
	{"slice", "slices", "", true}, {"bunch", "bunches", "", true},
}

// seedFoods: name, plural, label.
var seedFoods = []struct{ name, plural, label string }{
	{"all-purpose flour", "", "Pantry"}, {"sugar", "", "Pantry"}, {"brown sugar", "", "Pantry"},
	{"baking powder", "", "Pantry"}, {"baking soda", "", "Pantry"}, {"salt", "", "Spices"},
	{"black pepper", "", "Spices"}, {"egg", "eggs", "Dairy"}, {"milk", "", "Dairy"},
	{"butter", "", "Dairy"}, {"heavy cream", "", "Dairy"}, {"parmesan", "", "Dairy"},
	{"feta", "", "Dairy"}, {"mozzarella", "", "Dairy"}, {"greek yogurt", "", "Dairy"},
	{"olive oil", "", "Pantry"}, {"vegetable oil", "", "Pantry"}, {"onion", "onions", "Produce"},
	{"garlic", "", "Produce"}, {"tomato", "tomatoes", "Produce"}, {"canned tomatoes", "", "Pantry"},
	{"tomato paste", "", "Pantry"}, {"carrot", "carrots", "Produce"}, {"celery", "", "Produce"},
	{"potato", "potatoes", "Produce"}, {"bell pepper", "bell peppers", "Produce"}, {"cucumber", "cucumbers", "Produce"},
	{"lemon", "lemons", "Produce"}, {"lime", "limes", "Produce"}, {"avocado", "avocados", "Produce"},
	{"banana", "bananas", "Produce"}, {"apple", "apples", "Produce"}, {"mushroom", "mushrooms", "Produce"},
	{"spinach", "", "Produce"}, {"romaine lettuce", "", "Produce"}, {"cilantro", "", "Produce"},
	{"basil", "", "Produce"}, {"parsley", "", "Produce"}, {"ginger", "", "Produce"},
	{"zucchini", "zucchinis", "Produce"}, {"broccoli", "", "Produce"}, {"kidney beans", "", "Pantry"},
	{"red lentils", "", "Pantry"}, {"chickpeas", "", "Pantry"}, {"rolled oats", "", "Pantry"},
	{"arborio rice", "", "Pantry"}, {"basmati rice", "", "Pantry"}, {"spaghetti", "", "Pantry"},
	{"penne", "", "Pantry"}, {"bread", "", "Bakery"}, {"tortilla", "tortillas", "Bakery"},
	{"pizza dough", "", "Bakery"}, {"chicken thigh", "chicken thighs", "Meat & Fish"},
	{"whole chicken", "", "Meat & Fish"}, {"ground beef", "", "Meat & Fish"}, {"beef chuck", "", "Meat & Fish"},
	{"pancetta", "", "Meat & Fish"}, {"white fish", "", "Meat & Fish"}, {"chicken stock", "", "Pantry"},
	{"vegetable stock", "", "Pantry"}, {"soy sauce", "", "Pantry"}, {"coconut milk", "", "Pantry"},
	{"curry powder", "", "Spices"}, {"chili powder", "", "Spices"}, {"cumin", "", "Spices"},
	{"paprika", "", "Spices"}, {"cinnamon", "", "Spices"}, {"vanilla extract", "", "Pantry"},
	{"chocolate chips", "", "Pantry"}, {"honey", "", "Pantry"}, {"maple syrup", "", "Pantry"},
	{"white wine", "", "Pantry"}, {"frozen peas", "", "Frozen"}, {"kalamata olives", "", "Pantry"},
	{"red onion", "red onions", "Produce"}, {"cabbage", "", "Produce"}, {"croutons", "", "Bakery"},
	{"anchovy", "anchovies", "Meat & Fish"}, {"dijon mustard", "", "Pantry"}, {"garam masala", "", "Spices"},
	{"turmeric", "", "Spices"}, {"bay leaf", "bay leaves", "Spices"}, {"thyme", "", "Spices"},
	{"oregano", "", "Spices"}, {"cannellini beans", "", "Pantry"}, {"small pasta", "", "Pantry"},
}

var seedTags = []string{"Quick & Easy", "Vegetarian", "Vegan", "Spicy", "Kid Friendly", "Make Ahead",
	"Comfort Food", "Gluten Free", "One Pot", "Freezer Friendly"}

var seedCategories = []string{"Breakfast", "Lunch", "Dinner", "Dessert", "Side", "Snack", "Soup", "Baking"}

// seedTools: name and whether it is on hand.
var seedTools = []struct {
	name   string
	onHand bool
}{
	{"Dutch Oven", true}, {"Skillet", true}, {"Sheet Pan", true}, {"Blender", false},
	{"Stand Mixer", false}, {"Baking Dish", true}, {"Food Processor", false}, {"Wok", false},
}

// seedTaxonomy adds labels, units, foods, tags, categories and tools, each
// created a minute apart from seedBase.
func (s *store) seedTaxonomy() {
	at := func(i int) time.Time { return seedBase.Add(time.Duration(i) * time.Minute) }
	labelIDs := map[string]string{}
	for _, l := range seedLabels {
		id := seedID("label", l.name)
		labelIDs[l.name] = id
		s.labels = append(s.labels, &label{ID: id, Name: l.name, Color: l.color})
	}
	for i, u := range seedUnits {
		s.units = append(s.units, &unit{
			ID: seedID("unit", u.name), Name: u.name, PluralName: strp(u.plural), Fraction: u.fraction,
			Abbreviation: u.abbr, UseAbbreviation: u.abbr != "", Aliases: []string{},
			CreatedAt: at(i), UpdatedAt: at(i),
		})
	}
	for i, f := range seedFoods {
		fd := &food{ID: seedID("food", f.name), Name: f.name, Aliases: []string{}, CreatedAt: at(i), UpdatedAt: at(i)}
		if f.plural != "" {
			fd.PluralName = strp(f.plural)
		}
		if id, ok := labelIDs[f.label]; ok {
			fd.LabelID = strp(id)
		}
		fd.OnHand = f.label == "Spices"
		s.foods = append(s.foods, fd)
	}
	for _, t := range seedTags {
		s.tags = append(s.tags, newOrganizer("tag", t))
	}
	for _, c := range seedCategories {
		s.categories = append(s.categories, newOrganizer("category", c))
	}
	for _, t := range seedTools {
		o := newOrganizer("tool", t.name)
		o.OnHand = t.onHand
		s.tools = append(s.tools, o)
	}
}

func newOrganizer(kind, name string) *organizer {
	return &organizer{ID: seedID(kind, name), Name: name, Slug: slugOf(name)}
}

// seedRecipe is one demo recipe in a compact form. Ingredients are
// "quantity|unit|food|note"; empty parts are absent, and a line starting with
// "#" titles the ingredient that follows. Steps that start with "@a,b" link the
// step to ingredients a and b (0-based).
type seedRecipe struct {
	name, description                 string
	yield, total, prep, cook, perform string
	servings                          float64
	categories, tags, tools           []string
	ingredients, steps                []string
	orgURL                            string
	notes                             []note
	// lastMadeDaysAgo places lastMade that many days before seedBase; 0 is never.
	lastMadeDaysAgo int
	rating          float64
}

func (s *store) seedDemoRecipes() {
	for i, d := range demoRecipes {
		s.addSeedRecipe(i, d)
	}
}

// addSeedRecipe turns a seed row into a recipe created i hours after seedBase,
// with a "Recipe Created" timeline event as Mealie writes one
// (mealie/services/recipe/recipe_service.py create_one).
func (s *store) addSeedRecipe(i int, d seedRecipe) *recipe {
	created := seedBase.Add(time.Duration(i) * time.Hour)
	slug := s.uniqueRecipeSlug(slugOf(d.name), nil)
	r := &recipe{
		ID: seedID("recipe", slug), Slug: slug, Name: d.name, Description: d.description,
		Servings: d.servings, DateAdded: created.Truncate(24 * time.Hour),
		DateUpdated: created, CreatedAt: created, UpdatedAt: created,
		Nutrition: map[string]*string{}, Extras: map[string]any{},
	}
	opt := func(v string) *string {
		if v == "" {
			return nil
		}
		return strp(v)
	}
	r.Yield, r.TotalTime, r.PrepTime, r.CookTime, r.PerformTime = opt(d.yield), opt(d.total), opt(d.prep), opt(d.cook), opt(d.perform)
	r.OrgURL = opt(d.orgURL)
	if d.rating > 0 {
		r.Rating = floatp(d.rating)
	}
	if d.lastMadeDaysAgo > 0 {
		lm := seedBase.AddDate(0, 0, -d.lastMadeDaysAgo).Add(18 * time.Hour)
		r.LastMade = &lm
	}
	for _, c := range d.categories {
		r.CategoryIDs = append(r.CategoryIDs, seedID("category", c))
	}
	for _, t := range d.tags {
		r.TagIDs = append(r.TagIDs, seedID("tag", t))
	}
	for _, t := range d.tools {
		r.ToolIDs = append(r.ToolIDs, seedID("tool", t))
	}
	var title *string
	for j, line := range d.ingredients {
		if strings.HasPrefix(line, "#") {
			title = strp(strings.TrimPrefix(line, "#"))
			continue
		}
		in := s.parseSeedIngredient(line)
		in.Title = title
		title = nil
		in.ReferenceID = strp(seedID("ingredient", slug+"/"+strconv.Itoa(j)))
		r.Ingredients = append(r.Ingredients, in)
	}
	for j, text := range d.steps {
		st := step{ID: seedID("step", slug+"/"+strconv.Itoa(j)), Title: strp(""), Summary: strp(""), IngredientReferences: []string{}}
		if strings.HasPrefix(text, "@") {
			refs, rest, _ := strings.Cut(text[1:], " ")
			text = rest
			for _, ref := range strings.Split(refs, ",") {
				k, _ := strconv.Atoi(ref)
				if k < len(r.Ingredients) && r.Ingredients[k].ReferenceID != nil {
					st.IngredientReferences = append(st.IngredientReferences, *r.Ingredients[k].ReferenceID)
				}
			}
		}
		st.Text = text
		r.Instructions = append(r.Instructions, st)
	}
	r.Notes = append(r.Notes, d.notes...)
	s.recipes = append(s.recipes, r)
	s.timeline = append(s.timeline, &timelineEvent{
		ID: seedID("event", slug+"/created"), RecipeID: r.ID, Subject: "Recipe Created", EventType: "system",
		Timestamp: created, CreatedAt: created, UpdatedAt: created,
	})
	if r.LastMade != nil {
		s.timeline = append(s.timeline, &timelineEvent{
			ID: seedID("event", slug+"/made"), RecipeID: r.ID, Subject: "Made " + r.Name, EventType: "info",
			EventMessage: strp("Everyone had seconds."), Timestamp: *r.LastMade, CreatedAt: *r.LastMade, UpdatedAt: *r.LastMade,
		})
	}
	return r
}

// parseSeedIngredient reads "quantity|unit|food|note". Seeded ingredients are
// structured (isFood true), so their display names the unit and food.
func (s *store) parseSeedIngredient(line string) ingredient {
	parts := strings.SplitN(line, "|", 4)
	for len(parts) < 4 {
		parts = append(parts, "")
	}
	in := ingredient{Note: parts[3], IsFood: true}
	if parts[0] != "" {
		if q, err := strconv.ParseFloat(parts[0], 64); err == nil {
			in.Quantity = floatp(q)
		}
	}
	if parts[1] != "" {
		in.UnitID = strp(seedID("unit", parts[1]))
	}
	if parts[2] != "" {
		in.FoodID = strp(seedID("food", parts[2]))
	} else {
		in.IsFood, in.DisableAmount = false, true
	}
	return in
}

// seedMealplans places meal plans on fixed dates around seedBase and, so that
// "this week" is never empty in a demo, on days of the current week (Monday
// to Sunday, from the server's clock).
func (s *store) seedMealplans() {
	add := func(date time.Time, entryType, slug, title, text string) {
		m := &mealplan{ID: s.newMealplanID(), Date: date.Format(layoutDate), EntryType: entryType, Title: title, Text: text}
		if slug != "" {
			if r := s.findRecipe(slug); r != nil {
				m.RecipeID = strp(r.ID)
			}
		}
		s.mealplans = append(s.mealplans, m)
	}
	add(seedBase, "dinner", "weeknight-chili", "", "")
	add(seedBase.AddDate(0, 0, 1), "dinner", "mushroom-risotto", "", "")
	add(seedBase.AddDate(0, 0, 2), "breakfast", "pancakes", "", "")
	add(seedBase.AddDate(0, 0, 2), "dinner", "", "Leftovers", "Finish the chili")
	now := s.now().UTC()
	monday := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	monday = monday.AddDate(0, 0, -((int(monday.Weekday()) + 6) % 7))
	add(monday, "dinner", "lentil-dal", "", "")
	add(monday.AddDate(0, 0, 1), "dinner", "fish-tacos", "", "")
	add(monday.AddDate(0, 0, 2), "lunch", "greek-salad-with-feta", "", "")
	add(monday.AddDate(0, 0, 2), "dinner", "weeknight-chili", "", "")
	add(monday.AddDate(0, 0, 3), "dinner", "", "Pizza night out", "Booked for 7pm")
	add(monday.AddDate(0, 0, 4), "breakfast", "overnight-oats", "", "")
	add(monday.AddDate(0, 0, 4), "dinner", "chicken-curry", "", "")
	add(monday.AddDate(0, 0, 5), "side", "guacamole", "", "")
	add(monday.AddDate(0, 0, 6), "dinner", "roast-chicken-with-lemon", "", "")
}

// seedCookbooks adds two cookbooks defined by query filters.
func (s *store) seedCookbooks() {
	s.cookbooks = append(s.cookbooks,
		&cookbook{ID: seedID("cookbook", "weeknight-dinners"), Name: "Weeknight Dinners", Slug: "weeknight-dinners",
			Description: "Dinners on the table in under an hour", Position: 1,
			QueryFilterString: `recipe_category.name IN ["Dinner"] AND tags.name IN ["Quick & Easy"]`},
		&cookbook{ID: seedID("cookbook", "sweet-things"), Name: "Sweet Things", Slug: "sweet-things",
			Description: "Desserts and bakes", Position: 2,
			QueryFilterString: `recipe_category.slug IN ["dessert", "baking"]`},
	)
}

// seedShoppingList adds one list with structured, free-text and checked items.
func (s *store) seedShoppingList() {
	at := seedBase.Add(48 * time.Hour)
	l := &shoppingList{ID: seedID("shopping-list", "weekly"), Name: strp("Weekly Groceries"), CreatedAt: at, UpdatedAt: at}
	items := []struct {
		qty              float64
		unitName, fdName string
		note             string
		checked          bool
	}{
		{2, "", "onion", "", false}, {1, "can", "coconut milk", "", false}, {500, "gram", "red lentils", "", false},
		{1, "bunch", "cilantro", "", true}, {1, "", "", "paper towels", false}, {6, "", "egg", "free range", false},
	}
	for i, it := range items {
		item := &shoppingItem{ID: seedID("shopping-item", strconv.Itoa(i)), Quantity: it.qty, Note: it.note,
			Checked: it.checked, Position: i, Extras: map[string]any{}, CreatedAt: at, UpdatedAt: at}
		if it.unitName != "" {
			item.UnitID = strp(seedID("unit", it.unitName))
		}
		if it.fdName != "" {
			item.FoodID = strp(seedID("food", it.fdName))
			if f := s.foodByID(*item.FoodID); f != nil {
				item.LabelID = f.LabelID
			}
		}
		l.Items = append(l.Items, item)
	}
	s.shoppingLists = append(s.shoppingLists, l)
}

// Word lists for bench recipes: every combination is a plausible dish name.
var (
	benchStyles  = []string{"Smoky", "Lemony", "Garlicky", "Herbed", "Spiced", "Creamy", "Crispy", "Roasted", "Braised", "Grilled"}
	benchMains   = []string{"Chicken", "Tofu", "Salmon", "Chickpea", "Mushroom", "Beef", "Lentil", "Halloumi", "Shrimp", "Pork"}
	benchFormats = []string{"Tacos", "Stew", "Salad", "Bowl", "Pasta", "Curry", "Soup", "Skewers", "Traybake", "Sandwich"}
)

// seedBench adds n generated recipes, each with six ingredients, three steps,
// two tags and a category, and n/2 extra foods so that taxonomy lists page.
// With long, each description is longDescription's length; with dup, every
// odd recipe is named as a copy of the even one before it.
func (s *store) seedBench(n int, long, dup bool) {
	for i := 0; i < n/2; i++ {
		name := fmt.Sprintf("bench food %05d", i)
		at := seedBase.Add(time.Duration(i) * time.Second)
		s.foods = append(s.foods, &food{ID: seedID("food", name), Name: name, Aliases: []string{}, CreatedAt: at, UpdatedAt: at})
	}
	for i := 0; i < n; i++ {
		style, main, format := benchStyles[i%10], benchMains[(i/10)%10], benchFormats[(i/100)%10]
		d := seedRecipe{
			name:        fmt.Sprintf("%s %s %s %d", style, main, format, i+1),
			description: fmt.Sprintf("A %s take on %s %s.", strings.ToLower(style), strings.ToLower(main), strings.ToLower(format)),
			yield:       "4 servings", total: "45 minutes", prep: "15 minutes", perform: "30 minutes", servings: 4,
			categories: []string{seedCategories[i%len(seedCategories)]},
			tags:       []string{seedTags[i%len(seedTags)], seedTags[(i/3)%len(seedTags)]},
			tools:      []string{seedTools[i%len(seedTools)].name},
			orgURL:     fmt.Sprintf("https://recipes.example.org/bench/%d", i+1),
		}
		if long {
			d.description = longDescription(d.description, i)
		}
		if dup && i%2 == 1 {
			j := i - 1
			d.name = fmt.Sprintf("%s %s %s %d (1)", benchStyles[j%10], benchMains[(j/10)%10], benchFormats[(j/100)%10], j+1)
		}
		for j := 0; j < 6; j++ {
			f := seedFoods[(i*7+j*13)%len(seedFoods)]
			u := seedUnits[(i+j)%len(seedUnits)]
			d.ingredients = append(d.ingredients, fmt.Sprintf("%d|%s|%s|", 1+(i+j)%4, u.name, f.name))
		}
		d.steps = []string{"@0,1 Prepare the ingredients.", "Cook everything together until done.", "Season and serve."}
		if i%5 == 0 {
			d.lastMadeDaysAgo = 1 + i%60
		}
		s.addSeedRecipe(i, d)
	}
}

// longDescription pads a bench description to about 1,200 characters of
// varied prose, the length of a scraped food blog's recipe summary.
func longDescription(short string, i int) string {
	var b strings.Builder
	b.WriteString(short)
	for j := 0; b.Len() < 1200; j++ {
		fmt.Fprintf(&b, " Note %d: this version was tested %d times; %s pairs well with %s, and leftovers keep for %d days in the fridge.",
			j+1, 2+(i+j)%7, strings.ToLower(benchMains[(i+j)%len(benchMains)]), strings.ToLower(benchFormats[(i+2*j)%len(benchFormats)]), 1+(i+j)%4)
	}
	return b.String()
}
