package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/souskitchen/sous/cmd/internal/stack"
	"github.com/souskitchen/sous/internal/foodapiproc"
	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/internal/svcenv"
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
	addr := fs.String("addr", mcpfront.DefaultAddr, "MCP listen address")
	connectAddr := fs.String("connect-addr", stack.DefaultServeAddr, "Connect API listen address")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	em, err := mealieemu.Start(mealieemu.WithSeed("demo"))
	if err != nil {
		return fmt.Errorf("starting the Mealie emulator: %w", err)
	}
	defer em.Close()
	cfg.Mealie = svcenv.Mealie{URL: em.URL, Token: em.Token, VerifySSL: true}
	// The views show the emulator's images unless a public URL was set.
	if os.Getenv("SOUS_MEALIE_PUBLIC_URL") == "" {
		cfg.Config.MealieURL = em.URL
	}
	cfg.Remotes = mcpfront.Remotes{Token: cfg.Remotes.Token}

	// The pantry: a food API named by FOOD_API_BASE and FOOD_API_TOKEN, or
	// else the bundled Django app on a loopback port with a fresh SQLite
	// file and the demo pantry. Without its virtualenv the pantry toolset is
	// off with one log line (`make demo` builds the virtualenv first).
	foodNote := cfg.FoodAPI.Base
	if !cfg.FoodAPI.Configured() {
		root := repoRoot()
		var fa *foodapiproc.FoodAPI
		err := errNoRepo
		if root != "" {
			fa, err = foodapiproc.Start(ctx, foodapiproc.Options{Root: root})
		}
		switch {
		case errors.Is(err, foodapiproc.ErrNoVirtualenv) || errors.Is(err, errNoRepo):
			logger.Warn("the demo pantry is off: run `make demo` from a sous checkout (it builds the food API's virtualenv)", "reason", err)
			foodNote = "off (no virtualenv)"
		case err != nil:
			return fmt.Errorf("starting the demo food API: %w", err)
		default:
			defer fa.Close()
			cfg.FoodAPI = svcenv.FoodAPI{Base: fa.BaseURL, Token: fa.Token}
			foodNote = fa.BaseURL + "  (token: " + fa.Token + ")"
		}
	}
	st, err := stack.New(cfg, stack.ForToolsets(cfg.Toolsets), stack.Front, logger)
	if err != nil {
		return err
	}
	stopLocal := st.Start()
	defer stopLocal()
	// The demo's Connect API is for local exploration with buf curl or
	// grpcurl; it uses SOUS_SERVICE_TOKEN when one is set.
	ln, err := net.Listen("tcp", *connectAddr)
	if err != nil {
		return fmt.Errorf("the demo Connect API cannot listen: %w", err)
	}
	connectCtx, stopConnect := context.WithCancel(ctx)
	connectDone := make(chan error, 1)
	go func() {
		connectDone <- serve.Run(connectCtx, serve.NewServer(serve.Handler(cfg.Remotes.Token, st.Local()...), logger), ln)
	}()
	defer func() { stopConnect(); <-connectDone }()

	servers, err := startFront(ctx, cfg, st.Backends(), logger)
	if err != nil {
		return err
	}
	cfg.Addr = *addr
	return mcpfront.ListenAndServe(ctx, cfg.Config, servers, logger, func(mcpAddr string) {
		writeBanner(stdout, banner{
			mcpAddr: mcpAddr, connectAddr: ln.Addr().String(), mealieURL: em.URL, mealieToken: em.Token, food: foodNote,
			pathSecret: cfg.URLSecret != "", bearer: cfg.BearerToken != "", serviceToken: cfg.Remotes.Token != "",
			grpcurl: grpcurlCommand(),
		})
	})
}

// inspector is how the docs and the banner run the MCP Inspector's CLI. The
// version is pinned: an unpinned npx on Node 20 resolves an old Inspector
// that has no --header and rewrites a path-secret URL's path to /mcp.
// 2.12.0 is the version integration/e2e/inspector tests against; on Node 20 npm
// warns EBADENGINE about it, and its CLI works all the same.
const inspector = "npx -y @modelcontextprotocol/inspector@2.12.0 --cli"

// grpcurlVersion is the grpcurl that tools/go.mod pins (TestGrpcurlPin
// holds them together); the banner runs it with go run outside a checkout.
const grpcurlVersion = "v1.9.4"

// grpcurlCommand is how the banner runs grpcurl on a machine with only Go:
// from the checkout's pinned tools (tools/go.mod) when the demo runs in or
// from one (go -C reaches it from any directory), else with go run at the
// same version.
func grpcurlCommand() string {
	const tool = "GOWORK=off go tool%s -modfile=tools/go.mod grpcurl"
	root := repoRoot()
	if root == "" {
		return "go run github.com/fullstorydev/grpcurl/cmd/grpcurl@" + grpcurlVersion
	}
	if wd, err := os.Getwd(); err == nil && sameDir(wd, root) {
		return fmt.Sprintf(tool, "")
	}
	return fmt.Sprintf(tool, " -C "+shellQuote(root))
}

// sameDir reports whether a and b name one directory.
func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// shellQuote quotes a path for the shell when it holds anything but the
// characters paths usually have.
func shellQuote(s string) string {
	for _, r := range s {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// banner is what the demo prints once it listens.
type banner struct {
	mcpAddr, connectAddr, mealieURL, mealieToken, food string
	// grpcurl is the command that runs grpcurl (grpcurlCommand).
	grpcurl string
	// pathSecret, bearer and serviceToken say FOOD_MCP_URL_SECRET,
	// SOUS_MCP_BEARER_TOKEN and SOUS_SERVICE_TOKEN are set: the commands
	// printed then carry them. They name the variables rather than print
	// values the user chose.
	pathSecret, bearer, serviceToken bool
}

// writeBanner prints where everything is and commands that work as shown
// (docs/try-it.md quotes them).
func writeBanner(w io.Writer, b banner) {
	url := "http://" + b.mcpAddr + "/mcp"
	if b.pathSecret {
		url += "/$FOOD_MCP_URL_SECRET"
	}
	var mcpHeader, claudeHeader, grpcHeader string
	if b.bearer {
		mcpHeader = ` --header "Authorization: Bearer $SOUS_MCP_BEARER_TOKEN"`
		claudeHeader = mcpHeader
	}
	if b.serviceToken {
		grpcHeader = ` -H "Authorization: Bearer $SOUS_SERVICE_TOKEN"`
	}
	fmt.Fprintf(w, `sous demo is running against a seeded Mealie emulator.

  MCP (Streamable HTTP):  %[1]s
  Connect API:            http://%[2]s
  Mealie emulator:        %[4]s  (API token: %[5]s)
  Food API (pantry):      %[6]s

Connect an MCP client, for example:
  %[7]s "%[1]s" --transport http%[8]s --method tools/list
  claude mcp add --transport http sous "%[1]s"%[9]s

Call the Connect API, for example (the first run compiles grpcurl):
  %[10]s -plaintext%[3]s %[2]s list
`, url, b.connectAddr, grpcHeader, b.mealieURL, b.mealieToken, b.food, inspector, mcpHeader, claudeHeader, b.grpcurl)
	var vars []string
	if b.pathSecret {
		vars = append(vars, "FOOD_MCP_URL_SECRET")
	}
	if b.bearer {
		vars = append(vars, "SOUS_MCP_BEARER_TOKEN")
	}
	if b.serviceToken {
		vars = append(vars, "SOUS_SERVICE_TOKEN")
	}
	if len(vars) > 0 {
		fmt.Fprintf(w, "(with %s set in that shell as for the demo)\n", strings.Join(vars, " and "))
	}
	fmt.Fprint(w, "\nPress Ctrl-C to stop.\n")
}

// errNoRepo means neither the working directory nor the binary sits inside
// a sous checkout, so the bundled food API cannot be found.
var errNoRepo = errors.New("not inside a sous checkout")

// repoRoot finds the checkout that holds the bundled food API: above the
// working directory (make demo), else above the binary (bin/sous run from
// elsewhere). "" lets foodapiproc report the miss.
func repoRoot() string {
	if wd, err := os.Getwd(); err == nil {
		if root, err := foodapiproc.FindRoot(wd); err == nil {
			return root
		}
	}
	if exe, err := os.Executable(); err == nil {
		if root, err := foodapiproc.FindRoot(filepath.Dir(exe)); err == nil {
			return root
		}
	}
	return ""
}
