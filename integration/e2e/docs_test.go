// The docs suite keeps the documentation and the deployment files honest
// about the code: the version they pin, the environment variables they list,
// and the compose file's validity.
//
// Why: a stale pinned install command looks current and installs the previous release, and a
// variable documented but never read sends a user chasing a setting that
// does nothing.

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/souskitchen/sous/internal/version"
)

// repoRoot is the repository root, two levels up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.work")); err != nil {
		t.Fatalf("repository root not found from %s: %v", root, err)
	}
	return root
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docFiles are the files whose version strings must match: README.md and
// every Markdown file under docs/. CHANGELOG.md is left out on purpose: it
// names every past release.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	matches, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append(files, matches...)
}

// versionPatterns find strings that name a sous release. Each has one
// group: the version without its "v".
var versionPatterns = []*regexp.Regexp{
	// "sous v0.1.0", "sous 0.1.0" (the --version output)
	regexp.MustCompile(`\bsous v?(\d+\.\d+\.\d+)\b`),
	// "github.com/souskitchen/sous/...@v0.1.0"
	regexp.MustCompile(`souskitchen/sous[\w./-]*@v(\d+\.\d+\.\d+)\b`),
	// "git clone --branch v0.1.0" (the supported install from a tag)
	regexp.MustCompile(`--branch v(\d+\.\d+\.\d+)\b`),
	// image tags: "sous:v0.1.0", "sous-recipes:0.1.0", "SOUS_IMAGE_TAG=v0.1.0"
	regexp.MustCompile(`\bsous(?:-[a-z]+)?:v?(\d+\.\d+\.\d+)\b`),
	regexp.MustCompile(`SOUS_IMAGE_TAG=v?(\d+\.\d+\.\d+)\b`),
	// release files: "dist/sous_0.1.0_linux_arm64"
	regexp.MustCompile(`\bsous_(\d+\.\d+\.\d+)_linux_`),
}

// findVersions returns every sous version string in text, as "line: match".
func findVersions(text string) (found []string, versions []string) {
	for i, line := range strings.Split(text, "\n") {
		for _, re := range versionPatterns {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				found = append(found, strings.TrimSpace(m[0])+" (line "+strconv.Itoa(i+1)+")")
				versions = append(versions, m[1])
			}
		}
	}
	return found, versions
}

func TestFindVersions(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"$ sous --version\nsous 0.1.0", []string{"0.1.0"}},
		{"git clone --depth 1 --branch v0.2.3 https://github.com/souskitchen/sous", []string{"0.2.3"}},
		{"go install github.com/souskitchen/sous/cmd/sous@v1.0.0", []string{"1.0.0"}},
		{"image: sous-recipes:0.1.0 and sous:v0.1.0", []string{"0.1.0", "0.1.0"}},
		{"SOUS_IMAGE_TAG=v0.4.0", []string{"0.4.0"}},
		{"install -m 0755 dist/sous_0.3.1_linux_arm64 /usr/local/bin/sous", []string{"0.3.1"}},
		{"bin/sous --version    # prints: sous 0.1.0 (commit 1a2b3c4d5e6f)", []string{"0.1.0"}},
		// Other projects' versions are not sous's.
		{"ghcr.io/mealie-recipes/mealie:v2.8.0, connected to Mealie v2.8.0", nil},
		{"go install github.com/bufbuild/buf/cmd/buf@v1.74.0", nil},
	}
	for _, tt := range tests {
		_, got := findVersions(tt.line)
		if !slices.Equal(got, tt.want) {
			t.Errorf("findVersions(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestDocsPinTheVersion checks that every sous version string in README.md
// and docs/*.md is internal/version.Version, and that the docs pin it at
// least once (an install command with no version installs whatever main
// holds that day).
func TestDocsPinTheVersion(t *testing.T) {
	root := repoRoot(t)
	total := 0
	for _, f := range docFiles(t, root) {
		found, versions := findVersions(readFile(t, f))
		for i, v := range versions {
			total++
			if v != version.Version {
				rel, _ := filepath.Rel(root, f)
				t.Errorf("%s: %s names version %s; internal/version says %s", rel, found[i], v, version.Version)
			}
		}
	}
	if total == 0 {
		t.Errorf("no sous version string in README.md or docs/: the install instructions must pin %s", version.Version)
	}
}

// TestChangelogHasTheVersion checks that CHANGELOG.md keeps an Unreleased
// section and speaks of the current version.
func TestChangelogHasTheVersion(t *testing.T) {
	text := readFile(t, filepath.Join(repoRoot(t), "CHANGELOG.md"))
	if !strings.Contains(text, "## [Unreleased]") {
		t.Error("CHANGELOG.md has no \"## [Unreleased]\" section (Keep a Changelog)")
	}
	if !strings.Contains(text, version.Version) {
		t.Errorf("CHANGELOG.md never names version %s (internal/version)", version.Version)
	}
}

// Patterns of environment reads.
var (
	// env.String("X", ...), env.Bool("X", ...), env.List("X"),
	// os.Getenv("X"), os.LookupEnv("X").
	goEnvRead = regexp.MustCompile(`\b(?:env\.(?:String|Bool|List)|os\.(?:Getenv|LookupEnv))\(\s*"([A-Z][A-Z0-9_]*)"`)
	// os.environ.get("X"), os.environ["X"], _env_bool("X"), _env_list("X").
	pyEnvRead = regexp.MustCompile(`(?:os\.environ(?:\.get)?[\[(]|os\.getenv\(|_env_(?:bool|list)\()\s*["']([A-Z][A-Z0-9_]*)["']`)
	// ${X}, ${X:-default}, ${X:?message} in shell and compose files.
	shellEnvRead = regexp.MustCompile(`\$\{([A-Z][A-Z0-9_]*)[}:?-]`)
	// NAME= at the start of a line of .env.example.
	envExampleVar = regexp.MustCompile(`(?m)^([A-Z][A-Z0-9_]*)=`)
	// | `NAME` | in the first column of a Markdown table.
	tableVar = regexp.MustCompile("(?m)^\\|\\s*`([A-Z][A-Z0-9_]*)`\\s*\\|")
)

// skipDir reports directories that hold no code sous runs: hidden ones,
// generated code, dependencies, test data, test-only helpers, and this
// package.
func skipDir(rel string) bool {
	base := filepath.Base(rel)
	switch {
	case strings.HasPrefix(base, ".") || base == "node_modules" || base == "__pycache__" || base == "testdata":
		// .git, virtualenvs (.venv and friends), editor and CI state.
		return true
	case rel == filepath.Join("proto", "gen") || rel == "tools" || rel == filepath.Join("integration", "e2e"):
		return true
	case rel == filepath.Join("integration", "harness", "demotest"):
		// Test plumbing only tests import; it reads CI, which no user sets.
		return true
	}
	return false
}

// readVars returns every environment variable the code and the deployment
// read, with the first file that reads each: Go files outside proto/gen and
// tests, the food API's settings and container entrypoint, and the compose
// file's interpolations (compose reads those from deploy/.env).
func readVars(t *testing.T, root string) map[string]string {
	t.Helper()
	vars := map[string]string{}
	add := func(re *regexp.Regexp, rel, text string) {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if _, ok := vars[m[1]]; !ok {
				vars[m[1]] = rel
			}
		}
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if path != root && skipDir(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			add(goEnvRead, rel, readFile(t, path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel, re := range map[string]*regexp.Regexp{
		filepath.Join("foodapi", "foodapi", "settings.py"): pyEnvRead,
		filepath.Join("foodapi", "docker-entrypoint.sh"):   shellEnvRead,
		filepath.Join("deploy", "compose.yaml"):            shellEnvRead,
		filepath.Join("deploy", "compose.postgres.yaml"):   shellEnvRead,
	} {
		add(re, rel, readFile(t, filepath.Join(root, rel)))
	}
	return vars
}

func setOf(matches [][]string) map[string]bool {
	out := map[string]bool{}
	for _, m := range matches {
		out[m[1]] = true
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestEnvVarsDocumented checks both directions: every variable the code
// reads is in deploy/.env.example and in docs/configuration.md's table, and
// neither lists a variable nothing reads.
func TestEnvVarsDocumented(t *testing.T) {
	root := repoRoot(t)
	read := readVars(t, root)
	if len(read) < 10 {
		t.Fatalf("found only %d variables read (%v): the scan is broken", len(read), sortedKeys(read))
	}
	docs := map[string]map[string]bool{
		"deploy/.env.example":   setOf(envExampleVar.FindAllStringSubmatch(readFile(t, filepath.Join(root, "deploy", ".env.example")), -1)),
		"docs/configuration.md": setOf(tableVar.FindAllStringSubmatch(readFile(t, filepath.Join(root, "docs", "configuration.md")), -1)),
	}
	for _, name := range sortedKeys(docs) {
		listed := docs[name]
		for _, v := range sortedKeys(read) {
			if !listed[v] {
				t.Errorf("%s does not list %s (read in %s)", name, v, read[v])
			}
		}
		for _, v := range sortedKeys(listed) {
			if _, ok := read[v]; !ok {
				t.Errorf("%s lists %s, which nothing reads", name, v)
			}
		}
	}
}

func TestEnvPatterns(t *testing.T) {
	tests := []struct {
		re   *regexp.Regexp
		text string
		want []string
	}{
		{goEnvRead, `env.String("MEALIE_URL", ""), env.Bool("MEALIE_READ_ONLY", false), env.List("SOUS_TOOLSETS"), os.Getenv("HOME")`,
			[]string{"MEALIE_URL", "MEALIE_READ_ONLY", "SOUS_TOOLSETS", "HOME"}},
		{goEnvRead, `env.String(name, "")`, nil},
		{pyEnvRead, `os.environ.get("FOOD_API_DB") or x; _env_bool("FOOD_API_DEBUG", False); os.environ["A_B"]`,
			[]string{"FOOD_API_DB", "FOOD_API_DEBUG", "A_B"}},
		{shellEnvRead, `"${FOOD_API_PORT:-8042}" ${X:?msg} ${Y} $Z`, []string{"FOOD_API_PORT", "X", "Y"}},
		{tableVar, "| `MEALIE_URL` | yes |\n| text `NOT_ME` |", []string{"MEALIE_URL"}},
		{envExampleVar, "A=1\n# B=2\nC_D=", []string{"A", "C_D"}},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range tt.re.FindAllStringSubmatch(tt.text, -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s on %q = %v, want %v", tt.re, tt.text, got, tt.want)
		}
	}
}

// composeTimeout bounds `docker compose config`, which only parses files.
const composeTimeout = time.Minute

// composeCLI returns the command that runs Docker Compose: the docker CLI's
// compose plugin when there is one, else the Compose CLI that make test-deps
// installs into .venv-compose (the same binary, run on its own), else ""
// with what enables it.
func composeCLI(root string) ([]string, string) {
	if _, err := exec.LookPath("docker"); err == nil {
		if exec.Command("docker", "compose", "version").Run() == nil {
			return []string{"docker", "compose"}, ""
		}
	}
	// The binary itself: the package's bin/docker-compose wrapper exits 0
	// whatever Compose said.
	pinned := filepath.Join(root, ".venv-compose", "docker-compose")
	if _, err := os.Stat(pinned); err == nil {
		return []string{pinned}, ""
	}
	return nil, "no Docker Compose (neither the docker CLI's compose plugin nor .venv-compose): run make test-deps"
}

// TestComposeConfig validates deploy/compose.yaml with `docker compose
// config` (a parse, no engine needed), with every profile, using
// deploy/.env.example plus placeholders for the variables it must refuse to
// leave empty.
func TestComposeConfig(t *testing.T) {
	root := repoRoot(t)
	compose, why := composeCLI(root)
	if compose == nil {
		t.Skip(why)
	}
	required := []string{"MEALIE_API_TOKEN", "FOOD_API_TOKEN", "FOOD_API_SECRET_KEY", "SOUS_SERVICE_TOKEN"}
	baseEnv := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}

	files := []string{"-f", filepath.Join(root, "deploy", "compose.yaml")}
	run := func(extraEnv []string, args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), composeTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, compose[0], append(append(append(slices.Clone(compose[1:]),
			"--project-directory", filepath.Join(root, "deploy"),
			"--env-file", filepath.Join(root, "deploy", ".env.example")), files...), args...)...)
		cmd.Env = append(slices.Clone(baseEnv), extraEnv...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.Bytes(), err
	}

	var filled []string
	for _, v := range required {
		filled = append(filled, v+"=placeholder-for-config-check")
	}
	out, err := run(filled, "--profile", "mealie", "config", "--quiet")
	if err != nil {
		t.Fatalf("docker compose config: %v\n%s", err, out)
	}
	out, err = run(filled, "--profile", "mealie", "config", "--services")
	if err != nil {
		t.Fatalf("docker compose config --services: %v\n%s", err, out)
	}
	services := strings.Fields(string(out))
	for _, want := range []string{"recipes", "mealplan", "library", "pantry", "mcpfront", "foodapi", "mealie"} {
		if !slices.Contains(services, want) {
			t.Errorf("compose services %v lack %s", services, want)
		}
	}
	// Only the MCP front, and the bundled Mealie's web UI, are published,
	// and on loopback unless .env says otherwise.
	out, err = run(filled, "--profile", "mealie", "config", "--format", "json")
	if err != nil {
		t.Fatalf("docker compose config --format json: %v\n%s", err, out)
	}
	var cfg struct {
		Services map[string]struct {
			Ports []struct {
				HostIP    string `json:"host_ip"`
				Published string `json:"published"`
			} `json:"ports"`
			Healthcheck *struct {
				Test []string `json:"test"`
			} `json:"healthcheck"`
			Restart string `json:"restart"`
		} `json:"services"`
	}
	if err := json.Unmarshal(out, &cfg); err != nil {
		t.Fatalf("compose config JSON: %v", err)
	}
	for name, svc := range cfg.Services {
		if len(svc.Ports) > 0 && name != "mcpfront" && name != "mealie" {
			t.Errorf("service %s publishes a port; only mcpfront (and the bundled Mealie's UI) may", name)
		}
		for _, p := range svc.Ports {
			if p.HostIP != "127.0.0.1" {
				t.Errorf("service %s publishes %s on %q; the default must be loopback", name, p.Published, p.HostIP)
			}
		}
		if svc.Healthcheck == nil || len(svc.Healthcheck.Test) == 0 {
			t.Errorf("service %s has no healthcheck", name)
		}
		if svc.Restart == "" || svc.Restart == "no" {
			t.Errorf("service %s has no restart policy", name)
		}
	}

	// Without the required secrets compose must refuse, naming the variable.
	for _, v := range required {
		var env []string
		for _, f := range filled {
			if !strings.HasPrefix(f, v+"=") {
				env = append(env, f)
			}
		}
		out, err := run(env, "config", "--quiet")
		if err == nil || !strings.Contains(string(out), v) {
			t.Errorf("compose config without %s: err=%v, output %q; want a refusal naming it", v, err, out)
		}
	}

	// The bundled Mealie on PostgreSQL: compose.postgres.yaml laid over
	// compose.yaml gives Mealie Mealie's own database variables and a
	// healthy PostgreSQL to wait for, on the internal network only.
	files = append(files, "-f", filepath.Join(root, "deploy", "compose.postgres.yaml"))
	if out, err := run(filled, "--profile", "mealie", "config", "--quiet"); err == nil || !strings.Contains(string(out), "MEALIE_POSTGRES_PASSWORD") {
		t.Errorf("compose config with compose.postgres.yaml and no MEALIE_POSTGRES_PASSWORD: err=%v, output %q; want a refusal naming it", err, out)
	}
	out, err = run(append(filled, "MEALIE_POSTGRES_PASSWORD=placeholder-for-config-check"), "--profile", "mealie", "config", "--format", "json")
	if err != nil {
		t.Fatalf("docker compose config with compose.postgres.yaml: %v\n%s", err, out)
	}
	var pg struct {
		Services map[string]struct {
			Environment map[string]*string `json:"environment"`
			DependsOn   map[string]struct {
				Condition string `json:"condition"`
			} `json:"depends_on"`
			Ports       []any          `json:"ports"`
			Networks    map[string]any `json:"networks"`
			Healthcheck *struct {
				Test []string `json:"test"`
			} `json:"healthcheck"`
			Restart string `json:"restart"`
		} `json:"services"`
	}
	if err := json.Unmarshal(out, &pg); err != nil {
		t.Fatalf("compose config JSON: %v", err)
	}
	m, db := pg.Services["mealie"], pg.Services["postgres"]
	for k, want := range map[string]string{"DB_ENGINE": "postgres", "POSTGRES_SERVER": "postgres", "POSTGRES_PORT": "5432", "POSTGRES_DB": "mealie", "POSTGRES_USER": "mealie"} {
		if got := m.Environment[k]; got == nil || *got != want {
			t.Errorf("Mealie on PostgreSQL: %s = %v, want %q", k, got, want)
		}
	}
	if m.DependsOn["postgres"].Condition != "service_healthy" {
		t.Errorf("Mealie on PostgreSQL waits for %v, want postgres healthy", m.DependsOn)
	}
	if db.Healthcheck == nil || len(db.Healthcheck.Test) == 0 || db.Restart == "" || len(db.Ports) > 0 {
		t.Errorf("postgres: healthcheck %v, restart %q, ports %v; want a health check, a restart policy and no published port", db.Healthcheck, db.Restart, db.Ports)
	}
	if _, out := db.Networks["egress"]; out || len(db.Networks) != 1 {
		t.Errorf("postgres is on %v, want the internal network alone", db.Networks)
	}
}

// goBlock matches a fenced Go code block in Markdown.
var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// goBuildTimeout bounds compiling the documented client (a cold build cache
// compiles connect and protobuf).
const goBuildTimeout = 5 * time.Minute

// TestConnectClientExampleBuilds compiles the Go client in
// docs/connect-api.md against the generated code in proto/gen, so the
// example cannot drift from the API.
func TestConnectClientExampleBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the documented Go client is not compiled")
	}
	root := repoRoot(t)
	blocks := goBlock.FindAllStringSubmatch(readFile(t, filepath.Join(root, "docs", "connect-api.md")), -1)
	if len(blocks) != 1 {
		t.Fatalf("docs/connect-api.md has %d Go blocks, want exactly the one client", len(blocks))
	}
	if n := strings.Count(strings.TrimSpace(blocks[0][1]), "\n") + 1; n > maxClientLines {
		t.Errorf("the documented client is %d lines; keep it under %d so it reads at a glance", n, maxClientLines)
	}
	// The directory must sit inside the workspace so the build resolves
	// the proto module; a leading underscore keeps ./... from seeing it.
	dir, err := os.MkdirTemp(".", "_goclient")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(blocks[0][1]), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), goBuildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", os.DevNull, "./"+filepath.Base(dir))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the Go client in docs/connect-api.md does not build: %v\n%s", err, out)
	}
}

// maxClientLines bounds docs/connect-api.md's Go client example, so it
// stays one a reader takes in at a glance: about ten lines of main's body,
// forty with package, imports and error handling.
const maxClientLines = 40
