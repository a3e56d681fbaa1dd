package pantry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"connectrpc.com/connect"

	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	"github.com/souskitchen/sous/proto/gen/sous/pantry/v1/pantryv1connect"
)

// fakeFoodAPI serves a pantry of two rows and, unless noIngredients, an
// ingredient list that also holds "tomato" and "tomatoes" (one thing a
// library grew twice, which a name binds as one) and "kale" and "spinach",
// both aliased "greens" (two things a name fits equally). It
// records the body of every write, so a test sees the names the service
// sent after reading them.
type fakeFoodAPI struct {
	noIngredients bool
	mu            sync.Mutex
	writes        []map[string]any
}

func (f *fakeFoodAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/ingredients/":
		if f.noIngredients {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"detail": "Not found."}`)
			return
		}
		_, _ = io.WriteString(w, `[{"id":1,"name":"egg noodles","aliases":["noodles"]},{"id":2,"name":"spring onions","aliases":[]},
			{"id":3,"name":"tomato","aliases":[]},{"id":4,"name":"tomatoes","aliases":[]},
			{"id":5,"name":"red onions","aliases":[]},{"id":6,"name":"jasmine rice","aliases":[]},
			{"id":7,"name":"white onions","aliases":[]},
			{"id":9,"name":"kale","aliases":["greens"]},{"id":10,"name":"spinach","aliases":["greens"]}]`)
	case r.Method == http.MethodGet && r.URL.Path == "/api/meta-recipes/":
		_, _ = io.WriteString(w, `[{"id":1,"name":"Weeknight stir-fry","slots":[
			{"name":"veg","options":[{"ingredient":"spring onions"},{"ingredient":"red onions"},{"ingredient":"white onions"}]},
			{"name":"carb","options":[{"ingredient":"egg noodles"},{"ingredient":"jasmine rice"}]}]}]`)
	case r.Method == http.MethodPost && r.URL.Path == "/api/log-cook/":
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		f.writes = append(f.writes, body)
		f.mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 3, "meta_recipe": map[string]any{"name": fmt.Sprint(body["meta_recipe"])}, "date": body["date"]})
	case r.Method == http.MethodGet && r.URL.Path == "/api/pantry/":
		_, _ = io.WriteString(w, `[{"id":7,"ingredient":"egg noodles","aliases":["noodles"],"location":"cupboard","state":"in"},
			{"id":8,"ingredient":"spring onions","aliases":[],"location":"fridge","state":"in"}]`)
	case r.Method == http.MethodPost && r.URL.Path == "/api/bulk-pantry-add/":
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		f.writes = append(f.writes, body)
		f.mu.Unlock()
		name := body["items"].([]any)[0].(map[string]any)["name"].(string)
		_ = json.NewEncoder(w).Encode(map[string]any{"results": []any{map[string]any{
			"result": "restocked", "item": map[string]any{"id": 8, "ingredient": name, "location": "fridge", "state": "in"},
		}}})
	case r.Method == http.MethodPost && r.URL.Path == "/api/create-meta-recipe/":
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		f.writes = append(f.writes, body)
		f.mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]any{"meta_recipe": map[string]any{"id": 1, "name": body["name"]}, "created_ingredients": []string{}})
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeFoodAPI) sent() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writes
}

func fakeClient(t *testing.T, f *fakeFoodAPI) pantryv1connect.PantryServiceClient {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return client(t, Config{FoodAPIBase: srv.URL + "/api", FoodAPIToken: "t"})
}

// add_to_pantry sends the stored name of what a name binds to and answers
// resolved, with the full ingredient list or, from a food API without
// /ingredients/, the pantry's rows; a name two ingredients fit equally
// fails its item, naming both, and is never sent.
func TestAddToPantryReadsNamesWithTheResolver(t *testing.T) {
	for _, tt := range []struct {
		name          string
		noIngredients bool
		given         string
		wantSent      string // "" when nothing may be sent
		wantResolved  string
		wantFailure   string
	}{
		{"plural", false, "Spring Onion", "spring onions", "spring onions", ""},
		{"alias", false, "noodles", "egg noodles", "egg noodles", ""},
		{"exact in another case", false, "EGG NOODLES", "egg noodles", "", ""},
		{"unknown is sent as given, to be created", false, "tahini", "tahini", "", ""},
		{"a general word is not narrowed", false, "onions", "onions", "", ""},
		{"one thing stored twice binds as one", false, "fresh tomatoes", "tomato", "tomato", ""},
		{"ambiguous", false, "greens", "", "", `"kale", "spinach"`},
		{"without /ingredients/, the pantry's rows", true, "spring onion", "spring onions", "spring onions", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeFoodAPI{noIngredients: tt.noIngredients}
			c := fakeClient(t, f)
			res, err := c.AddToPantry(context.Background(), connect.NewRequest(&pantryv1.AddToPantryRequest{Items: []*pantryv1.PantryAddition{{Name: tt.given}}}))
			if err != nil {
				t.Fatal(err)
			}
			r := res.Msg.GetItems()[0]
			if tt.wantFailure != "" {
				if r.GetOutcome() != pantryv1.AddOutcome_ADD_OUTCOME_FAILED || !strings.Contains(r.GetMessage(), tt.wantFailure) ||
					len(r.GetCloseMatches()) != 2 || len(f.sent()) != 0 {
					t.Errorf("result %v, %d writes; want a failure naming %s and no write", r, len(f.sent()), tt.wantFailure)
				}
				return
			}
			writes := f.sent()
			if len(writes) != 1 {
				t.Fatalf("%d writes, want 1", len(writes))
			}
			if got := writes[0]["items"].([]any)[0].(map[string]any)["name"]; got != tt.wantSent {
				t.Errorf("sent %q, want %q", got, tt.wantSent)
			}
			if got := res.Msg.GetResolved()[normName(tt.given)]; got != tt.wantResolved {
				t.Errorf("resolved = %v, want %q for %q", res.Msg.GetResolved(), tt.wantResolved, tt.given)
			}
			if r.GetName() != normName(tt.given) {
				t.Errorf("answered under %q, want the name as given", r.GetName())
			}
		})
	}
}

// create_meta_recipe refuses the whole template when one name fits two
// ingredients equally, before any write, and sends bound names otherwise.
func TestCreateMetaRecipeReadsNamesWithTheResolver(t *testing.T) {
	f := &fakeFoodAPI{}
	c := fakeClient(t, f)
	_, err := c.CreateMetaRecipe(context.Background(), connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{
		Name: "Hot pot", BaseIngredients: []*pantryv1.IngredientAmount{{Ingredient: "noodles"}, {Ingredient: "greens"}},
	}))
	var ce *connect.Error
	if !errors.As(err, &ce) || ce.Code() != connect.CodeInvalidArgument || !strings.Contains(ce.Message(), "base_ingredients[1].ingredient") ||
		!strings.Contains(ce.Message(), `"kale", "spinach"`) || len(f.sent()) != 0 {
		t.Fatalf("err = %v, writes %d; want InvalidArgument naming kale and spinach and no write", err, len(f.sent()))
	}
	if nm := detailMatches(ce); nm == nil || !nm.GetAmbiguous() || len(nm.GetCloseMatches()) != 2 {
		t.Errorf("NameMatches = %v", nm)
	}

	res, err := c.CreateMetaRecipe(context.Background(), connect.NewRequest(&pantryv1.CreateMetaRecipeRequest{
		Name: "Noodle bowl", BaseIngredients: []*pantryv1.IngredientAmount{{Ingredient: "noodles"}, {Ingredient: "chicken"}},
	}))
	if err != nil {
		t.Fatal(err)
	}
	bases := f.sent()[0]["base_ingredients"].([]any)
	if bases[0].(map[string]any)["ingredient"] != "egg noodles" || bases[1].(map[string]any)["ingredient"] != "chicken" {
		t.Errorf("sent %v; want egg noodles and chicken", bases)
	}
	if got := res.Msg.GetResolved(); len(got) != 1 || got["noodles"] != "egg noodles" {
		t.Errorf("resolved = %v", got)
	}
}

// log_cook reads a slot choice against its slot's options too: a general
// word covering exactly one option is that option, one covering two is
// refused naming them, and the meta-recipe's name is read as well.
func TestLogCookReadsChoicesAgainstTheSlot(t *testing.T) {
	for _, tt := range []struct {
		name, meta, slot, given string
		wantSent, wantMeta      string
		wantErr                 string
	}{
		{"a general word is the one option it covers", "weeknight stir fry", "carb", "rice", "jasmine rice", "Weeknight stir-fry", ""},
		{"a general word covering two options is refused", "Weeknight stir-fry", "veg", "onions", "", "", `"red onions", "white onions"`},
		{"a plural binds first", "1", "veg", "Spring Onion", "spring onions", "", ""},
		{"a word covering no option is kept, off-template", "Weeknight stir-fry", "carb", "couscous", "couscous", "Weeknight stir-fry", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeFoodAPI{}
			c := fakeClient(t, f)
			res, err := c.LogCook(context.Background(), connect.NewRequest(&pantryv1.LogCookRequest{
				Cooked:      &pantryv1.LogCookRequest_MetaRecipe{MetaRecipe: tt.meta},
				SlotChoices: []*pantryv1.SlotChoice{{Slot: tt.slot, Ingredient: tt.given}},
			}))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || len(f.sent()) != 0 {
					t.Fatalf("err = %v, %d writes; want one naming %s and no write", err, len(f.sent()), tt.wantErr)
				}
				if strings.Contains(err.Error(), "spring onions") {
					t.Errorf("err = %v; spring onions are not the onions a general word covers", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sent := f.sent()[0]
			if got := sent["slot_choices"].(map[string]any)[tt.slot]; got != tt.wantSent {
				t.Errorf("sent %s: %v, want %q", tt.slot, got, tt.wantSent)
			}
			if tt.wantMeta != "" && sent["meta_recipe"] != tt.wantMeta {
				t.Errorf("sent meta_recipe %v, want %q", sent["meta_recipe"], tt.wantMeta)
			}
			if tt.wantSent != tt.given && res.Msg.GetResolved()[tt.given] != tt.wantSent {
				t.Errorf("resolved = %v", res.Msg.GetResolved())
			}
		})
	}
}
