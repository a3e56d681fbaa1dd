package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// protocolVersion is the MCP revision the harness's raw stdio client
// announces; go-sdk v1.8.0 serves it.
const protocolVersion = "2025-06-18"

// stdioTimeout bounds one raw stdio exchange: the answers read here come
// from memory (initialize, tools/list), so seconds mean a hung process.
const stdioTimeout = 30 * time.Second

// stdioClient speaks newline-delimited JSON-RPC to `sous mcp --stdio` by
// hand, so a figure can count the exact bytes of an answer as sent on the
// wire, which an SDK client would decode away.
type stdioClient struct {
	proc *Proc
	in   io.WriteCloser
	out  *bufio.Reader
	next int
}

// startStdio starts `sous mcp --stdio` and completes the MCP handshake.
func startStdio(bin, dir string, env []string) (*stdioClient, error) {
	return startStdioDeclaring(bin, dir, env, map[string]any{})
}

// startStdioDeclaring is startStdio with a client declaring capabilities,
// such as the MCP Apps extension (io.modelcontextprotocol/ui).
func startStdioDeclaring(bin, dir string, env []string, capabilities map[string]any) (*stdioClient, error) {
	cmd := command(bin, dir, env, "mcp", "--stdio")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p, err := startProc(cmd)
	if err != nil {
		return nil, err
	}
	c := &stdioClient{proc: p, in: in, out: bufio.NewReaderSize(out, 1<<16)}
	if _, err := c.call("initialize", map[string]any{
		"protocolVersion": protocolVersion,
		"capabilities":    capabilities,
		"clientInfo":      map[string]any{"name": "sousbench", "version": "1"},
	}); err != nil {
		c.close()
		return nil, err
	}
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

func (c *stdioClient) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// call sends a request and returns the response line exactly as received
// (without its newline). Notifications and requests from the server are
// skipped.
func (c *stdioClient) call(method string, params any) ([]byte, error) {
	c.next++
	id := c.next
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	type result struct {
		line []byte
		err  error
	}
	got := make(chan result, 1)
	go func() {
		for {
			line, err := c.out.ReadBytes('\n')
			if err != nil {
				got <- result{err: fmt.Errorf("%s: reading the answer: %w (%s)", method, err, lastLine(c.proc.stderr.String()))}
				return
			}
			line = line[:len(line)-1]
			var head struct {
				ID    *int            `json:"id"`
				Error json.RawMessage `json:"error"`
			}
			if json.Unmarshal(line, &head) != nil || head.ID == nil || *head.ID != id {
				continue
			}
			if head.Error != nil {
				got <- result{err: fmt.Errorf("%s: %s", method, head.Error)}
				return
			}
			got <- result{line: line}
			return
		}
	}()
	select {
	case r := <-got:
		return r.line, r.err
	case <-time.After(stdioTimeout):
		return nil, fmt.Errorf("%s: no answer within %s", method, stdioTimeout)
	}
}

// close ends the session the way a client does, closing stdin, and stops
// the process.
func (c *stdioClient) close() {
	_ = c.in.Close()
	select {
	case <-c.proc.done:
	case <-time.After(stopGrace):
		c.proc.Stop()
	}
}
