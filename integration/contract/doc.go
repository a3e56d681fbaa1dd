// Package contract holds the Mealie contract suite: one test per sharp edge
// of Mealie's API that sous relies on, each run against
//
//   - the mealietest emulator under every version profile (2.0, 2.8, 3),
//     always;
//   - a live Mealie when MEALIE_INTEGRATION=1 with MEALIE_URL and
//     MEALIE_API_TOKEN set (the version it reports picks the expectations);
//   - the ghcr.io/mealie-recipes/mealie:v2.8.0 image through testcontainers
//     when a Docker engine answers, with a token minted from the default
//     admin; without an engine that subtest skips with one line.
//
// When the emulator and a real Mealie disagree, this suite is where it shows.
// Tests create what they need under unique names and delete it afterwards,
// so a live run leaves a shared instance as it found it. The URL-import test
// needs MEALIE_CONTRACT_NO_RECIPE_URL, a page without a recipe the live
// Mealie can reach, and skips without it.
//
// The package has only tests; run them with `go test ./contract/` from the
// integration module.
package contract
