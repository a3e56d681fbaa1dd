// Command sousbench measures every figure of docs/benchmarks.md in one run
// and rewrites that page's results block.
//
//	sousbench [-sous bin/sous] [-before old/sous] [-doc docs/benchmarks.md] [-only catalog,hop] [-timeout 9m] [-panic=false]
//
// Without -sous it builds the sous binary into a temporary directory. It
// runs from anywhere inside the repository. With -only it prints the
// partial results and leaves the document alone.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/souskitchen/sous/integration/bench"
	"github.com/souskitchen/sous/internal/foodapiproc"
)

// defaultTimeout keeps `make bench` under ten minutes on two cores: the
// figures take about four, two and a half of them the load figure and its
// rest before the last memory reading.
const defaultTimeout = 9 * time.Minute

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sousbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sousBin := fs.String("sous", "", "sous binary to measure (default: build one)")
	beforeBin := fs.String("before", "", "a sous binary from before the edit tools, for the before runs of the household's edit asks (default: this build)")
	doc := fs.String("doc", "docs/benchmarks.md", "document whose results block to rewrite, relative to the repository root")
	only := fs.String("only", "", "comma-separated figures to run ("+strings.Join(bench.FigureNames, ", ")+"); the document is then left alone")
	timeout := fs.Duration("timeout", defaultTimeout, "bound on the whole run")
	trace := fs.Bool("trace", false, "print every household task's calls and answers to stderr")
	withPanic := fs.Bool("panic", true, "mix one deliberately panicking call into the load figure (builds sous with the sous_bench_panic tag)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "sousbench:", err)
		return 1
	}
	root, err := foodapiproc.FindRoot(wd)
	if err != nil {
		fmt.Fprintln(stderr, "sousbench:", err)
		return 1
	}
	work, err := os.MkdirTemp("", "sousbench-")
	if err != nil {
		fmt.Fprintln(stderr, "sousbench:", err)
		return 1
	}
	defer os.RemoveAll(work)
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	bin := *sousBin
	if bin == "" {
		bin = filepath.Join(work, "bin", "sous")
		fmt.Fprintln(stderr, "sousbench: building sous")
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/sous")
		build.Dir, build.Stdout, build.Stderr = root, stderr, stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(stderr, "sousbench: building sous:", err)
			return 1
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		fmt.Fprintln(stderr, "sousbench:", err)
		return 1
	}
	// The load figure runs a build whose get_recipe panics on one slug, to
	// show a panic costs its call only; no build a user runs has the tag.
	panicBin := ""
	if *withPanic && (*only == "" || slices.Contains(strings.Split(*only, ","), "load")) {
		panicBin = filepath.Join(work, "bin", "sous-bench-panic")
		fmt.Fprintln(stderr, "sousbench: building sous with the sous_bench_panic tag")
		build := exec.CommandContext(ctx, "go", "build", "-tags", "sous_bench_panic", "-o", panicBin, "./cmd/sous")
		build.Dir, build.Stdout, build.Stderr = root, stderr, stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(stderr, "sousbench: building sous with the sous_bench_panic tag:", err)
			return 1
		}
	}
	childDir := filepath.Join(work, "cwd")
	if err := os.Mkdir(childDir, 0o755); err != nil {
		fmt.Fprintln(stderr, "sousbench:", err)
		return 1
	}
	if *beforeBin != "" {
		if *beforeBin, err = filepath.Abs(*beforeBin); err != nil {
			fmt.Fprintln(stderr, "sousbench:", err)
			return 1
		}
	}
	h := &bench.Harness{
		Bin: bin, BeforeBin: *beforeBin, PanicBin: panicBin, Root: root, Work: childDir, Log: stderr,
		Tok: &bench.Tokenizer{Dir: filepath.Join(root, "integration", "bench", "tokenizer")},
	}
	if *only != "" {
		h.Only = strings.Split(*only, ",")
	}
	if *trace {
		h.Trace = stderr
	}
	res, err := h.Run(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "sousbench:", err)
		return 1
	}
	md := res.Markdown()
	fmt.Fprintln(stdout, md)
	if *only != "" {
		return 0
	}
	path := *doc
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	if err := bench.Rewrite(path, md); err != nil {
		fmt.Fprintln(stderr, "sousbench:", err)
		return 1
	}
	fmt.Fprintf(stderr, "sousbench: wrote %s\n", path)
	if len(res.Errors) > 0 {
		return 1
	}
	return 0
}
