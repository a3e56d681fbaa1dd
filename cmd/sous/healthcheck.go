package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"

	"github.com/souskitchen/sous/internal/env"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/mcpfront"
)

// Exit statuses of `sous healthcheck`: Docker reads 0 as healthy and 1 as
// unhealthy, and reserves 2, which is left to command-line mistakes only.
const (
	exitHealthy   = 0
	exitUnhealthy = 1
)

// cmdHealthcheck checks a running sous server, for container health checks
// in images without a shell:
//
//	sous healthcheck URL         gRPC health (grpc.health.v1.Health/Check) of
//	                             a Connect service at URL, h2c for http://
//	sous healthcheck --mcp URL   an MCP ping over Streamable HTTP to the MCP
//	                             endpoint URL, with "Authorization: Bearer
//	                             $SOUS_MCP_BEARER_TOKEN" when that is set;
//	                             with OAuth on, its 401 challenge counts as
//	                             up (mcpfront.Ping, which the mcpfront
//	                             binary's --healthcheck runs too)
//
// It prints nothing when healthy and one line to stderr otherwise, never
// with the URL's path or query, which may hold FOOD_MCP_URL_SECRET. It
// returns the exit status.
func cmdHealthcheck(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	mcpMode := fs.Bool("mcp", false, "URL is an MCP endpoint: send an MCP ping")
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitHealthy
		}
		return exitStartup
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: sous healthcheck [--mcp] URL")
		return exitStartup
	}
	u, err := url.Parse(fs.Arg(0))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// url.Parse's error quotes the whole URL: say only what is wrong.
		fmt.Fprintln(stderr, "sous healthcheck: the URL must be http:// or https:// with a host")
		return exitStartup
	}
	if *mcpMode {
		err = mcpfront.Ping(ctx, u.String(), env.String("SOUS_MCP_BEARER_TOKEN", ""))
	} else if err = serve.Check(ctx, u.String(), ""); err != nil {
		err = mcpfront.RedactURLError(u, err)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sous healthcheck: %v\n", err)
		return exitUnhealthy
	}
	return exitHealthy
}
