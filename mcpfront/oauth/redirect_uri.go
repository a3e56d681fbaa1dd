// Redirect URIs: which ones a client may register, how a presented one
// matches a registered one, and how the consent page names its host.

package oauth

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// checkRedirectURI accepts an absolute https URL, or http on a loopback
// address (RFC 8252 §7.3, for desktop clients), without a fragment.
func checkRedirectURI(raw string) error {
	if len(raw) > maxURILen {
		return errors.New("a redirect URI is too long")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return fmt.Errorf("redirect URI %q is not an absolute URL", raw)
	}
	if u.Fragment != "" || u.User != nil {
		return fmt.Errorf("redirect URI %q must not carry a fragment or user", raw)
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("redirect URI %q must be https, or http on a loopback address", raw)
}

// redirectMatches compares a presented redirect_uri with a registered one:
// exactly, except that a loopback http URI may differ in port (RFC 8252
// §7.3: native apps pick a free port per run).
func redirectMatches(registered []string, presented string) bool {
	// A fragment is refused here as at registration (RFC 6749 §3.1.2):
	// the loopback rule below compares host, path and query only, so it
	// would otherwise let one through.
	if strings.Contains(presented, "#") {
		return false
	}
	if slices.Contains(registered, presented) {
		return true
	}
	p, err := url.Parse(presented)
	if err != nil || p.Scheme != "http" || !isLoopback(p.Hostname()) {
		return false
	}
	for _, reg := range registered {
		q, err := url.Parse(reg)
		if err != nil || q.Scheme != "http" {
			continue
		}
		if q.Hostname() == p.Hostname() && q.Path == p.Path && q.RawQuery == p.RawQuery {
			return true
		}
	}
	return false
}

// redirectHost is the host shown on the consent page for a redirect URI,
// in its ASCII (punycode) form: in Unicode, "clаude.ai" with a Cyrillic
// "а" reads as claude.ai, while "xn--clude-..." does not. A host that has
// no ASCII form is shown escaped, never raw.
func redirectHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return strconv.QuoteToASCII(raw)
	}
	host, port := u.Hostname(), u.Port()
	ascii, err := idna.Punycode.ToASCII(host)
	if err != nil {
		ascii = strings.Trim(strconv.QuoteToASCII(host), `"`)
	}
	if port != "" {
		return net.JoinHostPort(ascii, port)
	}
	return ascii
}
