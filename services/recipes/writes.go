package recipes

import (
	"context"

	"connectrpc.com/connect"
)

// recipeKey is the key of Service.writes for a recipe, by the slug a call
// names it with: an update reads the recipe (its tags, its lines, its
// last-made day) and writes what it read with its change, so two such
// writes to one recipe go one at a time or the second undoes the first.
func recipeKey(slug string) string { return "recipe:" + slug }

// lockRecipes takes the keys of the recipes named, for a write that reads
// them first, and returns the function that frees them. Reads take none.
func (s *Service) lockRecipes(ctx context.Context, slugs ...string) (func(), error) {
	keys := make([]string, len(slugs))
	for i, sl := range slugs {
		keys[i] = recipeKey(sl)
	}
	unlock, err := s.writes.LockAll(ctx, keys...)
	if err != nil {
		return nil, connect.NewError(connect.CodeCanceled, err)
	}
	return unlock, nil
}
