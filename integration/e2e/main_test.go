// Package e2e drives the real path end to end: the go-sdk MCP client ->
// `sous mcp` (a built binary, over stdio and Streamable HTTP) -> Connect ->
// the services -> the Mealie emulator.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// sousBin is the sous binary built once for the package's tests.
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
