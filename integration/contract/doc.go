// Package contract holds the Mealie contract suite: one set of assertions
// about Mealie's API that sous relies on, run against the mealietest emulator
// always, against a live Mealie when MEALIE_INTEGRATION=1 with MEALIE_URL and
// MEALIE_API_TOKEN, and against the ghcr.io/mealie-recipes/mealie:v2.8.0 image
// through testcontainers when a Docker engine answers. When the emulator and a
// real Mealie disagree, this suite is where it shows.
//
// The package has only tests; run them with `go test ./contract/` from the
// integration module.
package contract
