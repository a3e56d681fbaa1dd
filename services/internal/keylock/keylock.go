// Package keylock serializes writes per thing written: a shopping list, a
// recipe, a meal-plan day. Mealie has no conditional write (no ETag, no
// If-Match, no increment), so a write that reads before it writes loses
// whatever another write changed in between; a service takes the key of
// the thing before its read and releases it after its last write, and two
// writes to different things never wait for each other. Reads take no key.
//
// Each key holds a golang.org/x/sync/semaphore of weight one, so a waiter
// gives up with its request's context; a key no one holds or waits for is
// forgotten, so the set stays as small as the writes in flight. It may
// import only the standard library and golang.org/x/sync.
package keylock

import (
	"context"
	"slices"
	"sync"

	"golang.org/x/sync/semaphore"
)

// Set is a set of locks by key. The zero value is ready to use; a Set must
// not be copied after first use.
type Set struct {
	mu   sync.Mutex
	keys map[string]*entry
}

// entry is one key's lock and how many callers hold or wait for it.
type entry struct {
	sem  *semaphore.Weighted
	refs int
}

// Lock waits until key is free and takes it. It returns the function that
// frees it (call it exactly once), or ctx's error when ctx ends first, in
// which case nothing is held.
func (s *Set) Lock(ctx context.Context, key string) (unlock func(), err error) {
	e := s.acquire(key)
	if err := e.sem.Acquire(ctx, 1); err != nil {
		s.release(key, e)
		return nil, err
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			e.sem.Release(1)
			s.release(key, e)
		})
	}, nil
}

// LockAll takes every key, in sorted order so that two callers holding
// overlapping sets cannot wait on each other, and returns the function that
// frees them all. Duplicate keys are taken once.
func (s *Set) LockAll(ctx context.Context, keys ...string) (unlock func(), err error) {
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	var held []func()
	free := func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i]()
		}
	}
	for _, k := range sorted {
		u, err := s.Lock(ctx, k)
		if err != nil {
			free()
			return nil, err
		}
		held = append(held, u)
	}
	return free, nil
}

// Held is how many keys are held or waited for now: zero when no write is
// in flight (the set forgets keys, which tests check).
func (s *Set) Held() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.keys)
}

func (s *Set) acquire(key string) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keys == nil {
		s.keys = map[string]*entry{}
	}
	e := s.keys[key]
	if e == nil {
		e = &entry{sem: semaphore.NewWeighted(1)}
		s.keys[key] = e
	}
	e.refs++
	return e
}

func (s *Set) release(key string, e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.refs--
	if e.refs == 0 {
		delete(s.keys, key)
	}
}
