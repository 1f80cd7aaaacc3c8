// Package app assembles a run from a loaded configuration: the model
// client, the tool registry and executor, the approval gate, the output
// and the phase runner. cmd/ parses flags and calls it.
package app

import (
	"context"
	"errors"

	"github.com/reach-agent/reach/agent"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/llm"
)

// Exit codes of SPEC §1.
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitProvider    = 3
	ExitLimit       = 4
	ExitInterrupted = 130
)

// ExitCode maps an error to the process exit code.
func ExitCode(err error) int {
	var ue *config.UsageError
	var le *agent.LimitError
	var pe *llm.ProviderError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ue):
		return ExitUsage
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &le):
		return ExitLimit
	case errors.As(err, &pe):
		return ExitProvider
	}
	return ExitFailed
}

// status names an exit code in the result event.
func status(code int) string {
	switch code {
	case ExitOK:
		return "success"
	case ExitUsage:
		return "usage_error"
	case ExitProvider:
		return "provider_error"
	case ExitLimit:
		return "limit"
	case ExitInterrupted:
		return "interrupted"
	}
	return "failed"
}
