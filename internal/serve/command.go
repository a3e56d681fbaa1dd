package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/logs"
)

// Exit statuses of a service command. Docker reads a health check's 0 as
// healthy and 1 as unhealthy (and reserves 2), so --healthcheck never exits
// 2; serving exits 2 on a configuration or startup failure, so a supervisor
// tells a misconfiguration from a crash.
const (
	ExitOK        = 0
	ExitUnhealthy = 1
	ExitStartup   = 2
)

// Setup is what every service command reads the same way, handed to
// Command.Build.
type Setup struct {
	// Logger writes text to stderr at MEALIE_LOG_LEVEL.
	Logger *slog.Logger
	// Token is SOUS_SERVICE_TOKEN: it guards the service (empty accepts any
	// caller) and is what the service presents to the other services.
	Token string
	// ReadOnly is MEALIE_READ_ONLY.
	ReadOnly bool
}

// Command is one service's own binary (cmd/<name>, built by cmd/internal/stack.Command), for a
// deployment that runs each service in its own container.
type Command struct {
	// Name prefixes the command's error messages ("recipes: ...").
	Name string
	// Addr returns the listen address (host:port), read after the .env is
	// loaded: env.String("SOUS_RECIPES_ADDR", "127.0.0.1:8081") and the
	// like, spelled out in each main so the variable's name is in the code
	// that reads it (integration/e2e keeps the docs in step by it).
	Addr func() string
	// Build makes the services to serve. It may call backends (a startup
	// probe) within ctx, which ends on SIGINT or SIGTERM; its error is
	// printed as one line and the command exits 2.
	Build func(ctx context.Context, s Setup) ([]Service, error)
}

// Main runs c with the process's arguments and exits with its status.
//
//	<name>                 serve on Addr until SIGINT or SIGTERM
//	<name> --healthcheck   check the server on Addr: exit 0 when it
//	                       answers SERVING, 1 otherwise
func Main(c Command) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := c.Run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

// Run is Main without the process: it parses args, loads a .env found upward
// from the working directory (the process environment wins), and then either
// serves until ctx ends or, with --healthcheck, checks the server listening
// on Addr (a wildcard host is reached on loopback, see LocalURL) with
// gRPC health and prints one line to stderr when it is not SERVING. It
// returns the exit status.
func (c Command) Run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	healthcheck := fs.Bool("healthcheck", false,
		"check the server on this command's listen address with gRPC health: exit 0 when SERVING, 1 otherwise")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitStartup
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", c.Name, fs.Arg(0))
		return ExitStartup
	}
	if *healthcheck {
		if err := c.healthcheck(ctx); err != nil {
			fmt.Fprintf(stderr, "%s: health check: %v\n", c.Name, err)
			return ExitUnhealthy
		}
		return ExitOK
	}
	if err := c.serve(ctx, stderr); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", c.Name, err)
		return ExitStartup
	}
	return ExitOK
}

func loadDotEnv() error {
	wd, err := os.Getwd()
	if err != nil {
		// No working directory (removed under us): nothing to look upward from.
		return nil
	}
	_, err = env.LoadDotEnv(wd)
	return err
}

func (c Command) healthcheck(ctx context.Context) error {
	if err := loadDotEnv(); err != nil {
		return err
	}
	u, err := LocalURL(c.Addr())
	if err != nil {
		return err
	}
	return Check(ctx, u, "")
}

func (c Command) serve(ctx context.Context, stderr io.Writer) error {
	if err := loadDotEnv(); err != nil {
		return err
	}
	logger, err := logs.New(stderr, env.String("MEALIE_LOG_LEVEL", "info"))
	if err != nil {
		return err
	}
	readOnly, err := env.Bool("MEALIE_READ_ONLY", false)
	if err != nil {
		return err
	}
	s := Setup{Logger: logger, Token: env.String("SOUS_SERVICE_TOKEN", ""), ReadOnly: readOnly}
	if s.Token == "" {
		logger.Warn("SOUS_SERVICE_TOKEN is not set: the service accepts any caller")
	}
	services, err := c.Build(ctx, s)
	if err != nil {
		return err
	}
	return ListenAndServe(ctx, c.Addr(), Handler(s.Token, services...), logger)
}
