//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/sys/unix"
)

func setNamespaces(attr *syscall.SysProcAttr) {
	attr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
}

// Probe finds out what the kernel offers: the Landlock ABI version and
// whether this user can create user and network namespaces.
func Probe() Support {
	var s Support
	abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno == 0 {
		s.LandlockABI = int(abi)
	}
	if exe, err := exec.LookPath("true"); err == nil {
		cmd := exec.Command(exe)
		cmd.SysProcAttr = &syscall.SysProcAttr{}
		setNamespaces(cmd.SysProcAttr)
		s.UserNetNS = cmd.Run() == nil
	}
	return s
}

// Child is the body of `reach __sandbox SPEC -- PROG ARGS…`: it confines
// this process and execs PROG. It returns only on failure.
func Child(args []string) error {
	if len(args) < 3 || args[1] != "--" {
		return errors.New("usage: reach __sandbox SPEC -- PROGRAM [ARGS…] (internal)")
	}
	var spec Spec
	if err := json.Unmarshal([]byte(args[0]), &spec); err != nil {
		return fmt.Errorf("sandbox: bad spec: %w", err)
	}
	prog, argv := args[2], args[2:]
	if spec.NetNS {
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("sandbox: bring up loopback: %w", err)
		}
	}
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(spec.Writable...).IgnoreIfMissing(),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/tty", "/dev/full", "/dev/urandom", "/dev/random").IgnoreIfMissing(),
		landlock.RWDirs("/dev/pts", "/proc/self/fd").IgnoreIfMissing(),
	}
	if err := landlock.V5.BestEffort().RestrictPaths(rules...); err != nil {
		return fmt.Errorf("sandbox: landlock: %w", err)
	}
	if spec.DenyTCP {
		if err := landlock.V5.BestEffort().RestrictNet(); err != nil {
			return fmt.Errorf("sandbox: landlock network rules: %w", err)
		}
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	return fmt.Errorf("sandbox: exec %s: %w", path, syscall.Exec(path, argv, os.Environ()))
}

// loopbackUp brings up lo in the fresh network namespace, so that tests
// can listen on 127.0.0.1; nothing outside the namespace is reachable.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
