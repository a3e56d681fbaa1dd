// Package mealieemu is a stateful emulator of Mealie's REST API: the Mealie
// that `sous demo` runs, and the one tests of sous run against where no real
// Mealie can run.
//
// A program starts one with Start and stops it with Close:
//
//	srv, err := mealieemu.Start(mealieemu.WithSeed("demo")) // Mealie 2.8
//	if err != nil { ... }
//	defer srv.Close()
//	req, _ := http.NewRequest("GET", srv.URL+"/api/users/self", nil)
//	req.Header.Set("Authorization", "Bearer "+srv.Token)
//	resp, err := http.DefaultClient.Do(req)         // or any Mealie client
//	...
//	for _, r := range srv.Requests() { ... }       // what the client sent
//
// ExampleStart (server_test.go) runs the same steps outside a test.
//
// Tests use the mealietest package instead, whose NewServer closes the
// server when the test ends; this package imports no test machinery, so the
// sous binary links none.
//
// The emulator reproduces what a real server answers, sharp edges included:
// the snake_case pagination envelope with its relative next/previous links,
// the four error body shapes, PATCH replacing list fields wholesale, tags that
// need {id,name,slug}, the slug that does not move on a PATCH rename (up to
// 3.11), and more. The contract suite (integration/contract) records its
// exchanges with real Mealie 2.0, 2.8.0, 3.11.0 and 3.20.1, and with 2.8.0
// and 3.20.1 on PostgreSQL, into testdata/recordings and replays each
// recording against the matching profile (WithVersion) on every test run;
// profile.go names what differs between the versions and engines, each
// difference with the recording that shows it. On PostgreSQL Mealie
// searches by trigram similarity (search.go, trigram.go).
//
// Faults (WithFault, and SetFaults on a running server) make it misbehave the
// way a homelab Mealie does: fixed and jittered latency, error statuses per
// method and path at a rate or for the first N requests after a wake-up,
// connection resets, slow bodies, and answers held back past a client's
// timeout after the write has landed. The request log (Requests, Count,
// Matching, Writes, RetriedWrites, Faulted) shows what a client did about it.
//
// Seeds (WithSeed): "demo" is a deterministic household library of 24 recipes
// with foods, units, labels, organizers, meal plans (some in the current week),
// cookbooks, a shopping list and timeline events; "bench:N" is the demo
// taxonomy with N generated recipes and N/2 extra foods; "household" is 40
// recipes from public recipe pages (recipe-scrapers' test data, MIT; see
// household/README.md) with the foods, some parsed lines and some unparsed
// text a real imported library has, and one shopping list; "empty" is a
// fresh install.
//
// The package imports only the standard library, google/uuid, a
// transliteration table and sous's internal/mealieslug. The command
// integration/cmd/mealietest serves it standalone.
package mealieemu
