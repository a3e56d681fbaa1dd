package e2e

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"testing"
)

// inspectorRef finds every mention of the MCP Inspector's npm package, with
// the `npx -y ` before it and the version after it when they are there.
var inspectorRef = regexp.MustCompile(`(npx[ \t]+)?(-y[ \t]+)?@modelcontextprotocol/inspector(@[0-9][^\s"]*)?`)

// TestInspectorCommandsPinned checks that every documented Inspector
// command, and the one `sous demo` prints, runs `npx -y` with the version
// integration/e2e/inspector tests against. Without -y npx stops to ask when
// there is no terminal, and an unpinned npx on Node 20 resolves an old
// Inspector that has no --header and sends a path-secret URL to /mcp.
func TestInspectorCommandsPinned(t *testing.T) {
	root := repoRoot(t)
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, "integration", "e2e", "inspector", "package.json"))), &pkg); err != nil {
		t.Fatal(err)
	}
	want := "@" + pkg.Dependencies["@modelcontextprotocol/inspector"]
	if want == "@" {
		t.Fatal("integration/e2e/inspector/package.json does not depend on @modelcontextprotocol/inspector")
	}
	files := append(docFiles(t, root), filepath.Join(root, "cmd", "sous", "demo.go"))
	seen := 0
	for _, f := range files {
		for _, m := range inspectorRef.FindAllStringSubmatch(readFile(t, f), -1) {
			seen++
			if m[1] != "npx " || m[2] != "-y " || m[3] != want {
				t.Errorf("%s: %q: run it as `npx -y @modelcontextprotocol/inspector%s`", filepath.Base(f), m[0], want)
			}
		}
	}
	if seen == 0 {
		t.Error("no Inspector command found in the docs or the demo banner")
	}
}
