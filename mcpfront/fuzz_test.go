package mcpfront

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzToolArguments sends arbitrary JSON as the arguments of every tool of
// the catalog, through a real in-memory MCP session to fake services. A
// model can send anything; whatever it sends must come back as one text
// block — a tool error with a plain sentence, or a JSON answer — and never
// as a crash, a protocol failure of the session, or a stack trace. Seeds:
// the committed corpus in testdata/fuzz plus the shapes below.
func FuzzToolArguments(f *testing.F) {
	seeds := []string{
		`{}`, `null`, `[]`, `"x"`, `{"slug":"pancakes"}`, `{"limit":"5"}`, `{"limit":1e300}`, `{"page":-1}`,
		`{"start_date":"12/01/2026","end_date":"2026-02-30"}`, `{"items":[{"name":"eggs","quantity":"NaN"}]}`,
		`{"ingredients":[{"quantity":-1},{"food":null},"x"]}`, `{"resource":"tags","action":"merge","items":[{}]}`,
		`{"slug":"\u0000\u202e\ud83c\udf5c"}`, `{"name":{"$gt":""}}`, `{"__proto__":{"x":1}}`,
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
	}
	names := catalogNames()
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		if !json.Valid(args) {
			return // the client cannot send it: it is not JSON-RPC
		}
		tool := names[int(which)%len(names)]
		fk := newFakes(t)
		cs := session(t, fk.backends, Options{ImageDir: t.TempDir()}, nil)
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			// A JSON-RPC error is how go-sdk answers arguments that are not
			// an object; the session must survive it.
			if _, lerr := cs.ListTools(ctx, nil); lerr != nil {
				t.Fatalf("%s(%s): the session died after %v: %v", tool, args, err, lerr)
			}
			return
		}
		if len(res.Content) != 1 {
			t.Fatalf("%s(%s): %d content blocks", tool, args, len(res.Content))
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if strings.Contains(text, "goroutine ") || strings.Contains(text, "panic") {
			t.Fatalf("%s(%s): stack trace in the answer: %s", tool, args, text)
		}
		if !res.IsError && !json.Valid([]byte(text)) {
			t.Fatalf("%s(%s): answer is not JSON: %s", tool, args, text)
		}
	})
}

// catalogNames lists every tool of the catalog, in order.
func catalogNames() []string {
	var out []string
	for _, t := range catalog() {
		out = append(out, t.Def.Name)
	}
	return out
}
