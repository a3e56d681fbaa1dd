package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestSkipReason(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"one line", []string{"=== RUN   TestA\n", "    a_test.go:12: chromium is missing: apt-get install chromium\n", "--- SKIP: TestA (0.00s)\n"},
			"chromium is missing: apt-get install chromium"},
		{"the last log line wins", []string{"=== RUN   TestA\n", "    a_test.go:10: starting\n", "    a_test.go:11: no engine: start one\n", "--- SKIP: TestA (0.00s)\n"},
			"no engine: start one"},
		{"a subtest, deeper indented", []string{"=== RUN   TestA/live\n", "        t_test.go:74: live Mealie: set MEALIE_INTEGRATION=1\n", "    --- SKIP: TestA/live (0.00s)\n"},
			"live Mealie: set MEALIE_INTEGRATION=1"},
		{"continuation lines", []string{"    a_test.go:5: first\n", "        second\n", "--- SKIP: TestA (0.00s)\n"},
			"first second"},
		{"no reason", []string{"=== RUN   TestA\n", "--- SKIP: TestA (0.00s)\n"},
			"(the test gave no reason)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := skipReason(tt.lines); got != tt.want {
				t.Errorf("skipReason = %q, want %q", got, tt.want)
			}
		})
	}
}

// fixture is a module whose tests pass, skip (two with one reason, one in
// a subtest) and fail, and a package that does not build.
var fixture = map[string]string{
	"go.mod": "module example.com/fixture\n\ngo 1.26\n",
	"a/a_test.go": `package a

import "testing"

func TestPass(t *testing.T) {}

func TestNoBrowser(t *testing.T) { t.Log("looking"); t.Skip("chromium is missing: apt-get install chromium") }

func TestAlsoNoBrowser(t *testing.T) { t.Skip("chromium is missing: apt-get install chromium") }

func TestTargets(t *testing.T) {
	t.Run("emulator", func(t *testing.T) {})
	t.Run("live", func(t *testing.T) { t.Skip("live Mealie: set MEALIE_INTEGRATION=1") })
}
`,
	"b/b_test.go": `package b

import "testing"

func TestParent(t *testing.T) {
	t.Run("child", func(t *testing.T) { t.Error("the answer was wrong") })
}
`,
	"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) { undefined() }\n",
}

// TestRealGoTest runs go test -json on the fixture and checks what
// testsummary prints, reports and decides.
func TestRealGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go test on a fixture module")
	}
	dir := t.TempDir()
	for name, body := range fixture {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-json", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err == nil {
		t.Fatal("go test on the fixture passed; it must fail")
	}
	var printed, report bytes.Buffer
	s, err := summarize(&stdout, &printed)
	if err != nil {
		t.Fatal(err)
	}
	s.writeReport(&report)
	if s.ok() {
		t.Error("summary ok with a failing test and a broken build")
	}
	if s.passed != 3 || s.failed != 2 || s.skipped != 3 {
		t.Errorf("counts passed %d failed %d skipped %d, want 3 (TestPass, TestTargets/emulator, TestTargets), 2 (TestParent and its child), 3", s.passed, s.failed, s.skipped)
	}
	for _, want := range []string{"the answer was wrong", "undefined: undefined", "ok  \texample.com/fixture/a"} {
		if !strings.Contains(printed.String(), want) {
			t.Errorf("printed output lacks %q:\n%s", want, printed.String())
		}
	}
	if strings.Contains(printed.String(), "looking") {
		t.Errorf("printed output has a skipped test's log:\n%s", printed.String())
	}
	for _, want := range []string{
		"Failed:\n",
		"  example.com/fixture/c: the build failed (its errors are above)\n",
		"  example.com/fixture/b: TestParent/child\n",
		"  chromium is missing: apt-get install chromium\n      example.com/fixture/a: TestNoBrowser, TestAlsoNoBrowser\n",
		"  live Mealie: set MEALIE_INTEGRATION=1\n      example.com/fixture/a: TestTargets/live\n",
	} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, report.String())
		}
	}
	if !strings.HasSuffix(report.String(), "go test: 3 passed, 2 failed, 3 skipped\n") {
		t.Errorf("report does not end with the counts:\n%s", report.String())
	}
}

func TestNoEvents(t *testing.T) {
	var printed, report bytes.Buffer
	s, err := summarize(strings.NewReader("go: updates to go.mod needed\n"), &printed)
	if err != nil {
		t.Fatal(err)
	}
	s.writeReport(&report)
	if s.ok() {
		t.Error("ok with no test event")
	}
	if printed.String() != "go: updates to go.mod needed\n" {
		t.Errorf("printed %q, want go's line passed through", printed.String())
	}
	if !strings.Contains(report.String(), "no test ran") {
		t.Errorf("report %q does not say no test ran", report.String())
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{[]string{"A"}, "A"},
		{[]string{"A", "B", "C", "D"}, "A, B, C, D"},
		{[]string{"A", "B", "C", "D", "E", "F"}, "A, B, C, D and 2 more"},
	}
	for _, tt := range tests {
		if got := names(tt.in); got != tt.want {
			t.Errorf("names(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
