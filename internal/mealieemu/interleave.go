package mealieemu

import (
	"net/http"
	"strings"
	"sync"
)

// Moment says when an interleaved writer runs around the request it waits
// for.
type Moment int

const (
	// BeforeHandled runs the writer before the request is handled: its
	// write lands between the client's read and the client's write.
	BeforeHandled Moment = iota
	// AfterHandled runs the writer after the request is handled and before
	// its answer is sent: its write lands between the client's write and
	// the client's next request (its read-back).
	AfterHandled
)

// Interleave runs fn once, at the moment at, around the next request that
// matches method (empty for any) and pathPrefix: a third writer on Mealie's
// own API placed exactly between two requests of a client, as another cook
// in Mealie's app lands there by chance. fn may call the emulator itself
// (the interleave is spent before fn runs, so fn's own requests pass); the
// request it waits for is held until fn returns.
func (s *Server) Interleave(method, pathPrefix string, at Moment, fn func()) {
	s.interleaves.add(&interleave{method: method, prefix: pathPrefix, at: at, fn: fn})
}

// interleave is one waiting writer.
type interleave struct {
	method, prefix string
	at             Moment
	fn             func()
}

// interleaves are the writers waiting for their request.
type interleaves struct {
	mu      sync.Mutex
	waiting []*interleave
}

func (w *interleaves) add(i *interleave) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waiting = append(w.waiting, i)
}

// take removes and returns the writers waiting for r, by moment.
func (w *interleaves) take(r *http.Request) (before, after []func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var keep []*interleave
	for _, i := range w.waiting {
		if (i.method == "" || strings.EqualFold(i.method, r.Method)) && strings.HasPrefix(r.URL.Path, i.prefix) {
			if i.at == BeforeHandled {
				before = append(before, i.fn)
			} else {
				after = append(after, i.fn)
			}
			continue
		}
		keep = append(keep, i)
	}
	w.waiting = keep
	return before, after
}
