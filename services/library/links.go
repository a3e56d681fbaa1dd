package library

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"connectrpc.com/connect"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
	recipesv1 "github.com/souskitchen/sous/proto/gen/sous/recipes/v1"
	"github.com/souskitchen/sous/proto/limits"
)

// Link checker limits (docs/tools.md, "check_recipe_links"; the address
// guard is in docs/security.md, "Hostile callers").
const (
	// DefaultLinkTimeout bounds one probe, redirects included: a page that
	// has not answered in 10 s is not one a cook will wait for either.
	DefaultLinkTimeout = 10 * time.Second
	// DefaultLinkRecipes is CheckRecipeLinks' default max_recipes: each
	// source is a request to a third-party host.
	DefaultLinkRecipes = limits.DefaultLinkRecipes
	// perHostLimit is how many probes one host gets at a time: two, as
	// polite crawlers do, so a library imported from one blog does not
	// hammer it.
	perHostLimit = 2
	// linkFanout bounds probes in flight over all hosts.
	linkFanout = 16
	// maxRedirects bounds a redirect chain, as browsers do (about 20) but
	// tighter: a recipe page needs one or two.
	maxRedirects = 10
	// maxProbeBody is how much of a GET fallback's body is read before the
	// connection is dropped: the status line is the answer, not the page.
	maxProbeBody = 4 << 10
	// userAgent names the checker honestly; some hosts refuse Go's default.
	userAgent = "sous-linkcheck/1 (+recipe source check)"
)

// guardError is a connection the address guard refused.
type guardError struct {
	addr netip.Addr
	kind string
}

func (e *guardError) Error() string {
	return fmt.Sprintf("resolves to %s address %s", e.kind, e.addr)
}

// specialRange is one special-purpose block that is not globally routable.
type specialRange struct {
	prefix netip.Prefix
	kind   string
}

// refusedRanges are the blocks of the IANA IPv4 and IPv6 Special-Purpose
// Address Registries (RFC 6890 and its updates) whose "Globally Reachable"
// is false or that are reserved, plus the unallocated IPv6 space outside
// 2000::/3. A homelab lives in many of them: Tailscale and other overlays
// number whole networks in 100.64.0.0/10, Docker and test rigs use
// 198.18.0.0/15. Blocks that embed an IPv4 address and are routed to it
// (IPv4-mapped, NAT64 64:ff9b::/96, 6to4, Teredo) are not here:
// embeddedIPv4 judges them by the address they carry. Order matters only
// for the names: the first match names the refusal.
var refusedRanges = func() []specialRange {
	table := []struct{ prefix, kind string }{
		{"0.0.0.0/8", "this-network"},
		{"10.0.0.0/8", "private"},
		{"100.64.0.0/10", "shared (carrier-grade NAT)"},
		{"127.0.0.0/8", "loopback"},
		{"169.254.0.0/16", "link-local"},
		{"172.16.0.0/12", "private"},
		{"192.0.0.0/24", "IETF protocol assignment"},
		{"192.0.2.0/24", "documentation"},
		{"192.88.99.0/24", "6to4 relay anycast (deprecated)"},
		{"192.168.0.0/16", "private"},
		{"198.18.0.0/15", "benchmarking"},
		{"198.51.100.0/24", "documentation"},
		{"203.0.113.0/24", "documentation"},
		{"224.0.0.0/4", "multicast"},
		{"255.255.255.255/32", "broadcast"},
		{"240.0.0.0/4", "reserved"},

		{"::/128", "unspecified"},
		{"::1/128", "loopback"},
		{"::/96", "IPv4-compatible (deprecated)"},
		{"64:ff9b:1::/48", "local-use NAT64"},
		{"100::/64", "discard-only"},
		{"100:0:0:1::/64", "dummy"},
		{"2001:2::/48", "benchmarking"},
		{"2001:10::/28", "ORCHID (deprecated)"},
		{"2001::/23", "IETF protocol assignment"},
		{"2001:db8::/32", "documentation"},
		{"3fff::/20", "documentation"},
		{"5f00::/16", "segment routing"},
		{"fc00::/7", "unique-local"},
		{"fe80::/10", "link-local"},
		{"fec0::/10", "site-local (deprecated)"},
		{"ff00::/8", "multicast"},
	}
	out := make([]specialRange, len(table))
	for i, r := range table {
		out[i] = specialRange{prefix: netip.MustParsePrefix(r.prefix), kind: r.kind}
	}
	return out
}()

// globalUnicast is the only IPv6 space IANA allocates for global unicast;
// everything else (bar the embedding forms) is reserved.
var globalUnicast = netip.MustParsePrefix("2000::/3")

// IPv6 blocks that carry an IPv4 address a gateway sends the packet to.
var (
	// nat64 is the well-known NAT64 prefix (RFC 6052): the last 32 bits.
	nat64 = netip.MustParsePrefix("64:ff9b::/96")
	// sixToFour is 6to4 (RFC 3056): bits 16 to 47.
	sixToFour = netip.MustParsePrefix("2002::/16")
	// teredo is Teredo (RFC 4380): the server in bits 32 to 63, the
	// client inverted in the last 32 bits.
	teredo = netip.MustParsePrefix("2001::/32")
)

// embeddedIPv4 returns the IPv4 addresses an IPv6 address in a NAT64, 6to4
// or Teredo block leads to, and the block's name; nil for any other address.
func embeddedIPv4(addr netip.Addr) ([]netip.Addr, string) {
	b := addr.As16()
	switch {
	case nat64.Contains(addr):
		return []netip.Addr{netip.AddrFrom4([4]byte(b[12:16]))}, "NAT64"
	case sixToFour.Contains(addr):
		return []netip.Addr{netip.AddrFrom4([4]byte(b[2:6]))}, "6to4"
	case teredo.Contains(addr):
		client := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
		return []netip.Addr{netip.AddrFrom4([4]byte(b[4:8])), netip.AddrFrom4(client)}, "Teredo"
	}
	return nil, ""
}

// refusedKind says why addr is refused, or "" when it may be probed: any
// special-purpose address that is not globally routable (refusedRanges),
// IPv6 outside 2000::/3, and an IPv6 address that embeds a refused IPv4
// one (IPv4-mapped, NAT64, 6to4, Teredo), named by both. An IPv6 zone
// (fe80::1%eth0) does not change the verdict.
func refusedKind(addr netip.Addr) string {
	if !addr.IsValid() {
		return "invalid"
	}
	addr = addr.Unmap().WithZone("")
	if v4s, block := embeddedIPv4(addr); v4s != nil {
		for _, v4 := range v4s {
			if kind := refusedKind(v4); kind != "" {
				return fmt.Sprintf("%s (embedding %s %s)", block, kind, v4)
			}
		}
		return ""
	}
	for _, r := range refusedRanges {
		if r.prefix.Contains(addr) {
			return r.kind
		}
	}
	if addr.Is6() && !globalUnicast.Contains(addr) {
		return "reserved"
	}
	return ""
}

// guardControl is a net.Dialer Control func: it runs after DNS resolution,
// on the address about to be connected, so a name that resolves (or
// re-resolves) to an internal address is refused whatever it is called.
func guardControl(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &guardError{kind: "unparseable", addr: netip.Addr{}}
	}
	if kind := refusedKind(ap.Addr()); kind != "" {
		return &guardError{addr: ap.Addr().Unmap(), kind: kind}
	}
	return nil
}

// linkChecker probes source URLs: HEAD, then a streamed GET when HEAD is
// refused, never with credentials, at most perHostLimit at a time per host.
type linkChecker struct {
	client  *http.Client
	timeout time.Duration

	mu    sync.Mutex
	hosts map[string]chan struct{}
}

func newLinkChecker(allowPrivate bool, timeout time.Duration) *linkChecker {
	if allowPrivate {
		return newGuardedLinkChecker(nil, timeout)
	}
	return newGuardedLinkChecker(guardControl, timeout)
}

// newGuardedLinkChecker is newLinkChecker with the dialer's Control func
// given (nil for none), so tests can stand a loopback server in for a public
// first hop and prove what the guard does with where it redirects.
func newGuardedLinkChecker(control func(network, address string, c syscall.RawConn) error, timeout time.Duration) *linkChecker {
	dialer := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: control}
	tr := &http.Transport{
		// No proxy: a proxy would make the guard check the proxy's
		// address instead of the page's.
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          linkFanout,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
	}
	return &linkChecker{
		client: &http.Client{
			Transport: tr,
			// Redirects are followed by probe, one hop at a time, so each
			// hop's scheme, address and host limit are checked again.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		timeout: timeout,
		hosts:   map[string]chan struct{}{},
	}
}

// hostSlot takes one of host's perHostLimit slots; release gives it back.
func (c *linkChecker) hostSlot(ctx context.Context, host string) (release func(), err error) {
	c.mu.Lock()
	ch := c.hosts[host]
	if ch == nil {
		ch = make(chan struct{}, perHostLimit)
		c.hosts[host] = ch
	}
	c.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// verdict is one probe's outcome.
type verdict struct {
	status  libraryv1.LinkStatus
	http    int
	message string
}

// unverifiedStatus are answers from a host that exists but turned a robot
// away, so the page may be fine: many recipe sites refuse a client that is
// not a browser.
func unverifiedStatus(code int) bool {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusMethodNotAllowed,
		http.StatusTooManyRequests, http.StatusNotImplemented:
		return true
	}
	return false
}

// probe checks one URL, following up to maxRedirects redirects.
func (c *linkChecker) probe(ctx context.Context, raw string) verdict {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return verdict{status: libraryv1.LinkStatus_LINK_STATUS_REFUSED, message: "not a URL"}
	}
	for hop := 0; ; hop++ {
		if u.Scheme != "http" && u.Scheme != "https" {
			return verdict{status: libraryv1.LinkStatus_LINK_STATUS_REFUSED, message: fmt.Sprintf("scheme %q is not http(s)", u.Scheme)}
		}
		code, loc, err := c.once(ctx, u)
		if err != nil {
			return c.failure(ctx, err)
		}
		if code >= 300 && code < 400 && loc != "" {
			if hop == maxRedirects {
				return verdict{status: libraryv1.LinkStatus_LINK_STATUS_ERROR, http: code, message: fmt.Sprintf("more than %d redirects", maxRedirects)}
			}
			next, err := u.Parse(loc)
			if err != nil {
				return verdict{status: libraryv1.LinkStatus_LINK_STATUS_BROKEN, http: code, message: "redirects to an unreadable location"}
			}
			u = next
			continue
		}
		v := verdict{http: code}
		switch {
		case code >= 200 && code < 300:
			v.status = libraryv1.LinkStatus_LINK_STATUS_OK
		case unverifiedStatus(code):
			v.status, v.message = libraryv1.LinkStatus_LINK_STATUS_UNVERIFIED, fmt.Sprintf("the host answered %d to a robot; the page may be fine", code)
		default:
			v.status, v.message = libraryv1.LinkStatus_LINK_STATUS_BROKEN, fmt.Sprintf("the host answered %d", code)
		}
		if hop > 0 {
			v.message = strings.TrimSpace(v.message + " (after redirects to " + u.String() + ")")
		}
		return v
	}
}

// once sends HEAD to u and, when HEAD is answered with an error status
// (many servers mishandle HEAD), a GET whose body is read no further than
// maxProbeBody. It returns the last status and any Location.
func (c *linkChecker) once(ctx context.Context, u *url.URL) (int, string, error) {
	release, err := c.hostSlot(ctx, u.Host)
	if err != nil {
		return 0, "", err
	}
	defer release()
	code, loc, err := c.send(ctx, http.MethodHead, u)
	if err == nil && code < 400 {
		return code, loc, nil
	}
	var ge *guardError
	if errors.As(err, &ge) || ctx.Err() != nil {
		return 0, "", err
	}
	return c.send(ctx, http.MethodGet, u)
}

func (c *linkChecker) send(ctx context.Context, method string, u *url.URL) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return 0, "", err
	}
	// Only these headers: no Authorization, no cookies, ever.
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html,*/*;q=0.8")
	resp, err := c.client.Do(req)
	if err != nil {
		return 0, "", err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxProbeBody))
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location"), nil
}

// failure classifies a probe that got no answer.
func (c *linkChecker) failure(ctx context.Context, err error) verdict {
	var ge *guardError
	var dns *net.DNSError
	switch {
	case errors.As(err, &ge):
		return verdict{status: libraryv1.LinkStatus_LINK_STATUS_REFUSED, message: ge.Error() + "; set SOUS_LINKCHECK_ALLOW_PRIVATE=true to probe it"}
	case errors.As(err, &dns) && dns.IsNotFound:
		return verdict{status: libraryv1.LinkStatus_LINK_STATUS_BROKEN, message: fmt.Sprintf("host %s does not resolve", dns.Name)}
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return verdict{status: libraryv1.LinkStatus_LINK_STATUS_ERROR, message: fmt.Sprintf("timed out after %s", c.timeout)}
	}
	msg := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) {
		msg = ue.Err.Error()
	}
	return verdict{status: libraryv1.LinkStatus_LINK_STATUS_ERROR, message: "no answer: " + msg}
}

// CheckRecipeLinks sweeps recipe summaries, probes their source URLs and
// lists the recipes without an image.
func (s *Service) CheckRecipeLinks(ctx context.Context, req *connect.Request[libraryv1.CheckRecipeLinksRequest], stream *connect.ServerStream[libraryv1.CheckRecipeLinksResponse]) error {
	m := req.Msg
	max, err := scanLimit(m.GetMaxRecipes(), DefaultLinkRecipes)
	if err != nil {
		return err
	}
	checkSources := m.CheckSources == nil || m.GetCheckSources()
	checkImages := m.CheckImages == nil || m.GetCheckImages()
	progress := func(p *libraryv1.ReportProgress) error {
		return stream.Send(&libraryv1.CheckRecipeLinksResponse{Event: &libraryv1.CheckRecipeLinksResponse_Progress{Progress: p}})
	}
	type source struct{ slug, url string }
	var sources []source
	res := &libraryv1.CheckRecipeLinksResult{Counts: &libraryv1.LinkCounts{}}
	st, err := s.sweep(ctx, max, recipesv1.RecipeView_RECIPE_VIEW_SUMMARY, "reading recipe summaries", progress, func(r *recipesv1.Recipe) {
		if u := strings.TrimSpace(r.GetSourceUrl()); u != "" {
			sources = append(sources, source{r.GetSlug(), u})
		} else {
			res.Counts.NoSource++
		}
		if !r.GetHasImage() {
			res.Counts.NoImage++
			if checkImages {
				res.NoImage = append(res.NoImage, &libraryv1.RecipeRef{Slug: r.GetSlug(), Name: r.GetName()})
			}
		}
	})
	if err != nil {
		return err
	}
	res.Scanned, res.LibraryTotal, res.Truncated = st.scanned, st.libraryTotal, st.truncatedNote()
	if !checkImages {
		res.Counts.NoImage = 0
	}
	if checkSources && len(sources) > 0 {
		total := int32(len(sources))
		if err := progress(&libraryv1.ReportProgress{Scanned: 0, Total: total, Message: "probing source URLs"}); err != nil {
			return err
		}
		verdicts := make([]verdict, len(sources))
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			done    int32
			sendMu  sync.Mutex
			sendErr error
		)
		sem := make(chan struct{}, linkFanout)
	loop:
		for i, src := range sources {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				break loop
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				verdicts[i] = s.links.probe(ctx, src.url)
				mu.Lock()
				done++
				d := done
				mu.Unlock()
				if d%progressEvery == 0 || d == total {
					sendMu.Lock()
					if sendErr == nil {
						sendErr = progress(&libraryv1.ReportProgress{Scanned: d, Total: total, Message: "probing source URLs"})
					}
					sendMu.Unlock()
				}
			}()
		}
		wg.Wait()
		if ctx.Err() != nil {
			return connect.NewError(connect.CodeCanceled, ctx.Err())
		}
		if sendErr != nil {
			return sendErr
		}
		for i, v := range verdicts {
			c := res.Counts
			switch v.status {
			case libraryv1.LinkStatus_LINK_STATUS_OK:
				c.Ok++
				continue
			case libraryv1.LinkStatus_LINK_STATUS_BROKEN:
				c.Broken++
			case libraryv1.LinkStatus_LINK_STATUS_UNVERIFIED:
				c.Unverified++
			case libraryv1.LinkStatus_LINK_STATUS_REFUSED:
				c.Refused++
			default:
				c.Error++
			}
			res.Items = append(res.Items, &libraryv1.LinkResult{
				Slug: sources[i].slug, Url: sources[i].url, Status: v.status, HttpStatus: int32(v.http), Message: v.message,
			})
		}
	}
	slices.SortFunc(res.Items, func(a, b *libraryv1.LinkResult) int { return strings.Compare(a.Slug, b.Slug) })
	slices.SortFunc(res.NoImage, func(a, b *libraryv1.RecipeRef) int { return strings.Compare(a.Slug, b.Slug) })
	res.Truncated = joinNotes(res.Truncated, boundLinks(res))
	return stream.Send(&libraryv1.CheckRecipeLinksResponse{Event: &libraryv1.CheckRecipeLinksResponse_Result{Result: res}})
}
