package serve

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"
)

// HealthTimeout bounds one health check: compose gives the probe 5s
// (deploy/compose.yaml, `timeout`), and a check that has not answered
// within 4s reports unhealthy itself, with a message, before it is killed
// without one.
const HealthTimeout = 4 * time.Second

// Check calls grpc.health.v1.Health/Check for service ("" for the server
// as a whole) at baseURL over gRPC (h2c for http://, see HTTPClient). It
// returns nil when the answer is SERVING, and otherwise an error naming the
// status or why the call failed. Health needs no token (Handler mounts it
// outside the guard). The call is bounded by HealthTimeout and by ctx.
func Check(ctx context.Context, baseURL, service string) error {
	ctx, cancel := context.WithTimeout(ctx, HealthTimeout)
	defer cancel()
	hc := HTTPClient(baseURL)
	// A probe is one call: leave no connection open on the server.
	defer hc.CloseIdleConnections()
	client := grpchealth.NewClient(hc, strings.TrimRight(baseURL, "/"), connect.WithGRPC())
	res, err := client.Check(ctx, &grpchealth.CheckRequest{Service: service})
	if err != nil {
		return err
	}
	if res.Status != grpchealth.StatusServing {
		return fmt.Errorf("status %s, want %s", res.Status, grpchealth.StatusServing)
	}
	return nil
}

// LocalURL returns the http:// base URL to reach a server listening on addr
// (host:port) from the same host: a wildcard host (empty, 0.0.0.0 or ::), as
// in a container, becomes the loopback address of its family; any other host
// is kept.
func LocalURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("listen address %q: %w", addr, err)
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	return "http://" + net.JoinHostPort(host, port), nil
}
