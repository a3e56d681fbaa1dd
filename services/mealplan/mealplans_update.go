package mealplan

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// parseEntryID reads an entry_id: Mealie's entry ids are integers, carried
// as decimal strings.
func parseEntryID(v string) (int, error) {
	raw := strings.TrimSpace(v)
	if n := utf8.RuneCountInString(raw); n > MaxEntryIDChars {
		return 0, invalid("entry_id must be a meal plan entry's integer id, such as \"12\": at most %d characters, got %d", MaxEntryIDChars, n)
	}
	id, err := strconv.Atoi(raw)
	if err != nil || id < 1 {
		return 0, invalid("entry_id must be a meal plan entry's integer id, such as \"12\", got %q", raw)
	}
	return id, nil
}

// UpdateMealPlanEntry changes one entry in place. Mealie's PUT takes the
// entry whole, with its id, group and user (services/mealplan/testdata/
// mealplans__put_partial_422.json), so the entry is read, changed and sent
// back; a move is one write, where deleting and adding again would give the
// entry a new id and lose it if the second call failed. Everything is
// checked before the write, and the entry is read back after it: the
// answer is what Mealie holds (TestMealPlanUpdate in integration/contract
// pins the PUT on every recorded version).
func (s *Service) UpdateMealPlanEntry(ctx context.Context, req *connect.Request[mealplanv1.UpdateMealPlanEntryRequest]) (*connect.Response[mealplanv1.UpdateMealPlanEntryResponse], error) {
	m := req.Msg
	id, err := parseEntryID(m.GetEntryId())
	if err != nil {
		return nil, err
	}
	if m.Date == nil && m.GetEntryType() == mealplanv1.EntryType_ENTRY_TYPE_UNSPECIFIED && m.RecipeSlug == nil && m.Title == nil && m.Note == nil {
		return nil, invalid("give what changes: date, entry_type, recipe_slug, title or note")
	}
	var date string
	if m.Date != nil {
		d, err := parseDate("date", m.GetDate())
		if err != nil {
			return nil, err
		}
		date = d.Format(dateLayout)
	}
	var et string
	if m.GetEntryType() != mealplanv1.EntryType_ENTRY_TYPE_UNSPECIFIED {
		if et, err = s.mealieEntryType(m.GetEntryType()); err != nil {
			return nil, err
		}
	}
	note := strings.TrimSpace(m.GetNote())
	if utf8.RuneCountInString(note) > MaxNoteChars {
		return nil, invalid("note is longer than %d characters", MaxNoteChars)
	}
	title := strings.TrimSpace(m.GetTitle())
	if m.Title != nil {
		if title == "" {
			return nil, invalid("title is empty: give the meal's title, or recipe_slug for a recipe")
		}
		if utf8.RuneCountInString(title) > MaxTitleChars {
			return nil, invalid("title is longer than %d characters", MaxTitleChars)
		}
	}
	var recipeID, slug string
	if m.RecipeSlug != nil {
		if slug = strings.TrimSpace(m.GetRecipeSlug()); slug == "" {
			return nil, invalid("recipe_slug is empty: give a recipe slug, or title for a meal without one")
		}
		ids, notFound, err := s.resolveSlugs(ctx, []string{slug})
		if err != nil {
			return nil, err
		}
		if len(notFound) > 0 {
			return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("recipe '%s' not found", slug))
		}
		recipeID = ids[slug]
	}
	// Held from the read to the write: the PUT sends the entry whole, so
	// a second writer's change in between would be written over.
	unlock, err := s.writes.Lock(ctx, entryKey(id))
	if err != nil {
		return nil, connect.NewError(connect.CodeCanceled, err)
	}
	defer unlock()
	cur, err := s.mealie.GetMealPlan(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	next := mealie.MealPlanUpdate{
		ID: cur.ID, GroupID: cur.GroupID, UserID: cur.UserID,
		Date: cur.Date, EntryType: cur.EntryType, Title: cur.Title, Text: cur.Text, RecipeID: cur.RecipeID,
	}
	if date != "" {
		next.Date = date
	}
	if et != "" {
		next.EntryType = et
	}
	if m.Note != nil {
		next.Text = note
	}
	// A meal is a recipe or a title: "make Friday takeaway" drops the
	// recipe, "make it the lasagne" drops "Takeaway". Both given keep both.
	switch {
	case m.RecipeSlug != nil && m.Title != nil:
		next.RecipeID, next.Title = &recipeID, title
	case m.RecipeSlug != nil:
		next.RecipeID, next.Title = &recipeID, ""
	case m.Title != nil:
		next.RecipeID, next.Title = nil, title
	}
	changed := entryChanges(cur, next, slug)
	if len(changed) == 0 {
		return connect.NewResponse(&mealplanv1.UpdateMealPlanEntryResponse{Entry: shapeEntry(cur)}), nil
	}
	if _, err := s.mealie.UpdateMealPlan(ctx, next); err != nil {
		if refused := s.refusedNewerType(m.GetEntryType(), err); refused != nil {
			return nil, refused
		}
		return nil, mealie.ConnectError(err)
	}
	after, err := s.mealie.GetMealPlan(ctx, id)
	if err != nil {
		return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("meal plan entry %d was updated but reading it back failed: %s", id, connectMessage(mealie.ConnectError(err))))
	}
	return connect.NewResponse(&mealplanv1.UpdateMealPlanEntryResponse{Entry: shapeEntry(after), Changed: changed}), nil
}

// entryChanges says what an update changes, field by field, before →
// after; empty when next is the entry as it is. slug names a new recipe.
func entryChanges(cur *mealie.MealPlanEntry, next mealie.MealPlanUpdate, slug string) []string {
	var out []string
	add := func(field, before, after string) {
		if before != after {
			out = append(out, fmt.Sprintf("%s: %s → %s", field, orNone(before), orNone(after)))
		}
	}
	add("date", cur.Date, next.Date)
	add("entry_type", cur.EntryType, next.EntryType)
	curRecipe, nextRecipe := "", ""
	if cur.RecipeID != nil {
		curRecipe = *cur.RecipeID
	}
	if next.RecipeID != nil {
		nextRecipe = *next.RecipeID
	}
	if curRecipe != nextRecipe {
		before := curRecipe
		if cur.Recipe != nil {
			before = cur.Recipe.Slug
		}
		after := nextRecipe
		if slug != "" {
			after = slug
		}
		add("recipe", before, after)
	}
	add("title", cur.Title, next.Title)
	add("note", cur.Text, next.Text)
	return out
}

// orNone shows an empty value as "(none)" in a change.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return "'" + s + "'"
}
