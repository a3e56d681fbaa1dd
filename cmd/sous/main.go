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

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/logs"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/version"
	"github.com/souskitchen/sous/mcpfront"
)

// exitStartup is the exit status of a failed configuration or startup probe
// (seed, "Startup").
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
		fmt.Fprintln(stdout, "sous", version.Version)
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

func setup(stderr io.Writer) (config, *slog.Logger, error) {
	cfg, err := loadConfig()
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
	list := fs.String("services", strings.Join(serviceNames, ","), "comma-separated services to run")
	addr := fs.String("addr", cfg.ServeAddr, "listen address (SOUS_SERVE_ADDR)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	var names []string
	for _, n := range strings.Split(*list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	st, err := newStack(cfg, names, true, logger)
	if err != nil {
		return err
	}
	// Services called by the ones asked for and built here (recipes for
	// mealplan, say) are served too; calls between them stay in-process.
	stopLocal := st.start()
	defer stopLocal()
	if cfg.ServiceToken == "" {
		logger.Warn("SOUS_SERVICE_TOKEN is not set: the services accept any caller; set it before exposing them beyond this host")
	}
	return serve.ListenAndServe(ctx, *addr, serve.Handler(cfg.ServiceToken, st.local...), logger)
}

// cmdMCP runs the MCP front over stdio or Streamable HTTP.
func cmdMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, logger, err := setup(stderr)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	stdio := fs.Bool("stdio", false, "serve MCP over stdin/stdout (the default)")
	httpMode := fs.Bool("http", false, "serve MCP over Streamable HTTP")
	addr := fs.String("addr", cfg.MCPAddr, "HTTP listen address (SOUS_MCP_ADDR)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if *stdio && *httpMode {
		fmt.Fprintln(stderr, "sous mcp: choose one of --stdio and --http")
		return errUsage
	}
	server, readServer, stop, err := startFront(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer stop()
	if *httpMode {
		return serveMCPHTTPWith(ctx, cfg, *addr, server, readServer, logger, nil)
	}
	err = server.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// startFront builds the backends, probes them, and builds the MCP servers
// (see frontServers).
func startFront(ctx context.Context, cfg config, logger *slog.Logger) (server, readServer *mcp.Server, stop func(), err error) {
	b, stop, err := backends(cfg, logger)
	if err != nil {
		return nil, nil, stop, err
	}
	server, readServer, err = frontServers(ctx, cfg, b, logger)
	if err != nil {
		stop()
		return nil, nil, func() {}, err
	}
	return server, readServer, stop, nil
}

// frontServers probes the backends, logs the startup line, and builds the
// MCP server. With OAuth configured and the server not already read-only,
// it also builds the read-only server that mcp:read tokens talk to, so they
// see exactly what read-only mode shows (nil otherwise).
func frontServers(ctx context.Context, cfg config, b mcpfront.Backends, logger *slog.Logger) (server, readServer *mcp.Server, err error) {
	line, err := probe(ctx, b)
	if err != nil {
		return nil, nil, err
	}
	logger.Info(line)
	opts := frontOptions(cfg, logger)
	if server, err = mcpfront.NewServer(b, opts); err != nil {
		return nil, nil, err
	}
	if cfg.OAuthIssuer != "" && !opts.ReadOnly {
		opts.ReadOnly = true
		if readServer, err = mcpfront.NewServer(b, opts); err != nil {
			return nil, nil, err
		}
	}
	return server, readServer, nil
}

// serveMCPHTTPWith serves the MCP front over Streamable HTTP on addr, with
// the OAuth authorization server on the same listener when
// SOUS_OAUTH_ISSUER is set. ready, if non-nil, is called with the
// listening address.
func serveMCPHTTPWith(ctx context.Context, cfg config, addr string, server, readServer *mcp.Server, logger *slog.Logger, ready func(string)) error {
	as, err := openOAuth(cfg, logger)
	if err != nil {
		return err
	}
	if as != nil {
		defer as.Close()
		logger.Info("OAuth is on", "issuer", as.Issuer(), "resource", as.ResourceURL(), "state", cfg.OAuthState)
	}
	o := mcpfront.HTTPOptions{
		PathSecret: cfg.URLSecret, BearerToken: cfg.MCPBearerToken, PublicURL: cfg.PublicURL, Logger: logger,
		OAuth: as, ReadServer: readServer,
	}
	if err := o.Check(); err != nil {
		return err
	}
	h := mcpfront.HTTPHandler(server, o)
	if cfg.URLSecret == "" && cfg.MCPBearerToken == "" && as == nil && !loopbackAddr(addr) {
		logger.Warn("the MCP endpoint is bound beyond loopback with no auth: set SOUS_OAUTH_ISSUER, FOOD_MCP_URL_SECRET or SOUS_MCP_BEARER_TOKEN", "addr", addr)
	}
	ln, err := listen(addr)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(ln.Addr().String())
	}
	logger.Info("MCP over Streamable HTTP", "addr", ln.Addr().String())
	return serve.Run(ctx, serve.NewServer(h, logger), ln)
}

// frontOptions are the MCP front's options from the configuration.
func frontOptions(cfg config, logger *slog.Logger) mcpfront.Options {
	return mcpfront.Options{Toolsets: cfg.Toolsets, ReadOnly: cfg.MealieReadOnly, Logger: logger, ImageDir: cfg.ImageDir}
}
