//go:build unix

package app

import (
	"os/exec"
	"testing"

	"github.com/reach-agent/reach/memory"
)

func TestRunnerState(t *testing.T) {
	self := thisProcess()
	// A process that has ended, and one that still runs.
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Fatal(err)
	}
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { live.Process.Kill(); live.Wait() })

	running := func(p memory.Process) memory.SessionInfo {
		return memory.SessionInfo{ID: 1, Status: memory.StatusRunning, Runner: p}
	}
	cases := []struct {
		name        string
		s           memory.SessionInfo
		gone, alive bool
		shown       string
	}{
		{"process ended", running(memory.Process{PID: done.Process.Pid, Host: self.Host}), true, false, memory.StatusInterrupted},
		{"process still runs", running(memory.Process{PID: live.Process.Pid, Host: self.Host}), false, true, memory.StatusRunning},
		{"this process", running(self), false, true, memory.StatusRunning},
		{"another machine", running(memory.Process{PID: done.Process.Pid, Host: self.Host + "-other"}), false, false, memory.StatusRunning},
		{"recorded before reach kept the process", running(memory.Process{}), false, false, memory.StatusRunning},
		{"finished session", memory.SessionInfo{Status: memory.StatusCompleted, Runner: memory.Process{PID: done.Process.Pid, Host: self.Host}}, false, false, memory.StatusCompleted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gone, alive := runnerState(c.s, self)
			if gone != c.gone || alive != c.alive {
				t.Errorf("runnerState = gone %v alive %v, want %v %v", gone, alive, c.gone, c.alive)
			}
			if got := shownStatus(c.s, self); got != c.shown {
				t.Errorf("shown status %q, want %q", got, c.shown)
			}
		})
	}
}
