// Package sandbox confines shell commands on Linux: Landlock lets them
// write only under the project root and the temp directories, and a new
// network namespace (or, failing that, Landlock's TCP rules) keeps them
// off the network unless allowed.
//
// The parent side (Sandbox.Prepare) rewrites an exec.Cmd to run through a
// hidden `reach __sandbox SPEC -- PROG ARGS…` re-exec of the current
// binary; the child side (Child) applies the restrictions to itself and
// then execs PROG, so nothing but the command is confined.
package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// ChildCommand is the hidden subcommand that runs the child side.
const ChildCommand = "__sandbox"

// Mode is how much a command may write.
type Mode string

// Modes of --sandbox.
const (
	ReadOnly       Mode = "read-only"       // write only in temp directories
	WorkspaceWrite Mode = "workspace-write" // also under the project root
	Off            Mode = "off"
)

// Spec is what the child applies; it travels as JSON on the command line.
type Spec struct {
	Writable []string `json:"writable"` // directories it may write under
	DenyTCP  bool     `json:"deny_tcp"` // refuse TCP bind/connect with Landlock (no namespace available)
	NetNS    bool     `json:"netns"`    // it runs in a fresh network namespace: bring up lo
}

// Support is what this kernel offers.
type Support struct {
	LandlockABI int  // 0: no Landlock
	UserNetNS   bool // unprivileged user + network namespaces work
}

// Sandbox wraps commands for one project. The zero value is not usable;
// use New.
type Sandbox struct {
	mode     Mode
	network  bool
	writable []string
	self     string
	support  Support
}

// Options configures New.
type Options struct {
	Mode         Mode
	AllowNetwork bool
	Root         string   // the project root
	Extra        []string // more writable directories (build caches)
	Temp         []string // temp directories; nil means TempDirs()
	Self         string   // the binary to re-exec; "" means os.Executable
	Support      Support  // what the kernel offers (see Probe)
}

// New returns a Sandbox for opts.
func New(opts Options) (*Sandbox, error) {
	self := opts.Self
	if self == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("sandbox: find reach's own binary: %w", err)
		}
		self = exe
	}
	s := &Sandbox{mode: opts.Mode, network: opts.AllowNetwork, self: self, support: opts.Support}
	if opts.Mode == WorkspaceWrite {
		s.writable = append(s.writable, opts.Root)
	}
	temp := opts.Temp
	if temp == nil {
		temp = TempDirs()
	}
	s.writable = append(s.writable, temp...)
	s.writable = append(s.writable, opts.Extra...)
	return s, nil
}

// TempDirs are the directories commands may always write under.
func TempDirs() []string {
	dirs := []string{"/tmp", "/var/tmp", "/dev/shm"}
	if t := os.Getenv("TMPDIR"); filepath.IsAbs(t) {
		dirs = append(dirs, t)
	}
	return dirs
}

// Confines reports whether writes are actually confined (a sandbox mode
// is on and the kernel has Landlock).
func (s *Sandbox) Confines() bool {
	return s.mode != Off && s.support.LandlockABI > 0
}

// Describe says in one line what the sandbox does on this kernel.
func (s *Sandbox) Describe() string {
	if s.mode == Off {
		return "sandbox off: shell commands are not confined (the policy still refuses writes outside the project)"
	}
	fsPart := fmt.Sprintf("Landlock ABI %d confines writes (%s)", s.support.LandlockABI, s.mode)
	if s.support.LandlockABI == 0 {
		fsPart = "this kernel has no Landlock, so shell commands are NOT confined to the project; the policy still refuses writes it can see outside the root"
	}
	netPart := "network allowed"
	switch {
	case s.network:
	case s.support.UserNetNS:
		netPart = "no network (own network namespace)"
	case s.support.LandlockABI >= 4:
		netPart = "no TCP (Landlock network rules; no user namespaces here)"
	default:
		netPart = "network NOT blocked (no user namespaces and no Landlock network rules on this kernel)"
	}
	return fsPart + "; " + netPart
}

// Prepare rewrites cmd to run through the sandbox. It is a
// shell.Runner.Prepare hook and keeps cmd's process group settings.
func (s *Sandbox) Prepare(cmd *exec.Cmd) error {
	if s.mode == Off {
		return nil
	}
	spec := Spec{Writable: s.writable}
	if !s.network {
		if s.support.UserNetNS {
			spec.NetNS = true
			isolateNetwork(cmd)
		} else {
			spec.DenyTCP = true
		}
	}
	data, err := json.Marshal(spec)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	path := cmd.Path
	if path == "" && len(cmd.Args) > 0 {
		path = cmd.Args[0]
	}
	args := []string{s.self, ChildCommand, string(data), "--", path}
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path, cmd.Args = s.self, args
	return nil
}

// isolateNetwork starts cmd in new user and network namespaces, mapping
// the current user to itself.
func isolateNetwork(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	setNamespaces(cmd.SysProcAttr)
}
