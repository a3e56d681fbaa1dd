package mealietest

import "net/http"

// routes registers every endpoint the emulator answers. Paths are Mealie's,
// under /api; a path that is not here answers {"detail":"Not Found"}.
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/app/about", s.handleAbout)
	mux.HandleFunc("GET /api/app/about/startup-info", s.handleStartupInfo)
	mux.HandleFunc("POST /api/auth/token", s.handleLogin)
	mux.HandleFunc("GET /api/users/self", s.handleSelf)
	mux.HandleFunc("POST /api/users/api-tokens", s.handleCreateToken)
	mux.HandleFunc("DELETE /api/users/api-tokens/{id}", s.handleDeleteToken)

	mux.HandleFunc("GET /api/recipes", s.handleListRecipes)
	mux.HandleFunc("GET /api/recipes/{slug}", s.handleGetRecipe)
}
