// Package mealietest starts the Mealie emulator (package mealieemu) for a
// test, the way net/http/httptest starts an HTTP server:
//
//	srv := mealietest.NewServer(t, mealieemu.WithSeed("empty"))
//	client := mealie.New(srv.URL, srv.Token)
//
// It is apart from the emulator because it imports package testing, which
// the sous binary, whose demo runs the emulator, must not link.
package mealietest

import (
	"testing"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// NewServer starts an emulator on 127.0.0.1 with the "demo" seed unless opts
// say otherwise, and closes it when the test ends. It fails the test if the
// server cannot start.
func NewServer(t testing.TB, opts ...mealieemu.Option) *mealieemu.Server {
	t.Helper()
	s, err := mealieemu.Start(opts...)
	if err != nil {
		t.Fatalf("mealietest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}
