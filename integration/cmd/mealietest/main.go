// Command mealietest runs the Mealie emulator as a standalone server, for the
// demo stack and for trying sous against a Mealie-shaped API without Mealie.
//
//	mealietest serve --addr 127.0.0.1:9925 --seed demo|household|empty|bench:N --mealie-version 2.0|2.8|3.11|3.20|2.8-pg|3.20-pg
//	                 [--token TOKEN] [--latency 50ms] [--jitter 20ms]
//	                 [--fault "POST /api/recipes status=503 first=3"]... [--fault-seed N]
//
// Without --token it accepts mealieemu.DefaultToken and prints it on stderr.
// --fault may be repeated; its syntax is mealieemu.ParseFaultRule's (method,
// path prefix, then status=, first=, rate=, delay=, jitter=, slow=, late=,
// reset). It stops on SIGINT or SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/souskitchen/sous/internal/mealieemu"
)

// usage is printed on a usage error.
const usage = "usage: mealietest serve [--addr HOST:PORT] [--seed demo|household|empty|bench:N] [--token TOKEN] [--mealie-version 2.0|2.8|3.11|3.20|2.8-pg|3.20-pg] [--latency DURATION] [--jitter DURATION] [--fault RULE]... [--fault-seed N]"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

// run executes the command line and returns the exit status: 0 on a clean
// stop, 2 on a usage or startup error.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "serve" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:9925", "listen address")
	seed := fs.String("seed", "demo", "initial data: demo, household, empty, bench:N, bench:N:long or bench:N:long:dup")
	token := fs.String("token", "", "API token to accept (default: mealieemu.DefaultToken, printed on start)")
	version := fs.String("mealie-version", "2.8", "Mealie version to emulate: 2.0, 2.8, 3.11 or 3.20, or 2.8-pg or 3.20-pg on PostgreSQL")
	latency := fs.Duration("latency", 0, "delay added to every response")
	jitter := fs.Duration("jitter", 0, "random extra delay in [0, jitter) added to every response")
	faultSeed := fs.Uint64("fault-seed", 0, "seed of the generator behind fault rates and jitter")
	var faults []mealieemu.FaultRule
	fs.Func("fault", `fault rule, repeatable, e.g. "POST /api/recipes status=503 first=3" or "/api/foods rate=0.1 reset"`, func(spec string) error {
		r, err := mealieemu.ParseFaultRule(spec)
		if err != nil {
			return err
		}
		faults = append(faults, r)
		return nil
	})
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mealietest: unexpected argument %q\n%s\n", fs.Arg(0), usage)
		return 2
	}
	if *jitter > 0 {
		faults = append(faults, mealieemu.FaultRule{Jitter: *jitter})
	}
	opts := []mealieemu.Option{
		mealieemu.WithAddr(*addr), mealieemu.WithSeed(*seed),
		mealieemu.WithVersion(*version), mealieemu.WithLatency(*latency),
		mealieemu.WithFault(faults...), mealieemu.WithFaultSeed(*faultSeed),
	}
	if *token != "" {
		opts = append(opts, mealieemu.WithToken(*token))
	}
	start := time.Now()
	srv, err := mealieemu.Start(opts...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	defer srv.Close()
	if *token == "" {
		fmt.Fprintf(stderr, "mealietest: token %s\n", srv.Token)
	}
	for _, f := range faults {
		fmt.Fprintf(stderr, "mealietest: fault %s\n", f)
	}
	fmt.Fprintf(stderr, "mealietest: Mealie %s emulator on %s (seed %s, ready in %s)\n", *version, srv.URL, *seed, time.Since(start).Round(time.Millisecond))
	<-ctx.Done()
	return 0
}
