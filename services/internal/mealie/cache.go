package mealie

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// MaxCachedDetails bounds the slug -> full recipe cache. Past it the cache
// is dropped whole rather than evicted entry by entry: it
// exists for whole-library sweeps, so it holds one sweep: the sweep cap.
const MaxCachedDetails = MaxLibraryRecipes

// RecipeRef is a recipe's id and name, as ResolveRecipe reads them.
type RecipeRef struct {
	ID   string
	Name string
}

// caches are the client's process-lifetime caches. sous runs for weeks
// beside people editing Mealie in its own app, so no cache may hide such a
// change from the next call that needs it:
//
//   - taxonomy snapshots (foods, units, tags, categories, tools) are checked
//     against the list's fingerprint, one request (listPrint), before each
//     use, and paged again when it moved;
//   - recipe details serve sweeps only, checked against the updatedAt of
//     the list page the sweep reads anyway (RecipeDetailAt), and dropped
//     whole on every write and whenever a taxonomy fingerprint moved (a
//     food renamed in the app renames it inside every recipe);
//   - slugs are not cached: ResolveRecipe reads the recipe, since a slug
//     deleted and created again in the app names another recipe.
//
// Concurrent identical misses collapse into one Mealie request through
// flight. gen counts detail-cache clears, so a read that started before a
// write cannot store what the write made stale.
type caches struct {
	mu       sync.Mutex
	taxonomy map[Resource]snapshot
	details  map[string]*Recipe
	gen      uint64
	flight   singleflight.Group
	// flights counts callers waiting on each flight key (for tests).
	flights map[string]int
	// orderColumn remembers, per list path, which updateColumns entry
	// Mealie accepted (len(updateColumns) when none).
	orderColumn map[string]int
	// detailPrints are the taxonomy fingerprints the cached details were
	// read under (CheckDetails).
	detailPrints map[Resource]string
}

// snapshot is a whole taxonomy collection and the fingerprint of the list
// it was read under.
type snapshot struct {
	items []TaxonomyItem
	print string
}

func newCaches() *caches {
	return &caches{taxonomy: map[Resource]snapshot{}, details: map[string]*Recipe{}, flights: map[string]int{}, orderColumn: map[string]int{}}
}

// clearDetails empties the detail cache; every write calls it (send),
// before and after, a rename and a delete included. It drops every recipe,
// not just the one written: a recipe carries others (a line's
// referencedRecipe on 3.5 and later) and shared foods and tags, so one
// write can change what another recipe reads.
func (c *caches) clearDetails() {
	c.mu.Lock()
	c.details = map[string]*Recipe{}
	c.gen++
	c.mu.Unlock()
}

// ForgetTaxonomy drops the snapshot of one collection.
func (c *Client) ForgetTaxonomy(r Resource) {
	c.cache.mu.Lock()
	delete(c.cache.taxonomy, r)
	c.cache.mu.Unlock()
}

// ResolveRecipe reads a slug's id and name (one request). It is not cached:
// a recipe renamed, deleted or made again in Mealie's app must never be
// answered with the id the slug had before.
func (c *Client) ResolveRecipe(ctx context.Context, slug string) (RecipeRef, error) {
	v, err, _ := c.cache.do("id:"+slug, func() (any, error) {
		r, _, err := c.GetRecipe(ctx, slug)
		if err != nil {
			return RecipeRef{}, err
		}
		return RecipeRef{ID: r.ID, Name: r.Name}, nil
	})
	if err != nil {
		return RecipeRef{}, err
	}
	return v.(RecipeRef), nil
}

// Taxonomy returns the full snapshot of a collection. Each call first reads
// the list's fingerprint (one request, see listPrint); the snapshot is
// paged again only when it moved, so an item added, renamed or deleted in
// Mealie's app is seen at once. Callers must not modify the slice.
func (c *Client) Taxonomy(ctx context.Context, r Resource) ([]TaxonomyItem, error) {
	v, err, _ := c.cache.do("tax:"+string(r), func() (any, error) {
		print, err := c.listPrint(ctx, r.Path(), string(r)+" list")
		if err != nil {
			return nil, err
		}
		c.cache.mu.Lock()
		snap, ok := c.cache.taxonomy[r]
		c.cache.mu.Unlock()
		if ok && print != "" && snap.print == print {
			return snap.items, nil
		}
		if ok {
			// Renamed or merged in Mealie's app: cached recipes carry the
			// old names.
			c.cache.clearDetails()
		}
		items, err := c.AllTaxonomy(ctx, r)
		if err != nil {
			return nil, err
		}
		c.cache.mu.Lock()
		if print != "" {
			c.cache.taxonomy[r] = snapshot{items: items, print: print}
		} else {
			delete(c.cache.taxonomy, r)
		}
		c.cache.mu.Unlock()
		return items, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]TaxonomyItem), nil
}

// AddTaxonomy appends a just-created item to a cached snapshot, so a
// lookup of its name before the next fingerprint check finds it.
func (c *Client) AddTaxonomy(r Resource, it TaxonomyItem) {
	c.cache.mu.Lock()
	if snap, ok := c.cache.taxonomy[r]; ok {
		snap.items = append(snap.items[:len(snap.items):len(snap.items)], it)
		c.cache.taxonomy[r] = snap
	}
	c.cache.mu.Unlock()
}

// detailNames are the collections whose names a recipe detail carries.
var detailNames = []Resource{Foods, Units, Tags, Categories, Tools}

// CheckDetails drops the cached recipe details when a food, unit, tag,
// category or tool was added, renamed or deleted since they were read (in
// Mealie's app too): a rename does not touch the recipes' updatedAt, yet
// changes the names inside them. It costs one request per collection
// (listPrint); a sweep calls it once before reading details.
func (c *Client) CheckDetails(ctx context.Context) error {
	prints := make(map[Resource]string, len(detailNames))
	for _, r := range detailNames {
		p, err := c.listPrint(ctx, r.Path(), string(r)+" list")
		if err != nil {
			return err
		}
		prints[r] = p
	}
	c.cache.mu.Lock()
	stale := false
	for r, p := range prints {
		if p == "" || c.cache.detailPrints[r] != p {
			stale = true
		}
	}
	c.cache.detailPrints = prints
	c.cache.mu.Unlock()
	if stale {
		c.cache.clearDetails()
	}
	return nil
}

// updateColumns are the names Mealie's lists may accept for "last
// updated", tried in order: update_at is the column of Mealie's base model
// (accepted by foods, units, tags, categories and tools on 2.0, 2.8 and
// 3.11), updated_at what the emulator's taxonomy lists take. The first one a
// path accepts is remembered.
var updateColumns = []string{"update_at", "updated_at"}

// listPrint fingerprints a list with one request: its total and its most
// recently updated row (?perPage=1&orderBy=update_at&orderDirection=desc).
// Adding a row changes both, deleting one the total, and editing one makes
// it the newest row (seen on 2.0, 2.8 and 3.11: renaming an older food
// puts it first). "" when Mealie accepts no update ordering on the path:
// then nothing read from it is cached.
func (c *Client) listPrint(ctx context.Context, path, resource string) (string, error) {
	c.cache.mu.Lock()
	start := c.cache.orderColumn[path]
	c.cache.mu.Unlock()
	for i := start; i < len(updateColumns); i++ {
		var p Page[json.RawMessage]
		q := url.Values{"page": {"1"}, "perPage": {"1"}, "orderBy": {updateColumns[i]}, "orderDirection": {"desc"}}
		err := c.Do(ctx, Request{Method: http.MethodGet, Path: path, Query: q, Resource: resource}, &p)
		if err == nil {
			c.cache.mu.Lock()
			c.cache.orderColumn[path] = i
			c.cache.mu.Unlock()
			h := sha256.New()
			fmt.Fprintf(h, "%d\n", p.Total)
			for _, it := range p.Items {
				h.Write(it)
			}
			return hex.EncodeToString(h.Sum(nil)), nil
		}
		if st := StatusOf(err); st != http.StatusBadRequest && st != http.StatusUnprocessableEntity {
			return "", err
		}
	}
	c.cache.mu.Lock()
	c.cache.orderColumn[path] = len(updateColumns)
	c.cache.mu.Unlock()
	return "", nil
}

// RecipeDetail reads a full recipe (one request) and leaves it in the
// detail cache for sweeps. Callers must not modify the recipe.
func (c *Client) RecipeDetail(ctx context.Context, slug string) (*Recipe, error) {
	return c.RecipeDetailAt(ctx, slug, "")
}

// RecipeDetailAt returns a full recipe from the detail cache when it was
// cached with the same updatedAt as the list row the caller just read
// (Mealie bumps it on every write to the recipe, from its app too), and
// reads it otherwise. An empty updated always reads. Callers must not
// modify the recipe.
func (c *Client) RecipeDetailAt(ctx context.Context, slug, updated string) (*Recipe, error) {
	c.cache.mu.Lock()
	r, ok := c.cache.details[slug]
	gen := c.cache.gen
	c.cache.mu.Unlock()
	if ok && updated != "" && r.UpdatedAt != nil && sameInstant(*r.UpdatedAt, updated) {
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
			// The cache serves sweeps, which never rename: it keeps the
			// typed recipe without the body GetRecipe also holds.
			kept := *r
			kept.body = nil
			c.cache.details[slug] = &kept
		}
		c.cache.mu.Unlock()
		return r, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Recipe), nil
}

// sameInstant compares two of Mealie's timestamps. The list writes
// updatedAt with "+00:00" and the recipe itself with "Z" (seen on 2.0:
// "2026-12-01T14:40:25.271490+00:00" and "…25.271490Z" for one recipe).
func sameInstant(a, b string) bool {
	ta, errA := time.Parse(time.RFC3339Nano, a)
	tb, errB := time.Parse(time.RFC3339Nano, b)
	if errA != nil || errB != nil {
		return a == b
	}
	return ta.Equal(tb)
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
