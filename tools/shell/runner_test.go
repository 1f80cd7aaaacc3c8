//go:build unix

package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunExitAndOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name     string
		runner   Runner
		command  string
		wantCode int
		wantText string
	}{
		{"success", Runner{}, "echo hello", 0, "hello\n"},
		{"exit code", Runner{}, "echo oops; exit 3", 3, "oops\n"},
		{"false", Runner{}, "false", 1, ""},
		{"killed by signal", Runner{}, "kill -9 $$", 137, ""},
		{"stdout and stderr in order", Runner{}, "echo out; echo err >&2; echo out2", 0, "out\nerr\nout2\n"},
		{"runs in dir", Runner{}, "pwd", 0, dir + "\n"},
		{"stdin is empty", Runner{}, "cat; echo done", 0, "done\n"},
		{"environment", Runner{Env: []string{"REACH_TEST_VAR=xyz", "PATH=" + os.Getenv("PATH")}}, "echo $REACH_TEST_VAR", 0, "xyz\n"},
		{"custom shell", Runner{Shell: "sh"}, "echo from sh", 0, "from sh\n"},
		{"no trailing newline", Runner{}, "printf abc", 0, "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := tt.runner.Run(context.Background(), tt.command, dir, 10*time.Second)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if out.ExitCode != tt.wantCode || out.Text != tt.wantText || out.TimedOut || out.Truncated {
				t.Errorf("got %+v, want code %d text %q", out, tt.wantCode, tt.wantText)
			}
			if out.Bytes != int64(len(tt.wantText)) {
				t.Errorf("Bytes = %d, want %d", out.Bytes, len(tt.wantText))
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		runner  Runner
		dir     string
		wantErr string
	}{
		{"missing shell", Runner{Shell: "no-such-shell-for-reach"}, t.TempDir(), "no-such-shell-for-reach is needed"},
		{"missing dir", Runner{}, "/nonexistent/reach/dir", "/nonexistent/reach/dir"},
		{"prepare fails", Runner{Prepare: func(*exec.Cmd) error { return errors.New("no sandbox") }}, t.TempDir(), "no sandbox"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.runner.Run(context.Background(), "true", tt.dir, time.Second)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// pids reads the process ids a command printed, one per line.
func pids(t *testing.T, text string) []int {
	t.Helper()
	var out []int
	for _, f := range strings.Fields(text) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no pid in %q", text)
	}
	return out
}

// assertGone waits a little for pid to be gone (or a zombie nobody reaped).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && strings.Contains(string(stat), ") Z ") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("process %d still running", pid)
}

func TestRunTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		runner  Runner
		command string
	}{
		{"background and foreground sleeps", Runner{}, "sleep 100 & echo $!; sleep 100 & echo $!; sleep 100"},
		{"SIGTERM ignored needs SIGKILL", Runner{KillGrace: 200 * time.Millisecond}, "trap '' TERM; sleep 100 & echo $!; sleep 100"},
		{"nested shells", Runner{}, "bash -c 'sleep 100 & echo $!; sleep 100' & echo $!; wait"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			out, err := tt.runner.Run(context.Background(), tt.command, t.TempDir(), 300*time.Millisecond)
			elapsed := time.Since(start)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if !out.TimedOut {
				t.Errorf("TimedOut not set: %+v", out)
			}
			// Generous bound: the point is "not 100 seconds".
			if elapsed > 10*time.Second {
				t.Errorf("Run took %v after a 300ms timeout", elapsed)
			}
			if out.ExitCode != 128+int(syscall.SIGTERM) && out.ExitCode != 128+int(syscall.SIGKILL) {
				t.Errorf("exit code %d, want 143 or 137", out.ExitCode)
			}
			for _, pid := range pids(t, out.Text) {
				assertGone(t, pid)
			}
		})
	}
}

func TestRunReturnsWhenBackgroundJobsLinger(t *testing.T) {
	t.Parallel()
	t.Run("background job in the group is killed", func(t *testing.T) {
		t.Parallel()
		out, err := (&Runner{}).Run(context.Background(), "sleep 100 & echo $!; echo done", t.TempDir(), 30*time.Second)
		if err != nil || out.ExitCode != 0 || out.TimedOut || !strings.HasSuffix(out.Text, "done\n") {
			t.Fatalf("got %+v, %v", out, err)
		}
		assertGone(t, pids(t, out.Text)[0])
	})
	t.Run("process that left the group and holds the pipe", func(t *testing.T) {
		t.Parallel()
		if _, err := exec.LookPath("setsid"); err != nil {
			t.Skip("setsid not installed")
		}
		r := Runner{KillGrace: 200 * time.Millisecond}
		start := time.Now()
		// The pid file appears after setsid, so the sleep has surely left
		// the group before the shell exits.
		cmd := "setsid bash -c 'echo $$ > pid.tmp; exec sleep 100' & while [ ! -s pid.tmp ]; do sleep 0.01; done; cat pid.tmp"
		out, err := r.Run(context.Background(), cmd, t.TempDir(), 30*time.Second)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		pid := pids(t, out.Text)[0]
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
		if err := syscall.Kill(pid, 0); err != nil {
			t.Fatalf("the escaped process %d is not running, so the pipe was never held: %v", pid, err)
		}
		if elapsed := time.Since(start); elapsed > 10*time.Second {
			t.Errorf("Run waited %v for a process outside the group", elapsed)
		}
		if out.ExitCode != 0 || out.TimedOut {
			t.Errorf("got %+v", out)
		}
	})
}

func TestRunContextCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	out, err := (&Runner{}).Run(ctx, "echo started; sleep 100", t.TempDir(), time.Minute)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if out.TimedOut || out.Text != "started\n" {
		t.Errorf("got %+v, want the output so far and no timeout", out)
	}

	if _, err := (&Runner{}).Run(ctx, "echo never", t.TempDir(), time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context must not start the command: %v", err)
	}
}

func TestRunLargeOutputIsBounded(t *testing.T) {
	t.Parallel()
	const line = "0123456789abcdef\n"
	const lines = 3_000_000 // 51 MB
	out, err := (&Runner{}).Run(context.Background(), fmt.Sprintf("yes 0123456789abcdef | head -n %d", lines), t.TempDir(), 2*time.Minute)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if out.ExitCode != 0 || !out.Truncated {
		t.Fatalf("got exit %d truncated %v", out.ExitCode, out.Truncated)
	}
	if out.Bytes != int64(len(line)*lines) {
		t.Errorf("Bytes = %d, want %d", out.Bytes, len(line)*lines)
	}
	if len(out.Text) > DefaultMaxOutput || len(out.Text) < DefaultMaxOutput-len(line) {
		t.Errorf("kept %d bytes, want just under %d", len(out.Text), DefaultMaxOutput)
	}
	if strings.ReplaceAll(out.Text, line, "") != "" {
		t.Error("the kept tail does not consist of whole lines")
	}
}
