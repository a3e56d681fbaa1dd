package mealieemu

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// placeholderStep is the markdown step Mealie puts in every new recipe
// (services/internal/mealie/testdata/recipes_get__fresh.json).
const placeholderStep = "Recipe steps as well as other fields in the recipe page support markdown syntax.\n\n**Add a link**\n\n[My Link](https://demo.mealie.io)\n"

// maxNameRetries is how many "Name (n)" variants Mealie tries before giving up
// on a repeated recipe name (mealie/repos/repository_recipes.py create).
const maxNameRetries = 10

// handleCreateRecipe is POST /api/recipes {name}: 201 with the bare slug
// string (services/internal/mealie/testdata/recipes_create__ok.json). Other fields are ignored;
// an empty name is a 500 AssertionError;
// a repeated name becomes "Name (1)"
// (TestSlugCollisionSuffix in integration/contract).
func (s *Server) handleCreateRecipe(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	name, ok := b.str("name")
	if !ok {
		writeValidation(w, missing(b.raw(), "name"))
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rc, err := st.createRecipe(name)
	if err != "" {
		writeUnknownError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, rc.Slug)
}

// createRecipe adds a recipe as Mealie's RecipeService.create_one does,
// returning the Python exception name on failure.
func (st *store) createRecipe(name string) (*recipe, string) {
	if slugOf(name) == "" {
		return nil, "AssertionError"
	}
	final := name
	for i := 1; ; i++ {
		if st.findRecipe(slugOf(final)) == nil {
			break
		}
		if i > maxNameRetries {
			return nil, "IntegrityError"
		}
		final = name + " (" + strconv.Itoa(i) + ")"
	}
	now := st.now().UTC()
	rc := &recipe{
		ID: newID(), Name: final, Slug: slugOf(final),
		DateAdded: now.Truncate(24 * time.Hour), DateUpdated: now, CreatedAt: now, UpdatedAt: now,
		Ingredients:  []ingredient{{Quantity: floatp(st.profile.placeholderQuantity), Note: "1 Cup Flour", DisableAmount: true, ReferenceID: strp(newID())}},
		Instructions: []step{{ID: newID(), Title: strp(""), Summary: strp(""), Text: placeholderStep, IngredientReferences: []string{}}},
		Settings:     recipeSettings{DisableAmount: st.profile.ingredientFlags},
		Nutrition:    map[string]*string{}, Extras: map[string]any{},
	}
	st.recipes = append(st.recipes, rc)
	st.timeline = append(st.timeline, &timelineEvent{ID: newID(), RecipeID: rc.ID, Subject: "Recipe Created",
		EventType: "system", Timestamp: now, CreatedAt: now, UpdatedAt: now})
	return rc, ""
}

// recipeFailure is how a recipe write goes wrong: a 422 validation list, or a
// 500 "Unknown Error" naming the Python exception Mealie hits.
type recipeFailure struct {
	validation []valErr
	exception  string
}

// recipePatch is a validated PATCH or PUT body, ready to apply.
type recipePatch struct {
	body        jsonBody
	ingredients []ingredient
	steps       []step
	tagIDs      []string
	catIDs      []string
	toolIDs     []string
	renames     []organizerRename
	// created are the tags and categories a 3.20 PATCH makes from objects
	// without a known id (profile.go, idlessOrganizerCreated), added to
	// their lists when the write is applied.
	created []createdOrganizer
	// nullReference is set when an ingredient came without referenceId.
	nullReference bool
}

type createdOrganizer struct {
	rows *[]*organizer
	o    *organizer
}

type organizerRename struct {
	o          *organizer
	name, slug string
}

// validateRecipeBody checks a recipe body the way Mealie's Recipe model and
// RecipeService do, in their order: pydantic's 422s first, then the 500s of
// the database layer.
func (st *store) validateRecipeBody(b jsonBody) (*recipePatch, *recipeFailure) {
	p := &recipePatch{body: b}
	var verrs []valErr
	for _, k := range []string{"name", "slug", "description", "recipeYield", "totalTime", "prepTime", "cookTime", "performTime", "orgURL", "image"} {
		if v, ok := b[k]; ok && v != nil {
			if _, isStr := v.(string); !isStr {
				verrs = append(verrs, valErr{typ: "string_type", loc: []any{"body", k}, msg: "Input should be a valid string", input: v})
			}
		}
	}
	if v, ok := b["rating"]; ok && v != nil {
		if _, isNum := toFloat(v); !isNum {
			verrs = append(verrs, valErr{typ: "float_parsing", loc: []any{"body", "rating"}, msg: "Input should be a valid number, unable to parse string as a number", input: v})
		}
	}
	exception := ""
	orgs := []struct {
		key    string
		list   []*organizer
		needID bool
		dst    *[]string
		rows   *[]*organizer
	}{
		{"tags", st.tags, false, &p.tagIDs, &st.tags},
		{"recipeCategory", st.categories, false, &p.catIDs, &st.categories},
		{"tools", st.tools, true, &p.toolIDs, &st.tools},
	}
	for _, o := range orgs {
		v, present := b[o.key]
		if !present {
			continue
		}
		if v == nil {
			// services/internal/mealie/testdata/recipes_patch__tags_null_500.json
			exception = firstNonEmpty(exception, "TypeError")
			continue
		}
		items, isList := v.([]any)
		if !isList {
			verrs = append(verrs, valErr{typ: "list_type", loc: []any{"body", o.key}, msg: "Input should be a valid list", input: v})
			continue
		}
		ids := []string{}
		for i, it := range items {
			ob, isObj := asBody(it)
			if !isObj {
				verrs = append(verrs, valErr{typ: "model_type", loc: []any{"body", o.key, i}, msg: "Input should be a valid dictionary or object to extract fields from", input: it})
				continue
			}
			req := []string{"name", "slug"}
			if o.needID {
				req = []string{"id", "name", "slug"}
			}
			var missingHere bool
			for _, k := range req {
				if _, ok := ob.str(k); !ok {
					verrs = append(verrs, missing(ob.raw(), o.key, i, k))
					missingHere = true
				}
			}
			if missingHere {
				continue
			}
			name, _ := ob.str("name")
			slug, _ := ob.str("slug")
			id, hasID := ob.str("id")
			if hasID {
				if e := uuid4Error(id); e != nil {
					e.loc = []any{"body", o.key, i, "id"}
					verrs = append(verrs, *e)
					continue
				}
			}
			var found *organizer
			if hasID {
				found = findOrganizer(o.list, id)
			}
			switch {
			case found != nil:
				if found.Name != name || found.Slug != slug {
					// An id with another name renames the global organizer
					// (TestOrganizerObjectsNeedIDNameSlug in integration/contract).
					p.renames = append(p.renames, organizerRename{found, name, slug})
				}
				ids = append(ids, found.ID)
			case st.profile.idlessOrganizerCreated && !o.needID:
				// 3.20 gives the new row the group's id and creates it as
				// Tag(name, group_id) or Category(name, group_id) do: a new
				// id, the slug from the name, the sent slug ignored
				// (testdata/recordings/3.20/TestOrganizerObjectsNeedIDNameSlug.json).
				// A slug another row holds breaks the table's unique
				// (slug, group_id) constraint (read from Mealie's
				// db/models/recipe/tag.py; not recorded).
				no := &organizer{ID: newID(), Name: strings.TrimSpace(name), Slug: slugOf(name), UpdatedAt: st.now().UTC()}
				if findOrganizerBySlug(o.list, no.Slug) != nil || p.createdSlug(o.rows, no.Slug) {
					exception = firstNonEmpty(exception, "IntegrityError")
					continue
				}
				p.created = append(p.created, createdOrganizer{o.rows, no})
				ids = append(ids, no.ID)
			default:
				// Without a known id Mealie up to 3.11 builds a new row
				// without a group id and fails.
				exception = firstNonEmpty(exception, "TypeError")
			}
		}
		*o.dst = ids
	}
	if v, present := b["recipeIngredient"]; present {
		items, isList := v.([]any)
		if !isList {
			verrs = append(verrs, valErr{typ: "list_type", loc: []any{"body", "recipeIngredient"}, msg: "Input should be a valid list", input: v})
		}
		for i, it := range items {
			in, ve, exc := st.parseIngredient(it, i)
			verrs = append(verrs, ve...)
			exception = firstNonEmpty(exception, exc)
			if in.ReferenceID == nil {
				p.nullReference = true
			}
			p.ingredients = append(p.ingredients, in)
		}
		if p.ingredients == nil {
			p.ingredients = []ingredient{}
		}
	}
	if v, present := b["recipeInstructions"]; present {
		items, isList := v.([]any)
		if !isList && v != nil {
			verrs = append(verrs, valErr{typ: "list_type", loc: []any{"body", "recipeInstructions"}, msg: "Input should be a valid list", input: v})
		}
		p.steps = []step{}
		for i, it := range items {
			ob, isObj := asBody(it)
			if !isObj {
				verrs = append(verrs, valErr{typ: "model_type", loc: []any{"body", "recipeInstructions", i}, msg: "Input should be a valid dictionary or object to extract fields from", input: it})
				continue
			}
			stp := step{ID: newID(), Title: ob.optStr("title"), Summary: ob.optStr("summary"), IngredientReferences: []string{}}
			if id, ok := ob.str("id"); ok {
				stp.ID = id
			}
			stp.Text, _ = ob.str("text")
			refs, hasRefs := ob.list("ingredientReferences")
			if !hasRefs {
				exception = firstNonEmpty(exception, "TypeError")
			}
			for _, ref := range refs {
				if rb, ok := asBody(ref); ok {
					if id, ok := rb.str("referenceId"); ok {
						stp.IngredientReferences = append(stp.IngredientReferences, id)
					}
				}
			}
			p.steps = append(p.steps, stp)
		}
	}
	if len(verrs) > 0 {
		return nil, &recipeFailure{validation: verrs}
	}
	if exception != "" {
		return nil, &recipeFailure{exception: exception}
	}
	return p, nil
}

// createdSlug reports a row of rows this write already creates with slug.
func (p *recipePatch) createdSlug(rows *[]*organizer, slug string) bool {
	for _, c := range p.created {
		if c.rows == rows && c.o.Slug == slug {
			return true
		}
	}
	return false
}

// findOrganizerBySlug returns the row of list with slug, or nil.
func findOrganizerBySlug(list []*organizer, slug string) *organizer {
	for _, o := range list {
		if o.Slug == slug {
			return o
		}
	}
	return nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// parseIngredient validates one recipeIngredient entry.
func (st *store) parseIngredient(it any, i int) (ingredient, []valErr, string) {
	// An ingredient sent without quantity stores null: PATCH dumps only the
	// fields that were set ("a pinch of salt" keeps quantity null).
	in := ingredient{}
	ob, ok := asBody(it)
	if !ok {
		return in, []valErr{{typ: "model_type", loc: []any{"body", "recipeIngredient", i}, msg: "Input should be a valid dictionary or object to extract fields from", input: it}}, ""
	}
	var verrs []valErr
	exception := ""
	if v, present := ob["quantity"]; present {
		if v == nil {
			in.Quantity = nil
		} else if q, ok := toFloat(v); ok {
			in.Quantity = floatp(q)
		} else {
			verrs = append(verrs, valErr{typ: "float_parsing", loc: []any{"body", "recipeIngredient", i, "quantity"},
				msg: "Input should be a valid number, unable to parse string as a number", input: v})
		}
	}
	for _, kind := range []struct{ key, model, create string }{{"unit", "IngredientUnit", "CreateIngredientUnit"}, {"food", "IngredientFood", "CreateIngredientFood"}} {
		v, present := ob[kind.key]
		if !present || v == nil {
			continue
		}
		sub, isObj := asBody(v)
		if !isObj {
			continue
		}
		id, hasID := sub.str("id")
		if !hasID {
			// "Expected 'id'
			// to be provided for unit|food".
			exception = firstNonEmpty(exception, "ValueError")
			continue
		}
		if e := uuid4Error(id); e != nil {
			// Mealie reports the error once per union member.
			for _, m := range []string{kind.model, kind.create} {
				ee := *e
				ee.loc = []any{"body", "recipeIngredient", i, kind.key, "function-after[set_tz_info(), " + m + "]", "id"}
				verrs = append(verrs, ee)
			}
			continue
		}
		// A well-formed id that matches nothing is accepted and dropped.
		if kind.key == "unit" && st.unitByID(id) != nil {
			in.UnitID = strp(id)
		}
		if kind.key == "food" && st.foodByID(id) != nil {
			in.FoodID = strp(id)
		}
	}
	in.Note, _ = ob.str("note")
	// Mealie 3.5 and later keep a line's referencedRecipe by its id; an
	// id that matches no recipe is dropped, as for foods and units.
	if v, ok := asBody(ob["referencedRecipe"]); ok && !st.profile.ingredientFlags {
		if id, ok := v.str("id"); ok && st.recipeByID(id) != nil {
			in.RecipeID = strp(id)
		}
	}
	in.Title = ob.optStr("title")
	in.OriginalText = ob.optStr("originalText")
	isFood, hasIsFood := ob.boolean("isFood")
	disable, hasDisable := ob.boolean("disableAmount")
	// RecipeIngredientBase.calculate_missing_food_flags.
	switch {
	case hasIsFood && hasDisable:
		in.IsFood, in.DisableAmount = isFood, disable
	case hasDisable:
		in.IsFood, in.DisableAmount = !disable, disable
	case hasIsFood:
		in.IsFood, in.DisableAmount = isFood, !isFood
	default:
		in.IsFood = in.FoodID != nil
		in.DisableAmount = !in.IsFood
		if _, sentFood := ob["food"]; sentFood && ob["food"] != nil {
			in.IsFood, in.DisableAmount = true, false
		}
	}
	if ref, ok := ob.str("referenceId"); ok {
		if _, err := uuid.Parse(ref); err != nil {
			e := uuid4Error(ref)
			e.loc = []any{"body", "recipeIngredient", i, "referenceId"}
			verrs = append(verrs, *e)
		} else {
			in.ReferenceID = strp(ref)
		}
	}
	return in, verrs, exception
}

// apply writes a validated body into the recipe. replace resets what the body
// leaves out (PUT); otherwise only sent keys change (PATCH, which replaces list
// fields wholesale: TestPatchReplacesTags in integration/contract).
func (st *store) apply(rc *recipe, p *recipePatch, replace bool) {
	b := p.body
	for _, c := range p.created {
		*c.rows = append(*c.rows, c.o)
	}
	setStr := func(k string, dst *string) {
		if v, ok := b.str(k); ok {
			*dst = v
		} else if replace {
			*dst = ""
		}
	}
	setOpt := func(k string, dst **string) {
		if _, ok := b[k]; ok || replace {
			*dst = b.optStr(k)
		}
	}
	setStr("description", &rc.Description)
	setOpt("recipeYield", &rc.Yield)
	setOpt("totalTime", &rc.TotalTime)
	setOpt("prepTime", &rc.PrepTime)
	setOpt("cookTime", &rc.CookTime)
	setOpt("performTime", &rc.PerformTime)
	setOpt("orgURL", &rc.OrgURL)
	if _, ok := b["image"]; ok || replace {
		rc.Image = b.optStr("image")
	}
	if v, ok := b["rating"]; ok || replace {
		rc.Rating = nil
		if f, ok := toFloat(v); ok {
			rc.Rating = floatp(f)
		}
	}
	for _, k := range []struct {
		key string
		dst *float64
	}{{"recipeServings", &rc.Servings}, {"recipeYieldQuantity", &rc.YieldQuantity}} {
		if f, ok := b.num(k.key); ok {
			*k.dst = f
		} else if replace {
			*k.dst = 0
		}
	}
	if v, ok := b.str("lastMade"); ok {
		if t, ok := parseLooseTime(v); ok {
			rc.LastMade = &t
		}
	}
	if _, ok := b["tags"]; ok || replace {
		rc.TagIDs = p.tagIDs
	}
	if _, ok := b["recipeCategory"]; ok || replace {
		rc.CategoryIDs = p.catIDs
	}
	if _, ok := b["tools"]; ok || replace {
		rc.ToolIDs = p.toolIDs
	}
	if p.ingredients != nil || replace {
		rc.Ingredients = p.ingredients
	}
	if p.steps != nil || replace {
		rc.Instructions = p.steps
	}
	if sb, ok := b.obj("settings"); ok {
		flag := func(k string, dst *bool) {
			if v, ok := sb.boolean(k); ok {
				*dst = v
			}
		}
		s := &rc.Settings
		flag("public", &s.Public)
		flag("showNutrition", &s.ShowNutrition)
		flag("showAssets", &s.ShowAssets)
		flag("landscapeView", &s.LandscapeView)
		flag("disableComments", &s.DisableComments)
		flag("disableAmount", &s.DisableAmount)
		flag("locked", &s.Locked)
	}
	if nb, ok := b.obj("nutrition"); ok {
		rc.Nutrition = map[string]*string{}
		for _, k := range nutritionKeys {
			rc.Nutrition[k] = nb.optStr(k)
		}
	}
	if l, ok := b.list("notes"); ok {
		rc.Notes = nil
		for _, n := range l {
			if nb, ok := asBody(n); ok {
				t, _ := nb.str("title")
				x, _ := nb.str("text")
				rc.Notes = append(rc.Notes, note{Title: t, Text: x})
			}
		}
	}
	if e, ok := b.obj("extras"); ok {
		rc.Extras = e
	}
	for _, rn := range p.renames {
		rn.o.Name, rn.o.Slug = rn.name, rn.slug
	}
	now := st.now().UTC()
	rc.UpdatedAt, rc.DateUpdated = now, now
}

// writeRecipeFailure answers a failed recipe write.
func writeRecipeFailure(w http.ResponseWriter, f *recipeFailure) {
	if len(f.validation) > 0 {
		writeValidation(w, f.validation...)
		return
	}
	writeUnknownError(w, f.exception)
}

// lookupForWrite finds the recipe a PATCH or PUT names and refuses rows Mealie
// can no longer update: a row whose stored slug no longer matches its name
// fails with NoResultFound (TestPatchNameKeepsStoredSlug in integration/contract),
// a row that no longer serialises fails with ValidationError.
func (st *store) lookupForWrite(w http.ResponseWriter, key string) *recipe {
	rc := st.findRecipe(key)
	if rc == nil {
		writeNoEntry(w)
		return nil
	}
	if rc.broken {
		writeUnknownError(w, "ValidationError")
		return nil
	}
	if rc.stuck() {
		if st.profile.stuckRenameLocked {
			writeErrorResponse(w, http.StatusForbidden, "Permission Denied", "")
			return nil
		}
		writeUnknownError(w, "NoResultFound")
		return nil
	}
	return rc
}

// handlePatchRecipe is PATCH /api/recipes/{slug}. Omitted fields stay; list
// fields are replaced (TestPatchReplacesTags in integration/contract). A name
// without a slug leaves the
// stored slug behind while responses show slugify(name); a slug alongside a
// name stores slugify(name); a slug alone is stored as sent
// (2.0 to 3.11: testdata/recordings/<version>/TestPatchNameKeepsStoredSlug.json and
// TestRenameWithSlugOrPut.json in the contract package); 3.20 moves the
// slug with a changed name and ignores a slug sent alone
// (profile.go, patchNameMovesSlug).
func (s *Server) handlePatchRecipe(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rc := st.lookupForWrite(w, r.PathValue("slug"))
	if rc == nil {
		return
	}
	p, fail := st.validateRecipeBody(b)
	if fail != nil {
		writeRecipeFailure(w, fail)
		return
	}
	name, hasName := b.str("name")
	slug, hasSlug := b.str("slug")
	if st.profile.patchNameMovesSlug {
		// 3.20 sets the slug from a changed name and keeps it otherwise
		// (profile.go, patchNameMovesSlug).
		newSlug := rc.Slug
		if hasName && name != rc.Name {
			newSlug = slugOf(name)
		}
		if st.uniqueRecipeSlug(newSlug, rc) != newSlug {
			writeErrorResponse(w, http.StatusBadRequest, "Recipe already exists", "")
			return
		}
		st.apply(rc, p, false)
		if hasName {
			rc.Name = name
		}
		rc.Slug = newSlug
	} else {
		st.apply(rc, p, false)
		switch {
		case hasName && hasSlug:
			rc.Name, rc.Slug = name, slugOf(name)
		case hasName:
			rc.Name = name
		case hasSlug:
			rc.Slug = slug
		}
	}
	if p.nullReference {
		// The PATCH is committed and the row then fails to serialise.
		rc.broken = true
		writeUnknownError(w, "ValidationError")
		return
	}
	writeJSON(w, http.StatusOK, st.renderRecipe(rc))
}

// handlePutRecipe is PUT /api/recipes/{slug}: a full replacement that moves
// the slug with the name (TestRenameWithSlugOrPut in integration/contract). A body without the
// recipe's id tries to insert a second row and fails as "Recipe already
// exists"; one without a name fails in the name
// normalisation.
func (s *Server) handlePutRecipe(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rc := st.lookupForWrite(w, r.PathValue("slug"))
	if rc == nil {
		return
	}
	name, hasName := b.str("name")
	if !hasName {
		writeUnknownError(w, "AttributeError")
		return
	}
	if id, _ := b.str("id"); id != rc.ID {
		writeErrorResponse(w, http.StatusBadRequest, "Recipe already exists", "")
		return
	}
	p, fail := st.validateRecipeBody(b)
	if fail != nil {
		writeRecipeFailure(w, fail)
		return
	}
	newSlug := st.uniqueRecipeSlug(slugOf(name), rc)
	if newSlug != slugOf(name) {
		writeErrorResponse(w, http.StatusBadRequest, "Recipe already exists", "")
		return
	}
	st.apply(rc, p, true)
	rc.Name, rc.Slug = name, newSlug
	if p.nullReference {
		rc.broken = true
		writeUnknownError(w, "ValidationError")
		return
	}
	writeJSON(w, http.StatusOK, st.renderRecipe(rc))
}

// handleDeleteRecipe answers 200 with the full deleted recipe, 404 after
// (TestRecipeLifecycle in integration/contract).
func (s *Server) handleDeleteRecipe(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rc := st.findRecipe(r.PathValue("slug"))
	if rc == nil {
		writeNoEntry(w)
		return
	}
	if rc.broken {
		// services/recipes/testdata/recipes_delete__throwaway.json
		writeUnknownError(w, "ValidationError")
		return
	}
	if rc.stuck() && st.profile.stuckRenameLocked {
		writeUnknownError(w, "IndexError")
		return
	}
	out := st.renderRecipe(rc)
	st.removeRecipe(rc)
	writeJSON(w, http.StatusOK, out)
}

// stuck reports a recipe whose stored slug a PATCH {name} left behind.
func (r *recipe) stuck() bool { return r.Slug != slugOf(r.Name) }

// removeRecipe deletes a recipe with its timeline; meal-plan entries keep the
// recipe id and show recipe null.
func (st *store) removeRecipe(rc *recipe) {
	for i, x := range st.recipes {
		if x == rc {
			st.recipes = append(st.recipes[:i], st.recipes[i+1:]...)
			break
		}
	}
	var kept []*timelineEvent
	for _, e := range st.timeline {
		if e.RecipeID != rc.ID {
			kept = append(kept, e)
		}
	}
	st.timeline = kept
}

// handleLastMade is PATCH /api/recipes/{slug}/last-made {timestamp}
// (TestTimelineAndLastMade in integration/contract). An earlier time than
// the stored one replaces it on 2.0 and is ignored on 2.8 and 3.11
// (TestBackdatedLastMade; see profile.lastMadeKeepsLatest).
func (s *Server) handleLastMade(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	ts, ok := b.str("timestamp")
	if !ok {
		writeValidation(w, missing(b.raw(), "timestamp"))
		return
	}
	t, ok := parseLooseTime(ts)
	if !ok {
		writeValidation(w, valErr{typ: "datetime_from_date_parsing", loc: []any{"body", "timestamp"},
			msg: "Input should be a valid datetime or date, invalid character in year", input: ts, ctx: object{{"error", "invalid character in year"}}})
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	rc := st.findRecipe(r.PathValue("slug"))
	if rc == nil {
		writeNoEntry(w)
		return
	}
	t = t.UTC()
	if !st.profile.lastMadeKeepsLatest || rc.LastMade == nil || t.After(*rc.LastMade) {
		rc.LastMade = &t
	}
	rc.UpdatedAt = st.now().UTC()
	writeJSON(w, http.StatusOK, st.renderRecipe(rc))
}

// imageKey is the 4-letter cache key Mealie stores as a recipe's image after
// a URL image fetch (TestRecipeImageFromUnreachableURL in integration/contract shows "dkym").
func imageKey() string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 4)
	for i := range b {
		b[i] = letters[rand.IntN(len(letters))]
	}
	return string(b)
}
