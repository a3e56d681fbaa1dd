package e2e

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/internal/mealieemu"
	"github.com/souskitchen/sous/internal/mealieemu/mealietest"
)

// TestReportProgressOverHTTP: a library report called with a progress token
// streams progress notifications on the POST's event stream, which carries
// X-Accel-Buffering: no so a proxy passes them on as they come (nginx
// buffers otherwise: deploy/nginx/sous-mcp-proxy.conf).
func TestReportProgressOverHTTP(t *testing.T) {
	em := mealietest.NewServer(t, mealieemu.WithSeed("demo"))
	addr, _ := startHTTPLogged(t, em)
	var mu sync.Mutex
	var progress []*mcp.ProgressNotificationParams
	var sseHeaders []string
	hc := &http.Client{Transport: recordTransport{next: http.DefaultTransport, record: func(res *http.Response) {
		if res.Header.Get("Content-Type") == "text/event-stream" {
			mu.Lock()
			sseHeaders = append(sseHeaders, res.Header.Get("X-Accel-Buffering"))
			mu.Unlock()
		}
	}}}
	client := mcp.NewClient(&mcp.Implementation{Name: "sous-e2e", Version: "test"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, r.Params)
			mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	p := &mcp.CallToolParams{Name: "library_stats", Arguments: map[string]any{"resource": "foods"}}
	p.SetProgressToken("stats-1")
	res, err := cs.CallTool(ctx, p)
	if err != nil || res.IsError {
		t.Fatalf("library_stats: %v %v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) == 0 {
		t.Fatal("no progress notification arrived")
	}
	for i, n := range progress {
		if n.ProgressToken != "stats-1" {
			t.Errorf("progress %d carries token %v", i, n.ProgressToken)
		}
		if i > 0 && n.Progress < progress[i-1].Progress {
			t.Errorf("progress went backwards: %v then %v", progress[i-1].Progress, n.Progress)
		}
	}
	if len(sseHeaders) == 0 {
		t.Fatal("the call was not answered as an event stream")
	}
	for _, h := range sseHeaders {
		if h != "no" {
			t.Errorf("an event stream without X-Accel-Buffering: no (%q)", h)
		}
	}
}

type recordTransport struct {
	next   http.RoundTripper
	record func(*http.Response)
}

func (r recordTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := r.next.RoundTrip(req)
	if err == nil {
		r.record(res)
	}
	return res, err
}
