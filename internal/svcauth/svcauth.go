// Package svcauth guards sous's Connect services with a shared bearer token
// and lets their clients present it.
//
// Every RPC but gRPC health requires the token (docs/connect-api.md);
// health is mounted outside the guard by package serve. Tokens
// are compared in constant time, and a missing or wrong token gets the same
// Unauthenticated answer so a caller learns nothing from the difference.
package svcauth

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"

	"connectrpc.com/connect"
)

// errUnauthenticated is the one answer to a missing or wrong token.
var errUnauthenticated = errors.New("a valid service token is required (Authorization: Bearer <SOUS_SERVICE_TOKEN>)")

// Middleware wraps h so that every request must carry
// "Authorization: Bearer <token>". Refusals are written in the Connect/gRPC
// error shape for whichever protocol the request speaks. An empty token
// disables the check (for in-process wiring, where no network is crossed).
func Middleware(token string, h http.Handler) http.Handler {
	if token == "" {
		return h
	}
	want := []byte(token)
	writer := connect.NewErrorWriter()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !Valid(r.Header.Get("Authorization"), want) {
			if writer.IsSupported(r) {
				_ = writer.Write(w, r, connect.NewError(connect.CodeUnauthenticated, errUnauthenticated))
				return
			}
			http.Error(w, errUnauthenticated.Error(), http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Valid reports whether an Authorization header value carries the bearer
// token want, comparing in constant time.
func Valid(header string, want []byte) bool {
	scheme, got, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		// Still spend a comparison so both refusals take the same path.
		subtle.ConstantTimeCompare(want, want)
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) == 1
}

// ClientInterceptor adds "Authorization: Bearer <token>" to every request a
// Connect client sends, unary and streaming. An empty token adds nothing.
func ClientInterceptor(token string) connect.Interceptor {
	return &clientInterceptor{header: "Bearer " + token, enabled: token != ""}
}

type clientInterceptor struct {
	header  string
	enabled bool
}

func (c *clientInterceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		if c.enabled && req.Spec().IsClient {
			req.Header().Set("Authorization", c.header)
		}
		return next(ctx, req)
	}
}

func (c *clientInterceptor) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		conn := next(ctx, spec)
		if c.enabled {
			conn.RequestHeader().Set("Authorization", c.header)
		}
		return conn
	}
}

func (c *clientInterceptor) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}
