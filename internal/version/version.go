// Package version holds sous's version: the one source that `sous --version`,
// the MCP server's implementation info, the README and the docs agree on.
package version

// Version is the release of sous this tree builds, without a leading "v".
// A test checks that every version string in README.md and docs/ matches it.
const Version = "0.1.0"
