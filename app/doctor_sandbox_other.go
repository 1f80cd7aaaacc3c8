//go:build !linux

package app

import "context"

// kernelProbe reports that the sandbox needs Linux.
type kernelProbe struct{}

// Probe implements SandboxProbe.
func (kernelProbe) Probe(context.Context) SandboxReport {
	return SandboxReport{LandlockDetail: "Landlock needs Linux", Network: "the sandbox needs Linux"}
}
