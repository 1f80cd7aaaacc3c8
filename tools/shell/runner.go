// Package shell runs shell commands in their own process group with a
// bounded output tail and a timeout that kills the whole group, and
// provides the run_shell_command tool built on it.
package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/reach-agent/reach/tools"
)

// Defaults of a zero Runner.
const (
	DefaultShell     = "bash"
	DefaultMaxOutput = 1 << 20
	DefaultKillGrace = time.Second
)

// Runner runs commands as `bash -c`. The zero value is ready to use; a
// Runner holds no state between runs and is safe for concurrent use.
type Runner struct {
	// Shell is the program run as `Shell -c command`; "" means bash.
	Shell string
	// Env is the child's environment; nil inherits this process's.
	Env []string
	// MaxOutput is how many bytes of output are kept (the tail);
	// 0 means DefaultMaxOutput.
	MaxOutput int
	// KillGrace is how long a process group gets between SIGTERM and
	// SIGKILL, and how long to wait for output from processes that left
	// the group; 0 means DefaultKillGrace.
	KillGrace time.Duration
	// ProgressInterval is how often, at most, output is reported live to
	// the tools.Progress a run's context carries; 0 means
	// DefaultProgressInterval.
	ProgressInterval time.Duration
	// Prepare, if set, adjusts the command just before it starts (a
	// sandbox wraps it here). It must keep cmd.SysProcAttr's process group.
	Prepare func(cmd *exec.Cmd) error
}

// Output is what a command left behind.
type Output struct {
	// Text is the tail of the combined stdout and stderr: at most
	// MaxOutput bytes, starting at a line boundary when cut.
	Text string
	// ExitCode is the exit status; 128+N when killed by signal N.
	ExitCode int
	// TimedOut is set when the timeout expired and the group was killed.
	TimedOut bool
	// Truncated is set when output before Text was dropped.
	Truncated bool
	// Bytes is the total size of the output, kept or not.
	Bytes int64
}

// Run runs command with `bash -c` in dir, in its own process group, with
// stdin empty and stdout and stderr combined. When timeout (if > 0)
// expires the group gets SIGTERM, then SIGKILL after the grace period,
// and Output.TimedOut is set. When ctx is cancelled the same happens and
// ctx's error is returned with the output so far. Background processes
// the command leaves in its group are killed when it exits. A non-zero
// exit status is not an error. When ctx carries a tools.Progress, the
// output is also reported to it while the command runs (see LiveWriter),
// and never after Run returns.
func (r *Runner) Run(ctx context.Context, command, dir string, timeout time.Duration) (Output, error) {
	if err := ctx.Err(); err != nil {
		return Output{}, fmt.Errorf("run command: %w", err)
	}
	shell := r.Shell
	if shell == "" {
		shell = DefaultShell
	}
	path, err := exec.LookPath(shell)
	if err != nil {
		return Output{}, fmt.Errorf("run command: %s is needed to run shell commands: %w", shell, err)
	}
	grace := r.KillGrace
	if grace <= 0 {
		grace = DefaultKillGrace
	}
	runCtx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}

	// One pipe for both streams keeps their order. It is ours, not
	// exec's, so Wait returns when the shell exits even if a grandchild
	// still holds the write end.
	pr, pw, err := os.Pipe()
	if err != nil {
		return Output{}, fmt.Errorf("run command: create output pipe: %w", err)
	}
	defer pr.Close()
	cmd := exec.Command(path, "-c", command)
	cmd.Dir = dir
	cmd.Env = r.Env
	cmd.Stdout = pw
	cmd.Stderr = pw
	setProcessGroup(cmd)
	if r.Prepare != nil {
		if err := r.Prepare(cmd); err != nil {
			pw.Close()
			return Output{}, fmt.Errorf("run command: prepare: %w", err)
		}
	}
	if err := cmd.Start(); err != nil {
		pw.Close()
		return Output{}, fmt.Errorf("run command in %s: %w", dir, err)
	}
	pw.Close()

	tail := newTailBuffer(r.maxOutput())
	var sink io.Writer = tail
	var live *LiveWriter
	if report := tools.ProgressFrom(ctx); report != nil {
		live = NewLiveWriter(report, r.progressInterval(), LiveChunk)
		sink = io.MultiWriter(tail, live)
	}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		_, _ = io.Copy(sink, pr)
	}()
	waitDone := make(chan error, 1)
	go func() { waitDone <- cmd.Wait() }()

	var waitErr error
	stopped := false
	select {
	case waitErr = <-waitDone:
	case <-runCtx.Done():
		stopped = true
		terminateGroup(cmd)
		select {
		case waitErr = <-waitDone:
		case <-time.After(grace):
			killGroup(cmd)
			waitErr = <-waitDone
		}
	}
	killGroup(cmd) // whatever the command left running in its group

	// Every writer in the group is gone; one that left the group gets the
	// grace period to finish, then the pipe is closed under it.
	select {
	case <-readDone:
	case <-time.After(grace):
		pr.Close()
		<-readDone
	}
	if live != nil {
		live.Close() // the rest of the output; no report after this
	}

	out := Output{
		Text:      tail.String(),
		Truncated: tail.Truncated(),
		Bytes:     tail.total,
		ExitCode:  exitCode(cmd.ProcessState),
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		return out, fmt.Errorf("run command: wait: %w", waitErr)
	}
	if stopped {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("run command: %w", err)
		}
		out.TimedOut = true
	}
	return out, nil
}

func (r *Runner) progressInterval() time.Duration {
	if r.ProgressInterval > 0 {
		return r.ProgressInterval
	}
	return DefaultProgressInterval
}

func (r *Runner) maxOutput() int {
	if r.MaxOutput > 0 {
		return r.MaxOutput
	}
	return DefaultMaxOutput
}

// tailBuffer keeps the last max bytes written to it (and the byte before
// them, to tell whether they start a line), using at most about twice
// that much memory whatever the volume written.
type tailBuffer struct {
	max   int
	buf   []byte
	total int64
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (b *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.total += int64(n)
	keep := b.max + 1
	if n >= keep {
		b.buf = append(b.buf[:0], p[n-keep:]...)
		return n, nil
	}
	if len(b.buf)+n > 2*keep {
		k := keep - n
		copy(b.buf, b.buf[len(b.buf)-k:])
		b.buf = b.buf[:k]
	}
	b.buf = append(b.buf, p...)
	return n, nil
}

// Truncated reports whether bytes were dropped.
func (b *tailBuffer) Truncated() bool { return b.total > int64(b.max) }

// String returns the last max bytes; when bytes were dropped and they do
// not start a line, it starts after the first newline, so that no partial
// line is shown.
func (b *tailBuffer) String() string {
	data := b.buf
	if len(data) <= b.max {
		return string(data)
	}
	before := data[len(data)-b.max-1]
	data = data[len(data)-b.max:]
	if before != '\n' {
		if i := bytes.IndexByte(data, '\n'); i >= 0 && i < len(data)-1 {
			data = data[i+1:]
		}
	}
	return string(data)
}
