// The release suite runs `make release`'s script into a temporary
// directory and checks what a homelab would download: static binaries (no
// ELF interpreter, no shared libraries) for linux/amd64 and linux/arm64,
// sums that match, and a version line naming the version and the commit.

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/internal/version"
)

// releaseTimeout bounds a release build: two cross-compiles of sous, from a
// cold build cache on a small machine.
const releaseTimeout = 15 * time.Minute

// root is the repository root, two levels up from this package.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// releaseScript runs scripts/release.sh with args and extra environment.
func releaseScript(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(root(t), "scripts", "release.sh"), args...)
	cmd.Dir = root(t)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("release.sh did not finish in %s:\n%s", releaseTimeout, out.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

// TestReleaseRefusesBadVersions checks the VERSION argument is validated
// before anything is built, with a sentence saying what was expected.
func TestReleaseRefusesBadVersions(t *testing.T) {
	tests := []struct {
		version string
		want    string
	}{
		{"1.2", `VERSION is "1.2"; expected x.y.z`},
		{"v" + version.Version, `expected x.y.z`},
		{"99.0.0", "VERSION is 99.0.0 but internal/version/version.go says " + version.Version},
	}
	for _, tt := range tests {
		dist := t.TempDir()
		code, out := releaseScript(t, []string{"DIST=" + dist}, tt.version)
		if code != 2 || !strings.Contains(out, tt.want) {
			t.Errorf("release %q: exit %d, output %q; want exit 2 saying %q", tt.version, code, out, tt.want)
		}
		if entries, _ := os.ReadDir(dist); len(entries) != 0 {
			t.Errorf("release %q wrote %d files before refusing", tt.version, len(entries))
		}
	}
}

// TestRelease builds the release and checks every artefact.
func TestRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the release is not built (two cross-compiles)")
	}
	dist := filepath.Join(t.TempDir(), "dist")
	code, out := releaseScript(t, []string{"DIST=" + dist, "PLATFORMS=linux/amd64 linux/arm64", "COMMIT="})
	if code != 0 {
		t.Fatalf("release.sh: exit %d\n%s", code, out)
	}
	sums := readSums(t, filepath.Join(dist, "SHA256SUMS"))
	tests := []struct {
		arch    string
		machine elf.Machine
	}{
		{"amd64", elf.EM_X86_64},
		{"arm64", elf.EM_AARCH64},
	}
	for _, tt := range tests {
		name := "sous_" + version.Version + "_linux_" + tt.arch
		path := filepath.Join(dist, name)
		t.Run(tt.arch, func(t *testing.T) {
			checkStatic(t, path, tt.machine)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			if got := sums[name]; got != hex.EncodeToString(sum[:]) {
				t.Errorf("SHA256SUMS says %q for %s, the file hashes to %x", got, name, sum)
			}
			if tt.arch == runtime.GOARCH && runtime.GOOS == "linux" {
				checkVersion(t, path)
			}
		})
	}
	if len(sums) != len(tests) {
		t.Errorf("SHA256SUMS lists %d files, want %d: %v", len(sums), len(tests), sums)
	}
}

// checkStatic opens path as an ELF executable for machine and fails when
// it asks for a dynamic loader (PT_INTERP) or any shared library.
func checkStatic(t *testing.T, path string, machine elf.Machine) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Machine != machine || f.Type != elf.ET_EXEC {
		t.Errorf("%s: %s %s, want %s executable", filepath.Base(path), f.Machine, f.Type, machine)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s has an ELF interpreter (PT_INTERP): it is dynamically linked", filepath.Base(path))
		}
	}
	if libs, err := f.ImportedLibraries(); err == nil && len(libs) > 0 {
		t.Errorf("%s needs shared libraries %v", filepath.Base(path), libs)
	}
}

// versionLine is what `sous --version` prints.
var versionLine = regexp.MustCompile(`^sous (\S+) \(commit ([0-9a-f]{12}(?:-dirty)?)\)\n$`)

// checkVersion runs the binary built for this machine and compares its
// version line with internal/version and git's HEAD.
func checkVersion(t *testing.T, path string) {
	t.Helper()
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", path, err)
	}
	m := versionLine.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("--version printed %q; want \"sous <version> (commit <12 hex digits>)\"", out)
	}
	if m[1] != version.Version {
		t.Errorf("--version names %s; internal/version says %s", m[1], version.Version)
	}
	head, err := exec.Command("git", "-C", root(t), "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Skipf("no git to compare the commit with: %v", err)
	}
	if got, want := strings.TrimSuffix(m[2], "-dirty"), strings.TrimSpace(string(head)); got != want {
		t.Errorf("--version names commit %s; HEAD is %s", got, want)
	}
}

// readSums parses a sha256sum file into file name → hex digest.
func readSums(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q is not \"<sum>  <file>\"", sc.Text())
		}
		sums[name] = sum
	}
	return sums
}

// TestDockerfileBuildsLikeARelease checks that every Go build in
// deploy/Dockerfile goes through scripts/gobuild.sh, so the image's
// binaries carry the release's flags, and that its release target copies
// the file `make release` names.
func TestDockerfileBuildsLikeARelease(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root(t), "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	builds := regexp.MustCompile(`(?m)^\s*(go build|scripts/gobuild\.sh) `).FindAllStringSubmatch(text, -1)
	if len(builds) == 0 {
		t.Fatal("deploy/Dockerfile builds nothing")
	}
	for _, m := range builds {
		if m[1] != "scripts/gobuild.sh" {
			t.Errorf("deploy/Dockerfile runs %q; build through scripts/gobuild.sh so the image matches a release", m[1])
		}
	}
	if !strings.Contains(text, "COPY dist/sous_${VERSION}_linux_${TARGETARCH} ") {
		t.Error("deploy/Dockerfile's release target does not copy dist/sous_${VERSION}_linux_${TARGETARCH}, the name scripts/release.sh writes")
	}
}
