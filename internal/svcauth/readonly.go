package svcauth

import (
	"context"
	"errors"
	"log/slog"

	"connectrpc.com/connect"

	"github.com/souskitchen/sous/internal/recovery"
)

// ErrReadOnly is the refusal of a write in read-only mode, in the words
// docs/tools.md gives it.
var ErrReadOnly = errors.New("server is in read-only mode")

// ReadOnlyInterceptor refuses, with PermissionDenied and ErrReadOnly, every
// RPC whose proto declares side effects: only methods marked
// `idempotency_level = NO_SIDE_EFFECTS` pass. Deriving the rule from the
// schema means a new write RPC is refused by default, and a direct Connect
// client is refused exactly as an MCP client is (docs/design.md, "Safety
// lines": read-only mode is enforced in the services too).
func ReadOnlyInterceptor() connect.Interceptor { return readOnly{} }

type readOnly struct{}

func refuse(spec connect.Spec) error {
	if spec.IdempotencyLevel == connect.IdempotencyNoSideEffects {
		return nil
	}
	return connect.NewError(connect.CodePermissionDenied, ErrReadOnly)
}

func (readOnly) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		if !req.Spec().IsClient {
			if err := refuse(req.Spec()); err != nil {
				return nil, err
			}
		}
		return next(ctx, req)
	}
}

func (readOnly) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (readOnly) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) error {
		if err := refuse(conn.Spec()); err != nil {
			return err
		}
		return next(ctx, conn)
	}
}

// HandlerOptions are the options every service mounts its Connect handler
// with: panic recovery first, so it is the outermost interceptor and also
// covers the caller's interceptors and read-only mode's; then the caller's
// opts; then, in read-only mode, ReadOnlyInterceptor.
func HandlerOptions(log *slog.Logger, readOnly bool, opts ...connect.HandlerOption) []connect.HandlerOption {
	out := append([]connect.HandlerOption{recovery.Connect(log)}, opts...)
	if readOnly {
		out = append(out, connect.WithInterceptors(ReadOnlyInterceptor()))
	}
	return out
}
