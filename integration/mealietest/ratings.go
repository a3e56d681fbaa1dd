package mealietest

import (
	"net/http"
	"strings"
)

// Recipe ratings are per user. Mealie keeps each user's rating of a recipe
// (POST /api/users/{id}/ratings/{slug}, routes/users/ratings.py in 2.0, 2.8
// and 3.11) and recomputes the recipe's own rating as their average whenever
// the recipe's rating changes (calculate_rating, db/models/recipe/recipe.py).
// Seen on 2.0 and 2.8: PATCH {rating: 4} on a recipe nobody rated answers
// and stores rating null; after POST /api/users/{self}/ratings/{slug}
// {rating: 4} the recipe reads 4.0, after {rating: 2.5} it reads 2.5; an
// unknown slug is a 404 {"message": "Not found."}.

// ratingRoutes registers the user-rating endpoints.
func (s *Server) ratingRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/users/{id}/ratings/{slug}", s.handleSetRating)
	mux.HandleFunc("GET /api/users/self/ratings/{recipeID}", s.handleSelfRating)
}

// ratingFromUsers is what Mealie stores as a recipe's rating when it
// changes: the average of the positive user ratings, or null.
func (st *store) ratingFromUsers(recipeID string) *float64 {
	if r, ok := st.userRatings[recipeID]; ok && r > 0 {
		return floatp(r)
	}
	return nil
}

// handleSetRating is POST /api/users/{id}/ratings/{slug} {rating,
// isFavorite}: it answers 200 null and updates the recipe's rating. Another
// user's id is refused as Mealie's assert_user_change_allowed does.
func (s *Server) handleSetRating(w http.ResponseWriter, r *http.Request) {
	b, ok := decodeBody(w, r)
	if !ok {
		return
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if !strings.EqualFold(r.PathValue("id"), st.user.ID) {
		writeDetail(w, http.StatusForbidden, "User does not have permission to change another user's data")
		return
	}
	rc := st.findRecipe(r.PathValue("slug"))
	if rc == nil {
		writeJSON(w, http.StatusNotFound, object{{"detail", object{{"message", "Not found."}, {"error", true}, {"exception", nil}}}})
		return
	}
	if v, ok := b["rating"]; ok && v != nil {
		f, ok := toFloat(v)
		if !ok {
			writeValidation(w, valErr{typ: "float_parsing", loc: []any{"body", "rating"}, msg: "Input should be a valid number, unable to parse string as a number", input: v})
			return
		}
		if st.userRatings == nil {
			st.userRatings = map[string]float64{}
		}
		st.userRatings[rc.ID] = f
		rc.Rating = st.ratingFromUsers(rc.ID)
	}
	writeJSON(w, http.StatusOK, nil)
}

// handleSelfRating is GET /api/users/self/ratings/{recipeID}: the token
// user's rating of one recipe (seen on 2.0 and 2.8:
// {"recipeId", "rating", "isFavorite"}).
func (s *Server) handleSelfRating(w http.ResponseWriter, r *http.Request) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	id := r.PathValue("recipeID")
	rating, ok := st.userRatings[id]
	if !ok {
		writeDetail(w, http.StatusNotFound, "Not Found")
		return
	}
	writeJSON(w, http.StatusOK, object{{"recipeId", id}, {"rating", rating}, {"isFavorite", false}})
}
