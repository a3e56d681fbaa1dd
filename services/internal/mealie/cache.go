package mealie

import (
	"context"
	"sync"

	"golang.org/x/sync/singleflight"
)

// MaxCachedDetails bounds the slug -> full recipe cache. Past it the cache
// is dropped whole rather than evicted entry by entry (seed, "Caches"): it
// exists for whole-library sweeps, and 2000 is the sweep cap.
const MaxCachedDetails = 2000

// RecipeRef is what the slug -> id cache keeps.
type RecipeRef struct {
	ID   string
	Name string
}

// caches are the client's three process-lifetime caches (seed, "Caches").
// Concurrent identical misses collapse into one Mealie request through
// flight. gen counts detail-cache clears, so a read that started before a
// write cannot store what the write made stale.
type caches struct {
	mu       sync.Mutex
	ids      map[string]RecipeRef
	taxonomy map[Resource][]TaxonomyItem
	details  map[string]*Recipe
	gen      uint64
	flight   singleflight.Group
	// flights counts callers waiting on each flight key (for tests).
	flights map[string]int
}

func newCaches() *caches {
	return &caches{ids: map[string]RecipeRef{}, taxonomy: map[Resource][]TaxonomyItem{}, details: map[string]*Recipe{}, flights: map[string]int{}}
}

// clearDetails empties the detail cache; every write calls it.
func (c *caches) clearDetails() {
	c.mu.Lock()
	c.details = map[string]*Recipe{}
	c.gen++
	c.mu.Unlock()
}

// ForgetRecipe drops everything cached about a slug (after a rename or a
// delete) and the detail cache.
func (c *Client) ForgetRecipe(slug string) {
	c.cache.mu.Lock()
	delete(c.cache.ids, slug)
	c.cache.mu.Unlock()
	c.cache.clearDetails()
}

// ForgetTaxonomy drops the snapshot of one collection.
func (c *Client) ForgetTaxonomy(r Resource) {
	c.cache.mu.Lock()
	delete(c.cache.taxonomy, r)
	c.cache.mu.Unlock()
}

// RememberRecipe records a slug's id and name (after a create or a rename).
func (c *Client) RememberRecipe(slug string, ref RecipeRef) {
	c.cache.mu.Lock()
	c.cache.ids[slug] = ref
	c.cache.mu.Unlock()
}

// ResolveRecipe returns a slug's id and name from the cache, reading the
// recipe on a miss.
func (c *Client) ResolveRecipe(ctx context.Context, slug string) (RecipeRef, error) {
	c.cache.mu.Lock()
	ref, ok := c.cache.ids[slug]
	c.cache.mu.Unlock()
	if ok {
		return ref, nil
	}
	v, err, _ := c.cache.do("id:"+slug, func() (any, error) {
		r, err := c.RecipeDetail(ctx, slug)
		if err != nil {
			return RecipeRef{}, err
		}
		return RecipeRef{ID: r.ID, Name: r.Name}, nil
	})
	if err != nil {
		return RecipeRef{}, err
	}
	ref = v.(RecipeRef)
	c.RememberRecipe(slug, ref)
	return ref, nil
}

// Taxonomy returns the full snapshot of a collection, paging it on a miss.
// Callers must not modify the slice.
func (c *Client) Taxonomy(ctx context.Context, r Resource) ([]TaxonomyItem, error) {
	c.cache.mu.Lock()
	items, ok := c.cache.taxonomy[r]
	c.cache.mu.Unlock()
	if ok {
		return items, nil
	}
	v, err, _ := c.cache.do("tax:"+string(r), func() (any, error) {
		items, err := c.AllTaxonomy(ctx, r)
		if err != nil {
			return nil, err
		}
		c.cache.mu.Lock()
		c.cache.taxonomy[r] = items
		c.cache.mu.Unlock()
		return items, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]TaxonomyItem), nil
}

// AddTaxonomy appends a just-created item to a cached snapshot, so the next
// lookup of its name finds it without a new sweep.
func (c *Client) AddTaxonomy(r Resource, it TaxonomyItem) {
	c.cache.mu.Lock()
	if items, ok := c.cache.taxonomy[r]; ok {
		c.cache.taxonomy[r] = append(items[:len(items):len(items)], it)
	}
	c.cache.mu.Unlock()
}

// RecipeDetail returns a full recipe from the detail cache, reading it on
// a miss. Callers must not modify the recipe.
func (c *Client) RecipeDetail(ctx context.Context, slug string) (*Recipe, error) {
	c.cache.mu.Lock()
	r, ok := c.cache.details[slug]
	gen := c.cache.gen
	c.cache.mu.Unlock()
	if ok {
		return r, nil
	}
	v, err, _ := c.cache.do("detail:"+slug, func() (any, error) {
		r, _, err := c.GetRecipe(ctx, slug)
		if err != nil {
			return nil, err
		}
		c.cache.mu.Lock()
		if c.cache.gen == gen {
			if len(c.cache.details) >= MaxCachedDetails {
				c.cache.details = map[string]*Recipe{}
			}
			c.cache.details[slug] = r
		}
		c.cache.ids[slug] = RecipeRef{ID: r.ID, Name: r.Name}
		c.cache.mu.Unlock()
		return r, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Recipe), nil
}

// do runs fn once for concurrent callers of the same key.
func (c *caches) do(key string, fn func() (any, error)) (any, error, bool) {
	c.mu.Lock()
	c.flights[key]++
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.flights[key]--
		c.mu.Unlock()
	}()
	return c.flight.Do(key, fn)
}
