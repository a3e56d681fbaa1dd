// Package e2e drives the real path end to end: the go-sdk MCP client ->
// `sous mcp` (a built binary, over stdio and Streamable HTTP) -> Connect ->
// the services -> the Mealie emulator. Beside it are the suites that run
// the built product the way its users do: the clients' examples against
// `sous demo` (clients_test.go), the documented commands and claims
// (docs_*.go), `make release` (release_test.go), and the layering rules
// over the workspace's import graph (layering_test.go). The OAuth mode has
// a package of its own (oauth), as has the tools reference generator
// (toolsdoc, which `make docs` runs alone).
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// sousBin is the sous binary built once for the package's tests (the
// clients suite runs its `sous demo`).
var sousBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sous-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sousBin = filepath.Join(dir, "sous")
	build := exec.Command("go", "build", "-o", sousBin, "github.com/souskitchen/sous/cmd/sous")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building sous:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
