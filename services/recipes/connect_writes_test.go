package recipes_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/mealieemu"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
)

// Several cooks tagging one recipe at once, each through update_recipe,
// which reads the recipe's tags and writes them back with its own: the
// updates of one recipe go one at a time, so every tag is there at the
// end, read back from Mealie.
func TestConcurrentUpdatesKeepEveryTag(t *testing.T) {
	each(t, func(t *testing.T, v string) {
		// A little latency on every answer widens the window between a
		// read and its write, as a real Mealie over a network has.
		s := newStack(t, v, mealieemu.WithLatency(3*time.Millisecond))
		c := ctx(t)
		before, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "pancakes"}))
		if err != nil {
			t.Fatal(err)
		}
		const cooks = 6
		var wg sync.WaitGroup
		for i := range cooks {
			wg.Go(func() {
				if _, err := s.client.UpdateRecipe(c, connect.NewRequest(&recipesv1.UpdateRecipeRequest{Slug: "pancakes", Tags: []string{fmt.Sprintf("Cook %d", i)}})); err != nil {
					t.Errorf("cook %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		after, err := s.client.GetRecipe(c, connect.NewRequest(&recipesv1.GetRecipeRequest{Slug: "pancakes"}))
		if err != nil {
			t.Fatal(err)
		}
		for _, tag := range before.Msg.Recipe.Tags {
			if !slices.Contains(after.Msg.Recipe.Tags, tag) {
				t.Errorf("tag %q was lost", tag)
			}
		}
		for i := range cooks {
			if tag := fmt.Sprintf("Cook %d", i); !slices.Contains(after.Msg.Recipe.Tags, tag) {
				t.Errorf("tag %q was lost: %q", tag, after.Msg.Recipe.Tags)
			}
		}
	})
}
