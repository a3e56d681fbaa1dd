package serve

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// guardLoopback refuses, with 403, a request that arrived over loopback
// (the connection's local address is 127.0.0.0/8 or ::1) when its Host is
// not a loopback literal or "localhost", or when it carries an Origin that
// is not one of those.
//
// Why: on loopback SOUS_SERVICE_TOKEN may be left unset, and then any
// page in the user's browser could call the services through DNS
// rebinding (a name of the attacker's that answers 127.0.0.1 a moment
// later): the browser sends the attacker's name as Host. A cross-site POST
// also carries the page's Origin, which a Connect client never sends from
// another site.
//
// The check keys on the connection, not on the listen address, so it
// needs no configuration and holds for every caller of Handler: a listener
// bound to loopback is always checked, and one bound to a wildcard address
// (a container on 0.0.0.0) is checked only for connections over its
// loopback interface, while one reached over the network by name
// ("recipes:8081") keeps any Host. A connection with no TCP address (the
// in-process memnet listener) is not checked: no browser can reach it.
func guardLoopback(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if arrivedOnLoopback(r) {
			if !loopbackHost(r.Host) {
				http.Error(w, "sous: refused a request on loopback whose Host is not a loopback address or localhost (DNS rebinding guard)", http.StatusForbidden)
				return
			}
			for _, origin := range r.Header.Values("Origin") {
				if !loopbackOrigin(origin) {
					http.Error(w, "sous: refused a request on loopback from a page whose Origin is not a loopback address or localhost", http.StatusForbidden)
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// arrivedOnLoopback reports whether r came in on a TCP connection whose
// local address is loopback (an IPv4-mapped ::ffff:127.0.0.1 included, as
// a dual-stack "::" listener sees IPv4 loopback).
func arrivedOnLoopback(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if !ok {
		return false
	}
	ip, ok := netip.AddrFromSlice(a.IP)
	return ok && ip.Unmap().IsLoopback()
}

// loopbackHost reports whether host (a Host header or URL host, with or
// without a port, an IPv6 literal with or without brackets) names loopback:
// "localhost" (any case, a trailing dot allowed) or a loopback literal.
// Other names that resolve to loopback are refused: resolving is exactly
// what a rebinding attacker controls.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// loopbackOrigin reports whether origin (an Origin header) is an http or
// https origin on a loopback host. "null" (sandboxed frames, file: pages)
// is not.
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return loopbackHost(u.Host)
}
