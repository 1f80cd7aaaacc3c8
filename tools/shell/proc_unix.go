//go:build unix

package shell

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup makes the command the leader of a new process group, so
// that it and everything it starts can be signalled at once.
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// KillGroupOnCancel starts cmd in its own process group and, when its
// context ends, kills the whole group, so that what the command started
// does not outlive it. (Where there are no process groups, the process
// alone is killed.)
func KillGroupOnCancel(cmd *exec.Cmd) {
	setProcessGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd); return nil }
}

// terminateGroup asks the command's process group to stop.
func terminateGroup(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGTERM) }

// killGroup kills the command's process group; a group that is already
// gone is not an error.
func killGroup(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGKILL) }

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	// The group id is the leader's pid; a negative pid signals the group.
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

// exitCode returns the exit status, 128+N for a process killed by signal
// N (as shells report it), or -1 when unknown.
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
