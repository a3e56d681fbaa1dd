package recipes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// MarkRecipeMade records a cook: a timeline event, then the last-made date,
// then the rating when one is given.
//
// The last-made date never moves backwards. Mealie 2.0 stores whatever
// PATCH last-made sends, so a cook dated before the last one would move
// lastMade back; 2.8 and 3.11 keep the later day but answer 200 all the same
// (TestBackdatedLastMade in integration/contract). So the recipe is read
// first, an earlier day is recorded on the timeline alone, and the answer's
// last_made is what Mealie stores after the call, read from its own answer.
func (s *Service) MarkRecipeMade(ctx context.Context, req *connect.Request[recipesv1.MarkRecipeMadeRequest]) (*connect.Response[recipesv1.MarkRecipeMadeResponse], error) {
	m := req.Msg
	slug, err := checkSlug("slug", m.GetSlug())
	if err != nil {
		return nil, err
	}
	if err := checkText("note", m.GetNote(), MaxMadeNoteChars); err != nil {
		return nil, err
	}
	if err := checkRating(m.Rating); err != nil {
		return nil, err
	}
	now := time.Now()
	day := now.Format(time.DateOnly)
	when := now.UTC()
	if d := strings.TrimSpace(m.GetDate()); d != "" {
		t, err := time.ParseInLocation(time.DateOnly, d, time.Local)
		if err != nil {
			return nil, invalid("date must be YYYY-MM-DD, got %q", d)
		}
		if t.After(now) {
			return nil, invalid("date %s is in the future", d)
		}
		if d != day {
			// Noon, so no time zone moves a past day onto its neighbour.
			day, when = d, t.Add(12*time.Hour).UTC()
		}
	}
	unlock, err := s.lockRecipes(ctx, slug)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cur, _, err := s.mealie.GetRecipe(ctx, slug)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	ts := when.Format(time.RFC3339)
	ev, err := s.mealie.CreateTimelineEvent(ctx, mealie.TimelineEvent{
		RecipeID: cur.ID, Subject: "Made " + cur.Name, EventType: "info", EventMessage: strings.TrimSpace(m.GetNote()), Timestamp: ts,
	})
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	out := &recipesv1.MarkRecipeMadeResponse{Slug: slug, Date: day, EventId: ev.ID, LastMade: date(cur.LastMade)}
	if !laterOrSame(cur.LastMade, when, day) {
		r, err := s.mealie.SetLastMade(ctx, slug, ts)
		if err != nil {
			return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("the timeline event %s was recorded but setting the last-made date failed: %s", ev.ID, errMessage(err)))
		}
		out.LastMade = day
		if stored := date(r.LastMade); stored != "" {
			out.LastMade = stored
		}
	}
	if m.Rating != nil {
		r, step, err := s.writeRating(ctx, slug, m.GetRating())
		if err != nil {
			if step != "" {
				err = connect.NewError(mealie.ConnectCode(err), fmt.Errorf("the cook of recipe '%s' was recorded (timeline event %s) but %s failed: %s", slug, ev.ID, step, errMessage(err)))
			}
			return nil, err
		}
		out.Rating = r
	}
	return connect.NewResponse(out), nil
}

// laterOrSame reports whether a stored last-made time is at or after when:
// writing when would then move last-made back, or not at all. A stored
// value Mealie wrote in a form mealieTime cannot read is compared by its
// calendar day.
func laterOrSame(stored *string, when time.Time, day string) bool {
	s := str(stored)
	if s == "" {
		return false
	}
	if t, ok := mealieTime(s); ok {
		return !t.Before(when)
	}
	return date(stored) >= day
}

// mealieTime reads a Mealie timestamp: RFC 3339, or the naive form its
// SQLite columns hand back ("2031-01-02T18:00:00", UTC), or a bare date.
func mealieTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// writeRating writes the token user's rating of a recipe and reads back the
// recipe's rating as Mealie then reports it. Mealie discards a rating
// written on the recipe and keeps the average of its users' ratings (see
// mealie.Client.SetUserRating), so the rating goes through the user's
// ratings route and the answer is read back: with other users' ratings it
// is not the number sent. On failure step names what failed for the
// caller's message ("writing the rating"); "" means err is already worded.
func (s *Service) writeRating(ctx context.Context, slug string, rating float64) (*float64, string, error) {
	self, err := s.mealie.Self(ctx)
	if err != nil {
		return nil, "reading the token's user to rate it", err
	}
	if self.ID == "" {
		return nil, "rating it", &mealie.Error{Kind: mealie.KindProtocol, Message: "Mealie's /api/users/self has no id, so the user's rating cannot be written"}
	}
	if err := s.mealie.SetUserRating(ctx, self.ID, slug, rating); err != nil {
		return nil, "writing the rating", err
	}
	r, _, err := s.mealie.GetRecipe(ctx, slug)
	if err != nil {
		return nil, "", connect.NewError(mealie.ConnectCode(err), fmt.Errorf("the rating of recipe '%s' was written but reading it back failed: %s", slug, errMessage(err)))
	}
	return r.Rating, "", nil
}
