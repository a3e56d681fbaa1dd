package mcpfront

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/souskitchen/sous/proto/limits"
)

// maxImageBytes caps an uploaded image: the recipes service refuses more
// (UploadRecipeImageRequest.image), so reading further is waste.
const maxImageBytes = limits.ImageBytes

// imageTypes maps the extensions upload_recipe_image accepts (docs/tools.md)
// to the content type the file's bytes must sniff as.
var imageTypes = map[string]string{
	"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif",
}

// imagePathChars caps upload_recipe_image's path. It is the front's own
// bound, not the API's (proto/limits): the path names a file on the front's
// host, and only the bytes read from it reach the recipes service, which
// bounds them with limits.ImageBytes. A thousand characters is deeper than
// any image directory a person keeps.
const imagePathChars = 1000

// readImage reads an image file from inside dir, where name is relative to
// dir or absolute inside it. It goes through os.Root, so neither ".." nor a
// symlink reaches outside dir (docs/design.md, "Safety lines"), and it refuses a
// file whose extension or content is not an accepted image. It returns the
// bytes and the extension without its dot, lower-cased.
func readImage(dir, name string) ([]byte, string, error) {
	if dir == "" {
		return nil, "", errors.New("image uploads are off: set SOUS_IMAGE_DIR to the directory sous may read images from")
	}
	rel := name
	if filepath.IsAbs(name) {
		r, err := filepath.Rel(dir, name)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return nil, "", fmt.Errorf("%s is outside the image directory", name)
		}
		rel = r
	}
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(rel), "."))
	want, ok := imageTypes[ext]
	if !ok {
		return nil, "", fmt.Errorf("%s is not an image file: use .jpg, .jpeg, .png, .webp or .gif", name)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("the image directory cannot be opened: %v", err)
	}
	defer root.Close()
	// Stat before opening: opening a FIFO for reading blocks until a
	// writer comes, which would hang the call (and pin an OS thread) for
	// good; a device may do worse. O_NONBLOCK covers a file swapped for a
	// FIFO between the two steps (the open returns at once, and the Stat
	// of the open file below refuses it); reads of a regular file ignore it.
	st, err := root.Stat(rel)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, "", fmt.Errorf("no file %s in the image directory", rel)
		}
		return nil, "", fmt.Errorf("%s cannot be read from the image directory", rel)
	}
	if !st.Mode().IsRegular() {
		return nil, "", fmt.Errorf("%s is not a regular file", rel)
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, "", fmt.Errorf("no file %s in the image directory", rel)
		}
		return nil, "", fmt.Errorf("%s cannot be read from the image directory", rel)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, "", fmt.Errorf("%s is not a regular file", rel)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImageBytes+1))
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %v", rel, err)
	}
	if len(data) > maxImageBytes {
		return nil, "", fmt.Errorf("%s is larger than 10 MiB", rel)
	}
	if got := http.DetectContentType(data); got != want {
		return nil, "", fmt.Errorf("%s does not hold a %s image (its content looks like %s)", rel, ext, got)
	}
	return data, ext, nil
}
