package recipes

import (
	"context"
	"strings"

	"github.com/souskitchen/sous/internal/mealieslug"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// fold is the case-insensitive key names are matched on: a model writes
// "quick dinner" for the tag Mealie stores as "Quick  Dinner", and the write
// needs the stored object, not the string.
func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// itemNames are the names an item answers to: its name, and for foods and
// units its plural, abbreviation and aliases, so "eggs" and "tbsp" resolve.
func itemNames(it *mealie.TaxonomyItem) []string {
	out := []string{it.Name}
	for _, p := range []*string{it.PluralName, it.Abbreviation} {
		if p != nil && strings.TrimSpace(*p) != "" {
			out = append(out, *p)
		}
	}
	for _, a := range it.Aliases {
		out = append(out, a.Name)
	}
	return out
}

// findItem finds name in a snapshot: an exact (folded) name match first, then
// the other names an item answers to.
func findItem(items []mealie.TaxonomyItem, name string) *mealie.TaxonomyItem {
	key := fold(name)
	if key == "" {
		return nil
	}
	for i := range items {
		if fold(items[i].Name) == key {
			return &items[i]
		}
	}
	for i := range items {
		for _, n := range itemNames(&items[i])[1:] {
			if fold(n) == key {
				return &items[i]
			}
		}
	}
	return nil
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
// Mealie). It never creates; unknown names are
// returned apart.
func (s *Service) filterKeys(ctx context.Context, res mealie.Resource, names []string) (keys, unknown []string, err error) {
	items, err := s.mealie.Taxonomy(ctx, res)
	if err != nil {
		return nil, nil, err
	}
	for _, n := range uniqueNames(names) {
		it := findItem(items, n)
		switch {
		case it == nil:
			unknown = append(unknown, n)
		case res == mealie.Foods:
			keys = append(keys, it.ID)
		default:
			keys = append(keys, it.Slug)
		}
	}
	return keys, unknown, nil
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
		it, err := s.mealie.CreateTaxonomy(ctx, res, map[string]any{"name": n})
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
