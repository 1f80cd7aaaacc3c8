//go:build unix

package app

import (
	"errors"
	"syscall"
)

// processRunning asks the kernel whether pid exists: signal 0 checks
// without sending anything. EPERM means it exists but is someone else's.
func processRunning(pid int) processState {
	err := syscall.Kill(pid, 0)
	switch {
	case err == nil, errors.Is(err, syscall.EPERM):
		return processAlive
	case errors.Is(err, syscall.ESRCH):
		return processGone
	}
	return processUnknown
}
