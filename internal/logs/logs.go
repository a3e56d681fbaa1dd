// Package logs builds sous's logger: log/slog text to stderr, never stdout,
// because under stdio stdout is the MCP protocol.
package logs

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// New returns a text logger writing to w at level, one of debug, info,
// warn(ing) or error in any case; "" means info. Others are an error naming
// MEALIE_LOG_LEVEL, the variable that sets it.
func New(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	switch strings.ToLower(strings.TrimSpace(level)) {
	case "", "info":
		l = slog.LevelInfo
	case "debug":
		l = slog.LevelDebug
	case "warn", "warning":
		l = slog.LevelWarn
	case "error":
		l = slog.LevelError
	default:
		return nil, fmt.Errorf("MEALIE_LOG_LEVEL=%q is not a level: use debug, info, warning or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
