// Package aider provides run_programming_task, which hands an edit to the
// aider CLI (reach --use-aider) with the fixed argument list of SPEC §3.
package aider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/shell"
	"github.com/reach-agent/reach/workspace"
)

// Limits of run_programming_task.
const (
	// MaxInstructionWords is the longest instruction accepted: aider
	// should get the intent, not the code.
	MaxInstructionWords = 300
	// DefaultTimeout is how long aider may run, the longest a shell
	// command may run.
	DefaultTimeout = shell.MaxTimeoutSeconds * time.Second
	// MaxResultLines is how many of aider's last output lines the model sees.
	MaxResultLines = 200
)

// InstallHint tells the user how to get aider.
const InstallHint = "install it with `python -m pip install aider-install && aider-install` " +
	"(or `pipx install aider-chat`), or run reach without --use-aider"

// FixedFlags are the flags every aider run gets, in order (SPEC §3).
func FixedFlags() []string {
	return []string{
		"--yes-always", "--no-git", "--no-auto-commits", "--dark-mode",
		"--no-suggest-shell-commands", "--no-show-release-notes", "--no-check-update",
	}
}

// Runner runs a bash command line in dir in its own process group, killing
// the group on timeout; *shell.Runner is one.
type Runner interface {
	Run(ctx context.Context, command, dir string, timeout time.Duration) (shell.Output, error)
}

// Options configures run_programming_task.
type Options struct {
	// Binary is the aider executable; "" looks "aider" up on PATH at each
	// call, so installing aider mid-session works.
	Binary string
	// ConfigFile is passed as --config when set (--aider-config).
	ConfigFile string
	// Flags are extra flags from AIDER_FLAGS, already split into
	// arguments; they follow the fixed flags and --config.
	Flags []string
	// Timeout of one aider run; 0 means DefaultTimeout.
	Timeout time.Duration
	// RelatedFiles, if set, returns the files registered with
	// emit_related_files (relative to the root or absolute); they are
	// added after the call's own files. Nil means none.
	RelatedFiles func(ctx context.Context) []string
	// BeforeRun, if set, runs after every check passed and just before
	// aider starts (a checkpoint of the working tree goes here). An error
	// stops the call.
	BeforeRun func(ctx context.Context) error
}

// ErrNotInstalled is returned by Command when aider cannot be found.
var ErrNotInstalled = errors.New("aider is not installed or not on PATH")

// Tool returns run_programming_task, which runs aider with r in root.
func Tool(root *workspace.Root, r Runner, opts Options) tools.Tool {
	return tools.Tool{
		Spec: tools.Spec{
			Name: "run_programming_task",
			Summary: "Have aider make a code change: give the intent in plain words (what to change, where and why; " +
				"at most 300 words, no code) and the files to edit; returns aider's output.",
			Parameters: json.RawMessage(fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "instructions": {"type": "string", "minLength": 1, "description": "What to change and why, in plain words (at most %d words). Describe the intent; do not write the code."},
    "files": {"type": "array", "items": {"type": "string"}, "default": [], "description": "Files aider may edit or create, relative to the project root."}
  },
  "required": ["instructions"],
  "additionalProperties": false
}`, MaxInstructionWords)),
			SideEffect: tools.Write,
			Groups:     []string{tools.GroupAider},
			Timeout:    opts.timeout() + 30*time.Second, // backs up the run's own timeout
			Backend:    "builtin",
			Version:    "1",
		},
		Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
			return run(ctx, root, r, opts, raw)
		},
	}
}

func (o Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}

// LookPath returns the aider executable opts would run, or an error that
// wraps ErrNotInstalled and says how to install it.
func LookPath(opts Options) (string, error) {
	name := opts.Binary
	if name == "" {
		name = "aider"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w (%s): %s", ErrNotInstalled, name, InstallHint)
	}
	return p, nil
}

// Args returns aider's arguments (without the program name) for
// instructions and files, which must already be absolute and
// de-duplicated.
func Args(opts Options, instructions string, files []string) []string {
	args := FixedFlags()
	if opts.ConfigFile != "" {
		args = append(args, "--config", opts.ConfigFile)
	}
	args = append(args, opts.Flags...)
	args = append(args, "-m", instructions)
	return append(args, files...)
}

type taskArgs struct {
	Instructions string   `json:"instructions"`
	Files        []string `json:"files"`
}

func run(ctx context.Context, root *workspace.Root, r Runner, opts Options, raw json.RawMessage) tools.Result {
	args, err := tools.Decode[taskArgs](raw)
	if err != nil {
		return tools.Fail(err.Error())
	}
	bin, err := LookPath(opts)
	if err != nil {
		return tools.Fail(err.Error())
	}
	if msg := checkInstructions(args.Instructions); msg != "" {
		return tools.Fail(msg)
	}
	files, err := resolveFiles(root, args.Files)
	if err != nil {
		return tools.Fail(err.Error())
	}
	if opts.RelatedFiles != nil {
		// Related files were checked when they were registered; one that
		// no longer resolves inside the root is left out.
		files = union(files, resolveEach(root, opts.RelatedFiles(ctx)))
	}
	if opts.BeforeRun != nil {
		if err := opts.BeforeRun(ctx); err != nil {
			return tools.Fail(fmt.Sprintf("aider not started: %v", err))
		}
	}
	command := "exec " + quoteAll(append([]string{bin}, Args(opts, args.Instructions, files)...))
	timeout := opts.timeout()
	out, err := r.Run(ctx, command, root.Dir(), timeout)
	if err != nil {
		res := tools.Fail(fmt.Sprintf("run aider: %v", err))
		if out.Bytes > 0 {
			res.Output = tail(out)
		}
		return res
	}
	code := out.ExitCode
	res := tools.Result{Success: code == 0 && !out.TimedOut, Output: tail(out), ReturnCode: &code}
	switch {
	case out.TimedOut:
		res.Error = fmt.Sprintf("aider timed out after %s; it and everything it started were killed. "+
			"Check which edits landed, then give a smaller task.", timeout)
	case code != 0:
		res.Error = fmt.Sprintf("aider exited with code %d; read its output above and adjust the instructions or files", code)
	}
	return res
}

// checkInstructions returns why instructions are refused, or "".
func checkInstructions(s string) string {
	words := len(strings.Fields(s))
	switch {
	case words == 0:
		return "instructions are empty: say in plain words what aider should change and why"
	case words > MaxInstructionWords:
		return fmt.Sprintf("instructions have %d words; the limit is %d. Give aider the intent (what to change, where and why) "+
			"in plain words, not code, and split a large change into several calls.", words, MaxInstructionWords)
	case strings.ContainsRune(s, 0):
		return "instructions contain a NUL byte, which cannot be passed to aider"
	}
	return ""
}

// resolveFiles makes files absolute inside root, in order, without
// duplicates. A file that leaves the root is an error naming it.
func resolveFiles(root *workspace.Root, files []string) ([]string, error) {
	var out []string
	for _, f := range files {
		if strings.TrimSpace(f) == "" {
			continue
		}
		abs, err := root.Resolve(f)
		if err != nil {
			return nil, fmt.Errorf("file %q: %w", f, err)
		}
		out = union(out, []string{abs})
	}
	return out, nil
}

// resolveEach is resolveFiles that drops the paths it cannot resolve.
func resolveEach(root *workspace.Root, files []string) []string {
	var out []string
	for _, f := range files {
		if abs, err := resolveFiles(root, []string{f}); err == nil {
			out = union(out, abs)
		}
	}
	return out
}

// union appends the elements of b missing from a, keeping order.
func union(a, b []string) []string {
	seen := make(map[string]bool, len(a)+len(b))
	for _, s := range a {
		seen[s] = true
	}
	for _, s := range b {
		if !seen[s] {
			seen[s] = true
			a = append(a, s)
		}
	}
	return a
}

// quoteAll quotes each word for bash so that it reaches the program
// unchanged.
func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// tail is the end of aider's output the model sees.
func tail(out shell.Output) string {
	text := strings.ToValidUTF8(out.Text, "\uFFFD")
	if strings.TrimSpace(text) == "" {
		return "(aider printed nothing)"
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	prefix := ""
	if n := len(lines) - MaxResultLines; n > 0 {
		lines = lines[n:]
		prefix = fmt.Sprintf("[%d earlier lines of aider's output omitted]\n", n)
	} else if out.Truncated {
		prefix = fmt.Sprintf("[aider printed %d bytes; only the end is shown]\n", out.Bytes)
	}
	return prefix + strings.Join(lines, "\n")
}
