//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

func setNamespaces(*syscall.SysProcAttr) {}

// Probe reports no sandbox support outside Linux.
func Probe() Support { return Support{} }

// Child runs PROG unconfined: there is no Landlock outside Linux.
func Child(args []string) error {
	if len(args) < 3 || args[1] != "--" {
		return errors.New("usage: reach __sandbox SPEC -- PROGRAM [ARGS…] (internal)")
	}
	cmd := exec.Command(args[2], args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			os.Exit(ee.ExitCode())
		}
		return err
	}
	os.Exit(0)
	return nil
}
