package app

import (
	"fmt"
	"os"

	"github.com/reach-agent/reach/memory"
)

// thisProcess is the runner recorded for a session this process begins
// or resumes.
func thisProcess() memory.Process {
	host, _ := os.Hostname()
	return memory.Process{PID: os.Getpid(), Host: host}
}

// runnerState tells what became of a session recorded as running: gone
// is true when its process has ended without finishing it (killed, or the
// machine went down), alive when that process still runs. Both are false
// when it cannot be known: another machine, a session recorded before
// reach kept its process, or a system without a way to ask.
func runnerState(s memory.SessionInfo, self memory.Process) (gone, alive bool) {
	r := s.Runner
	if s.Status != memory.StatusRunning || r.PID <= 0 || r.Host == "" || r.Host != self.Host {
		return false, false
	}
	if r.PID == self.PID {
		return false, true
	}
	switch processRunning(r.PID) {
	case processGone:
		return true, false
	case processAlive:
		return false, true
	}
	return false, false
}

// shownStatus is the status to print for s: a running session whose
// process is gone shows as interrupted.
func shownStatus(s memory.SessionInfo, self memory.Process) string {
	if gone, _ := runnerState(s, self); gone {
		return memory.StatusInterrupted
	}
	return s.Status
}

// statusNote explains a status that differs from the stored one, or is "".
func statusNote(s memory.SessionInfo, self memory.Process) string {
	gone, alive := runnerState(s, self)
	switch {
	case gone:
		return fmt.Sprintf("its process %d ended without finishing it (killed or crashed)", s.Runner.PID)
	case alive && s.Runner.PID != self.PID:
		return fmt.Sprintf("still running in process %d", s.Runner.PID)
	}
	return ""
}

// processState is what the system says of a process id.
type processState int

const (
	processUnknown processState = iota
	processAlive
	processGone
)
