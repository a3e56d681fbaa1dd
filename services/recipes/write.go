package recipes

import (
	"context"
	"errors"
	"fmt"
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

// recipeContent is what a create and an update both carry besides the
// name: the generated getters of CreateRecipeRequest and
// UpdateRecipeRequest, which read an unset optional field as empty.
type recipeContent interface {
	GetDescription() string
	GetRecipeYield() string
	GetPrepTime() string
	GetCookTime() string
	GetTotalTime() string
	GetInstructions() []string
	GetNotes() []*recipesv1.Note
	GetTags() []string
	GetCategories() []string
	GetTools() []string
	GetSourceUrl() string
	GetIngredients() []*recipesv1.IngredientInput
}

// checkContent is the one validation of what a create and an update write,
// run before any request so that a refused write reaches Mealie not at all:
// free text within its caps, taxonomy names within theirs, an http(s)
// source URL, well-formed ingredient lines and at most MaxInstructions
// steps. blankURLClears says a blank source_url clears the field (an
// update) rather than being a URL that is not one (a create).
func checkContent(m recipeContent, blankURLClears bool) error {
	if err := checkRecipeText(m.GetDescription(), m.GetRecipeYield(), m.GetPrepTime(), m.GetCookTime(), m.GetTotalTime(), m.GetInstructions(), m.GetNotes()); err != nil {
		return err
	}
	if err := checkTaxonomy(m.GetTags(), m.GetCategories(), m.GetTools()); err != nil {
		return err
	}
	if u := m.GetSourceUrl(); u != "" && (!blankURLClears || strings.TrimSpace(u) != "") {
		if _, err := httpURL("source_url", u); err != nil {
			return err
		}
	}
	if err := validateIngredients(m.GetIngredients()); err != nil {
		return err
	}
	if len(m.GetInstructions()) > MaxInstructions {
		return invalid("instructions: at most %d steps", MaxInstructions)
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
	if err := checkText(field, raw, MaxURLChars); err != nil {
		return "", err
	}
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

// notesPayload is the notes a write sends: trimmed, and without the empty
// ones.
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

// replaceFlags are an update's replace_tags, replace_categories and
// replace_tools: the list given replaces the recipe's, [] clearing it.
type replaceFlags struct{ tags, cats, tools bool }

// addTo writes the resolved organizers into p: added to those of have (the
// recipe as read, since PATCH replaces a list whole), set as they are on a
// recipe nothing was read of (have nil: a plain create), or replacing the
// recipe's where replace says so. A list neither given nor replaced is left
// out, so the recipe keeps it.
func (o *organizerSet) addTo(p *mealie.RecipePatch, have *mealie.Recipe, replace replaceFlags) {
	var tags, cats, tools []mealie.Organizer
	if have != nil {
		tags, cats, tools = have.Tags, have.Categories, have.Tools
	}
	p.Tags = organizerField(tags, o.tags, have != nil, replace.tags)
	p.Categories = organizerField(cats, o.cats, have != nil, replace.cats)
	p.Tools = organizerField(tools, o.tools, have != nil, replace.tools)
}

// organizerField is one organizer list of a write (see addTo); nil leaves
// it out of the patch.
func organizerField(have, add []mealie.Organizer, merge, replace bool) []mealie.Organizer {
	switch {
	case replace:
		if add == nil {
			return []mealie.Organizer{}
		}
		return add
	case len(add) == 0:
		return nil
	case merge:
		return mergeOrganizers(have, add)
	default:
		return add
	}
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
