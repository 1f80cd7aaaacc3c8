package app

import (
	"context"
	"fmt"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// kernelProbe asks the running Linux kernel.
type kernelProbe struct{}

// Probe implements SandboxProbe.
func (kernelProbe) Probe(ctx context.Context) SandboxReport {
	var r SandboxReport
	r.LandlockABI, r.LandlockDetail = landlockABI()
	var ways []string
	if r.LandlockABI >= 4 {
		ways = append(ways, fmt.Sprintf("Landlock TCP rules (ABI %d)", r.LandlockABI))
	}
	if err := netNamespace(ctx); err == nil {
		ways = append(ways, "network namespace")
	} else if len(ways) == 0 {
		r.Network = fmt.Sprintf("Landlock ABI %d has no TCP rules (needs 4) and no network namespace: %v", r.LandlockABI, err)
		return r
	}
	r.NetworkIsolated = true
	r.Network = ways[0]
	if len(ways) > 1 {
		r.Network += " or " + ways[1]
	}
	return r
}

// landlockABI asks landlock_create_ruleset for the ABI version.
func landlockABI() (int, string) {
	const versionFlag = 1 // LANDLOCK_CREATE_RULESET_VERSION
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, versionFlag)
	switch errno {
	case 0:
		return int(v), ""
	case unix.ENOSYS:
		return 0, "kernel built without Landlock"
	case unix.EOPNOTSUPP:
		return 0, "Landlock disabled at boot (add landlock to the lsm= kernel parameter)"
	default:
		return 0, errno.Error()
	}
}

// netNamespace starts /bin/true in new user and network namespaces.
func netNamespace(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "/bin/true")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: unix.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: unix.Getgid(), Size: 1}},
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("unshare user and network namespaces: %w", err)
	}
	return nil
}
