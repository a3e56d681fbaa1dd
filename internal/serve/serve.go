// Package serve runs sous's Connect services: one mux with each service behind
// the service token, gRPC health outside it, gRPC reflection, HTTP/2 without
// TLS (h2c) beside HTTP/1.1, timeouts, and graceful shutdown.
package serve

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"connectrpc.com/grpchealth"
	"connectrpc.com/grpcreflect"

	"github.com/souskitchen/sous/internal/svcauth"
)

// Timeouts of the services' HTTP server. Responses are not bounded:
// library sweeps stream for minutes on a slow Mealie, and each RPC bounds
// its own backend calls instead.
const (
	// ReadHeaderTimeout bounds a client that opens a connection and stalls.
	ReadHeaderTimeout = 10 * time.Second
	// BodyReadTimeout bounds reading one request, body included
	// (http.Server.ReadTimeout), so a client that sends its headers and
	// then trickles or stalls the body does not hold a connection and a
	// handler for as long as it likes. The largest body sous accepts is
	// the MCP endpoint's 1 MiB (mcpfront.MaxRequestBody); 30 s carries it
	// at about 35 KB/s. It does not cut a response that streams after the
	// body: on HTTP/1.1 the server lifts the connection's read deadline
	// once the body has been read (to watch for the client leaving), and
	// on h2c the deadline is per stream and only ends the body's reads
	// (TestStreamOutlivesBodyDeadline).
	BodyReadTimeout = 30 * time.Second
	// IdleTimeout closes keep-alive connections nobody uses.
	IdleTimeout = 2 * time.Minute
	// ShutdownGrace is how long in-flight calls get after SIGTERM.
	ShutdownGrace = 10 * time.Second
)

// Service is one Connect service to mount: the fully-qualified name the
// generated code exports (such as recipesv1connect.RecipesServiceName) and
// the path and handler its New...Handler returned.
type Service struct {
	Name    string
	Path    string
	Handler http.Handler
}

// Handler mounts services behind the bearer token (an empty token disables
// the check, for in-process use), plus gRPC reflection for them, also behind
// the token, and gRPC health (`grpc.health.v1.Health`) outside it, reporting
// SERVING for each service and for the empty name. In front of the token,
// a request that arrives over loopback must name a loopback Host and carry
// no foreign Origin (guardLoopback, against DNS rebinding); health is
// outside that guard too, so `--healthcheck` works whatever the listen
// address is called.
func Handler(token string, services ...Service) http.Handler {
	guarded := http.NewServeMux()
	names := make([]string, 0, len(services))
	for _, s := range services {
		guarded.Handle(s.Path, s.Handler)
		names = append(names, s.Name)
	}
	reflector := grpcreflect.NewStaticReflector(names...)
	guarded.Handle(grpcreflect.NewHandlerV1(reflector))
	guarded.Handle(grpcreflect.NewHandlerV1Alpha(reflector))

	mux := http.NewServeMux()
	mux.Handle(grpchealth.NewHandler(grpchealth.NewStaticChecker(names...)))
	mux.Handle("/", guardLoopback(svcauth.Middleware(token, guarded)))
	return mux
}

// NewServer returns an HTTP server for h that speaks HTTP/1.1 and h2c, with
// ReadHeaderTimeout for headers and BodyReadTimeout for each request body,
// on both protocols.
func NewServer(h http.Handler, logger *slog.Logger) *http.Server {
	return newServer(h, logger, BodyReadTimeout)
}

// newServer is NewServer with the body timeout as a parameter, for tests.
func newServer(h http.Handler, logger *slog.Logger, bodyTimeout time.Duration) *http.Server {
	p := new(http.Protocols)
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	return &http.Server{
		Handler:           h,
		ReadTimeout:       bodyTimeout,
		Protocols:         p,
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       IdleTimeout,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// Run serves srv on ln until ctx ends, then shuts down gracefully, giving
// in-flight calls ShutdownGrace to finish. It returns nil after a clean
// shutdown.
func Run(ctx context.Context, srv *http.Server, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	if serveErr := <-errc; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}

// HTTPClient returns the client to call a sous service at baseURL: h2c
// (HTTP/2 without TLS) for http:// so gRPC and streams work, ordinary HTTP/2
// over TLS for https://.
func HTTPClient(baseURL string) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if strings.HasPrefix(baseURL, "http://") {
		p := new(http.Protocols)
		p.SetUnencryptedHTTP2(true)
		tr.Protocols = p
	}
	return &http.Client{Transport: tr}
}

// InProcessClient returns a client whose every connection is dialled to dial
// (a memnet.Listener's DialContext) and speaks h2c, whatever the URL says.
func InProcessClient(dial func(ctx context.Context, network, addr string) (net.Conn, error)) *http.Client {
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: &http.Transport{
		DialContext: dial,
		Protocols:   p,
	}}
}

// ListenAndServe listens on addr (host:port) and serves h until ctx ends.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	logger.Info("serving", "addr", ln.Addr().String())
	return Run(ctx, NewServer(h, logger), ln)
}
