package app

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/reach-agent/reach/events"
)

// openLog opens <state dir>/logs/reach.log for appending. Logs never go to
// the terminal: the TUI and plain output own it.
func openLog(stateDir string, level slog.Level) (*slog.Logger, io.Closer, error) {
	dir, err := EnsureStateDir(stateDir, "logs")
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, "reach.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("open log: %w", err)
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level})), f, nil
}

// logSink writes the run's events to the log: tool calls and results at
// info, text at debug, problems at warn.
type logSink struct{ log *slog.Logger }

func (l logSink) Emit(e events.Event) {
	switch e := e.(type) {
	case events.TextDelta, events.ToolOutput:
		// Too fine-grained for a log; the complete message or result follows.
	case events.Message:
		l.log.Debug("message", "phase", e.Phase, "text", e.Text)
	case events.ToolCall:
		l.log.Info("tool call", "phase", e.Phase, "id", e.ID, "tool", e.Name, "arguments", e.Arguments)
	case events.ToolResult:
		if e.Success {
			l.log.Info("tool result", "id", e.ID, "tool", e.Name, "ms", e.DurationMS, "bytes", len(e.Output))
		} else {
			l.log.Warn("tool error", "id", e.ID, "tool", e.Name, "ms", e.DurationMS, "error", e.Error)
		}
	case events.Notice:
		l.log.Log(nil, noticeLevel(e.Level), e.Text)
	case events.Result:
		l.log.Info("result", "status", e.Status, "exit_code", e.ExitCode, "error", e.Error, "input_tokens", e.Usage.InputTokens, "output_tokens", e.Usage.OutputTokens, "cost_usd", e.CostUSD)
	default:
		l.log.Debug(e.Type(), "event", e)
	}
}

func noticeLevel(s string) slog.Level {
	switch s {
	case "error":
		return slog.LevelError
	case "warn":
		return slog.LevelWarn
	}
	return slog.LevelInfo
}
