package mcpfront

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
)

// progressHeartbeat is the longest a report stays silent towards a client
// that asked for progress: behind a proxy with a short read timeout, or a
// client with an idle timer, a silent call dies; claude.ai wants progress
// at least every 10 s (heartbeat_test.go). Half that leaves room for
// jitter.
const progressHeartbeat = 5 * time.Second

// heartbeatTools are the unary calls that can outlast a client's idle
// timer: a URL import waits for Mealie to fetch and parse a third-party
// page, and a random plan or a shopping list over a date range is one
// Mealie write per day or recipe. They send a progress heartbeat; the
// library reports send their own progress (runReport).
var heartbeatTools = map[string]bool{
	"import_recipe_from_url": true,
	"random_meal_plan":       true,
	"add_to_shopping_list":   true,
}

// heartbeatEvery is how often heartbeat speaks; a variable so a test can
// shorten it.
var heartbeatEvery = progressHeartbeat

// heartbeat sends a progress notification every heartbeatEvery while a
// call runs, when the client sent a progress token (none otherwise), so a
// client or proxy that drops a silent call keeps this one. Progress is
// the seconds elapsed, which only grows, as the protocol asks; there is no
// total. It returns the function that stops it.
func heartbeat(ctx context.Context, req *mcp.CallToolRequest) (stop func()) {
	if req == nil || req.Params == nil || req.Session == nil {
		return func() {}
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		tick := time.NewTicker(heartbeatEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				s := time.Since(start).Seconds()
				// A failed notification only costs the client its
				// progress bar.
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: s, Message: fmt.Sprintf("%s still running (%.0f s)", req.Params.Name, s),
				})
			}
		}
	}()
	return func() { close(done); <-finished }
}

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
