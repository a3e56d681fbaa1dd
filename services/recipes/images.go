package recipes

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"connectrpc.com/connect"

	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// SetRecipeImageFromURL asks Mealie to fetch an image and says it is set
// only when Mealie then serves a new one. Mealie answers 200 and changes
// the recipe's image key even when it fetched nothing
// (TestRecipeImageFromUnreachableURL in integration/contract), so the image Mealie serves is
// read before and after (mealie.Client.RecipeImageStamp): none, or the same
// as before, means the page could not be fetched.
func (s *Service) SetRecipeImageFromURL(ctx context.Context, req *connect.Request[recipesv1.SetRecipeImageFromURLRequest]) (*connect.Response[recipesv1.SetRecipeImageFromURLResponse], error) {
	slug, err := checkSlug("slug", req.Msg.GetSlug())
	if err != nil {
		return nil, err
	}
	u, err := httpURL("url", req.Msg.GetUrl())
	if err != nil {
		return nil, err
	}
	ref, err := s.mealie.ResolveRecipe(ctx, slug)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	before, err := s.mealie.RecipeImageStamp(ctx, ref.ID)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if err := s.mealie.SetRecipeImageURL(ctx, slug, u); err != nil {
		return nil, mealie.ConnectError(err)
	}
	after, err := s.mealie.RecipeImageStamp(ctx, ref.ID)
	if err != nil {
		return nil, connect.NewError(mealie.ConnectCode(err), fmt.Errorf("Mealie was asked to fetch the image of recipe '%s' but reading the image back failed, so whether it is set is unknown: %s", slug, errMessage(err)))
	}
	switch {
	case after == "":
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf(
			"Mealie could not fetch an image from %s, so recipe '%s' has no image: give a direct link to a JPEG, PNG or WebP file that Mealie's server can reach, or upload the image itself", u, slug))
	case after == before:
		return nil, connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf(
			"Mealie could not fetch a new image from %s (or it is the image recipe '%s' already has), so the recipe keeps its image: give a direct link to a JPEG, PNG or WebP file that Mealie's server can reach, or upload the image itself", u, slug))
	}
	return connect.NewResponse(&recipesv1.SetRecipeImageFromURLResponse{Slug: slug}), nil
}

// imageTypes maps accepted extensions to the content type the bytes must
// sniff as: the formats Mealie stores and serves (.jpg .jpeg .png .webp
// .gif). Non-image bytes
// are a 500 from Mealie, so they
// are refused here.
var imageTypes = map[string]string{"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif"}

// UploadRecipeImage uploads image bytes.
func (s *Service) UploadRecipeImage(ctx context.Context, req *connect.Request[recipesv1.UploadRecipeImageRequest]) (*connect.Response[recipesv1.UploadRecipeImageResponse], error) {
	slug, err := checkSlug("slug", req.Msg.GetSlug())
	if err != nil {
		return nil, err
	}
	ext := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(req.Msg.GetExtension()), "."))
	want, ok := imageTypes[ext]
	if !ok {
		return nil, invalid("extension must be one of jpg, jpeg, png, webp, gif; got %q", req.Msg.GetExtension())
	}
	img := req.Msg.GetImage()
	if len(img) == 0 {
		return nil, invalid("image is empty")
	}
	if len(img) > MaxImageBytes {
		return nil, invalid("image is %d bytes; at most %d", len(img), MaxImageBytes)
	}
	if got := http.DetectContentType(img); got != want {
		return nil, invalid("image bytes are %s, not the %s its extension %q says", got, want, ext)
	}
	if err := s.mealie.UploadRecipeImage(ctx, slug, img, ext); err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&recipesv1.UploadRecipeImageResponse{Slug: slug}), nil
}
