package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/souskitchen/sous/integration/mealietest"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/mcpfront"
)

// cmdDemo runs everything on this machine against the seeded Mealie
// emulator: the services (Connect on --connect-addr) and the MCP front over
// Streamable HTTP on --addr. Configuration of a real Mealie is ignored.
func cmdDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, logger, err := setup(stderr)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	addr := fs.String("addr", defaultMCPAddr, "MCP listen address")
	connectAddr := fs.String("connect-addr", defaultServeAddr, "Connect API listen address")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	em, err := mealietest.Start(mealietest.WithSeed("demo"))
	if err != nil {
		return fmt.Errorf("starting the Mealie emulator: %w", err)
	}
	defer em.Close()
	cfg.MealieURL, cfg.MealieToken, cfg.MealieVerifySSL = em.URL, em.Token, true
	cfg.RecipesURL, cfg.MealPlanURL, cfg.LibraryURL, cfg.PantryURL = "", "", "", ""

	// The pantry joins when FOOD_API_BASE and FOOD_API_TOKEN name a food
	// API; otherwise its toolset is off with one log line.
	st, err := newStack(cfg, servicesForToolsets(cfg.Toolsets), false, logger)
	if err != nil {
		return err
	}
	stopLocal := st.start()
	defer stopLocal()
	// The demo's Connect API is for local exploration with buf curl or
	// grpcurl; it uses SOUS_SERVICE_TOKEN when one is set.
	ln, err := listen(*connectAddr)
	if err != nil {
		return fmt.Errorf("the demo Connect API cannot listen: %w", err)
	}
	connectCtx, stopConnect := context.WithCancel(ctx)
	connectDone := make(chan error, 1)
	go func() {
		connectDone <- serve.Run(connectCtx, serve.NewServer(serve.Handler(cfg.ServiceToken, st.local...), logger), ln)
	}()
	defer func() { stopConnect(); <-connectDone }()

	b := st.backends()
	line, err := probe(ctx, b)
	if err != nil {
		return err
	}
	logger.Info(line)
	server, err := mcpfront.NewServer(b, frontOptions(cfg, logger))
	if err != nil {
		return err
	}
	return serveMCPHTTP(ctx, cfg, *addr, server, logger, func(mcpAddr string) {
		path := "/mcp"
		if cfg.URLSecret != "" {
			path = "/mcp/<FOOD_MCP_URL_SECRET>"
		}
		fmt.Fprintf(stdout, `sous demo is running against a seeded Mealie emulator.

  MCP (Streamable HTTP):  http://%[1]s%[2]s
  Connect API:            http://%[3]s  (try: grpcurl -plaintext %[3]s list)
  Mealie emulator:        %[4]s  (API token: %[5]s)

Connect an MCP client, for example:
  npx @modelcontextprotocol/inspector --cli http://%[1]s%[2]s --transport http --method tools/list
  claude mcp add --transport http sous http://%[1]s%[2]s

Press Ctrl-C to stop.
`, mcpAddr, path, ln.Addr().String(), em.URL, em.Token)
	})
}
