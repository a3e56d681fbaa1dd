package mcpfront

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestSDKLogger: the go-sdk's per-session Info lines reach the log only at
// Debug; its warnings always do.
func TestSDKLogger(t *testing.T) {
	tests := []struct {
		level    slog.Level
		wantInfo bool
	}{
		{slog.LevelInfo, false},
		{slog.LevelWarn, false},
		{slog.LevelDebug, true},
	}
	for _, tt := range tests {
		t.Run(tt.level.String(), func(t *testing.T) {
			var buf bytes.Buffer
			l := sdkLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: tt.level}))).With("k", "v")
			l.Info("server session connected")
			l.Warn("something the SDK warns about")
			if got := strings.Contains(buf.String(), "server session connected"); got != tt.wantInfo {
				t.Errorf("Info line logged = %v, want %v:\n%s", got, tt.wantInfo, buf.String())
			}
			if !strings.Contains(buf.String(), "something the SDK warns about") || !strings.Contains(buf.String(), "k=v") {
				t.Errorf("warning lost:\n%s", buf.String())
			}
		})
	}
}
