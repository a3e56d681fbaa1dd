package mcpfront

// Fake Connect handlers of the four services, generated in shape by hand:
// each unary method records its request and answers the canned response (or
// error) a test set for it, so tool tests do not depend on the services.

import (
	"context"
	"fmt"
	"sync"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	pantryv1 "github.com/souskitchen/sous/proto/gen/sous/pantry/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// recorder holds what a fake service was asked and what it answers.
type recorder struct {
	mu       sync.Mutex
	requests map[string][]proto.Message
	replies  map[string]proto.Message
	errs     map[string]error
	// streams holds, per streaming method, the messages to send in order.
	streams map[string][]proto.Message
}

func newRecorder() *recorder {
	return &recorder{requests: map[string][]proto.Message{}, replies: map[string]proto.Message{}, errs: map[string]error{}, streams: map[string][]proto.Message{}}
}

func (r *recorder) record(method string, req proto.Message) (proto.Message, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests[method] = append(r.requests[method], proto.Clone(req))
	if err := r.errs[method]; err != nil {
		return nil, err
	}
	return r.replies[method], nil
}

// last returns the last request method received, or nil.
func (r *recorder) last(method string) proto.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	reqs := r.requests[method]
	if len(reqs) == 0 {
		return nil
	}
	return reqs[len(reqs)-1]
}

func (r *recorder) calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, reqs := range r.requests {
		n += len(reqs)
	}
	return n
}

// reply answers a unary call with the canned response, or a zero one.
func reply[Res any, PRes interface {
	*Res
	proto.Message
}](r *recorder, method string, req proto.Message) (*connect.Response[Res], error) {
	m, err := r.record(method, req)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return connect.NewResponse(new(Res)), nil
	}
	res, ok := m.(PRes)
	if !ok {
		return nil, fmt.Errorf("fake %s: canned reply is %T", method, m)
	}
	return connect.NewResponse((*Res)(res)), nil
}

// send answers a streaming call with the canned messages.
func send[Res any, PRes interface {
	*Res
	proto.Message
}](r *recorder, method string, req proto.Message, stream *connect.ServerStream[Res]) error {
	if _, err := r.record(method, req); err != nil {
		return err
	}
	r.mu.Lock()
	msgs := r.streams[method]
	r.mu.Unlock()
	for _, m := range msgs {
		if err := stream.Send((*Res)(m.(PRes))); err != nil {
			return err
		}
	}
	return nil
}

type fakeRecipesService struct{ *recorder }

func (f fakeRecipesService) GetStatus(_ context.Context, req *connect.Request[recipesv1.GetStatusRequest]) (*connect.Response[recipesv1.GetStatusResponse], error) {
	return reply[recipesv1.GetStatusResponse](f.recorder, "GetStatus", req.Msg)
}

func (f fakeRecipesService) SearchRecipes(_ context.Context, req *connect.Request[recipesv1.SearchRecipesRequest]) (*connect.Response[recipesv1.SearchRecipesResponse], error) {
	return reply[recipesv1.SearchRecipesResponse](f.recorder, "SearchRecipes", req.Msg)
}

func (f fakeRecipesService) GetRecipe(_ context.Context, req *connect.Request[recipesv1.GetRecipeRequest]) (*connect.Response[recipesv1.GetRecipeResponse], error) {
	return reply[recipesv1.GetRecipeResponse](f.recorder, "GetRecipe", req.Msg)
}

func (f fakeRecipesService) SuggestRecipes(_ context.Context, req *connect.Request[recipesv1.SuggestRecipesRequest]) (*connect.Response[recipesv1.SuggestRecipesResponse], error) {
	return reply[recipesv1.SuggestRecipesResponse](f.recorder, "SuggestRecipes", req.Msg)
}

func (f fakeRecipesService) CreateRecipe(_ context.Context, req *connect.Request[recipesv1.CreateRecipeRequest]) (*connect.Response[recipesv1.CreateRecipeResponse], error) {
	return reply[recipesv1.CreateRecipeResponse](f.recorder, "CreateRecipe", req.Msg)
}

func (f fakeRecipesService) UpdateRecipe(_ context.Context, req *connect.Request[recipesv1.UpdateRecipeRequest]) (*connect.Response[recipesv1.UpdateRecipeResponse], error) {
	return reply[recipesv1.UpdateRecipeResponse](f.recorder, "UpdateRecipe", req.Msg)
}

func (f fakeRecipesService) SetRecipeImageFromURL(_ context.Context, req *connect.Request[recipesv1.SetRecipeImageFromURLRequest]) (*connect.Response[recipesv1.SetRecipeImageFromURLResponse], error) {
	return reply[recipesv1.SetRecipeImageFromURLResponse](f.recorder, "SetRecipeImageFromURL", req.Msg)
}

func (f fakeRecipesService) UploadRecipeImage(_ context.Context, req *connect.Request[recipesv1.UploadRecipeImageRequest]) (*connect.Response[recipesv1.UploadRecipeImageResponse], error) {
	return reply[recipesv1.UploadRecipeImageResponse](f.recorder, "UploadRecipeImage", req.Msg)
}

func (f fakeRecipesService) BulkTagRecipes(_ context.Context, req *connect.Request[recipesv1.BulkTagRecipesRequest]) (*connect.Response[recipesv1.BulkTagRecipesResponse], error) {
	return reply[recipesv1.BulkTagRecipesResponse](f.recorder, "BulkTagRecipes", req.Msg)
}

func (f fakeRecipesService) DeleteRecipe(_ context.Context, req *connect.Request[recipesv1.DeleteRecipeRequest]) (*connect.Response[recipesv1.DeleteRecipeResponse], error) {
	return reply[recipesv1.DeleteRecipeResponse](f.recorder, "DeleteRecipe", req.Msg)
}

func (f fakeRecipesService) ImportRecipeFromURL(_ context.Context, req *connect.Request[recipesv1.ImportRecipeFromURLRequest]) (*connect.Response[recipesv1.ImportRecipeFromURLResponse], error) {
	return reply[recipesv1.ImportRecipeFromURLResponse](f.recorder, "ImportRecipeFromURL", req.Msg)
}

func (f fakeRecipesService) MarkRecipeMade(_ context.Context, req *connect.Request[recipesv1.MarkRecipeMadeRequest]) (*connect.Response[recipesv1.MarkRecipeMadeResponse], error) {
	return reply[recipesv1.MarkRecipeMadeResponse](f.recorder, "MarkRecipeMade", req.Msg)
}

func (f fakeRecipesService) ParseIngredients(_ context.Context, req *connect.Request[recipesv1.ParseIngredientsRequest]) (*connect.Response[recipesv1.ParseIngredientsResponse], error) {
	return reply[recipesv1.ParseIngredientsResponse](f.recorder, "ParseIngredients", req.Msg)
}

func (f fakeRecipesService) ListTaxonomy(_ context.Context, req *connect.Request[recipesv1.ListTaxonomyRequest]) (*connect.Response[recipesv1.ListTaxonomyResponse], error) {
	return reply[recipesv1.ListTaxonomyResponse](f.recorder, "ListTaxonomy", req.Msg)
}

func (f fakeRecipesService) CreateTaxonomy(_ context.Context, req *connect.Request[recipesv1.CreateTaxonomyRequest]) (*connect.Response[recipesv1.CreateTaxonomyResponse], error) {
	return reply[recipesv1.CreateTaxonomyResponse](f.recorder, "CreateTaxonomy", req.Msg)
}

func (f fakeRecipesService) UpdateTaxonomy(_ context.Context, req *connect.Request[recipesv1.UpdateTaxonomyRequest]) (*connect.Response[recipesv1.UpdateTaxonomyResponse], error) {
	return reply[recipesv1.UpdateTaxonomyResponse](f.recorder, "UpdateTaxonomy", req.Msg)
}

func (f fakeRecipesService) MergeTaxonomy(_ context.Context, req *connect.Request[recipesv1.MergeTaxonomyRequest]) (*connect.Response[recipesv1.MergeTaxonomyResponse], error) {
	return reply[recipesv1.MergeTaxonomyResponse](f.recorder, "MergeTaxonomy", req.Msg)
}

func (f fakeRecipesService) DeleteTaxonomy(_ context.Context, req *connect.Request[recipesv1.DeleteTaxonomyRequest]) (*connect.Response[recipesv1.DeleteTaxonomyResponse], error) {
	return reply[recipesv1.DeleteTaxonomyResponse](f.recorder, "DeleteTaxonomy", req.Msg)
}

func (f fakeRecipesService) ResolveRecipeSlugs(_ context.Context, req *connect.Request[recipesv1.ResolveRecipeSlugsRequest]) (*connect.Response[recipesv1.ResolveRecipeSlugsResponse], error) {
	return reply[recipesv1.ResolveRecipeSlugsResponse](f.recorder, "ResolveRecipeSlugs", req.Msg)
}

func (f fakeRecipesService) SweepRecipes(_ context.Context, req *connect.Request[recipesv1.SweepRecipesRequest], stream *connect.ServerStream[recipesv1.SweepRecipesResponse]) error {
	return send(f.recorder, "SweepRecipes", req.Msg, stream)
}

type fakeMealPlanService struct{ *recorder }

func (f fakeMealPlanService) GetStatus(_ context.Context, req *connect.Request[mealplanv1.GetStatusRequest]) (*connect.Response[mealplanv1.GetStatusResponse], error) {
	return reply[mealplanv1.GetStatusResponse](f.recorder, "GetStatus", req.Msg)
}

func (f fakeMealPlanService) GetMealPlan(_ context.Context, req *connect.Request[mealplanv1.GetMealPlanRequest]) (*connect.Response[mealplanv1.GetMealPlanResponse], error) {
	return reply[mealplanv1.GetMealPlanResponse](f.recorder, "GetMealPlan", req.Msg)
}

func (f fakeMealPlanService) GetTodaysMeals(_ context.Context, req *connect.Request[mealplanv1.GetTodaysMealsRequest]) (*connect.Response[mealplanv1.GetTodaysMealsResponse], error) {
	return reply[mealplanv1.GetTodaysMealsResponse](f.recorder, "GetTodaysMeals", req.Msg)
}

func (f fakeMealPlanService) AddMealPlanEntry(_ context.Context, req *connect.Request[mealplanv1.AddMealPlanEntryRequest]) (*connect.Response[mealplanv1.AddMealPlanEntryResponse], error) {
	return reply[mealplanv1.AddMealPlanEntryResponse](f.recorder, "AddMealPlanEntry", req.Msg)
}

func (f fakeMealPlanService) DeleteMealPlanEntry(_ context.Context, req *connect.Request[mealplanv1.DeleteMealPlanEntryRequest]) (*connect.Response[mealplanv1.DeleteMealPlanEntryResponse], error) {
	return reply[mealplanv1.DeleteMealPlanEntryResponse](f.recorder, "DeleteMealPlanEntry", req.Msg)
}

func (f fakeMealPlanService) RandomMealPlan(_ context.Context, req *connect.Request[mealplanv1.RandomMealPlanRequest]) (*connect.Response[mealplanv1.RandomMealPlanResponse], error) {
	return reply[mealplanv1.RandomMealPlanResponse](f.recorder, "RandomMealPlan", req.Msg)
}

func (f fakeMealPlanService) GetShoppingList(_ context.Context, req *connect.Request[mealplanv1.GetShoppingListRequest]) (*connect.Response[mealplanv1.GetShoppingListResponse], error) {
	return reply[mealplanv1.GetShoppingListResponse](f.recorder, "GetShoppingList", req.Msg)
}

func (f fakeMealPlanService) AddToShoppingList(_ context.Context, req *connect.Request[mealplanv1.AddToShoppingListRequest]) (*connect.Response[mealplanv1.AddToShoppingListResponse], error) {
	return reply[mealplanv1.AddToShoppingListResponse](f.recorder, "AddToShoppingList", req.Msg)
}

func (f fakeMealPlanService) UpdateShoppingItems(_ context.Context, req *connect.Request[mealplanv1.UpdateShoppingItemsRequest]) (*connect.Response[mealplanv1.UpdateShoppingItemsResponse], error) {
	return reply[mealplanv1.UpdateShoppingItemsResponse](f.recorder, "UpdateShoppingItems", req.Msg)
}

func (f fakeMealPlanService) CreateShoppingList(_ context.Context, req *connect.Request[mealplanv1.CreateShoppingListRequest]) (*connect.Response[mealplanv1.CreateShoppingListResponse], error) {
	return reply[mealplanv1.CreateShoppingListResponse](f.recorder, "CreateShoppingList", req.Msg)
}

func (f fakeMealPlanService) RenameShoppingList(_ context.Context, req *connect.Request[mealplanv1.RenameShoppingListRequest]) (*connect.Response[mealplanv1.RenameShoppingListResponse], error) {
	return reply[mealplanv1.RenameShoppingListResponse](f.recorder, "RenameShoppingList", req.Msg)
}

func (f fakeMealPlanService) DeleteShoppingList(_ context.Context, req *connect.Request[mealplanv1.DeleteShoppingListRequest]) (*connect.Response[mealplanv1.DeleteShoppingListResponse], error) {
	return reply[mealplanv1.DeleteShoppingListResponse](f.recorder, "DeleteShoppingList", req.Msg)
}

type fakeLibraryService struct{ *recorder }

func (f fakeLibraryService) GetStatus(_ context.Context, req *connect.Request[libraryv1.GetStatusRequest]) (*connect.Response[libraryv1.GetStatusResponse], error) {
	return reply[libraryv1.GetStatusResponse](f.recorder, "GetStatus", req.Msg)
}

func (f fakeLibraryService) ListCookbooks(_ context.Context, req *connect.Request[libraryv1.ListCookbooksRequest]) (*connect.Response[libraryv1.ListCookbooksResponse], error) {
	return reply[libraryv1.ListCookbooksResponse](f.recorder, "ListCookbooks", req.Msg)
}

func (f fakeLibraryService) GetCookbookRecipes(_ context.Context, req *connect.Request[libraryv1.GetCookbookRecipesRequest]) (*connect.Response[libraryv1.GetCookbookRecipesResponse], error) {
	return reply[libraryv1.GetCookbookRecipesResponse](f.recorder, "GetCookbookRecipes", req.Msg)
}

func (f fakeLibraryService) CreateCookbook(_ context.Context, req *connect.Request[libraryv1.CreateCookbookRequest]) (*connect.Response[libraryv1.CreateCookbookResponse], error) {
	return reply[libraryv1.CreateCookbookResponse](f.recorder, "CreateCookbook", req.Msg)
}

func (f fakeLibraryService) UpdateCookbook(_ context.Context, req *connect.Request[libraryv1.UpdateCookbookRequest]) (*connect.Response[libraryv1.UpdateCookbookResponse], error) {
	return reply[libraryv1.UpdateCookbookResponse](f.recorder, "UpdateCookbook", req.Msg)
}

func (f fakeLibraryService) DeleteCookbook(_ context.Context, req *connect.Request[libraryv1.DeleteCookbookRequest]) (*connect.Response[libraryv1.DeleteCookbookResponse], error) {
	return reply[libraryv1.DeleteCookbookResponse](f.recorder, "DeleteCookbook", req.Msg)
}

func (f fakeLibraryService) LibraryStats(_ context.Context, req *connect.Request[libraryv1.LibraryStatsRequest], stream *connect.ServerStream[libraryv1.LibraryStatsResponse]) error {
	return send(f.recorder, "LibraryStats", req.Msg, stream)
}

func (f fakeLibraryService) FindDuplicateRecipes(_ context.Context, req *connect.Request[libraryv1.FindDuplicateRecipesRequest], stream *connect.ServerStream[libraryv1.FindDuplicateRecipesResponse]) error {
	return send(f.recorder, "FindDuplicateRecipes", req.Msg, stream)
}

func (f fakeLibraryService) CheckRecipeLinks(_ context.Context, req *connect.Request[libraryv1.CheckRecipeLinksRequest], stream *connect.ServerStream[libraryv1.CheckRecipeLinksResponse]) error {
	return send(f.recorder, "CheckRecipeLinks", req.Msg, stream)
}

type fakePantryService struct{ *recorder }

func (f fakePantryService) GetStatus(_ context.Context, req *connect.Request[pantryv1.GetStatusRequest]) (*connect.Response[pantryv1.GetStatusResponse], error) {
	return reply[pantryv1.GetStatusResponse](f.recorder, "GetStatus", req.Msg)
}

func (f fakePantryService) GetPantry(_ context.Context, req *connect.Request[pantryv1.GetPantryRequest]) (*connect.Response[pantryv1.GetPantryResponse], error) {
	return reply[pantryv1.GetPantryResponse](f.recorder, "GetPantry", req.Msg)
}

func (f fakePantryService) SetItemState(_ context.Context, req *connect.Request[pantryv1.SetItemStateRequest]) (*connect.Response[pantryv1.SetItemStateResponse], error) {
	return reply[pantryv1.SetItemStateResponse](f.recorder, "SetItemState", req.Msg)
}

func (f fakePantryService) AddToPantry(_ context.Context, req *connect.Request[pantryv1.AddToPantryRequest]) (*connect.Response[pantryv1.AddToPantryResponse], error) {
	return reply[pantryv1.AddToPantryResponse](f.recorder, "AddToPantry", req.Msg)
}

func (f fakePantryService) WhatCanICook(_ context.Context, req *connect.Request[pantryv1.WhatCanICookRequest]) (*connect.Response[pantryv1.WhatCanICookResponse], error) {
	return reply[pantryv1.WhatCanICookResponse](f.recorder, "WhatCanICook", req.Msg)
}

func (f fakePantryService) GetMetaRecipes(_ context.Context, req *connect.Request[pantryv1.GetMetaRecipesRequest]) (*connect.Response[pantryv1.GetMetaRecipesResponse], error) {
	return reply[pantryv1.GetMetaRecipesResponse](f.recorder, "GetMetaRecipes", req.Msg)
}

func (f fakePantryService) LogCook(_ context.Context, req *connect.Request[pantryv1.LogCookRequest]) (*connect.Response[pantryv1.LogCookResponse], error) {
	return reply[pantryv1.LogCookResponse](f.recorder, "LogCook", req.Msg)
}

func (f fakePantryService) CreateMetaRecipe(_ context.Context, req *connect.Request[pantryv1.CreateMetaRecipeRequest]) (*connect.Response[pantryv1.CreateMetaRecipeResponse], error) {
	return reply[pantryv1.CreateMetaRecipeResponse](f.recorder, "CreateMetaRecipe", req.Msg)
}
