//go:build !unix

package shell

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where there are no Unix process groups.
func setProcessGroup(*exec.Cmd) {}

// KillGroupOnCancel kills cmd's process when its context ends: there are
// no process groups here to reach its children.
func KillGroupOnCancel(cmd *exec.Cmd) {
	cmd.Cancel = func() error { killGroup(cmd); return nil }
}

// terminateGroup kills the command's process; without process groups its
// children are not reached.
func terminateGroup(cmd *exec.Cmd) { killGroup(cmd) }

// killGroup kills the command's process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// exitCode returns the exit status, or -1 when unknown.
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	return ps.ExitCode()
}
