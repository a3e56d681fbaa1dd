// Command mcpfront serves sous's MCP front alone, for a deployment that
// runs each service in its own container (cmd/<name>):
// every tool call goes over the network to a remote sous service, and
// nothing here talks to Mealie or the food API. `sous mcp` runs the same
// front (the mcpfront package's Start, ListenAndServe and RunStdio) with
// the services in its own process when it is not given their URLs.
//
//	mcpfront [--stdio | --http] [--addr HOST:PORT]
//	mcpfront --healthcheck [--addr HOST:PORT]
//	mcpfront --version
//
// Environment: SOUS_RECIPES_URL, SOUS_MEALPLAN_URL, SOUS_LIBRARY_URL and
// SOUS_PANTRY_URL (a toolset whose service URL is unset is off, with one
// log line naming the variable), SOUS_SERVICE_TOKEN, SOUS_TOOLSETS,
// MEALIE_READ_ONLY, MEALIE_LOG_LEVEL, SOUS_IMAGE_DIR, SOUS_MCP_RATE_LIMIT
// (read whatever the transport, so a bad value fails every start), and for
// --http SOUS_MCP_ADDR (default 127.0.0.1:8765), SOUS_PUBLIC_URL and one auth
// mode: FOOD_MCP_URL_SECRET, SOUS_MCP_BEARER_TOKEN, or SOUS_OAUTH_ISSUER
// with SOUS_OAUTH_PASSPHRASE_FILE, SOUS_DATA_DIR and SOUS_OAUTH_STATE
// (mcpfront.LoadConfig). A .env found upward from the working directory
// fills what the environment leaves unset.
//
// Every service is probed before any transport starts; the startup line
// says what answered. A failed probe or a bad configuration is one line on
// stderr and exit status 2 (main_test.go).
//
// --healthcheck checks a front already serving --http on this host, for a
// container health check in an image without a shell, as the services'
// own binaries do with --healthcheck: an MCP ping (mcpfront.Ping, what
// `sous healthcheck --mcp` sends) to the endpoint the configuration gives
// (SOUS_MCP_ADDR or --addr, a wildcard host reached on loopback, and
// FOOD_MCP_URL_SECRET) with SOUS_MCP_BEARER_TOKEN. It prints nothing and
// exits 0 when the front answers; otherwise one line on stderr, never
// with the path secret, and exit status 1 (Docker reserves 2).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/logs"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/version"
	"github.com/souskitchen/sous/mcpfront"
)

// Exit statuses. exitStartup is a command-line mistake, a bad
// configuration or a failed startup probe (main_test.go); a health
// check exits exitHealthy or exitUnhealthy only, as Docker reads them.
const (
	exitHealthy   = serve.ExitOK
	exitUnhealthy = serve.ExitUnhealthy
	exitStartup   = serve.ExitStartup
)

// startupProbeTimeout bounds the startup probe, as the services' own
// binaries bound theirs: four GetStatus calls, each a Mealie or food API
// read retried on a waking server, fit well inside it, and a service that
// never answers fails the start rather than hanging it.
const startupProbeTimeout = 60 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: it returns the exit status. Under
// --stdio, stdout carries only the protocol; everything else goes to
// stderr.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpfront", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stdio := fs.Bool("stdio", false, "serve MCP over stdin/stdout (the default)")
	httpMode := fs.Bool("http", false, "serve MCP over Streamable HTTP")
	addr := fs.String("addr", "", "HTTP listen address (default SOUS_MCP_ADDR, else "+mcpfront.DefaultAddr+")")
	showVersion := fs.Bool("version", false, "print the version and exit")
	healthcheck := fs.Bool("healthcheck", false,
		"check the front serving --http on this host with an MCP ping: exit 0 when it answers, 1 otherwise")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitStartup
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "mcpfront: unexpected argument %q\n", fs.Arg(0))
		return exitStartup
	case *showVersion:
		fmt.Fprintln(stdout, "mcpfront", version.Describe())
		return 0
	case *stdio && *httpMode:
		fmt.Fprintln(stderr, "mcpfront: choose one of --stdio and --http")
		return exitStartup
	case *healthcheck && (*stdio || *httpMode):
		fmt.Fprintln(stderr, "mcpfront: --healthcheck checks a running front; it takes no --stdio or --http")
		return exitStartup
	case *healthcheck:
		if err := checkFront(ctx, *addr); err != nil {
			fmt.Fprintln(stderr, "mcpfront: health check:", strings.ReplaceAll(err.Error(), "\n", "; "))
			return exitUnhealthy
		}
		return exitHealthy
	}
	if err := serveFront(ctx, *httpMode, *addr, stdin, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "mcpfront:", err)
		return exitStartup
	}
	return 0
}

// checkFront pings the front this configuration serves over HTTP on this
// host; addr, when set, overrides SOUS_MCP_ADDR. A configuration the front
// would refuse fails the check too: no front can be serving with it.
func checkFront(ctx context.Context, addr string) error {
	if wd, err := os.Getwd(); err == nil {
		if _, err := env.LoadDotEnv(wd); err != nil {
			return err
		}
	}
	cfg, err := mcpfront.LoadConfig()
	if err != nil {
		return err
	}
	if addr == "" {
		addr = cfg.Addr
	}
	endpoint, err := mcpfront.HealthEndpoint(cfg, addr)
	if err != nil {
		return err
	}
	return mcpfront.Ping(ctx, endpoint, cfg.BearerToken)
}

// serveFront reads the configuration, reaches the remote services, probes
// them, and serves until ctx ends (or, under stdio, stdin does). addr, when
// set, overrides SOUS_MCP_ADDR.
func serveFront(ctx context.Context, httpMode bool, addr string, stdin io.Reader, stdout, stderr io.Writer) error {
	if wd, err := os.Getwd(); err == nil {
		if _, err := env.LoadDotEnv(wd); err != nil {
			return err
		}
	}
	cfg, err := mcpfront.LoadConfig()
	if err != nil {
		return err
	}
	if addr != "" {
		cfg.Addr = addr
	}
	logger, err := logs.New(stderr, cfg.LogLevel)
	if err != nil {
		return err
	}
	b := mcpfront.RemoteBackends(cfg.Remotes, cfg.Toolsets, logger)
	probeCtx, cancel := context.WithTimeout(ctx, startupProbeTimeout)
	servers, err := mcpfront.Start(probeCtx, cfg, b, logger)
	cancel()
	if errors.Is(err, mcpfront.ErrNoBackends) {
		return fmt.Errorf("%w: set SOUS_RECIPES_URL, SOUS_MEALPLAN_URL, SOUS_LIBRARY_URL or SOUS_PANTRY_URL", err)
	}
	if err != nil {
		return err
	}
	if httpMode {
		return mcpfront.ListenAndServe(ctx, cfg, servers, logger, nil)
	}
	return mcpfront.RunStdio(ctx, servers.Server, stdin, stdout)
}
