package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/souskitchen/sous/cmd/internal/stack"
	"github.com/souskitchen/sous/mcpfront/oauth"
)

const oauthUsage = `usage:
  sous oauth clients               list registered clients and their grants
  sous oauth revoke CLIENT_ID      revoke a client and everything it was granted
  sous oauth hash-passphrase       read a passphrase on stdin, print its argon2id hash
`

// cmdOAuth administers the OAuth store (SOUS_OAUTH_STATE). It works while
// sous runs: the store is SQLite in WAL mode.
func cmdOAuth(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, oauthUsage)
		return errUsage
	}
	if args[0] == "hash-passphrase" {
		// Needs no configuration: the hash is written to the file
		// SOUS_OAUTH_PASSPHRASE_FILE names.
		if err := parse(flag.NewFlagSet("oauth hash-passphrase", flag.ContinueOnError), args[1:], stderr); err != nil {
			return err
		}
		return hashPassphrase(stdin, stdout)
	}
	cfg, err := stack.LoadConfig()
	if err != nil {
		return err
	}
	switch args[0] {
	case "clients":
		if err := parse(flag.NewFlagSet("oauth clients", flag.ContinueOnError), args[1:], stderr); err != nil {
			return err
		}
		clients, err := oauth.ListClients(ctx, cfg.OAuthState)
		if err != nil {
			return err
		}
		return printClients(stdout, clients)
	case "revoke":
		if len(args) != 2 {
			fmt.Fprint(stderr, oauthUsage)
			return errUsage
		}
		if err := oauth.RevokeClient(ctx, cfg.OAuthState, args[1]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revoked %s: its tokens stop working now; the client must register and be approved again\n", args[1])
		return nil
	default:
		fmt.Fprintf(stderr, "sous oauth: unknown command %q\n%s", args[0], oauthUsage)
		return errUsage
	}
}

// hashPassphrase reads the passphrase (the first line of stdin, without
// its line ending) and prints its argon2id hash.
func hashPassphrase(stdin io.Reader, stdout io.Writer) error {
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	hash, err := oauth.HashPassphrase(strings.TrimRight(line, "\r\n"))
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, hash)
	return err
}

// printClients writes one row per client: what the owner needs to tell
// connectors apart and pick one to revoke.
func printClients(w io.Writer, clients []oauth.ClientInfo) error {
	if len(clients) == 0 {
		_, err := fmt.Fprintln(w, "no OAuth clients are registered")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CLIENT ID\tNAME\tAUTH\tREDIRECT HOSTS\tREGISTERED\tLAST USED\tGRANTS\tSCOPE")
	for _, c := range clients {
		var hosts []string
		for _, r := range c.RedirectURIs {
			if u, err := url.Parse(r); err == nil {
				hosts = append(hosts, u.Host)
			}
		}
		last := "never"
		if !c.LastUsed.IsZero() {
			last = c.LastUsed.Format(time.DateTime)
		}
		scope := c.Scope
		if scope == "" {
			scope = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", printable(c.ID), printable(c.Name), printable(c.AuthMethod), printable(strings.Join(hosts, ",")),
			c.Created.Format(time.DateTime), last, c.LiveGrants, scope)
	}
	return tw.Flush()
}

// printable drops control characters (terminal escapes, tabs, newlines)
// from what an anonymous client registered: names reach the owner's
// terminal.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}
