// Command sous runs the sous services and its MCP front.
//
//	sous serve [--services recipes,mealplan,library,pantry] [--addr 127.0.0.1:8080]
//	sous mcp [--stdio | --http] [--addr 127.0.0.1:8765]
//	sous demo [--addr 127.0.0.1:8765] [--connect-addr 127.0.0.1:8080]
//	sous oauth clients | revoke CLIENT_ID | hash-passphrase
//	sous healthcheck [--mcp] URL
//	sous --version
//
// Configuration comes from the environment, then a .env found upward from
// the working directory (see docs/configuration.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/souskitchen/sous/cmd/internal/stack"
	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/logs"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/version"
	"github.com/souskitchen/sous/mcpfront"
)

// exitStartup is the exit status of a failed configuration or startup probe,
// as serve.ExitStartup is for the service binaries.
const exitStartup = 2

const usage = `usage:
  sous serve [--services recipes,mealplan,library,pantry] [--addr HOST:PORT]
  sous mcp [--stdio | --http] [--addr HOST:PORT]
  sous demo [--addr HOST:PORT] [--connect-addr HOST:PORT]
  sous oauth clients | revoke CLIENT_ID | hash-passphrase
  sous healthcheck [--mcp] URL
  sous --version
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// errUsage marks a command-line mistake (exit status 2 with the usage).
var errUsage = errors.New("usage")

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitStartup
	}
	switch args[0] {
	case "--version", "-version", "version":
		fmt.Fprintln(stdout, "sous", version.Describe())
		return 0
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	if wd, err := os.Getwd(); err == nil {
		if _, err := env.LoadDotEnv(wd); err != nil {
			fmt.Fprintln(stderr, "sous:", err)
			return exitStartup
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var err error
	switch args[0] {
	case "serve":
		err = cmdServe(ctx, args[1:], stderr)
	case "mcp":
		err = cmdMCP(ctx, args[1:], stdin, stdout, stderr)
	case "demo":
		err = cmdDemo(ctx, args[1:], stdout, stderr)
	case "oauth":
		err = cmdOAuth(ctx, args[1:], stdin, stdout, stderr)
	case "healthcheck":
		return cmdHealthcheck(ctx, args[1:], stderr)
	default:
		fmt.Fprintf(stderr, "sous: unknown command %q\n%s", args[0], usage)
		return exitStartup
	}
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(stderr, "sous:", err)
		}
		return exitStartup
	}
	return 0
}

func setup(stderr io.Writer) (stack.Config, *slog.Logger, error) {
	cfg, err := stack.LoadConfig()
	if err != nil {
		return cfg, nil, err
	}
	logger, err := logs.New(stderr, cfg.LogLevel)
	return cfg, logger, err
}

func parse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sous %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
}

// cmdServe runs a set of Connect services in this process.
func cmdServe(ctx context.Context, args []string, stderr io.Writer) error {
	cfg, logger, err := setup(stderr)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	list := fs.String("services", strings.Join(stack.Names, ","), "comma-separated services to run")
	addr := fs.String("addr", cfg.ServeAddr, "listen address (SOUS_SERVE_ADDR)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	explicit := false
	fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "services" })
	st, err := stack.New(cfg, stack.ServeServices(cfg, *list, explicit), stack.Serve, logger)
	if err != nil {
		return err
	}
	// Services called by the ones asked for and built here (recipes for
	// mealplan, say) are served too; calls between them stay in-process.
	stopLocal := st.Start()
	defer stopLocal()
	if cfg.Remotes.Token == "" {
		logger.Warn("SOUS_SERVICE_TOKEN is not set: the services accept any caller; set it before exposing them beyond this host")
	}
	return serve.ListenAndServe(ctx, *addr, serve.Handler(cfg.Remotes.Token, st.Local()...), logger)
}

// cmdMCP runs the MCP front over stdio or Streamable HTTP, with each
// service in this process or remote (see stack.New).
func cmdMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, logger, err := setup(stderr)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	stdio := fs.Bool("stdio", false, "serve MCP over stdin/stdout (the default)")
	httpMode := fs.Bool("http", false, "serve MCP over Streamable HTTP")
	addr := fs.String("addr", cfg.Addr, "HTTP listen address (SOUS_MCP_ADDR)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if *stdio && *httpMode {
		fmt.Fprintln(stderr, "sous mcp: choose one of --stdio and --http")
		return errUsage
	}
	cfg.Addr = *addr
	st, err := stack.New(cfg, stack.ForToolsets(cfg.Toolsets), stack.Front, logger)
	if err != nil {
		return err
	}
	stopLocal := st.Start()
	defer stopLocal()
	servers, err := startFront(ctx, cfg, st.Backends(), logger)
	if err != nil {
		return err
	}
	if *httpMode {
		return mcpfront.ListenAndServe(ctx, cfg.Config, servers, logger, nil)
	}
	return mcpfront.RunStdio(ctx, servers.Server, stdin, stdout)
}

// startFront probes the backends, logs the startup line and builds the MCP
// servers (mcpfront.Start), saying which variables configure a backend
// when none is.
func startFront(ctx context.Context, cfg stack.Config, b mcpfront.Backends, logger *slog.Logger) (mcpfront.Servers, error) {
	s, err := mcpfront.Start(ctx, cfg.Config, b, logger)
	if errors.Is(err, mcpfront.ErrNoBackends) {
		return s, fmt.Errorf("%w: set MEALIE_URL and MEALIE_API_TOKEN, or FOOD_API_BASE and FOOD_API_TOKEN (or run `sous demo`)", err)
	}
	return s, err
}
