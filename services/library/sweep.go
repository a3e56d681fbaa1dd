package library

import (
	"context"
	"fmt"

	"connectrpc.com/connect"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
)

// Report bounds (docs/tools.md, "library_stats" and the other reports).
const (
	// MaxScanRecipes caps every report's max_recipes: the recipes
	// service's detail cache holds
	// 2000 recipes, and a larger sweep would evict what it just read.
	MaxScanRecipes = limits.ScanRecipes
	// progressEvery is how often a report forwards progress, in recipes:
	// often enough for a progress bar to move, rare enough that 2000
	// recipes are 40 messages rather than 2000.
	progressEvery = 50
)

// progressFunc sends one progress message to the report's caller.
type progressFunc func(*libraryv1.ReportProgress) error

// sweepStats is what a sweep saw besides the recipes.
type sweepStats struct {
	// total is the number of recipes the sweep read (at most max).
	total int32
	// libraryTotal is the number of recipes in the library.
	libraryTotal int32
	// scanned counts recipes read; an unreadable recipe is not scanned
	// (it is in failures), so no report claims to know what it holds.
	scanned int32
	// processed counts recipes the sweep reached, read or not: the
	// progress and the max_recipes cap are about these.
	processed int32
	// failures are recipes the recipes service could not read.
	failures []*libraryv1.UnreadableRecipe
}

// truncatedNote is the line a capped scan ends with, saying how to see
// the rest, or "".
func (st *sweepStats) truncatedNote() string {
	if st.libraryTotal > st.processed {
		return fmt.Sprintf("scanned %d of %d — raise max_recipes", st.processed, st.libraryTotal)
	}
	return ""
}

// sweep reads up to max recipes through the recipes service's SweepRecipes
// stream, calling each for every recipe and forwarding progress. When ctx
// ends (the caller cancelled) the stream is closed, which cancels the
// recipes service's handler and its outstanding Mealie requests.
func (s *Service) sweep(ctx context.Context, max int32, view recipesv1.RecipeView, what string, progress progressFunc, each func(*recipesv1.Recipe)) (*sweepStats, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := s.recipes.SweepRecipes(ctx, connect.NewRequest(&recipesv1.SweepRecipesRequest{MaxRecipes: max, View: view}))
	if err != nil {
		return nil, err
	}
	defer stream.Close()
	st := &sweepStats{}
	lastSent := int32(-1)
	send := func(force bool) error {
		if !force && st.processed-lastSent < progressEvery {
			return nil
		}
		lastSent = st.processed
		return progress(&libraryv1.ReportProgress{Scanned: st.processed, Total: st.total, Message: what})
	}
	for stream.Receive() {
		switch it := stream.Msg().GetItem().(type) {
		case *recipesv1.SweepRecipesResponse_Progress:
			st.total = it.Progress.GetTotal()
			st.libraryTotal = it.Progress.GetLibraryTotal()
			if err := send(lastSent < 0); err != nil {
				return nil, err
			}
		case *recipesv1.SweepRecipesResponse_Recipe:
			st.scanned++
			st.processed++
			each(it.Recipe)
			if err := send(false); err != nil {
				return nil, err
			}
		case *recipesv1.SweepRecipesResponse_Failure:
			st.processed++
			st.failures = append(st.failures, &libraryv1.UnreadableRecipe{Slug: it.Failure.GetSlug(), Reason: it.Failure.GetMessage()})
		}
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, connect.NewError(connect.CodeCanceled, err)
	}
	if st.total < st.processed {
		st.total = st.processed
	}
	if st.libraryTotal < st.total {
		st.libraryTotal = st.total
	}
	if err := send(true); err != nil {
		return nil, err
	}
	return st, nil
}

// scanLimit validates a report's max_recipes; 0 means def.
func scanLimit(n, def int32) (int32, error) {
	if n == 0 {
		return def, nil
	}
	if n < 1 || n > MaxScanRecipes {
		return 0, invalid("max_recipes must be between 1 and %d, got %d", MaxScanRecipes, n)
	}
	return n, nil
}
