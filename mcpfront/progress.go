package mcpfront

import (
	"context"
	"errors"
	"io"
	"time"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
)

// progressHeartbeat is the longest a report stays silent towards a client
// that asked for progress: behind a proxy with a short read timeout, or a
// client with an idle timer, a silent call dies (shared/cases/mcp-cases.md,
// M09: progress at least every 10 s). Half that leaves room for jitter.
const progressHeartbeat = 5 * time.Second

// reportEvent is one message of a library report stream: progress or the
// final result.
type reportEvent[R comparable] interface {
	GetProgress() *libraryv1.ReportProgress
	GetResult() R
}

// runReport drains a report stream, forwarding each progress message as an
// MCP progress notification when the call carries a progress token, and
// repeating the last one every progressHeartbeat while the service is
// silent. It returns the result, which the service sends last.
func runReport[R comparable, M any, PM interface {
	*M
	reportEvent[R]
}](ctx context.Context, req *mcp.CallToolRequest, stream *connect.ServerStreamForClient[M]) (R, error) {
	var zero R
	defer stream.Close()
	type received struct {
		msg PM
		err error
	}
	msgs := make(chan received)
	go func() {
		defer close(msgs)
		for stream.Receive() {
			select {
			case msgs <- received{msg: PM(stream.Msg())}:
			case <-ctx.Done():
				return
			}
		}
		if err := stream.Err(); err != nil && !errors.Is(err, io.EOF) {
			select {
			case msgs <- received{err: err}:
			case <-ctx.Done():
			}
		}
	}()
	var token any
	if req != nil && req.Params != nil {
		token = req.Params.GetProgressToken()
	}
	var last *mcp.ProgressNotificationParams
	notify := func(p *mcp.ProgressNotificationParams) {
		if token == nil || req.Session == nil {
			return
		}
		// A failed notification only costs the client its progress bar.
		_ = req.Session.NotifyProgress(ctx, p)
	}
	tick := time.NewTicker(progressHeartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.Canceled) {
				return zero, connect.NewError(connect.CodeCanceled, errors.New("the report was cancelled"))
			}
			return zero, connect.NewError(connect.CodeDeadlineExceeded, errors.New("the report took too long and was stopped; lower max_recipes and try again"))
		case <-tick.C:
			if last != nil {
				notify(last)
			}
		case r, ok := <-msgs:
			if !ok {
				return zero, errors.New("the report ended without a result")
			}
			if r.err != nil {
				return zero, r.err
			}
			if p := r.msg.GetProgress(); p != nil {
				last = &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(p.GetScanned()), Total: float64(p.GetTotal()), Message: p.GetMessage()}
				notify(last)
				tick.Reset(progressHeartbeat)
				continue
			}
			if res := r.msg.GetResult(); res != zero {
				return res, nil
			}
		}
	}
}
