package mcpfront

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"unicode/utf8"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// encode renders v as one compact JSON text block. Proto messages use their
// proto field names with unpopulated fields dropped (empty values cost tokens
// and say nothing); other values go through encoding/json, whose structs in
// this package drop empty fields with omitempty.
func encode(v any) (*mcp.CallToolResult, error) {
	var raw []byte
	var err error
	if m, ok := v.(proto.Message); ok {
		raw, err = protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
	} else {
		raw, err = marshal(v)
	}
	if err != nil {
		return nil, fmt.Errorf("encoding the answer: %w", err)
	}
	var buf bytes.Buffer
	// protojson adds random spaces on purpose; compact them away.
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("encoding the answer: %w", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: buf.String()}}}, nil
}

// noted is an answer that says what its call was forgiven ("limit 500
// capped at 100"), so the model knows it got less than it asked. The note
// is a field of the answer's own struct, written last as "capped"; the
// tools whose input has a capped parameter (toolschema.Capped) answer one.
type noted interface {
	// withCapped returns the answer carrying note.
	withCapped(note string) any
}

// marshal is json.Marshal without HTML escaping: "&" in "Quick & Easy" stays
// one byte instead of six.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// toolError turns a failure into a tool error (isError: true) carrying one
// plain sentence: a Connect error's message as the service wrote it, never a
// stack trace or a backend body.
func toolError(err error) *mcp.CallToolResult {
	msg := err.Error()
	var ce *connect.Error
	if errors.As(err, &ce) {
		msg = ce.Message()
		// A Connect error with no message (a service returning a bare
		// code, or a proxy in between) would otherwise reach the model as
		// one word such as "unavailable".
		if msg == "" {
			msg = emptyMessage(ce.Code())
		}
	}
	res := &mcp.CallToolResult{IsError: true}
	res.Content = []mcp.Content{&mcp.TextContent{Text: clipError(msg)}}
	return res
}

// emptyMessage words a Connect error that carries only its code as a
// sentence: Unavailable says the call may be tried again, since a service
// that is restarting or out of reach answers it; every other code is named.
func emptyMessage(code connect.Code) string {
	if code == connect.CodeUnavailable {
		return "the service is unavailable; try again in a moment"
	}
	return fmt.Sprintf("the service failed (%s) without saying why", code)
}

// Refusal lengths. A refusal is one sentence for a model to act on; a
// value quoted back in full (the schema validator quotes the offending
// value, a service may name what it could not find) would cost the model
// as much context as the argument it sent, a megabyte for a runaway paste.
const (
	// maxQuotedValue caps one quoted value inside an error, in bytes:
	// enough to recognise a name or a slug.
	maxQuotedValue = 80
	// maxErrorText caps a whole tool error, in bytes: several sentences,
	// far more than any message sous writes.
	maxErrorText = 1000
)

// quoted matches a double-quoted string as Go's %q writes it.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// clipError shortens every quoted value past maxQuotedValue to its start
// and the length it had, then the whole text to maxErrorText, cutting on
// rune boundaries.
func clipError(msg string) string {
	if len(msg) <= maxQuotedValue {
		return msg
	}
	msg = quoted.ReplaceAllStringFunc(msg, func(q string) string {
		if len(q) <= maxQuotedValue {
			return q
		}
		return clipBytes(q, maxQuotedValue/2) + fmt.Sprintf(`…" (%d bytes)`, len(q)-2)
	})
	if len(msg) > maxErrorText {
		msg = clipBytes(msg, maxErrorText) + "…"
	}
	return msg
}

// clipBytes returns s's longest prefix of at most n bytes that ends on a
// rune boundary.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// pageHint is the one-line paging hint of list answers: "showing 20 of 143
// — pass page=2", which tells a model both that there is more and how to
// ask for it. It is "" when everything is
// shown; past page 1 it names the page ("page 2 of 8").
func pageHint(page, shown, total, totalPages int) string {
	switch {
	case page <= 1 && shown >= total:
		return ""
	case page <= 1:
		return fmt.Sprintf("showing %d of %d — pass page=2", shown, total)
	case page > totalPages:
		return fmt.Sprintf("page %d is past the last page (%d) of %d", page, totalPages, total)
	case page < totalPages:
		return fmt.Sprintf("showing %d of %d (page %d of %d) — pass page=%d", shown, total, page, totalPages, page+1)
	default:
		return fmt.Sprintf("showing %d of %d (page %d of %d, the last)", shown, total, page, max(totalPages, page))
	}
}

// protoMap renders a proto message as a map with proto field names and
// unpopulated fields dropped, to embed in a larger answer.
func protoMap(m proto.Message) (map[string]any, error) {
	raw, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// errorf is fmt.Errorf for the one-sentence refusals a tool makes before
// calling a service.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// itemList is the answer of a tool that lists things: items, never null,
// and a hint when there are none.
type itemList[V any] struct {
	Items []V    `json:"items"`
	Hint  string `json:"hint,omitempty"`
}

// listOf shapes every item with shape; empty is the hint when there are
// none ("no cookbooks yet; create_cookbook makes one").
func listOf[T, V any](items []T, shape func(T) V, empty string) itemList[V] {
	out := itemList[V]{Items: make([]V, 0, len(items))}
	for _, it := range items {
		out.Items = append(out.Items, shape(it))
	}
	if len(out.Items) == 0 {
		out.Hint = empty
	}
	return out
}
