// Package memnet is an in-memory net.Listener, so one process can run sous's
// services and call them through real Connect clients (HTTP/2, streaming
// included) without opening a socket. It is the in-process wiring of
// `sous mcp --stdio` and `sous demo`.
//
// The standard library has net.Pipe but no listener over it, and the
// well-known one (gRPC's bufconn) would pull all of gRPC in for thirty lines.
package memnet

import (
	"context"
	"errors"
	"net"
	"sync"
)

// Listener hands out the server ends of in-memory connections made by Dial.
type Listener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// New returns an open Listener.
func New() *Listener {
	return &Listener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept waits for the next Dial; after Close it returns net.ErrClosed.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept and Dial. It is safe to call more than once.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is a placeholder address ("memnet").
func (l *Listener) Addr() net.Addr { return addr{} }

// DialContext connects to the listener; its signature fits
// http.Transport.DialContext, and network and address are ignored.
func (l *Listener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, errors.Join(net.ErrClosed, client.Close(), server.Close())
	case <-ctx.Done():
		return nil, errors.Join(ctx.Err(), client.Close(), server.Close())
	}
}

type addr struct{}

func (addr) Network() string { return "memnet" }
func (addr) String() string  { return "memnet" }
