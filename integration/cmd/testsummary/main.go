// Command testsummary reads `go test -json` on stdin, prints what a plain
// `go test` prints (a line per package, a failing test's output, build
// errors), and writes a report of the run: the tests that failed, and the
// tests that skipped grouped by the reason each gave, so that `make test`
// ends with one list of what did not run and what turns each on.
//
//	go test -json ./... | testsummary -report bin/test-report.txt
//
// A skip's reason is the last line the test logged before it skipped
// (t.Skip's message), so every skip in the tree is reported without the
// skipping test doing anything: the skip messages name the command that
// enables their test. The exit status is 1 when a test, a package or a
// build failed, or when stdin held no test event at all (go test itself
// could not start), so a pipe into testsummary still fails make test.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
	// FailedBuild, on a package's fail, is the import path whose build
	// failed.
	FailedBuild string
}

// modulePrefix is cut from package paths in the report, which names
// packages as paths inside the repository.
const modulePrefix = "github.com/souskitchen/sous/"

// maxNamed is how many tests of one package and reason the report names
// before it counts the rest.
const maxNamed = 4

// key names one test of one package.
type key struct{ pkg, test string }

// summary is what a run amounts to.
type summary struct {
	passed, failed, skipped int
	// packages counts packages that ran tests (pass or fail).
	packages int
	// failedTests are the failed tests, subtests named instead of their
	// parents, as "pkg: Test".
	failedTests []key
	// failedPkgs are packages that failed outside any test (a build, a
	// panic in TestMain, a timeout) or with a test.
	failedPkgs []string
	// failedBuilds are import paths whose build failed; brokenPkgs the
	// packages that failed for it.
	failedBuilds []string
	brokenPkgs   map[string]bool
	// reasons lists skip reasons in the order first seen; skips maps each to
	// the tests that gave it.
	reasons []string
	skips   map[string][]key
	// events counts the JSON events read.
	events int
}

// logLine is a line a test logged: indentation, file:line, the message.
var logLine = regexp.MustCompile(`^(\s*)[\w.-]+\.go:\d+: (.*)$`)

// skipReason returns the message of the last line a test logged before its
// "--- SKIP" line, continuation lines included, or a placeholder.
func skipReason(lines []string) string {
	start, indent := -1, 0
	end := len(lines)
	for i, l := range lines {
		if strings.Contains(l, "--- SKIP: ") {
			end = i
			break
		}
	}
	for i := end - 1; i >= 0; i-- {
		if m := logLine.FindStringSubmatch(strings.TrimRight(lines[i], "\n")); m != nil {
			start, indent = i, len(m[1])
			break
		}
	}
	if start < 0 {
		return "(the test gave no reason)"
	}
	parts := []string{logLine.FindStringSubmatch(strings.TrimRight(lines[start], "\n"))[2]}
	for _, l := range lines[start+1 : end] {
		l = strings.TrimRight(l, "\n")
		if len(l)-len(strings.TrimLeft(l, " \t")) <= indent || strings.HasPrefix(strings.TrimSpace(l), "=== ") {
			break
		}
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// summarize copies what plain go test would print from r to w and returns
// the run's summary.
func summarize(r io.Reader, w io.Writer) (*summary, error) {
	s := &summary{skips: map[string][]key{}, brokenPkgs: map[string]bool{}}
	bufs := map[key][]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event: go's own message, such as a module error.
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		s.events++
		k := key{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
		case e.Action == "build-fail":
			s.failedBuilds = append(s.failedBuilds, e.ImportPath)
		case e.Test != "" && e.Action == "output":
			bufs[k] = append(bufs[k], e.Output)
		case e.Test != "" && e.Action == "pass":
			s.passed++
			delete(bufs, k)
		case e.Test != "" && e.Action == "skip":
			s.skipped++
			reason := skipReason(bufs[k])
			if _, ok := s.skips[reason]; !ok {
				s.reasons = append(s.reasons, reason)
			}
			s.skips[reason] = append(s.skips[reason], k)
			delete(bufs, k)
		case e.Test != "" && e.Action == "fail":
			s.failed++
			for _, l := range bufs[k] {
				fmt.Fprint(w, l)
			}
			delete(bufs, k)
			// A parent fails with its subtest: name the subtest only.
			if !slices.ContainsFunc(s.failedTests, func(f key) bool {
				return f.pkg == k.pkg && strings.HasPrefix(f.test, k.test+"/")
			}) {
				s.failedTests = append(s.failedTests, k)
			}
		case e.Test == "" && e.Action == "output":
			if e.Output != "PASS\n" {
				fmt.Fprint(w, e.Output)
			}
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail"):
			s.packages++
			// Tests still running when the package ended (a timeout, a
			// panic): their output is what explains the failure.
			for bk, lines := range bufs {
				if bk.pkg != e.Package {
					continue
				}
				if e.Action == "fail" {
					for _, l := range lines {
						fmt.Fprint(w, l)
					}
				}
				delete(bufs, bk)
			}
			if e.Action == "fail" {
				s.failedPkgs = append(s.failedPkgs, e.Package)
				if e.FailedBuild != "" {
					s.brokenPkgs[e.Package] = true
				}
			}
		}
	}
	return s, sc.Err()
}

// ok reports whether the run passed.
func (s *summary) ok() bool {
	return s.events > 0 && s.failed == 0 && len(s.failedPkgs) == 0 && len(s.failedBuilds) == 0
}

// short is a package path inside the repository.
func short(pkg string) string {
	if p := strings.TrimPrefix(pkg, modulePrefix); p != "" {
		return p
	}
	return pkg
}

// names lists tests of one package, the first maxNamed by name and the
// rest counted.
func names(tests []string) string {
	if len(tests) <= maxNamed {
		return strings.Join(tests, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(tests[:maxNamed], ", "), len(tests)-maxNamed)
}

// byPackage groups keys by package, packages and tests in first-seen order.
func byPackage(keys []key) (pkgs []string, tests map[string][]string) {
	tests = map[string][]string{}
	for _, k := range keys {
		if _, ok := tests[k.pkg]; !ok {
			pkgs = append(pkgs, k.pkg)
		}
		tests[k.pkg] = append(tests[k.pkg], k.test)
	}
	return pkgs, tests
}

// writeReport writes the failed tests, the skipped ones under their
// reasons, and a closing count line.
func (s *summary) writeReport(w io.Writer) {
	if s.events == 0 {
		fmt.Fprintln(w, "go test: no test ran (go test printed no test event; its error is above)")
		return
	}
	if !s.ok() {
		fmt.Fprintln(w, "Failed:")
		pkgs, tests := byPackage(s.failedTests)
		for _, p := range pkgs {
			fmt.Fprintf(w, "  %s: %s\n", short(p), strings.Join(tests[p], ", "))
		}
		for _, p := range s.failedPkgs {
			switch _, ok := tests[p]; {
			case s.brokenPkgs[p]:
				fmt.Fprintf(w, "  %s: the build failed (its errors are above)\n", short(p))
			case !ok:
				fmt.Fprintf(w, "  %s: the package failed outside its tests (its output is above)\n", short(p))
			}
		}
		if len(s.failedPkgs) == 0 {
			for _, b := range s.failedBuilds {
				fmt.Fprintf(w, "  %s: the build failed (its errors are above)\n", short(b))
			}
		}
	}
	if len(s.reasons) > 0 {
		fmt.Fprintln(w, "Skipped, under what each said turns it on:")
		for _, r := range s.reasons {
			fmt.Fprintf(w, "  %s\n", r)
			pkgs, tests := byPackage(s.skips[r])
			for _, p := range pkgs {
				fmt.Fprintf(w, "      %s: %s\n", short(p), names(tests[p]))
			}
		}
	}
	fmt.Fprintf(w, "go test: %d passed, %d failed, %d skipped\n", s.passed, s.failed, s.skipped)
}

func main() {
	report := flag.String("report", "", "write the report to this file (else to stdout after the run)")
	flag.Parse()
	s, err := summarize(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary: reading go test -json:", err)
		os.Exit(1)
	}
	out := io.Writer(os.Stdout)
	if *report != "" {
		f, err := os.Create(*report)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testsummary:", err)
			os.Exit(1)
		}
		defer f.Close()
		out = f
	}
	s.writeReport(out)
	if !s.ok() {
		// The deferred Close would not run past os.Exit.
		if f, ok := out.(*os.File); ok && f != os.Stdout {
			f.Close()
		}
		os.Exit(1)
	}
}
