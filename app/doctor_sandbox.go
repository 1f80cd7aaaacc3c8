package app

import "context"

// SandboxProbe tells what the OS offers the shell sandbox. reach doctor
// uses it; until the sandbox package offers its own probe, kernelProbe
// asks the kernel directly.
type SandboxProbe interface {
	Probe(ctx context.Context) SandboxReport
}

// SandboxReport is what a SandboxProbe found.
type SandboxReport struct {
	// LandlockABI is the kernel's Landlock ABI version; 0 when Landlock
	// is missing or disabled.
	LandlockABI int
	// LandlockDetail says why LandlockABI is 0.
	LandlockDetail string
	// NetworkIsolated reports whether shell commands can be cut off from
	// the network; Network says how, or why not.
	NetworkIsolated bool
	Network         string
}
