package recipes

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/souskitchen/sous/internal/mealieslug"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
	"github.com/souskitchen/sous/services/internal/names"
)

// fold is the case-insensitive key names are matched on: a model writes
// "quick dinner" for the tag Mealie stores as "Quick  Dinner", and the write
// needs the stored object, not the string.
func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// itemNames are the names an item answers to: its name, and for foods and
// units its plural, abbreviations and aliases, for tags, categories and
// tools its slug, so "eggs", "tbsp" and "quick-dinner" resolve.
func itemNames(it *mealie.TaxonomyItem) []string {
	out := []string{it.Name}
	for _, p := range []*string{it.PluralName, it.Abbreviation} {
		if p != nil && strings.TrimSpace(*p) != "" {
			out = append(out, *p)
		}
	}
	// Mealie's units carry pluralAbbreviation too ("tbsps"); the typed
	// item does not name it, the raw row does.
	if pa, ok := it.Raw["pluralAbbreviation"].(string); ok && strings.TrimSpace(pa) != "" {
		out = append(out, pa)
	}
	for _, a := range it.Aliases {
		out = append(out, a.Name)
	}
	if it.Slug != "" {
		out = append(out, it.Slug)
	}
	return out
}

// itemIndex is the name resolver over one taxonomy snapshot, with the items
// by id so a match gives back the stored object.
type itemIndex struct {
	*names.Index
	byID map[string]*mealie.TaxonomyItem
}

// indexItems builds the resolver over items (see services/internal/names
// for how a name is read).
func indexItems(items []mealie.TaxonomyItem) *itemIndex {
	es := make([]names.Entry, 0, len(items))
	byID := make(map[string]*mealie.TaxonomyItem, len(items))
	for i := range items {
		it := &items[i]
		byID[it.ID] = it
		n := itemNames(it)
		es = append(es, names.Entry{ID: it.ID, Name: it.Name, Others: n[1:]})
	}
	return &itemIndex{Index: names.NewIndex(es), byID: byID}
}

// bind finds the one item a write or a filter binds name to (exact, another
// name it answers to, or singular/plural: never a kind a general word
// covers), with how it was read; nil when none binds. Two items fitting
// equally is a *names.AmbiguousError.
func (x *itemIndex) bind(name string) (*mealie.TaxonomyItem, names.How, error) {
	e, how, err := x.Bind(name)
	if err != nil || how == names.None {
		return nil, how, err
	}
	return x.byID[e.ID], how, nil
}

// covered is every item name covers (see names.Index.Covered): what a
// search or a suggestion matches for "rice".
func (x *itemIndex) covered(name string) []*mealie.TaxonomyItem {
	var out []*mealie.TaxonomyItem
	for _, e := range x.Covered(name) {
		out = append(out, x.byID[e.ID])
	}
	return out
}

// same is every item name is another name for (see names.Index.Same):
// what a pantry alias matches.
func (x *itemIndex) same(name string) []*mealie.TaxonomyItem {
	var out []*mealie.TaxonomyItem
	for _, e := range x.Same(name) {
		out = append(out, x.byID[e.ID])
	}
	return out
}

// findItem finds the item name binds to, or nil (ambiguity included).
func findItem(items []mealie.TaxonomyItem, name string) *mealie.TaxonomyItem {
	it, _, _ := indexItems(items).bind(name)
	return it
}

// readOther reports whether name was read as something other than itself:
// the answer's resolved map says so.
func readOther(name string, got ...string) bool {
	return len(got) != 1 || names.Fold(got[0]) != names.Fold(name)
}

// addResolved records in m that name was read as got, when it was read
// other than exactly.
func addResolved(m map[string]*recipesv1.Names, name string, got ...string) {
	if len(got) == 0 || !readOther(name, got...) {
		return
	}
	cur := m[name]
	if cur == nil {
		cur = &recipesv1.Names{}
		m[name] = cur
	}
	for _, g := range got {
		if !slices.Contains(cur.Names, g) {
			cur.Names = append(cur.Names, g)
		}
	}
}

// nilIfEmpty keeps an empty resolved map out of the answer.
func nilIfEmpty(m map[string]*recipesv1.Names) map[string]*recipesv1.Names {
	if len(m) == 0 {
		return nil
	}
	return m
}

// uniqueNames trims, drops empties and drops case-insensitive repeats,
// keeping the first spelling.
func uniqueNames(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[fold(n)] {
			continue
		}
		seen[fold(n)] = true
		out = append(out, n)
	}
	return out
}

// filterKeys resolves filter names to what Mealie's list filter takes: slugs
// for tags, categories and tools, ids for foods (foods=<name> is a 500 in
// Mealie). It never creates. A food name matches every food it covers
// ("rice" the library's rices: Mealie ORs a filter's values unless
// requireAll). A name that finds nothing is returned in unknown for the
// caller to report (see checkUnknown): Mealie drops an unknown filter and
// lists every recipe, so it is never sent. resolved records names read
// other than exactly; byName holds each given name's own keys, in given
// order, nil for an unknown one.
func (s *Service) filterKeys(ctx context.Context, res mealie.Resource, field string, given []string, requireAll bool, resolved map[string]*recipesv1.Names) (keys []string, byName [][]string, unknown []string, err error) {
	items, err := s.mealie.Taxonomy(ctx, res)
	if err != nil {
		return nil, nil, nil, mealie.ConnectError(err)
	}
	x := indexItems(items)
	seen := map[string]bool{}
	add := func(it *mealie.TaxonomyItem) string {
		k := it.Slug
		if res == mealie.Foods {
			k = it.ID
		}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
		return k
	}
	for _, n := range uniqueNames(given) {
		var found []*mealie.TaxonomyItem
		it, _, berr := x.bind(n)
		switch {
		case berr != nil && res != mealie.Foods:
			return nil, nil, nil, invalid("%s: %s", field, berr.Error())
		case res == mealie.Foods && !(requireAll && it != nil):
			found = x.covered(n)
		case it != nil:
			found = []*mealie.TaxonomyItem{it}
		}
		if res == mealie.Foods && requireAll && it == nil && len(found) > 1 {
			return nil, nil, nil, invalid("%s: %q covers %d foods (%s) and require_all needs every food given: name the one meant", field, n, len(found), strings.Join(quoted(itemNamesOf(found), 5), ", "))
		}
		if len(found) == 0 {
			unknown = append(unknown, n)
			byName = append(byName, nil)
			continue
		}
		var got, own []string
		for _, f := range found {
			own = append(own, add(f))
			got = append(got, f.Name)
		}
		byName = append(byName, own)
		addResolved(resolved, n, got...)
	}
	return keys, byName, unknown, nil
}

func itemNamesOf(items []*mealie.TaxonomyItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Name
	}
	return out
}

// quoted quotes at most n names, saying how many more there are.
func quoted(ns []string, n int) []string {
	var out []string
	for i, s := range ns {
		if i == n {
			out = append(out, fmt.Sprintf("and %d more", len(ns)-n))
			break
		}
		out = append(out, fmt.Sprintf("%q", s))
	}
	return out
}

// organizers resolves tag, category or tool names to the objects a recipe
// write needs, creating what is missing (Mealie's tags are free-form and a
// user expects "tag this vegan" to work) and returning the created names so
// the answer can report them and a typo surfaces at once.
func (s *Service) organizers(ctx context.Context, res mealie.Resource, names []string) ([]mealie.Organizer, []string, error) {
	names = uniqueNames(names)
	if len(names) == 0 {
		return nil, nil, nil
	}
	items, err := s.mealie.Taxonomy(ctx, res)
	if err != nil {
		return nil, nil, err
	}
	var out []mealie.Organizer
	var created []string
	for _, n := range names {
		if it := findItem(items, n); it != nil && fold(it.Name) == fold(n) {
			out = append(out, it.Writable())
			continue
		}
		// Mealie slugs the name and keeps slugs unique: a name that differs
		// from an existing one only by case, accents, emoji or punctuation
		// ("🌶️ spicy" beside "Spicy") has its slug, and creating it is a
		// bare 500 (services/internal/mealie/testdata/organizers_tags__create_duplicate.json). It is the
		// same tag to Mealie, so the existing one is used.
		slug := mealieslug.Make(n)
		if it := findSlug(items, slug); it != nil {
			out = append(out, it.Writable())
			continue
		}
		it, err := s.mealie.CreateTaxonomy(ctx, res, mealie.TaxonomyChange{Name: &n})
		if err != nil {
			// The snapshot may predate a tag made elsewhere with this
			// slug; a fresh read tells that apart from a sick Mealie.
			if it := s.createdElsewhere(ctx, res, slug, err); it != nil {
				items = append(items, *it)
				out = append(out, it.Writable())
				continue
			}
			return nil, created, err
		}
		s.mealie.AddTaxonomy(res, *it)
		items = append(items, *it)
		out = append(out, it.Writable())
		created = append(created, it.Name)
	}
	// Two names may have resolved to one item ("Fiery!" and "fiery?").
	return mergeOrganizers(nil, out), created, nil
}

// findSlug finds the item whose slug is slug; an empty slug (a name of
// emoji or punctuation only) matches nothing, so such names are never
// merged into each other.
func findSlug(items []mealie.TaxonomyItem, slug string) *mealie.TaxonomyItem {
	if slug == "" {
		return nil
	}
	for i := range items {
		if items[i].Slug == slug {
			return &items[i]
		}
	}
	return nil
}

// createdElsewhere is called when creating an item failed with a server
// error: it forgets the snapshot and, when a fresh read has an item with
// slug, returns it (someone made it since the snapshot, and Mealie's
// unique slug refused the copy). Otherwise it returns nil and the error
// stands.
func (s *Service) createdElsewhere(ctx context.Context, res mealie.Resource, slug string, err error) *mealie.TaxonomyItem {
	if slug == "" || mealie.StatusOf(err) < 500 {
		return nil
	}
	s.mealie.ForgetTaxonomy(res)
	fresh, ferr := s.mealie.Taxonomy(ctx, res)
	if ferr != nil {
		return nil
	}
	return findSlug(fresh, slug)
}

// mergeOrganizers adds add to have, keeping have's order and dropping
// repeats by id.
func mergeOrganizers(have, add []mealie.Organizer) []mealie.Organizer {
	out := make([]mealie.Organizer, 0, len(have)+len(add))
	seen := map[string]bool{}
	for _, list := range [][]mealie.Organizer{have, add} {
		for _, o := range list {
			key := o.ID
			if key == "" {
				key = "slug:" + o.Slug
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, mealie.Organizer{ID: o.ID, Name: o.Name, Slug: o.Slug, GroupID: o.GroupID})
		}
	}
	return out
}
