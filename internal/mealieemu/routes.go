package mealieemu

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
	if s.store.profile.aiProviders {
		mux.HandleFunc("GET /api/groups/self", s.handleGroupSelf)
	}

	mux.HandleFunc("GET /api/recipes", s.handleListRecipes)
	mux.HandleFunc("POST /api/recipes", s.handleCreateRecipe)
	mux.HandleFunc("GET /api/recipes/{slug}", s.handleGetRecipe)
	mux.HandleFunc("PATCH /api/recipes/{slug}", s.handlePatchRecipe)
	mux.HandleFunc("PUT /api/recipes/{slug}", s.handlePutRecipe)
	mux.HandleFunc("DELETE /api/recipes/{slug}", s.handleDeleteRecipe)
	mux.HandleFunc("PATCH /api/recipes/{slug}/last-made", s.handleLastMade)
	mux.HandleFunc("POST /api/recipes/{slug}/image", s.handleImageFromURL)
	mux.HandleFunc("PUT /api/recipes/{slug}/image", s.handleImageUpload)
	mux.HandleFunc("POST /api/recipes/bulk-actions/tag", s.handleBulkOrganize("tags"))
	mux.HandleFunc("POST /api/recipes/bulk-actions/categorize", s.handleBulkOrganize("categories"))
	mux.HandleFunc("POST /api/recipes/bulk-actions/delete", s.handleBulkDelete)
	mux.HandleFunc("POST /api/recipes/create/url", s.handleCreateFromURL)
	mux.HandleFunc("POST /api/recipes/create/url/bulk", s.handleCreateBulkURL)
	mux.HandleFunc("POST /api/recipes/create/html-or-json", s.handleCreateFromHTML)
	if s.store.profile.suggestions {
		mux.HandleFunc("GET /api/recipes/suggestions", s.handleSuggestions)
	}
	mux.HandleFunc("GET /api/media/recipes/{id}/images/{file}", s.handleMedia)
	mux.HandleFunc("POST /api/parser/ingredients", s.handleParseIngredients)
	mux.HandleFunc("POST /api/parser/ingredient", s.handleParseIngredient)

	s.ratingRoutes(mux)
	s.timelineRoutes(mux)
	s.organizerRoutes(mux)
	s.taxonomyRoutes(mux)
	s.mealplanRoutes(mux)
	s.cookbookRoutes(mux)
	s.shoppingRoutes(mux)
}
