package pantry

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
)

// ref is a recipe reference as the food API takes it: a decimal id becomes
// a JSON integer, anything else a name.
func ref(s string) any {
	if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
		return id
	}
	return s
}

// LogCook records a cook (POST /api/log-cook/). The food API changes no
// pantry state (spec §6.1, §12.2); its used_ingredients come back as a
// suggestion to confirm with the user.
func (s *Service) LogCook(ctx context.Context, req *connect.Request[pantryv1.LogCookRequest]) (*connect.Response[pantryv1.LogCookResponse], error) {
	m := req.Msg
	body := map[string]any{}
	var sent []string // the names the call carries, for a close-match error
	switch c := m.GetCooked().(type) {
	case *pantryv1.LogCookRequest_MetaRecipe:
		v := normName(c.MetaRecipe)
		if v == "" {
			return nil, invalid("meta_recipe must not be empty")
		}
		if err := checkName("meta_recipe", v); err != nil {
			return nil, err
		}
		body["meta_recipe"], sent = ref(v), append(sent, v)
	case *pantryv1.LogCookRequest_Recipe:
		v := normName(c.Recipe)
		if v == "" {
			return nil, invalid("recipe must not be empty")
		}
		if err := checkName("recipe", v); err != nil {
			return nil, err
		}
		body["recipe"], sent = ref(v), append(sent, v)
	default:
		return nil, invalid("one of meta_recipe or recipe is required")
	}
	type pick struct{ slot, ing string }
	var picks []pick
	choices := map[string]string{}
	if len(m.GetSlotChoices()) > 0 {
		if _, ok := body["meta_recipe"]; !ok {
			return nil, invalid("slot_choices apply only to a meta-recipe")
		}
		for i, sc := range m.GetSlotChoices() {
			slot, ing := normName(sc.GetSlot()), normName(sc.GetIngredient())
			if slot == "" || ing == "" {
				return nil, invalid("slot_choices[%d] needs a slot and an ingredient", i)
			}
			if err := checkName(fmt.Sprintf("slot_choices[%d].slot", i), slot); err != nil {
				return nil, err
			}
			if err := checkName(fmt.Sprintf("slot_choices[%d].ingredient", i), ing); err != nil {
				return nil, err
			}
			for k := range choices {
				if strings.EqualFold(k, slot) {
					return nil, invalid("slot_choices: slot %q is chosen twice", slot)
				}
			}
			choices[slot] = ing
			picks = append(picks, pick{slot, ing})
			sent = append(sent, ing)
		}
	}
	if m.Servings != nil {
		if n := m.GetServings(); n < 1 || n > MaxServings {
			return nil, invalid("servings must be between 1 and %d, got %d", MaxServings, n)
		}
		body["servings"] = m.GetServings()
	}
	if m.Rating != nil {
		if r := m.GetRating(); r < MinRating || r > MaxRating {
			return nil, invalid("rating must be between %d and %d, got %d", MinRating, MaxRating, r)
		}
		body["rating"] = m.GetRating()
	}
	if utf8.RuneCountInString(m.GetNotes()) > MaxNotes {
		return nil, invalid("notes must be at most %d characters", MaxNotes)
	}
	if n := strings.TrimSpace(m.GetNotes()); n != "" {
		body["notes"] = n
	}
	date := strings.TrimSpace(m.GetDate())
	if date == "" {
		date = s.today()
	} else if _, err := time.Parse(time.DateOnly, date); err != nil {
		return nil, invalid("date must be YYYY-MM-DD, got %q", m.GetDate())
	}
	body["date"] = date

	// Every argument is checked; the names are read now (resolve.go).
	var resolved map[string]string
	mr, err := s.bindCooked(ctx, body, &resolved)
	if err != nil {
		return nil, err
	}
	if len(picks) > 0 {
		// A choice the template does not list is still what was cooked:
		// the food API logs it, creating it when no ingredient binds.
		ix, err := s.ingredientIndex(ctx)
		if err != nil {
			return nil, connectError(err, "")
		}
		for i, p := range picks {
			send, err := bindChoice(ix, mr, fmt.Sprintf("slot_choices[%d].ingredient", i), p.slot, p.ing, &resolved)
			if err != nil {
				return nil, err
			}
			choices[p.slot] = send
		}
		body["slot_choices"] = choices
	}

	var res struct {
		ID         int64 `json:"id"`
		MetaRecipe *struct {
			Name string `json:"name"`
		} `json:"meta_recipe"`
		Recipe *struct {
			Name string `json:"name"`
		} `json:"recipe"`
		Date         string              `json:"date"`
		Used         []apiAmount         `json:"used_ingredients"`
		OffTemplate  map[string]string   `json:"off_template"`
		Created      []string            `json:"created_ingredients"`
		Resolved     map[string]string   `json:"resolved"`
		CloseMatches map[string][]string `json:"close_matches"`
	}
	if err := s.food.send(ctx, http.MethodPost, "/log-cook/", body, &res); err != nil {
		return nil, connectError(err, nameIn(err, sent))
	}
	for given, stored := range res.Resolved {
		noteResolved(&resolved, given, stored)
	}
	out := &pantryv1.LogCookResponse{
		CookLogId: res.ID, Date: res.Date, OffTemplate: res.OffTemplate, CreatedIngredients: res.Created, Resolved: resolved,
	}
	for _, name := range res.Created {
		if near := res.CloseMatches[name]; len(near) > 0 {
			out.CreatedCloseMatches = append(out.CreatedCloseMatches, &pantryv1.NameMatches{Name: name, CloseMatches: limit(near)})
		}
	}
	switch {
	case res.MetaRecipe != nil:
		out.Cooked = res.MetaRecipe.Name
	case res.Recipe != nil:
		out.Cooked = res.Recipe.Name
	}
	for _, u := range res.Used {
		if !containsFold(out.UsedIngredients, u.Ingredient) {
			out.UsedIngredients = append(out.UsedIngredients, u.Ingredient)
		}
	}
	return connect.NewResponse(out), nil
}

// nameIn picks which of the names a call sent its error sentence is about
// ("No ingredient is called 'basil'."), for the NameMatches detail.
func nameIn(err error, sent []string) string {
	msg := strings.ToLower(err.Error())
	for _, n := range sent {
		if strings.Contains(msg, "'"+strings.ToLower(n)+"'") {
			return n
		}
	}
	if len(sent) > 0 {
		return sent[0]
	}
	return ""
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
