package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// Limits of run_shell_command (SPEC §3).
const (
	DefaultTimeoutSeconds = 30
	MaxTimeoutSeconds     = 600
	// MaxResultLines is how many of the last output lines go to the model.
	MaxResultLines = 200
)

// Tool returns run_shell_command, which runs commands with r in root.
// Approval and policy are not its business: the executor's gate decides
// before it runs.
func Tool(root *workspace.Root, r *Runner) tools.Tool {
	return tools.Tool{
		Spec: tools.Spec{
			Name: "run_shell_command",
			Summary: "Run a bash command in the project root and get its exit code and the tail of its output; " +
				"use it to build, test, run git or scripts, not to read, search or edit files (the file tools do that).",
			Parameters: json.RawMessage(fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "The command, run as bash -c in the project root with no standard input. It may need the user's approval."},
    "timeout": {"type": "integer", "minimum": 1, "maximum": %d, "default": %d, "description": "Seconds before the command and everything it started are killed."}
  },
  "required": ["command"],
  "additionalProperties": false
}`, MaxTimeoutSeconds, DefaultTimeoutSeconds)),
			SideEffect: tools.Exec,
			Groups:     []string{tools.GroupBase},
			// The command's own timeout governs; this only backs it up.
			Timeout: (MaxTimeoutSeconds + 30) * time.Second,
			Backend: "builtin",
			Version: "1",
		},
		Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
			return runShell(ctx, root, r, raw)
		},
	}
}

type shellArgs struct {
	Command string   `json:"command"`
	Timeout *float64 `json:"timeout"` // float: models send 30.0 too
}

func runShell(ctx context.Context, root *workspace.Root, r *Runner, raw json.RawMessage) tools.Result {
	args, err := tools.Decode[shellArgs](raw)
	if err != nil {
		return tools.Fail(err.Error())
	}
	if strings.TrimSpace(args.Command) == "" {
		return tools.Fail("command is empty: give the bash command to run")
	}
	seconds := float64(DefaultTimeoutSeconds)
	if args.Timeout != nil {
		seconds = *args.Timeout
	}
	if seconds < 1 || seconds > MaxTimeoutSeconds || seconds != math.Trunc(seconds) {
		return tools.Fail(fmt.Sprintf("timeout must be a whole number of seconds from 1 to %d, got %v", MaxTimeoutSeconds, seconds))
	}

	out, err := r.Run(ctx, args.Command, root.Dir(), time.Duration(seconds)*time.Second)
	if err != nil {
		res := tools.Fail(err.Error())
		if out.Bytes > 0 {
			res.Output = resultText(out)
		}
		return res
	}
	code := out.ExitCode
	res := tools.Result{Success: code == 0 && !out.TimedOut, Output: resultText(out), ReturnCode: &code}
	switch {
	case out.TimedOut:
		res.Error = fmt.Sprintf("Command timed out after %d seconds; the process group was killed", int(seconds))
	case code != 0:
		res.Error = fmt.Sprintf("Command exited with code %d", code)
	}
	return res
}

// resultText is the output tail the model sees: the last MaxResultLines
// lines, with a line saying what was left out.
func resultText(out Output) string {
	text := strings.ToValidUTF8(out.Text, "\uFFFD")
	if text == "" {
		if out.Bytes == 0 {
			return "(no output)"
		}
		return fmt.Sprintf("(%d bytes of output without a complete line)", out.Bytes)
	}
	body, cut := lastLines(text, MaxResultLines)
	switch {
	case out.Truncated:
		return fmt.Sprintf("[output truncated: %d bytes in all, only the end is shown]\n%s", out.Bytes, body)
	case cut > 0:
		return fmt.Sprintf("[%d earlier lines omitted; showing the last %d]\n%s", cut, MaxResultLines, body)
	default:
		return body
	}
}

// lastLines returns the last n lines of s and how many lines came before.
func lastLines(s string, n int) (string, int) {
	end := len(s)
	if strings.HasSuffix(s, "\n") {
		end-- // the final newline ends the last line, it does not start one
	}
	i := end
	for kept := 0; kept < n; kept++ {
		j := strings.LastIndexByte(s[:i], '\n')
		if j < 0 {
			return s, 0
		}
		i = j
	}
	return s[i+1:], strings.Count(s[:i+1], "\n")
}
