package mcpfront

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"connectrpc.com/connect"
)

// This file words the failures of a call that never reached a remote
// service (a process down, a wrong URL): Connect reports them as
// Unavailable with the transport's text ("dial tcp 127.0.0.1:8083:
// connect: connection refused"), which names neither the service nor its
// URL; and the services refuse a missing or a wrong service token with one
// sentence (internal/svcauth, so a caller learns nothing from the
// difference), which only the caller can tell apart. Dial's clients carry
// remoteErrors, so a tool error says which service does not answer and
// Probe says what to set.

// unreachableError is a call that did not reach the service name at url.
type unreachableError struct {
	name, url, urlVar string
	cause             string
}

// Error is the sentence a tool answers: the service, where it was
// looked for, the transport's reason, and that the call may be tried
// again (a service restarting answers again).
func (e *unreachableError) Error() string {
	return fmt.Sprintf("the %s service does not answer at %s (%s); try again in a moment", e.name, e.url, e.cause)
}

// startupAdvice is Probe's sentence: at startup the fix is the
// configuration or the other process.
func (e *unreachableError) startupAdvice() string {
	return fmt.Sprintf("the %s service does not answer at %s (%s): start it, or unset %s to turn its toolsets off", e.name, e.url, e.cause, e.urlVar)
}

// remoteErrors rewords two failures of one remote service's client: a
// network failure the client met itself (connect.IsWireError false:
// nothing came back from the service; see transport) becomes an
// unreachableError, and
// the service's refusal of its token says whether this process sent one.
// Every other error passes as it is.
type remoteErrors struct {
	name, url, urlVar string
	// tokenSet: this process has a SOUS_SERVICE_TOKEN to present.
	tokenSet bool
}

func (u remoteErrors) reword(err error) error {
	var ce *connect.Error
	if err == nil || !errors.As(err, &ce) {
		return err
	}
	switch {
	case !connect.IsWireError(err) && transport(err, ce):
		cause := ce.Message()
		if oe := new(net.OpError); errors.As(err, &oe) {
			cause = oe.Error() // without net/http's "Post \"<url>\": "
		}
		return connect.NewError(connect.CodeUnavailable, &unreachableError{name: u.name, url: u.url, urlVar: u.urlVar, cause: cause})
	case ce.Code() == connect.CodeUnauthenticated && connect.IsWireError(err) && strings.Contains(ce.Message(), "SOUS_SERVICE_TOKEN"):
		// svcauth's refusal (Mealie's names MEALIE_API_TOKEN instead).
		if !u.tokenSet {
			return connect.NewError(connect.CodeUnauthenticated, fmt.Errorf("the %s service wants a service token and none is set here: set SOUS_SERVICE_TOKEN to the token the services were started with", u.name))
		}
		return connect.NewError(connect.CodeUnauthenticated, fmt.Errorf("the %s service refused this SOUS_SERVICE_TOKEN: it must be the token the services were started with", u.name))
	}
	return err
}

// transport reports a client-made error that is the connection's, not the
// call's: what Connect codes Unavailable (a refused dial), or a network
// error under another code (a write on a connection the server closed,
// "broken pipe", comes as Unknown). A cancelled or timed-out call is the
// caller's and passes as it is.
func transport(err error, ce *connect.Error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if ce.Code() == connect.CodeUnavailable {
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe)
}

// WrapUnary rewords a unary call's failure.
func (u remoteErrors) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		res, err := next(ctx, req)
		return res, u.reword(err)
	}
}

// WrapStreamingClient rewords a stream's failures, which surface on Send
// and Receive.
func (u remoteErrors) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		return &remoteConn{StreamingClientConn: next(ctx, spec), u: u}
	}
}

// WrapStreamingHandler leaves handlers alone: the interceptor is a
// client's.
func (u remoteErrors) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}

// remoteConn is a client stream whose failures are reworded.
type remoteConn struct {
	connect.StreamingClientConn
	u remoteErrors
}

// Send rewords the failure of sending the request.
func (c *remoteConn) Send(msg any) error { return c.u.reword(c.StreamingClientConn.Send(msg)) }

// Receive rewords the failure of reading an answer (io.EOF, the end of
// the stream, passes as it is).
func (c *remoteConn) Receive(msg any) error {
	return c.u.reword(c.StreamingClientConn.Receive(msg))
}

// probeFailure is Probe's sentence for a service whose GetStatus failed:
// an unreachable one says what to start or unset.
func probeFailure(name string, err error) error {
	var ue *unreachableError
	if errors.As(err, &ue) {
		return fmt.Errorf("%s service: %s", name, ue.startupAdvice())
	}
	return fmt.Errorf("%s service: %s", name, connectMessage(err))
}
