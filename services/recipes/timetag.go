package recipes

import (
	"context"
	"fmt"
	"slices"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/cooktime"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// A cookbook by time ("quick dinners, 30 minutes or less") cannot be a
// Mealie query filter: Mealie stores times as text ("1 hour 25 minutes")
// and compares them as text. So sous keeps a tag of its own on the recipes
// that fit, cooktime.TagName ("30 min or less (sous)"), and the cookbook
// filters on the tag (services/library: tags.name CONTAINS ALL [...], which
// combines with any other filter: TestCookbookByTimeTag in
// integration/contract). KeepTimeTag makes one such tag true across the
// library; keepTimeTags keeps every one of them true on each recipe the
// service writes. A recipe edited in Mealie's own app is seen when it is
// next written through sous, or when the cookbook is updated.

// KeepTimeTag makes the time tag for max_total_minutes true across the
// library: created when missing, added to every recipe whose time fits,
// taken from every other.
func (s *Service) KeepTimeTag(ctx context.Context, req *connect.Request[recipesv1.KeepTimeTagRequest]) (*connect.Response[recipesv1.KeepTimeTagResponse], error) {
	bound := int(req.Msg.GetMaxTotalMinutes())
	if bound < 1 || bound > MaxTotalMinutes {
		return nil, invalid("max_total_minutes must be between 1 and %d, got %d", MaxTotalMinutes, bound)
	}
	name := cooktime.TagName(bound)
	tags, _, err := s.organizers(ctx, mealie.Tags, []string{name})
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	tag := tags[0]
	list, total, err := s.mealie.AllRecipes(ctx, mealie.MaxLibraryRecipes)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out := &recipesv1.KeepTimeTagResponse{Tag: tag.Name, TagSlug: tag.Slug, Scanned: int32(len(list)), Total: int32(total)}
	var add []string
	for i := range list {
		r := &list[i]
		mins, ok := recipeMinutes(r)
		fits := ok && mins <= bound
		has := hasTag(r.Tags, tag)
		switch {
		case !ok:
			out.NoTime++
		case fits:
			out.Tagged++
		}
		switch {
		case fits && !has:
			add = append(add, r.Slug)
		case !fits && has:
			if err := s.dropTag(ctx, r.Slug, tag); err != nil {
				return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("taking the tag %q from recipe '%s' failed after %d of the library's recipes were brought in step: %s", name, r.Slug, out.Added+out.Removed, errMessage(err)))
			}
			out.Removed++
		}
	}
	for from := 0; from < len(add); from += MaxBulkSlugs {
		chunk := add[from:min(len(add), from+MaxBulkSlugs)]
		// Mealie's bulk action reads each recipe's tags and writes them
		// back: under the recipes' locks, as BulkTagRecipes takes them.
		unlock, err := s.lockRecipes(ctx, chunk...)
		if err != nil {
			return nil, err
		}
		err = s.mealie.BulkTagRecipes(ctx, chunk, []mealie.Organizer{tag})
		unlock()
		if err != nil {
			return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("adding the tag %q to %d recipes failed after %d were brought in step: %s", name, len(chunk), out.Added+out.Removed, errMessage(err)))
		}
		out.Added += int32(len(chunk))
	}
	return connect.NewResponse(out), nil
}

// dropTag takes tag from one recipe. A PATCH replaces the tag list whole,
// so the recipe is read and written under its lock (lockRecipes): the
// list payload the sweep read may be older than a write through sous.
func (s *Service) dropTag(ctx context.Context, slug string, tag mealie.Organizer) error {
	unlock, err := s.lockRecipes(ctx, slug)
	if err != nil {
		return err
	}
	defer unlock()
	r, _, err := s.mealie.GetRecipe(ctx, slug)
	if err != nil {
		return err
	}
	kept := slices.DeleteFunc(slices.Clone(r.Tags), func(o mealie.Organizer) bool { return sameTag(o, tag) })
	if len(kept) == len(r.Tags) {
		return nil
	}
	_, err = s.mealie.PatchRecipe(ctx, slug, &mealie.RecipePatch{Tags: orEmptyOrgs(mergeOrganizers(nil, kept))})
	return err
}

// hasTag reports whether tags holds tag (by id, else slug).
func hasTag(tags []mealie.Organizer, tag mealie.Organizer) bool {
	return slices.ContainsFunc(tags, func(o mealie.Organizer) bool { return sameTag(o, tag) })
}

func sameTag(a, b mealie.Organizer) bool {
	if a.ID != "" && b.ID != "" {
		return a.ID == b.ID
	}
	return a.Slug == b.Slug
}

// orEmptyOrgs keeps an emptied list a list: PATCH tags [] clears them,
// while a nil list would not be sent at all.
func orEmptyOrgs(o []mealie.Organizer) []mealie.Organizer {
	if o == nil {
		return []mealie.Organizer{}
	}
	return o
}

// keepTimeTags brings the time tags of one recipe sous just wrote in step
// with its time: every tag of cooktime.TagName the library has is on the
// recipe exactly when its time fits. r is the recipe as Mealie answered
// the write, nil to read it. It costs the tag list's freshness check when
// the library has no time tag, and one PATCH when a tag must move. A
// failure here does not undo the write: it is returned for the caller to
// say the write went through but the tag did not follow.
func (s *Service) keepTimeTags(ctx context.Context, slug string, r *mealie.Recipe) error {
	items, err := s.mealie.Taxonomy(ctx, mealie.Tags)
	if err != nil {
		return err
	}
	var timeTags []*mealie.TaxonomyItem
	for i := range items {
		if _, ok := cooktime.TagBound(items[i].Name); ok {
			timeTags = append(timeTags, &items[i])
		}
	}
	if len(timeTags) == 0 {
		return nil
	}
	if r == nil {
		if r, _, err = s.mealie.GetRecipe(ctx, slug); err != nil {
			return err
		}
	}
	mins, ok := recipeMinutes(&r.RecipeSummary)
	next := slices.Clone(r.Tags)
	changed := false
	for _, it := range timeTags {
		bound, _ := cooktime.TagBound(it.Name)
		want := ok && mins <= bound
		tag := it.Writable()
		switch has := hasTag(next, tag); {
		case want && !has:
			next = append(next, tag)
			changed = true
		case !want && has:
			next = slices.DeleteFunc(next, func(o mealie.Organizer) bool { return sameTag(o, tag) })
			changed = true
		}
	}
	if !changed {
		return nil
	}
	_, err = s.mealie.PatchRecipe(ctx, r.Slug, &mealie.RecipePatch{Tags: orEmptyOrgs(mergeOrganizers(nil, next))})
	return err
}

// keepTimeTagsLocked is keepTimeTags under the recipe's lock, for a
// write that does not hold it already (a create, an import).
func (s *Service) keepTimeTagsLocked(ctx context.Context, slug string, r *mealie.Recipe) error {
	unlock, err := s.lockRecipes(ctx, slug)
	if err != nil {
		return err
	}
	defer unlock()
	return s.keepTimeTags(ctx, slug, r)
}

// timeTagsFailed words a write that went through while its time tags did
// not follow.
func timeTagsFailed(slug string, err error) error {
	return connect.NewError(mealie.ConnectCode(err), fmt.Errorf("recipe '%s' was written, but bringing its time tags (the cookbooks by time) in step failed: %s; update the recipe again to retry", slug, errMessage(err)))
}
