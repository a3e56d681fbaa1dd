// Package version holds sous's version: the one source that `sous --version`,
// the MCP server's implementation info, the README and the docs agree on.
package version

import "runtime/debug"

// Version is the release of sous this tree builds, without a leading "v".
// A test checks that every version string in README.md and docs/ matches
// it. It is a variable so that `make release VERSION=x.y.z` can stamp the
// release's binaries with -ldflags -X (scripts/gobuild.sh).
var Version = "0.1.0"

// Commit is the git commit the binary was built from, stamped by
// scripts/gobuild.sh with -ldflags -X; empty in a plain `go build`, where
// Describe falls back to the commit Go records itself.
var Commit = ""

// Describe is what `sous --version` prints after the program's name: the
// version and the commit, such as "0.1.0 (commit 1a2b3c4d5e6f)". A binary
// built outside a checkout, with nothing stamped, says "commit unknown"
// rather than guess.
func Describe() string {
	return Version + " (commit " + commit(Commit, buildSettings()) + ")"
}

// commit picks the stamped commit, else the revision Go's VCS stamping
// recorded (with "-dirty" when the tree had changes), else "unknown".
func commit(stamped string, settings map[string]string) string {
	if stamped != "" {
		return stamped
	}
	rev := settings["vcs.revision"]
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if settings["vcs.modified"] == "true" {
		rev += "-dirty"
	}
	return rev
}

// buildSettings returns the binary's build settings (vcs.revision and
// friends) as a map; empty when the binary carries none.
func buildSettings() map[string]string {
	out := map[string]string{}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			out[s.Key] = s.Value
		}
	}
	return out
}
