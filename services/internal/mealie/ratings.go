package mealie

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
)

// SetUserRating sends POST /api/users/{id}/ratings/{slug} {rating}: the
// user's own rating of a recipe. Mealie keeps ratings per user and stores
// the recipe's rating as their average; a rating written on the recipe
// itself is replaced by that average, null when nobody rated it (seen on
// 2.0 and 2.8: PATCH {rating: 4} reads back null; routes/users/ratings.py
// and calculate_rating in db/models/recipe/recipe.py, 2.0 to 3.11).
func (c *Client) SetUserRating(ctx context.Context, userID, slug string, rating float64) error {
	_, err := c.Raw(ctx, Request{
		Method:   http.MethodPost,
		Path:     "/api/users/" + url.PathEscape(userID) + "/ratings/" + url.PathEscape(slug),
		Body:     map[string]float64{"rating": rating},
		Resource: recipeResource(slug),
		Subject:  fmt.Sprintf("the rating of recipe '%s'", slug),
	})
	return err
}

// RecipeImageStamp reads the image Mealie serves for a recipe (GET
// /api/media/recipes/{id}/images/original.webp) and returns a digest of it,
// or "" when Mealie serves none (404). POST /api/recipes/{slug}/image
// answers 200 and changes the recipe's image key whether or not the page
// could be fetched (TestRecipeImageFromUnreachableURL in integration/contract), so only the
// served image tells whether the fetch stored anything.
func (c *Client) RecipeImageStamp(ctx context.Context, recipeID string) (string, error) {
	body, err := c.Raw(ctx, Request{Method: http.MethodGet, Path: "/api/media/recipes/" + url.PathEscape(recipeID) + "/images/original.webp", Resource: "the recipe's image"})
	if err != nil {
		if StatusOf(err) == http.StatusNotFound {
			return "", nil
		}
		return "", err
	}
	if len(body) == 0 {
		return "", nil
	}
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:]), nil
}
