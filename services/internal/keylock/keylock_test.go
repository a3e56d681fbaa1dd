package keylock

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestOneAtATimePerKey: many writers of one key never overlap, and each
// read-modify-write of a shared counter lands: the sum is exact.
func TestOneAtATimePerKey(t *testing.T) {
	var s Set
	var inside atomic.Int32
	counter := 0
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			unlock, err := s.Lock(context.Background(), "list:a")
			if err != nil {
				t.Error(err)
				return
			}
			defer unlock()
			if n := inside.Add(1); n != 1 {
				t.Errorf("%d writers inside one key", n)
			}
			read := counter
			time.Sleep(100 * time.Microsecond)
			counter = read + 1
			inside.Add(-1)
		})
	}
	wg.Wait()
	if counter != 50 {
		t.Fatalf("counter %d, want 50", counter)
	}
	if n := s.Held(); n != 0 {
		t.Fatalf("%d keys left held", n)
	}
}

// TestKeysDoNotWaitForEachOther: a held key does not hold up another.
func TestKeysDoNotWaitForEachOther(t *testing.T) {
	var s Set
	unlockA, err := s.Lock(context.Background(), "list:a")
	if err != nil {
		t.Fatal(err)
	}
	defer unlockA()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	unlockB, err := s.Lock(ctx, "list:b")
	if err != nil {
		t.Fatalf("a second key waited for the first: %v", err)
	}
	unlockB()
}

// TestWaiterGivesUpWithItsContext: a waiter whose context ends holds
// nothing afterwards, and the key is free once its holder lets go.
func TestWaiterGivesUpWithItsContext(t *testing.T) {
	var s Set
	unlock, err := s.Lock(context.Background(), "recipe:soup")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Lock(ctx, "recipe:soup")
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("waiter: %v, want context.Canceled", err)
	}
	unlock()
	unlock() // a second call is harmless
	if n := s.Held(); n != 0 {
		t.Fatalf("%d keys left held", n)
	}
	again, err := s.Lock(context.Background(), "recipe:soup")
	if err != nil {
		t.Fatal(err)
	}
	again()
}

// TestLockAllInOrder: two callers taking overlapping keys in opposite
// orders both finish (sorted order rules out a deadlock), and duplicates
// are taken once.
func TestLockAllInOrder(t *testing.T) {
	var s Set
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i := range 20 {
		keys := []string{"recipe:a", "recipe:b", "recipe:c", "recipe:a"}
		if i%2 == 1 {
			keys = []string{"recipe:c", "recipe:b", "recipe:a"}
		}
		wg.Go(func() {
			unlock, err := s.LockAll(ctx, keys...)
			if err != nil {
				t.Error(err)
				return
			}
			time.Sleep(50 * time.Microsecond)
			unlock()
		})
	}
	wg.Wait()
	if n := s.Held(); n != 0 {
		t.Fatalf("%d keys left held", n)
	}
}
