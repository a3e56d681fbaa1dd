package mealplan

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// Range limits.
const (
	// MaxRandomDays caps RandomMealPlan: one Mealie write per day, so a
	// hallucinated range cannot fire hundreds of writes (docs/design.md,
	// "Safety lines").
	MaxRandomDays = limits.RandomDays
	// MaxReadDays caps GetMealPlan: a year of plans is already thousands of
	// tokens; a longer range is a mistake, not a question.
	MaxReadDays = limits.ReadDays
	// MaxTitleChars and MaxNoteChars bound free text sent to Mealie
	// (mealplan.proto, AddMealPlanEntryRequest).
	MaxTitleChars = limits.EntryTitleChars
	// MaxNoteChars bounds an entry's note.
	MaxNoteChars = limits.EntryNoteChars
	// MaxEntryIDChars caps an entry_id: Mealie's entry ids are integers.
	MaxEntryIDChars = limits.EntryIDChars
)

// dateLayout is the only date form accepted: ISO 8601 calendar dates, as
// Mealie stores them.
const dateLayout = "2006-01-02"

// parseDate reads a YYYY-MM-DD date; anything else is InvalidArgument naming
// the field.
func parseDate(field, v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, invalid("%s is required (YYYY-MM-DD)", field)
	}
	t, err := time.Parse(dateLayout, v)
	if err != nil {
		return time.Time{}, invalid("%s must be an ISO date YYYY-MM-DD, got %q", field, v)
	}
	return t, nil
}

// parseRange reads an inclusive range and returns its bounds and length in
// days; end before start is InvalidArgument, as is a range over maxDays.
func parseRange(startField, start, endField, end string, maxDays int, what string) (time.Time, time.Time, int, error) {
	s, err := parseDate(startField, start)
	if err != nil {
		return s, s, 0, err
	}
	e, err := parseDate(endField, end)
	if err != nil {
		return s, e, 0, err
	}
	if e.Before(s) {
		return s, e, 0, invalid("%s %s is before %s %s", endField, e.Format(dateLayout), startField, s.Format(dateLayout))
	}
	days := int(e.Sub(s).Hours()/24) + 1
	if days > maxDays {
		return s, e, days, invalid("%s covers %d days; %s is capped at %d days — split the range", what, days, what, maxDays)
	}
	return s, e, days, nil
}

// entryTypes maps the proto enum to Mealie's entryType strings. Mealie 2.x
// accepts the first four (testdata/mealplans__create_422_bad_entry_type.json); Mealie 3
// adds snack, drink and dessert (Mealie PR #6149; PlanEntryType in the 3.x
// OpenAPI).
var entryTypes = map[mealplanv1.EntryType]string{
	mealplanv1.EntryType_ENTRY_TYPE_BREAKFAST: "breakfast",
	mealplanv1.EntryType_ENTRY_TYPE_LUNCH:     "lunch",
	mealplanv1.EntryType_ENTRY_TYPE_DINNER:    "dinner",
	mealplanv1.EntryType_ENTRY_TYPE_SIDE:      "side",
	mealplanv1.EntryType_ENTRY_TYPE_SNACK:     "snack",
	mealplanv1.EntryType_ENTRY_TYPE_DRINK:     "drink",
	mealplanv1.EntryType_ENTRY_TYPE_DESSERT:   "dessert",
}

// newerEntryTypes are the types only Mealie 3 or newer accepts.
var newerEntryTypes = map[mealplanv1.EntryType]bool{
	mealplanv1.EntryType_ENTRY_TYPE_SNACK:   true,
	mealplanv1.EntryType_ENTRY_TYPE_DRINK:   true,
	mealplanv1.EntryType_ENTRY_TYPE_DESSERT: true,
}

// NewerTypesRefusalMemory is how long a Mealie's refusal of the newer entry
// types is remembered, refusing them before any request. The refusal is
// learned from Mealie's own 422 rather than from its version: a 422 on the
// body is answered before anything is stored, costs nothing on a Mealie that
// accepts the types, and holds for source builds, whose version ("develop")
// says nothing; a version check would cost a GET /api/app/about before every
// such write or go stale like this memory does. Ten minutes saves repeated
// refused calls in a conversation and still picks up an upgraded Mealie
// without a restart.
const NewerTypesRefusalMemory = 10 * time.Minute

// newerTypesRefusal remembers when this Mealie last refused a newer entry
// type, and what it said.
type newerTypesRefusal struct {
	mu     sync.Mutex
	at     time.Time
	detail string
}

// mealieEntryType resolves a request's entry type; unspecified is dinner,
// an unknown number InvalidArgument, and a newer type that this Mealie
// refused within NewerTypesRefusalMemory InvalidArgument too.
func (s *Service) mealieEntryType(t mealplanv1.EntryType) (string, error) {
	if t == mealplanv1.EntryType_ENTRY_TYPE_UNSPECIFIED {
		return "dinner", nil
	}
	name, ok := entryTypes[t]
	if !ok {
		return "", invalid("entry_type must be breakfast, lunch, dinner, side, snack, drink or dessert, got %d", int32(t))
	}
	if newerEntryTypes[t] {
		s.refusal.mu.Lock()
		at, detail := s.refusal.at, s.refusal.detail
		s.refusal.mu.Unlock()
		if !at.IsZero() && s.now().Sub(at) < NewerTypesRefusalMemory {
			return "", newerTypeRefused(name, detail)
		}
	}
	return name, nil
}

// refusedNewerType returns the InvalidArgument to answer with when err is
// Mealie's 422 on the entryType of a body carrying a newer type, and
// remembers the refusal; otherwise nil.
func (s *Service) refusedNewerType(t mealplanv1.EntryType, err error) error {
	var me *mealie.Error
	if !newerEntryTypes[t] || !errors.As(err, &me) || me.Kind != mealie.KindInvalid || !strings.Contains(me.Detail, "entryType") {
		return nil
	}
	s.refusal.mu.Lock()
	s.refusal.at, s.refusal.detail = s.now(), me.Detail
	s.refusal.mu.Unlock()
	return newerTypeRefused(entryTypes[t], me.Detail)
}

// newerTypeRefused is the answer for a newer type this Mealie refuses,
// quoting Mealie's 422, so the model learns both what to send instead and
// what Mealie said (TestNewerTypeRefusedByOlderMealie).
func newerTypeRefused(name, detail string) error {
	return invalid("entry_type %s needs Mealie 3 or newer; this Mealie accepts breakfast, lunch, dinner or side (Mealie said: %s)", name, detail)
}

// GetMealPlan lists the entries between two dates, inclusive.
func (s *Service) GetMealPlan(ctx context.Context, req *connect.Request[mealplanv1.GetMealPlanRequest]) (*connect.Response[mealplanv1.GetMealPlanResponse], error) {
	start, end, _, err := parseRange("start_date", req.Msg.GetStartDate(), "end_date", req.Msg.GetEndDate(), MaxReadDays, "get_meal_plan")
	if err != nil {
		return nil, err
	}
	entries, err := s.mealie.ListMealPlans(ctx, start.Format(dateLayout), end.Format(dateLayout))
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.GetMealPlanResponse{Items: shapeEntries(entries)}), nil
}

// GetTodaysMeals lists today's entries. Today is resolved here, in the
// configured zone, and read as a one-day range rather than through
// /mealplans/today: that endpoint uses Mealie's own zone, which may differ
// from TZ, and the date echoed back must be the date actually read.
func (s *Service) GetTodaysMeals(ctx context.Context, _ *connect.Request[mealplanv1.GetTodaysMealsRequest]) (*connect.Response[mealplanv1.GetTodaysMealsResponse], error) {
	now := s.now()
	today := now.In(s.loc).Format(dateLayout)
	entries, err := s.mealie.ListMealPlans(ctx, today, today)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.GetTodaysMealsResponse{
		Items: shapeEntries(entries), Date: today, TimeZone: localZoneName(s.loc, now),
	}), nil
}

// AddMealPlanEntry plans a recipe (by slug) or a title on a date. The slug is
// resolved before the write: Mealie accepts a recipeId that matches nothing
// and stores an entry with no recipe (testdata/mealplans__create_unknown_recipe.json).
func (s *Service) AddMealPlanEntry(ctx context.Context, req *connect.Request[mealplanv1.AddMealPlanEntryRequest]) (*connect.Response[mealplanv1.AddMealPlanEntryResponse], error) {
	m := req.Msg
	date, err := parseDate("date", m.GetDate())
	if err != nil {
		return nil, err
	}
	et, err := s.mealieEntryType(m.GetEntryType())
	if err != nil {
		return nil, err
	}
	note := strings.TrimSpace(m.GetNote())
	if utf8.RuneCountInString(note) > MaxNoteChars {
		return nil, invalid("note is longer than %d characters", MaxNoteChars)
	}
	in := mealie.MealPlanCreate{Date: date.Format(dateLayout), EntryType: et, Text: note}
	switch meal := m.GetMeal().(type) {
	case *mealplanv1.AddMealPlanEntryRequest_RecipeSlug:
		slug := strings.TrimSpace(meal.RecipeSlug)
		if slug == "" {
			return nil, invalid("recipe_slug is empty: give a recipe slug or a title")
		}
		ids, notFound, err := s.resolveSlugs(ctx, []string{slug})
		if err != nil {
			return nil, err
		}
		if len(notFound) > 0 {
			return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("recipe '%s' not found", slug))
		}
		in.RecipeID = ids[slug]
	case *mealplanv1.AddMealPlanEntryRequest_Title:
		title := strings.TrimSpace(meal.Title)
		if title == "" {
			return nil, invalid("title is empty: give a recipe slug or a title")
		}
		if utf8.RuneCountInString(title) > MaxTitleChars {
			return nil, invalid("title is longer than %d characters", MaxTitleChars)
		}
		in.Title = title
	default:
		return nil, invalid("exactly one of recipe_slug and title is required")
	}
	e, err := s.mealie.CreateMealPlan(ctx, in)
	if err != nil {
		if refused := s.refusedNewerType(m.GetEntryType(), err); refused != nil {
			return nil, refused
		}
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.AddMealPlanEntryResponse{Entry: shapeEntry(e)}), nil
}

// resolveSlugs maps slugs to Mealie ids through the recipes service.
func (s *Service) resolveSlugs(ctx context.Context, slugs []string) (map[string]string, []string, error) {
	res, err := s.recipes.ResolveRecipeSlugs(ctx, connect.NewRequest(&recipesv1.ResolveRecipeSlugsRequest{Slugs: slugs}))
	if err != nil {
		return nil, nil, connect.NewError(connect.CodeOf(err), fmt.Errorf("recipes service could not resolve recipe slugs: %s", connectMessage(err)))
	}
	ids := make(map[string]string, len(res.Msg.GetRecipes()))
	for _, r := range res.Msg.GetRecipes() {
		ids[r.GetSlug()] = r.GetId()
	}
	return ids, res.Msg.GetNotFound(), nil
}

// entryKey is the key of Service.writes for a meal-plan entry: a write
// that reads an entry before it writes or deletes it (Mealie's PUT of an
// entry takes it whole) holds it from the read to the write.
func entryKey(id int) string { return "mealplan-entry:" + strconv.Itoa(id) }

// DeleteMealPlanEntry deletes one entry. It reads the entry first: Mealie
// answers a delete of an unknown id with a 400 "No row was found", not a 404
// (testdata/mealplans__delete_again.json).
func (s *Service) DeleteMealPlanEntry(ctx context.Context, req *connect.Request[mealplanv1.DeleteMealPlanEntryRequest]) (*connect.Response[mealplanv1.DeleteMealPlanEntryResponse], error) {
	raw := strings.TrimSpace(req.Msg.GetEntryId())
	if n := utf8.RuneCountInString(raw); n > MaxEntryIDChars {
		return nil, invalid("entry_id must be a meal plan entry's integer id, such as \"12\": at most %d characters, got %d", MaxEntryIDChars, n)
	}
	id, err := strconv.Atoi(raw)
	if err != nil || id < 1 {
		return nil, invalid("entry_id must be a meal plan entry's integer id, such as \"12\", got %q", raw)
	}
	unlock, err := s.writes.Lock(ctx, entryKey(id))
	if err != nil {
		return nil, connect.NewError(connect.CodeCanceled, err)
	}
	defer unlock()
	if _, err := s.mealie.GetMealPlan(ctx, id); err != nil {
		return nil, mealie.ConnectError(err)
	}
	e, err := s.mealie.DeleteMealPlan(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.DeleteMealPlanEntryResponse{Entry: shapeEntry(e)}), nil
}

// RandomMealPlan fills each day of the range with one POST
// /mealplans/random. Over MaxRandomDays is refused before any request. A day
// Mealie refuses is reported and the next day is tried; when Mealie cannot
// be reached or refuses the token, the remaining days are reported as not
// attempted, since every further call would fail the same way.
func (s *Service) RandomMealPlan(ctx context.Context, req *connect.Request[mealplanv1.RandomMealPlanRequest]) (*connect.Response[mealplanv1.RandomMealPlanResponse], error) {
	start, _, days, err := parseRange("start_date", req.Msg.GetStartDate(), "end_date", req.Msg.GetEndDate(), MaxRandomDays, "random_meal_plan")
	if err != nil {
		return nil, err
	}
	et, err := s.mealieEntryType(req.Msg.GetEntryType())
	if err != nil {
		return nil, err
	}
	out := &mealplanv1.RandomMealPlanResponse{}
	var stop string
	for i := range days {
		date := start.AddDate(0, 0, i).Format(dateLayout)
		day := &mealplanv1.RandomDay{Date: date}
		out.Items = append(out.Items, day)
		if stop != "" {
			day.Message = "not attempted: " + stop
			out.Failed++
			continue
		}
		e, err := s.mealie.RandomMealPlan(ctx, date, et)
		if err != nil {
			// The type is the same every day: a Mealie that refuses it on
			// the first day refuses it on all, so the call fails whole.
			if refused := s.refusedNewerType(req.Msg.GetEntryType(), err); refused != nil && out.Planned == 0 {
				return nil, refused
			}
			day.Message = err.Error()
			out.Failed++
			var me *mealie.Error
			if ctx.Err() != nil || (errors.As(err, &me) && (me.Kind == mealie.KindUnreachable || me.Kind == mealie.KindAuth)) {
				stop = err.Error()
			}
			continue
		}
		day.Entry = shapeEntry(e)
		out.Planned++
	}
	return connect.NewResponse(out), nil
}

// entryTypeOrder sorts a day's entries in enum order, breakfast to
// dessert; a type newer than the enum (unspecified) goes last.
func entryTypeOrder(t mealplanv1.EntryType) int {
	if t == mealplanv1.EntryType_ENTRY_TYPE_UNSPECIFIED {
		return len(entryTypes) + 1
	}
	return int(t)
}

// shapeEntries converts and orders entries by date, entry type, then id:
// Mealie's own order is by id, newest first (testdata/mealplans__list_date_range.json).
func shapeEntries(in []mealie.MealPlanEntry) []*mealplanv1.MealPlanEntry {
	sorted := slices.Clone(in)
	slices.SortStableFunc(sorted, func(a, b mealie.MealPlanEntry) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date),
			cmp.Compare(entryTypeOrder(entryTypeOf(a.EntryType)), entryTypeOrder(entryTypeOf(b.EntryType))),
			cmp.Compare(a.ID, b.ID))
	})
	out := make([]*mealplanv1.MealPlanEntry, 0, len(sorted))
	for i := range sorted {
		out = append(out, shapeEntry(&sorted[i]))
	}
	return out
}

// entryTypeOf maps Mealie's entryType back; a type newer than any Mealie 3.x
// knows has no enum value and is left unspecified.
func entryTypeOf(s string) mealplanv1.EntryType {
	for k, v := range entryTypes {
		if v == s {
			return k
		}
	}
	return mealplanv1.EntryType_ENTRY_TYPE_UNSPECIFIED
}

// shapeEntry converts one entry. An entry whose recipe was deleted keeps its
// recipeId with recipe null; it shows with neither slug nor name.
func shapeEntry(e *mealie.MealPlanEntry) *mealplanv1.MealPlanEntry {
	out := &mealplanv1.MealPlanEntry{
		Id: strconv.Itoa(e.ID), Date: e.Date, EntryType: entryTypeOf(e.EntryType),
		Title: e.Title, Note: e.Text,
	}
	if e.Recipe != nil {
		out.RecipeSlug = e.Recipe.Slug
		out.RecipeName = e.Recipe.Name
	}
	return out
}
