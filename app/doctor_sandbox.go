package app

import (
	"context"
	"fmt"
	"runtime"

	"github.com/reach-agent/reach/sandbox"
)

// SandboxProbe tells reach doctor what the OS offers the shell sandbox.
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

// kernelProbe asks this machine's kernel through sandbox.Probe.
type kernelProbe struct{}

// Probe implements SandboxProbe.
func (kernelProbe) Probe(context.Context) SandboxReport {
	s := sandbox.Probe()
	r := SandboxReport{LandlockABI: s.LandlockABI}
	if s.LandlockABI == 0 {
		r.LandlockDetail = "missing or disabled; on Linux ≥ 5.13 add landlock to the lsm= kernel parameter"
		if runtime.GOOS != "linux" {
			r.LandlockDetail = "Landlock needs Linux"
		}
	}
	switch {
	case s.UserNetNS:
		r.NetworkIsolated, r.Network = true, "own network namespace"
	case s.LandlockABI >= 4:
		r.NetworkIsolated, r.Network = true, fmt.Sprintf("Landlock TCP rules (ABI %d; no user namespaces here)", s.LandlockABI)
	default:
		r.Network = "no user namespaces and no Landlock network rules on this kernel"
	}
	return r
}
