package recipes

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"connectrpc.com/connect"
	"github.com/google/uuid"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// Taxonomy limits.
const (
	// TaxonomyListPage is the ListTaxonomy page size: a food carries
	// description, plural, label and aliases, so 200 of them is a 12k-token
	// reply to a question the first rows answer.
	TaxonomyListPage = 50
	// MaxBatchItems caps one batched taxonomy call.
	MaxBatchItems = limits.TaxonomyBatch
)

var resources = map[recipesv1.TaxonomyResource]mealie.Resource{
	recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_FOODS:      mealie.Foods,
	recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_UNITS:      mealie.Units,
	recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_LABELS:     mealie.Labels,
	recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TAGS:       mealie.Tags,
	recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_CATEGORIES: mealie.Categories,
	recipesv1.TaxonomyResource_TAXONOMY_RESOURCE_TOOLS:      mealie.Tools,
}

func resourceOf(r recipesv1.TaxonomyResource) (mealie.Resource, error) {
	res, ok := resources[r]
	if !ok {
		return "", invalid("resource must be one of foods, units, labels, tags, categories, tools; got %s", r)
	}
	return res, nil
}

// validID checks a taxonomy id: Mealie answers a malformed or non-v4 UUID
// with a 422 naming `uuid_version`, which says
// nothing to a user.
func validID(field, id string) error {
	u, err := uuid.Parse(strings.TrimSpace(id))
	if err != nil || u.Version() != 4 {
		return invalid("%s must be a Mealie id (a version-4 UUID), got %q", field, id)
	}
	return nil
}

// checkRefs refuses, before any name is resolved, a reference longer than
// MaxTaxonomyRefChars. field is a format with %d for the index when there
// are several, as in taxonomyIDs.
func checkRefs(field string, given []string) error {
	for i, g := range given {
		f := field
		if strings.Contains(f, "%d") {
			f = fmt.Sprintf(field, i)
		}
		if err := checkText(f, strings.TrimSpace(g), MaxTaxonomyRefChars); err != nil {
			return err
		}
	}
	return nil
}

// taxonomyItem shapes one row.
func taxonomyItem(it *mealie.TaxonomyItem) *recipesv1.TaxonomyItem {
	out := &recipesv1.TaxonomyItem{
		Id: it.ID, Name: it.Name, Slug: it.Slug,
		Description: str(it.Description), PluralName: str(it.PluralName),
		Abbreviation: str(it.Abbreviation), Color: str(it.Color), OnHand: it.OnHand,
	}
	if it.Label != nil {
		out.Label = it.Label.Name
	}
	for _, a := range it.Aliases {
		if n := strings.TrimSpace(a.Name); n != "" {
			out.Aliases = append(out.Aliases, n)
		}
	}
	return out
}

// ListTaxonomy pages one resource.
func (s *Service) ListTaxonomy(ctx context.Context, req *connect.Request[recipesv1.ListTaxonomyRequest]) (*connect.Response[recipesv1.ListTaxonomyResponse], error) {
	res, err := resourceOf(req.Msg.GetResource())
	if err != nil {
		return nil, err
	}
	page := req.Msg.GetPage()
	if page == 0 {
		page = 1
	}
	if page < 1 || page > MaxPage {
		return nil, invalid("page must be between 1 and %d, got %d", MaxPage, page)
	}
	if err := checkText("search", req.Msg.GetSearch(), MaxTaxonomyNameChars); err != nil {
		return nil, err
	}
	if terms := queryTerms(req.Msg.GetSearch()); len(terms) > 0 {
		// Read by sous from the cached collection, the same on SQLite and
		// PostgreSQL: Mealie on PostgreSQL searches these by trigram
		// similarity ("chicken" finds "chickpeas"), and its quoted search
		// there compares tags, categories and tools with case
		// (integration/contract TestSearchByEngine).
		all, err := s.mealie.Taxonomy(ctx, res)
		if err != nil {
			return nil, mealie.ConnectError(err)
		}
		found := rankTaxonomy(all, terms)
		onPage, total, pages := pageOf(found, page, TaxonomyListPage)
		out := &recipesv1.ListTaxonomyResponse{Page: page, Total: total, TotalPages: pages}
		for _, it := range onPage {
			out.Items = append(out.Items, taxonomyItem(it))
		}
		return connect.NewResponse(out), nil
	}
	p, err := s.mealie.ListTaxonomy(ctx, res, int(page), TaxonomyListPage, "")
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out := &recipesv1.ListTaxonomyResponse{Page: int32(p.Page), Total: int32(p.Total), TotalPages: int32(p.TotalPages)}
	for i := range p.Items {
		out.Items = append(out.Items, taxonomyItem(&p.Items[i]))
	}
	return connect.NewResponse(out), nil
}

// rankTaxonomy is a taxonomy search: an item whose names (its name, plural
// name, abbreviations and aliases) hold any term, inside a word too, as
// Mealie's search on SQLite finds it; an item holding a term only inside
// another word ("pea" in "chickpeas") is left out when another holds a term
// whole. The name itself first, then more terms whole, more of them in the
// name, the search's words in a row in the name, then by name.
func rankTaxonomy(all []mealie.TaxonomyItem, terms []queryTerm) []*mealie.TaxonomyItem {
	type hit struct {
		it            *mealie.TaxonomyItem
		exact, phrase bool
		whole, named  int
	}
	phrase := queryTerm(slices.Concat(terms...))
	var hits []hit
	anyWhole := false
	for i := range all {
		it := &all[i]
		texts := []string{it.Name, str(it.PluralName), str(it.Abbreviation)}
		if pa, ok := it.Raw["pluralAbbreviation"].(string); ok {
			texts = append(texts, pa)
		}
		for _, a := range it.Aliases {
			texts = append(texts, a.Name)
		}
		name := textWords(it.Name)
		h := hit{it: it, exact: slices.Equal(name, phrase), phrase: phrase.heldBy(name)}
		seen := false
		for _, t := range terms {
			switch {
			case t.heldBy(name):
				h.whole++
				h.named++
			case slices.ContainsFunc(texts[1:], func(x string) bool { return t.heldBy(textWords(x)) }):
				h.whole++
			}
			seen = seen || slices.ContainsFunc(texts, t.inside)
		}
		if h.whole > 0 || seen {
			hits = append(hits, h)
			anyWhole = anyWhole || h.whole > 0
		}
	}
	if anyWhole {
		hits = slices.DeleteFunc(hits, func(h hit) bool { return h.whole == 0 })
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		switch {
		case a.exact != b.exact:
			return boolFirst(a.exact)
		case a.whole != b.whole:
			return b.whole - a.whole
		case a.named != b.named:
			return b.named - a.named
		case a.phrase != b.phrase:
			return boolFirst(a.phrase)
		}
		return cmp.Or(strings.Compare(names.Fold(a.it.Name), names.Fold(b.it.Name)), strings.Compare(a.it.ID, b.it.ID))
	})
	out := make([]*mealie.TaxonomyItem, len(hits))
	for i, h := range hits {
		out[i] = h.it
	}
	return out
}

// boolFirst orders true before false.
func boolFirst(a bool) int {
	if a {
		return -1
	}
	return 1
}

// MergeTaxonomy merges foods or units into one. Other resources have no
// server-side merge that repoints recipes, and the answer says so rather
// than faking it. Merging an item into itself is refused before any
// request: Mealie 2.0 accepts it and deletes the item.
func (s *Service) MergeTaxonomy(ctx context.Context, req *connect.Request[recipesv1.MergeTaxonomyRequest]) (*connect.Response[recipesv1.MergeTaxonomyResponse], error) {
	res, err := resourceOf(req.Msg.GetResource())
	if err != nil {
		return nil, err
	}
	if res != mealie.Foods && res != mealie.Units {
		return nil, invalid("merge is for foods and units only: Mealie has no merge for %s that repoints recipes", res)
	}
	from := req.Msg.GetFromIds()
	if err := checkBatch(len(from)); err != nil {
		return nil, err
	}
	// Both are checked before into_id is resolved, which may read Mealie.
	if err := checkRefs("from_ids[%d]", from); err != nil {
		return nil, err
	}
	intos, err := s.taxonomyIDs(ctx, res, "into_id", []string{req.Msg.GetIntoId()})
	if err != nil {
		return nil, err
	}
	into := intos[0]
	if from, err = s.taxonomyIDs(ctx, res, "from_ids[%d]", from); err != nil {
		return nil, err
	}
	for i, f := range from {
		if strings.EqualFold(strings.TrimSpace(f), into) {
			return nil, invalid("from_ids[%d] is into_id: merging a %s into itself would delete it", i, res.Singular())
		}
	}
	target, err := s.mealie.GetTaxonomy(ctx, res, into)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out := &recipesv1.MergeTaxonomyResponse{Into: taxonomyItem(target)}
	for i, f := range from {
		f = strings.TrimSpace(f)
		if err := s.mealie.MergeTaxonomy(ctx, res, f, into); err != nil {
			out.Errors = append(out.Errors, itemError(i, f, err))
			continue
		}
		out.Merged = append(out.Merged, f)
	}
	return connect.NewResponse(out), nil
}

// DeleteTaxonomy deletes items. A food or unit still used by recipes is
// refused with the count and a pointer to merge unless force is set: Mealie
// 2.0 deletes it anyway and silently nulls the ingredient's food or unit
// (TestDeleteFoodInUseNullsIngredient in integration/contract).
// A tag, category or tool that recipes use is refused the same way, because
// Mealie deletes it and drops it from every recipe without a word; its count
// is one filtered recipe-list request (see organizerUsage). A 409 or
// foreign-key refusal from Mealie is answered as a refusal too.
func (s *Service) DeleteTaxonomy(ctx context.Context, req *connect.Request[recipesv1.DeleteTaxonomyRequest]) (*connect.Response[recipesv1.DeleteTaxonomyResponse], error) {
	res, err := resourceOf(req.Msg.GetResource())
	if err != nil {
		return nil, err
	}
	ids := req.Msg.GetIds()
	if err := checkBatch(len(ids)); err != nil {
		return nil, err
	}
	if ids, err = s.taxonomyIDs(ctx, res, "ids[%d]", ids); err != nil {
		return nil, err
	}
	out := &recipesv1.DeleteTaxonomyResponse{}
	// Refusals name the item by its name, which a cook knows; a failed
	// read of the names leaves them to the id.
	nameOf := func(id string) string { return "" }
	if !req.Msg.GetForce() {
		if items, err := s.mealie.Taxonomy(ctx, res); err == nil {
			byID := make(map[string]string, len(items))
			for _, it := range items {
				byID[it.ID] = it.Name
			}
			nameOf = func(id string) string { return byID[id] }
		}
	}
	called := func(id string) string {
		if n := nameOf(id); n != "" {
			return fmt.Sprintf("%q", n)
		}
		return "'" + id + "'"
	}
	var usage map[string]int
	var truncated bool
	if (res == mealie.Foods || res == mealie.Units) && !req.Msg.GetForce() {
		if usage, truncated, err = s.usage(ctx, res); err != nil {
			return nil, mealie.ConnectError(err)
		}
	}
	for i, id := range ids {
		id = strings.TrimSpace(id)
		if n := usage[id]; n > 0 {
			atLeast := ""
			if truncated {
				atLeast = "at least "
			}
			out.Errors = append(out.Errors, &recipesv1.ItemError{Index: int32(i), Item: id, Name: nameOf(id), UsedBy: int32(n), Message: fmt.Sprintf(
				"%s %s is used by %s%s, so it was not deleted: merge it into another %s instead (MergeTaxonomy), or pass force=true to delete it and blank those ingredient lines",
				res.Singular(), called(id), atLeast, recipeCount(n), res.Singular())})
			continue
		}
		if isOrganizer(res) && !req.Msg.GetForce() {
			n, err := s.organizerUsage(ctx, res, id)
			if err != nil {
				out.Errors = append(out.Errors, itemError(i, id, fmt.Errorf("counting the recipes that use %s %s failed, so it was not deleted: %s", res.Singular(), called(id), errMessage(err))))
				continue
			}
			if n > 0 {
				out.Errors = append(out.Errors, &recipesv1.ItemError{Index: int32(i), Item: id, Name: nameOf(id), UsedBy: int32(n), Message: fmt.Sprintf(
					"%s %s is used by %s, so it was not deleted: pass force=true to remove it from them", res.Singular(), called(id), recipeCount(n))})
				continue
			}
		}
		if err := s.mealie.DeleteTaxonomy(ctx, res, id); err != nil {
			if st := mealie.StatusOf(err); st == http.StatusConflict || isForeignKey(err) {
				err = fmt.Errorf("Mealie refused to delete %s '%s' because recipes still use it — merge it into another %s instead", res.Singular(), id, res.Singular())
			}
			out.Errors = append(out.Errors, itemError(i, id, err))
			continue
		}
		out.Deleted = append(out.Deleted, id)
	}
	return connect.NewResponse(out), nil
}

// taxonomyIDs turns what a write names its items by into ids: an id stays,
// anything else is a name read by the resolver (services/internal/names:
// "tomatoes" is the food "tomato", "quick-dinner" the tag "Quick Dinner"),
// never a kind a general word covers. All are read before any write; a name
// that finds nothing, or fits two items equally, is an InvalidArgument
// naming the closest or the tied items. field is a format with %d for the
// index when there are several.
func (s *Service) taxonomyIDs(ctx context.Context, res mealie.Resource, field string, given []string) ([]string, error) {
	if err := checkRefs(field, given); err != nil {
		return nil, err
	}
	out := make([]string, len(given))
	var x *itemIndex
	for i, g := range given {
		f := field
		if strings.Contains(f, "%d") {
			f = fmt.Sprintf(field, i)
		}
		g = strings.TrimSpace(g)
		if validID(f, g) == nil {
			out[i] = g
			continue
		}
		if _, perr := uuid.Parse(g); perr == nil || g == "" || len([]rune(g)) > MaxTaxonomyNameChars {
			// an id, but not one Mealie takes: no name looks like that
			return nil, validID(f, g)
		}
		if x == nil {
			items, err := s.mealie.Taxonomy(ctx, res)
			if err != nil {
				return nil, mealie.ConnectError(err)
			}
			x = indexItems(items)
		}
		it, _, err := x.bind(g)
		if err != nil {
			return nil, invalid("%s: %s", f, err.Error())
		}
		if it == nil {
			closest := x.Closest(g, 3)
			if len(closest) == 0 {
				return nil, invalid("%s must be a %s's id or name; there are no %s yet", f, res.Singular(), res)
			}
			return nil, invalid("%s: no %s is called %q (nor is it an id); the closest are %s", f, res.Singular(), g, strings.Join(quoted(closest, 3), ", "))
		}
		out[i] = it.ID
	}
	return out, nil
}

// recipeCount words a number of recipes: "1 recipe", "3 recipes".
func recipeCount(n int) string {
	if n == 1 {
		return "1 recipe"
	}
	return fmt.Sprintf("%d recipes", n)
}

// isOrganizer reports the resources recipes carry as a list of their own.
func isOrganizer(res mealie.Resource) bool {
	return res == mealie.Tags || res == mealie.Categories || res == mealie.Tools
}

// organizerUsage counts the recipes carrying one tag, category or tool: the
// recipe list filtered by its id, one row per page, whose total is the
// count. Filtering by id rather than slug
// matters: Mealie drops a slug that matches nothing and answers the whole
// library.
func (s *Service) organizerUsage(ctx context.Context, res mealie.Resource, id string) (int, error) {
	q := mealie.RecipeQuery{Page: 1, PerPage: 1}
	switch res {
	case mealie.Tags:
		q.Tags = []string{id}
	case mealie.Categories:
		q.Categories = []string{id}
	case mealie.Tools:
		q.Tools = []string{id}
	}
	p, err := s.mealie.ListRecipes(ctx, q)
	if err != nil {
		return 0, err
	}
	return p.Total, nil
}

// isForeignKey spots a database refusal leaked through a 4xx/5xx body.
func isForeignKey(err error) bool {
	m := strings.ToLower(errMessage(err))
	return strings.Contains(m, "foreign key") || strings.Contains(m, "integrityerror")
}

// usage counts, per food or unit id, the recipes whose ingredients use it,
// from the cached recipe details (Mealie has no such endpoint). truncated
// is true when the library is larger than a sweep reads.
func (s *Service) usage(ctx context.Context, res mealie.Resource) (map[string]int, bool, error) {
	list, total, err := s.mealie.AllRecipes(ctx, mealie.MaxLibraryRecipes)
	if err != nil {
		return nil, false, err
	}
	counts := map[string]int{}
	err = s.details(ctx, list, func(_ *mealie.RecipeSummary, r *mealie.Recipe, err error) error {
		if err != nil {
			return nil // a broken recipe cannot be counted; it is not a reason to refuse
		}
		seen := map[string]bool{}
		for _, in := range r.Ingredients {
			id := ""
			if res == mealie.Foods && in.Food != nil {
				id = in.Food.ID
			}
			if res == mealie.Units && in.Unit != nil {
				id = in.Unit.ID
			}
			if id != "" && !seen[id] {
				seen[id] = true
				counts[id]++
			}
		}
		return nil
	})
	return counts, total > len(list), err
}
