// Package recovery keeps one panicking call from ending the process: sous
// serves every MCP session and every Connect client from one process, so a
// bug in one handler, or an answer from Mealie that a shaper did not expect,
// must cost that call only.
//
// Both boundaries, the MCP tool wrapper in mcpfront and every Connect handler
// of the services, log a recovered panic here: once, at error level, with the
// stack, and with URLs cut to their host so no path secret, query token or
// userinfo reaches the log.
package recovery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"

	"connectrpc.com/connect"
)

// Message is the sentence a caller gets for a call that panicked: it names
// the call, and says the server survived so the caller may go on with other
// calls.
func Message(call string) string {
	return "internal error in " + call + stillRunning
}

// stillRunning ends Message; Recovered looks for it.
const stillRunning = "; the server is still running"

// Recovered reports whether err is a Connect handler's recovered panic, as
// Connect answers it, so a front can reword it to name its own call.
func Recovered(err error) bool {
	var ce *connect.Error
	return errors.As(err, &ce) && ce.Code() == connect.CodeInternal &&
		strings.HasPrefix(ce.Message(), "internal error in ") && strings.HasSuffix(ce.Message(), stillRunning)
}

// Log records a recovered panic once, at error level, with the goroutine's
// stack. The stack lists frames and argument words in hex, never string
// contents; the panic value is logged with every URL cut to scheme and host.
func Log(log *slog.Logger, call string, p any) {
	if log == nil {
		log = slog.Default()
	}
	log.Error("panic recovered; the call failed and the server goes on",
		"call", call, "panic", Redact(fmt.Sprint(p)), "stack", string(debug.Stack()))
}

// urlPattern finds URLs inside a panic value's text.
var urlPattern = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*)://([^/?#\s"'<>]*)[^\s"'<>]*`)

// Redact cuts every URL in s to its scheme and host (userinfo dropped), so a
// path secret, a token in a query or a password in userinfo stays out of
// the log.
func Redact(s string) string {
	return urlPattern.ReplaceAllStringFunc(s, func(u string) string {
		m := urlPattern.FindStringSubmatch(u)
		host := m[2]
		if i := strings.LastIndex(host, "@"); i >= 0 {
			host = host[i+1:]
		}
		return m[1] + "://" + host + "/…"
	})
}

// Connect is the handler option every service's Handler applies first, so
// it is the outermost interceptor: a panic in the method, in a shaper it
// calls or in another interceptor becomes CodeInternal with Message and the
// procedure's name, and the process goes on. A panic in a goroutine the
// method starts is not covered; those goroutines only read from Mealie.
func Connect(log *slog.Logger) connect.HandlerOption {
	return connect.WithRecover(func(_ context.Context, spec connect.Spec, _ http.Header, p any) error {
		Log(log, spec.Procedure, p)
		return connect.NewError(connect.CodeInternal, errors.New(Message(spec.Procedure)))
	})
}
