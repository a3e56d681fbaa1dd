package recipes

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/mealieslug"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// Write limits.
const (
	// MaxNameChars caps a recipe name; longer is a paste, not a name.
	MaxNameChars = limits.RecipeNameChars
	// MaxBulkSlugs caps one bulk action, so a hallucinated list cannot fan
	// out into hundreds of writes.
	MaxBulkSlugs = limits.BulkSlugs
	// MaxImageBytes caps an uploaded image; recipe photos are far smaller.
	MaxImageBytes = limits.ImageBytes
	// MaxNotes caps the notes one write carries.
	MaxNotes = limits.RecipeNotes
)

// checkName refuses a recipe name Mealie cannot address: it derives the
// slug from the name (mealieslug.Make), and a name without letters or digits
// ("🥞🥞") slugs to "". Mealie 2.0 answers such a create with a bare 500 and
// stores such a rename under slug "", after which no route reaches the recipe.
func checkName(field, name string) error {
	if mealieslug.Make(name) == "" {
		return invalid("%s %q needs letters or digits: Mealie builds the recipe's slug from them, and a name without any would leave the recipe with no address", field, name)
	}
	return nil
}

func required(name, v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", invalid("%s is required", name)
	}
	return v, nil
}

// httpURL checks an http(s) URL with a host.
func httpURL(field, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if raw == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", invalid("%s must be an http(s) URL, got %q", field, raw)
	}
	return raw, nil
}

func created(tags, cats, tools []string) *recipesv1.TaxonomyCreated {
	if len(tags)+len(cats)+len(tools) == 0 {
		return nil
	}
	return &recipesv1.TaxonomyCreated{Tags: tags, Categories: cats, Tools: tools}
}

func notesPayload(notes []*recipesv1.Note) []mealie.RecipeNote {
	out := make([]mealie.RecipeNote, 0, len(notes))
	for _, n := range notes {
		if strings.TrimSpace(n.GetText()+n.GetTitle()) == "" {
			continue
		}
		out = append(out, mealie.RecipeNote{Title: strings.TrimSpace(n.GetTitle()), Text: strings.TrimSpace(n.GetText())})
	}
	return out
}

// organizerSet is the tags, categories and tools a write resolved.
type organizerSet struct {
	tags, cats, tools                      []mealie.Organizer
	createdTags, createdCats, createdTools []string
}

func (s *Service) resolveSet(ctx context.Context, tags, cats, tools []string) (*organizerSet, error) {
	var o organizerSet
	var err error
	if o.tags, o.createdTags, err = s.organizers(ctx, mealie.Tags, tags); err != nil {
		return &o, err
	}
	if o.cats, o.createdCats, err = s.organizers(ctx, mealie.Categories, cats); err != nil {
		return &o, err
	}
	if o.tools, o.createdTools, err = s.organizers(ctx, mealie.Tools, tools); err != nil {
		return &o, err
	}
	return &o, nil
}

func (o *organizerSet) created() *recipesv1.TaxonomyCreated {
	return created(o.createdTags, o.createdCats, o.createdTools)
}

// CreateRecipe creates a recipe in two calls: POST {name} (or Mealie's
// duplicate for from_slug), then one PATCH with everything else. A failed
// PATCH leaves a stub on Mealie; the error names its slug so it is never
// silently orphaned: Mealie's create takes only a name, so creation is
// always two calls.
func (s *Service) CreateRecipe(ctx context.Context, req *connect.Request[recipesv1.CreateRecipeRequest]) (*connect.Response[recipesv1.CreateRecipeResponse], error) {
	m := req.Msg
	name, err := required("name", m.GetName())
	if err != nil {
		return nil, err
	}
	if len([]rune(name)) > MaxNameChars {
		return nil, invalid("name: at most %d characters", MaxNameChars)
	}
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	if err := validateIngredients(m.GetIngredients()); err != nil {
		return nil, err
	}
	if len(m.GetInstructions()) > MaxInstructions {
		return nil, invalid("instructions: at most %d steps", MaxInstructions)
	}
	if len(m.GetNotes()) > MaxNotes {
		return nil, invalid("notes: at most %d", MaxNotes)
	}
	if err := checkRecipeText(m.GetDescription(), m.GetRecipeYield(), m.GetPrepTime(), m.GetCookTime(), m.GetTotalTime(), m.GetInstructions(), m.GetNotes()); err != nil {
		return nil, err
	}
	if err := checkTaxonomy(m.GetTags(), m.GetCategories(), m.GetTools()); err != nil {
		return nil, err
	}
	if m.GetSourceUrl() != "" {
		if _, err := httpURL("source_url", m.GetSourceUrl()); err != nil {
			return nil, err
		}
	}
	from := strings.TrimSpace(m.GetFromSlug())
	if from != "" {
		if from, err = checkSlug("from_slug", from); err != nil {
			return nil, err
		}
	}
	// Resolve everything that can fail before the first write, so a bad
	// ingredient does not leave a stub behind.
	ir, err := s.buildIngredients(ctx, m.GetIngredients())
	if err != nil {
		return nil, err
	}
	ings := ir.lines
	set, err := s.resolveSet(ctx, m.GetTags(), m.GetCategories(), m.GetTools())
	if err != nil {
		return nil, s.withCreated(err, set)
	}
	patch := map[string]any{}
	setText := func(key, v string) {
		if v = strings.TrimSpace(v); v != "" {
			patch[key] = v
		}
	}
	setText("description", m.GetDescription())
	setText("recipeYield", m.GetRecipeYield())
	setText("prepTime", m.GetPrepTime())
	// Mealie's app shows performTime as "Cook Time" (see cookTime).
	setText("performTime", m.GetCookTime())
	setText("totalTime", m.GetTotalTime())
	setText("orgURL", m.GetSourceUrl())
	// A plain create always writes ingredients and steps: Mealie fills a new
	// recipe with a placeholder "1 Cup Flour" and a markdown tip
	// (testdata/recipes_get__fresh.json) that would otherwise read as content.
	if from == "" || len(m.GetIngredients()) > 0 {
		patch["recipeIngredient"] = ings
	}
	if from == "" || len(m.GetInstructions()) > 0 {
		patch["recipeInstructions"] = steps(m.GetInstructions())
	}
	if len(m.GetNotes()) > 0 {
		patch["notes"] = notesPayload(m.GetNotes())
	}
	var slug string
	var base *mealie.Recipe
	if from != "" {
		if base, err = s.mealie.DuplicateRecipe(ctx, from, name); err != nil {
			return nil, mealie.ConnectError(err)
		}
		slug = base.Slug
	} else if slug, err = s.mealie.CreateRecipe(ctx, name); err != nil {
		return nil, mealie.ConnectError(err)
	}
	if structured(ings) {
		// The new recipe's settings come from the household's preferences,
		// which only a read of the recipe tells; see showAmounts.
		stored := base
		if stored == nil {
			if stored, _, err = s.mealie.GetRecipe(ctx, slug); err != nil {
				return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf(
					"recipe '%s' was created but reading it before filling it in failed, so a stub '%s' is left on Mealie (update or delete it): %v", slug, slug, errMessage(err)))
			}
		}
		if st := showAmounts(stored); st != nil {
			patch["settings"] = st
		}
	}
	if base != nil {
		if len(set.tags) > 0 {
			patch["tags"] = mergeOrganizers(base.Tags, set.tags)
		}
		if len(set.cats) > 0 {
			patch["recipeCategory"] = mergeOrganizers(base.Categories, set.cats)
		}
		if len(set.tools) > 0 {
			patch["tools"] = mergeOrganizers(base.Tools, set.tools)
		}
	} else {
		if len(set.tags) > 0 {
			patch["tags"] = set.tags
		}
		if len(set.cats) > 0 {
			patch["recipeCategory"] = set.cats
		}
		if len(set.tools) > 0 {
			patch["tools"] = set.tools
		}
	}
	out := &recipesv1.CreateRecipeResponse{
		Slug: slug, Name: name, Created: set.created(), Unresolved: ir.unresolved, Unparsed: ir.unparsed,
		Resolved: nilIfEmpty(ir.resolved), CreatedFoods: ir.created, CreatedUnits: ir.createdUnits, ChangedLines: ir.changed,
	}
	if len(patch) > 0 {
		r, err := s.mealie.PatchRecipe(ctx, slug, patch)
		if err != nil {
			return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf(
				"recipe '%s' was created but filling it in failed, so a stub '%s' is left on Mealie (update or delete it): %v", slug, slug, errMessage(err)))
		}
		out.Name = r.Name
	}
	return connect.NewResponse(out), nil
}

// structured reports whether any line carries a quantity, unit or food,
// which Mealie's app hides while the recipe's disableAmount is on.
func structured(ings []ingredientWrite) bool {
	for _, w := range ings {
		if w.Quantity != nil || w.Unit != nil || w.Food != nil {
			return true
		}
	}
	return false
}

// showAmounts returns the settings that make Mealie 2.x's app show
// structured lines: the recipe's settings whole with disableAmount off, as
// Mealie's own editor saves a recipe after parsing its ingredients. On 2.0
// and 2.8 a new recipe has it on, and the app then shows each line as its
// note alone (see mealie.Recipe.AmountsHidden). The whole object is sent
// because a partial one resets the other settings (see mealie.Recipe.Settings).
// nil when nothing needs to change (already off, or Mealie 3, which has no
// such setting).
func showAmounts(r *mealie.Recipe) map[string]any {
	if r == nil || !r.AmountsHidden() {
		return nil
	}
	out := make(map[string]any, len(r.Settings))
	for k, v := range r.Settings {
		out[k] = v
	}
	out["disableAmount"] = false
	return out
}

// withCreated adds what was created before a failure to the error, so an
// auto-created tag never goes unreported.
func (s *Service) withCreated(err error, set *organizerSet) error {
	if mealie.IsOrganizePermission(err) {
		// Taxonomy is resolved before the recipe is written, so a refused
		// create leaves the recipe as it was.
		err = connect.NewError(connect.CodePermissionDenied, fmt.Errorf("%s; the recipe was not saved", errMessage(err)))
	}
	if set == nil {
		return mealie.ConnectError(err)
	}
	var all []string
	all = append(all, set.createdTags...)
	all = append(all, set.createdCats...)
	all = append(all, set.createdTools...)
	if len(all) == 0 {
		return mealie.ConnectError(err)
	}
	return connect.NewError(mealie.ConnectCode(err), fmt.Errorf("%s (created before the failure: %s)", errMessage(err), strings.Join(all, ", ")))
}

func errMessage(err error) string {
	var ce *connect.Error
	if errors.As(err, &ce) {
		return ce.Message()
	}
	return err.Error()
}

// UpdateRecipe reads the recipe, merges tags, categories and tools (unless
// a replace flag is set), replaces bodies, and writes. PATCH replaces list
// fields wholesale (TestPatchReplacesTags in integration/contract), hence the read.
//
// A rename is written with PUT of the whole recipe: PATCH {name} on Mealie
// 2.0 reports a new slug it never stores (TestPatchNameKeepsStoredSlug in integration/contract), while
// PUT moves it (TestRenameWithSlugOrPut in integration/contract). The new slug is then read back;
// if it does not answer, the recipe is looked up by id so the error says
// where it really is (see renameUnverified).
func (s *Service) UpdateRecipe(ctx context.Context, req *connect.Request[recipesv1.UpdateRecipeRequest]) (*connect.Response[recipesv1.UpdateRecipeResponse], error) {
	m := req.Msg
	slug, err := checkSlug("slug", m.GetSlug())
	if err != nil {
		return nil, err
	}
	if m.Name != nil {
		n := strings.TrimSpace(m.GetName())
		if n == "" || len([]rune(n)) > MaxNameChars {
			return nil, invalid("name must be 1 to %d characters", MaxNameChars)
		}
		if err := checkName("name", n); err != nil {
			return nil, err
		}
	}
	if err := checkRecipeText(m.GetDescription(), m.GetRecipeYield(), m.GetPrepTime(), m.GetCookTime(), m.GetTotalTime(), m.GetInstructions(), m.GetNotes()); err != nil {
		return nil, err
	}
	if err := checkTaxonomy(m.GetTags(), m.GetCategories(), m.GetTools()); err != nil {
		return nil, err
	}
	if m.Rating != nil && (m.GetRating() < 0 || m.GetRating() > 5) {
		return nil, invalid("rating must be between 0 and 5, got %v", m.GetRating())
	}
	if m.SourceUrl != nil && strings.TrimSpace(m.GetSourceUrl()) != "" {
		if _, err := httpURL("source_url", m.GetSourceUrl()); err != nil {
			return nil, err
		}
	}
	if !m.GetSetIngredients() && len(m.GetIngredients()) > 0 {
		return nil, invalid("ingredients given without set_ingredients=true")
	}
	if !m.GetSetInstructions() && len(m.GetInstructions()) > 0 {
		return nil, invalid("instructions given without set_instructions=true")
	}
	if !m.GetSetNotes() && len(m.GetNotes()) > 0 {
		return nil, invalid("notes given without set_notes=true")
	}
	if err := validateIngredients(m.GetIngredients()); err != nil {
		return nil, err
	}
	if len(m.GetInstructions()) > MaxInstructions {
		return nil, invalid("instructions: at most %d steps", MaxInstructions)
	}
	cur, raw, err := s.mealie.GetRecipe(ctx, slug)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	// Before anything is resolved or created: a refused update writes
	// nothing, not even a new tag.
	if err := guardDestructive(cur, slug, m); err != nil {
		return nil, err
	}
	var settings map[string]any
	if m.ShowAmounts != nil {
		st, ok := amountSettings(cur, m.GetShowAmounts())
		if !ok && !m.GetShowAmounts() {
			return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("show_amounts=false: this Mealie has no setting that hides amounts (Mealie 3's app always shows them), so nothing was written"))
		}
		settings = st
	}
	patch := map[string]any{}
	opt := func(key string, v *string) {
		if v != nil {
			patch[key] = strings.TrimSpace(*v)
		}
	}
	opt("description", m.Description)
	opt("recipeYield", m.RecipeYield)
	opt("prepTime", m.PrepTime)
	opt("performTime", m.CookTime)
	opt("totalTime", m.TotalTime)
	opt("orgURL", m.SourceUrl)
	ir := &ingredientResult{}
	if m.GetSetIngredients() {
		if ir, err = s.buildIngredients(ctx, m.GetIngredients()); err != nil {
			return nil, err
		}
		patch["recipeIngredient"] = ir.lines
		if st := showAmounts(cur); st != nil && structured(ir.lines) {
			patch["settings"] = st
		}
	}
	if m.GetSetInstructions() {
		patch["recipeInstructions"] = steps(m.GetInstructions())
	}
	if m.GetSetNotes() {
		patch["notes"] = notesPayload(m.GetNotes())
	}
	if settings != nil {
		// Asked for outright, so it wins over showAmounts above.
		patch["settings"] = settings
	}
	set, err := s.resolveSet(ctx, m.GetTags(), m.GetCategories(), m.GetTools())
	if err != nil {
		return nil, s.withCreated(err, set)
	}
	orgs := func(key string, have, add []mealie.Organizer, replace bool, given int) {
		switch {
		case replace:
			patch[key] = nonNil(add)
		case given > 0:
			patch[key] = mergeOrganizers(have, add)
		}
	}
	orgs("tags", cur.Tags, set.tags, m.GetReplaceTags(), len(set.tags))
	orgs("recipeCategory", cur.Categories, set.cats, m.GetReplaceCategories(), len(set.cats))
	orgs("tools", cur.Tools, set.tools, m.GetReplaceTools(), len(set.tools))
	out := &recipesv1.UpdateRecipeResponse{
		Slug: slug, Created: set.created(), Unresolved: ir.unresolved, Unparsed: ir.unparsed,
		Resolved: nilIfEmpty(ir.resolved), CreatedFoods: ir.created, CreatedUnits: ir.createdUnits, ChangedLines: ir.changed,
		Replaced: replacedFields(cur, patch, m),
	}
	rename := m.Name != nil && strings.TrimSpace(m.GetName()) != cur.Name
	if !rename {
		if len(patch) > 0 {
			if _, err := s.mealie.PatchRecipe(ctx, slug, patch); err != nil {
				return nil, s.withCreated(err, set)
			}
		}
		return s.rate(ctx, out, m.Rating, len(patch) > 0)
	}
	name := strings.TrimSpace(m.GetName())
	full, err := putBody(raw, patch, name)
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("recipe '%s': %v", slug, err))
	}
	r, err := s.mealie.PutRecipe(ctx, slug, full)
	if err != nil {
		return nil, s.withCreated(err, set)
	}
	// Mealie answers with the slug it stored; when it did not move although
	// the name's slug differs, the rename failed as on 2.0's PATCH path.
	want := mealieslug.Make(name)
	newSlug := r.Slug
	if newSlug == "" || (newSlug == slug && want != slug) {
		newSlug = want
	}
	s.mealie.ForgetRecipe(slug)
	if newSlug != slug {
		got, _, err := s.mealie.GetRecipe(ctx, newSlug)
		if err != nil || got.Slug != newSlug {
			return nil, s.renameUnverified(ctx, slug, cur.ID, name, newSlug, err)
		}
		out.RenamedFrom = slug
	}
	out.Slug = newSlug
	return s.rate(ctx, out, m.Rating, true)
}

// rate writes the token user's rating of the updated recipe, when one was
// given, and answers the recipe's rating as Mealie then reports it (see
// writeRating). wrote says whether the update already changed the recipe,
// for the message when the rating then fails.
func (s *Service) rate(ctx context.Context, out *recipesv1.UpdateRecipeResponse, rating *float64, wrote bool) (*connect.Response[recipesv1.UpdateRecipeResponse], error) {
	if rating == nil {
		return connect.NewResponse(out), nil
	}
	fail := func(step string, err error) error {
		if wrote {
			return connect.NewError(mealie.ConnectCode(err), fmt.Errorf("recipe '%s' was updated but %s failed: %s", out.Slug, step, errMessage(err)))
		}
		return mealie.ConnectError(err)
	}
	r, step, err := s.writeRating(ctx, out.Slug, *rating)
	if err != nil {
		if step == "" {
			return nil, err
		}
		return nil, fail(step, err)
	}
	out.Rating = r
	return connect.NewResponse(out), nil
}

// renameUnverified words a rename whose new slug does not answer. It reads
// the recipe back by id (GET /api/recipes/{id} takes an id as well as a
// slug) and says where it is: still at the old slug, under another slug, or
// under an empty one no route reaches; it never guesses.
func (s *Service) renameUnverified(ctx context.Context, slug, id, name, newSlug string, verr error) error {
	head := fmt.Sprintf("recipe '%s' was renamed to %q but Mealie does not answer under the new slug '%s' (%s)", slug, name, newSlug, verifyDetail(verr))
	var where string
	if id == "" {
		where = "its id is unknown, so where it is now could not be checked; search for it by name"
	} else {
		at, _, err := s.mealie.GetRecipe(ctx, id)
		switch {
		case err != nil:
			where = fmt.Sprintf("reading it back by id %s failed too (%s); search for it by name", id, errMessage(err))
		case at.Slug == slug:
			where = fmt.Sprintf("the rename did not take: the recipe is still at '%s'", slug)
		case at.Slug == "":
			where = fmt.Sprintf("Mealie stored it with an empty slug, so no slug reaches it; its id is %s", id)
		default:
			where = fmt.Sprintf("Mealie has it at '%s'", at.Slug)
		}
	}
	return connect.NewError(connect.CodeInternal, fmt.Errorf("%s; %s", head, where))
}

func verifyDetail(err error) string {
	if err == nil {
		return "it answers with another slug"
	}
	return errMessage(err)
}

func nonNil(o []mealie.Organizer) []mealie.Organizer {
	if o == nil {
		return []mealie.Organizer{}
	}
	return o
}

// putBody builds the whole-recipe PUT body for a rename: the recipe as read,
// with patch applied, the new name and its slug, and taxonomy objects
// trimmed to writable keys (Mealie rebuilds the rest from ids and refuses
// some read-only ones). Ingredients read back carry their referenceId and steps their
// ingredientReferences, which 2.0 needs (see ingredientWrite, stepWrite).
func putBody(raw []byte, patch map[string]any, name string) (map[string]any, error) {
	var body map[string]any
	if err := jsonUnmarshal(raw, &body); err != nil {
		return nil, errors.New("Mealie's payload is not a JSON object")
	}
	for _, k := range []string{"tags", "recipeCategory", "tools"} {
		if list, ok := body[k].([]any); ok {
			body[k] = trimObjects(list, "id", "name", "slug", "groupId")
		}
	}
	if list, ok := body["recipeIngredient"].([]any); ok {
		for _, it := range list {
			if ing, ok := it.(map[string]any); ok {
				for _, k := range []string{"unit", "food"} {
					if o, ok := ing[k].(map[string]any); ok {
						ing[k] = pick(o, "id", "name")
					}
				}
				if ing["referenceId"] == nil {
					ing["referenceId"] = newID()
				}
			}
		}
	}
	if list, ok := body["recipeInstructions"].([]any); ok {
		for _, it := range list {
			if st, ok := it.(map[string]any); ok && st["ingredientReferences"] == nil {
				st["ingredientReferences"] = []any{}
			}
		}
	}
	for k, v := range patch {
		body[k] = v
	}
	body["name"] = name
	body["slug"] = mealieslug.Make(name)
	return body, nil
}

func pick(o map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := o[k]; ok && v != nil {
			out[k] = v
		}
	}
	return out
}

func trimObjects(list []any, keys ...string) []any {
	out := make([]any, 0, len(list))
	for _, it := range list {
		if o, ok := it.(map[string]any); ok {
			out = append(out, pick(o, keys...))
		}
	}
	return out
}

// SetRecipeImageFromURL asks Mealie to fetch an image and says it is set
// only when Mealie then serves a new one. Mealie answers 200 and changes
// the recipe's image key even when it fetched nothing
// (TestRecipeImageFromUnreachableURL in integration/contract), so the image Mealie serves is
// read before and after (mealie.Client.RecipeImageStamp): none, or the same
// as before, means the page could not be fetched.
func (s *Service) SetRecipeImageFromURL(ctx context.Context, req *connect.Request[recipesv1.SetRecipeImageFromURLRequest]) (*connect.Response[recipesv1.SetRecipeImageFromURLResponse], error) {
	slug, err := checkSlug("slug", req.Msg.GetSlug())
	if err != nil {
		return nil, err
	}
	u, err := httpURL("url", req.Msg.GetUrl())
	if err != nil {
		return nil, err
	}
	ref, err := s.mealie.ResolveRecipe(ctx, slug)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	before, err := s.mealie.RecipeImageStamp(ctx, ref.ID)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if err := s.mealie.SetRecipeImageURL(ctx, slug, u); err != nil {
		return nil, mealie.ConnectError(err)
	}
	after, err := s.mealie.RecipeImageStamp(ctx, ref.ID)
	if err != nil {
		return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("Mealie was asked to fetch the image of recipe '%s' but reading the image back failed, so whether it is set is unknown: %s", slug, errMessage(err)))
	}
	switch {
	case after == "":
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf(
			"Mealie could not fetch an image from %s, so recipe '%s' has no image: give a direct link to a JPEG, PNG or WebP file that Mealie's server can reach, or upload the image itself", u, slug))
	case after == before:
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf(
			"Mealie could not fetch a new image from %s (or it is the image recipe '%s' already has), so the recipe keeps its image: give a direct link to a JPEG, PNG or WebP file that Mealie's server can reach, or upload the image itself", u, slug))
	}
	return connect.NewResponse(&recipesv1.SetRecipeImageFromURLResponse{Slug: slug}), nil
}

// imageTypes maps accepted extensions to the content type the bytes must
// sniff as: the formats Mealie stores and serves (.jpg .jpeg .png .webp
// .gif). Non-image bytes
// are a 500 from Mealie, so they
// are refused here.
var imageTypes = map[string]string{"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif"}

// UploadRecipeImage uploads image bytes.
func (s *Service) UploadRecipeImage(ctx context.Context, req *connect.Request[recipesv1.UploadRecipeImageRequest]) (*connect.Response[recipesv1.UploadRecipeImageResponse], error) {
	slug, err := checkSlug("slug", req.Msg.GetSlug())
	if err != nil {
		return nil, err
	}
	ext := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(req.Msg.GetExtension()), "."))
	want, ok := imageTypes[ext]
	if !ok {
		return nil, invalid("extension must be one of jpg, jpeg, png, webp, gif; got %q", req.Msg.GetExtension())
	}
	img := req.Msg.GetImage()
	if len(img) == 0 {
		return nil, invalid("image is empty")
	}
	if len(img) > MaxImageBytes {
		return nil, invalid("image is %d bytes; at most %d", len(img), MaxImageBytes)
	}
	if got := http.DetectContentType(img); got != want {
		return nil, invalid("image bytes are %s, not the %s its extension %q says", got, want, ext)
	}
	if err := s.mealie.UploadRecipeImage(ctx, slug, img, ext); err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&recipesv1.UploadRecipeImageResponse{Slug: slug}), nil
}

// BulkTagRecipes adds tags and categories to recipes. Unknown slugs are
// left out before the write: Mealie answers the whole action with a 500
// for one unknown slug.
func (s *Service) BulkTagRecipes(ctx context.Context, req *connect.Request[recipesv1.BulkTagRecipesRequest]) (*connect.Response[recipesv1.BulkTagRecipesResponse], error) {
	m := req.Msg
	slugs := uniqueNames(m.GetSlugs())
	if len(slugs) == 0 || len(slugs) > MaxBulkSlugs {
		return nil, invalid("slugs: give 1 to %d, got %d", MaxBulkSlugs, len(slugs))
	}
	if len(uniqueNames(m.GetTags()))+len(uniqueNames(m.GetCategories())) == 0 {
		return nil, invalid("give tags or categories to add")
	}
	for i, sl := range slugs {
		if _, err := checkSlug(fmt.Sprintf("slugs[%d]", i), sl); err != nil {
			return nil, err
		}
	}
	if err := checkTaxonomy(m.GetTags(), m.GetCategories(), nil); err != nil {
		return nil, err
	}
	out := &recipesv1.BulkTagRecipesResponse{}
	var found []string
	for _, sl := range slugs {
		if _, err := s.mealie.ResolveRecipe(ctx, sl); err != nil {
			if mealie.StatusOf(err) == http.StatusNotFound {
				out.NotFound = append(out.NotFound, sl)
				continue
			}
			return nil, mealie.ConnectError(err)
		}
		found = append(found, sl)
	}
	if len(found) == 0 {
		return connect.NewResponse(out), nil
	}
	set, err := s.resolveSet(ctx, m.GetTags(), m.GetCategories(), nil)
	if err != nil {
		return nil, s.withCreated(err, set)
	}
	out.Created = set.created()
	if len(set.tags) > 0 {
		if err := s.mealie.BulkTagRecipes(ctx, found, set.tags); err != nil {
			return nil, s.withCreated(err, set)
		}
	}
	if len(set.cats) > 0 {
		if err := s.mealie.BulkCategorizeRecipes(ctx, found, set.cats); err != nil {
			return nil, s.withCreated(err, set)
		}
	}
	out.Slugs = found
	return connect.NewResponse(out), nil
}

// DeleteRecipe deletes a recipe when confirm_slug equals slug. A 5xx falls
// back to the bulk delete action, which gets through when the ORM cannot
// cascade the row delete (testdata/recipes_delete__throwaway.json); a 404 does not,
// so a typo is not answered by a second attempt.
func (s *Service) DeleteRecipe(ctx context.Context, req *connect.Request[recipesv1.DeleteRecipeRequest]) (*connect.Response[recipesv1.DeleteRecipeResponse], error) {
	slug, err := checkSlug("slug", req.Msg.GetSlug())
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Msg.GetConfirmSlug()) != slug {
		return nil, invalid("confirm_slug must equal slug %q; nothing was deleted", slug)
	}
	out := &recipesv1.DeleteRecipeResponse{Slug: slug}
	err = s.mealie.DeleteRecipe(ctx, slug)
	if err == nil {
		return connect.NewResponse(out), nil
	}
	if mealie.StatusOf(err) < 500 {
		return nil, mealie.ConnectError(err)
	}
	if ferr := s.mealie.BulkDeleteRecipes(ctx, []string{slug}); ferr != nil {
		return nil, connect.NewError(mealie.ConnectCode(ferr), fmt.Errorf("deleting recipe '%s' failed (%s) and the bulk delete fallback failed too: %s", slug, errMessage(err), errMessage(ferr)))
	}
	out.UsedBulkFallback = true
	return connect.NewResponse(out), nil
}

// placeholderNote is the ingredient Mealie puts in a recipe it created
// without content (testdata/recipes_get__fresh.json).
const placeholderNote = "1 Cup Flour"

// ImportRecipeFromURL has Mealie scrape a page and flags a failed scrape: a
// page that renders its recipe in the browser still imports as a 201 with
// placeholder content (TestURLImportWithoutRecipeIs201WithPlaceholders in
// integration/contract).
func (s *Service) ImportRecipeFromURL(ctx context.Context, req *connect.Request[recipesv1.ImportRecipeFromURLRequest]) (*connect.Response[recipesv1.ImportRecipeFromURLResponse], error) {
	u, err := httpURL("url", req.Msg.GetUrl())
	if err != nil {
		return nil, err
	}
	incTags, incCats := true, true
	if req.Msg.IncludeTags != nil {
		incTags = req.Msg.GetIncludeTags()
	}
	if req.Msg.IncludeCategories != nil {
		incCats = req.Msg.GetIncludeCategories()
	}
	if !req.Msg.GetAllowDuplicate() {
		dup, err := s.alreadyImported(ctx, u)
		if err != nil {
			return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("checking whether %s was already imported failed, so nothing was imported: %s", u, errMessage(err)))
		}
		if dup != nil {
			return nil, duplicateImport(dup)
		}
	}
	slug, err := s.mealie.ImportRecipeURL(ctx, u, incTags, incCats)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	r, err := s.mealie.RecipeDetail(ctx, slug)
	if err != nil {
		return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("recipe '%s' was imported but reading it back failed: %s", slug, errMessage(err)))
	}
	return connect.NewResponse(&recipesv1.ImportRecipeFromURLResponse{
		Slug: slug, Name: r.Name, ScrapeFailed: scrapeFailed(r),
		IngredientCount: int32(len(r.Ingredients)), InstructionCount: int32(len(r.Instructions)),
	}), nil
}

// scrapeFailed reports an import that stored nothing but placeholders: no
// ingredients or no steps, or Mealie's own "1 Cup Flour" placeholder.
func scrapeFailed(r *mealie.Recipe) bool {
	if len(r.Ingredients) == 0 || len(r.Instructions) == 0 {
		return true
	}
	return len(r.Ingredients) == 1 && str(r.Ingredients[0].Note) == placeholderNote && r.Ingredients[0].Food == nil
}
