package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/reach-agent/reach/approval"
	"github.com/reach-agent/reach/checkpoint"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/policy"
	"github.com/reach-agent/reach/sandbox"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// safety holds the guarantees of SPEC §5 for one run: the shell policy
// (given to the approval gate), the OS sandbox (a shell.Runner hook) and
// the checkpoints taken before every change.
//
// Probing the kernel and opening the checkpoint store cost tens of
// milliseconds, so both happen on first need: `reach tools call` of a
// read-only tool pays for neither. A run calls prepare to do it up front
// and to say plainly when the sandbox cannot confine.
type safety struct {
	cfg  *config.Config
	root *workspace.Root
	sink events.Sink

	once    sync.Once
	err     error
	policy  *policy.Policy
	sandbox *sandbox.Sandbox
	aider   *sandbox.Sandbox // the same confinement, with the network

	store func() (*checkpoint.Store, error)
}

// newSafety checks the [policy] rules (a bad rule is a usage error) and
// returns the run's safety, built on first use.
func newSafety(ctx context.Context, cfg *config.Config, root *workspace.Root, sink events.Sink) (*safety, error) {
	if sink == nil {
		sink = events.Discard{}
	}
	if _, err := newPolicy(cfg, root.Dir(), false); err != nil {
		return nil, err
	}
	s := &safety{cfg: cfg, root: root, sink: sink}
	s.store = sync.OnceValues(func() (*checkpoint.Store, error) {
		return checkpoint.Open(context.WithoutCancel(ctx), root.Dir())
	})
	return s, nil
}

// build probes the kernel once and makes the sandboxes and the policy.
func (s *safety) build() error {
	s.once.Do(func() {
		support := sandbox.Probe()
		if s.sandbox, s.err = newSandbox(s.cfg, s.root.Dir(), support); s.err != nil {
			return
		}
		aiderCfg := *s.cfg
		aiderCfg.AllowNetwork = true
		if s.aider, s.err = newSandbox(&aiderCfg, s.root.Dir(), support); s.err != nil {
			return
		}
		s.policy, s.err = newPolicy(s.cfg, s.root.Dir(), s.sandbox.Confines())
	})
	return s.err
}

// prepare builds everything now and warns once when shell commands will
// not be confined.
func (s *safety) prepare() error {
	if err := s.build(); err != nil {
		return err
	}
	if _, err := s.store(); err != nil {
		return err
	}
	if s.cfg.Sandbox != config.SandboxOff && !s.sandbox.Confines() {
		s.sink.Emit(events.Notice{Level: "warn", Text: "sandbox: " + s.sandbox.Describe()})
	}
	return nil
}

// Decide implements approval.Policy.
func (s *safety) Decide(command string) approval.Verdict {
	if err := s.build(); err != nil {
		return approval.Verdict{Action: approval.Deny, Rule: "safety-unavailable", Reason: "refused: the shell policy could not be set up: " + err.Error()}
	}
	return s.policy.Decide(command)
}

// readOnly reports whether the policy sees command as read-only.
func (s *safety) readOnly(command string) bool {
	return s.build() == nil && s.policy.Check(command).ReadOnly
}

// prepareCmd and prepareAider are the shell runners' sandbox hooks.
func (s *safety) prepareCmd(cmd *exec.Cmd) error {
	if err := s.build(); err != nil {
		return err
	}
	return s.sandbox.Prepare(cmd)
}

func (s *safety) prepareAider(cmd *exec.Cmd) error {
	if err := s.build(); err != nil {
		return err
	}
	return s.aider.Prepare(cmd)
}

// take records a checkpoint labelled reason.
func (s *safety) take(ctx context.Context, reason string) error {
	store, err := s.store()
	if err != nil {
		return err
	}
	_, _, err = store.Take(ctx, reason)
	return err
}

func newSandbox(cfg *config.Config, root string, support sandbox.Support) (*sandbox.Sandbox, error) {
	return sandbox.New(sandbox.Options{
		Mode:         sandbox.Mode(cfg.Sandbox),
		AllowNetwork: cfg.AllowNetwork,
		Root:         root,
		Extra:        buildCaches(),
		Support:      support,
	})
}

func newPolicy(cfg *config.Config, root string, sandboxed bool) (*policy.Policy, error) {
	pol, err := policy.New(policy.Options{
		Root: root, Env: os.Environ(), Sandboxed: sandboxed,
		Allow: cfg.Policy.Allow, Ask: cfg.Policy.Ask, Deny: cfg.Policy.Deny,
	})
	if err != nil {
		return nil, &config.UsageError{Msg: err.Error()}
	}
	return pol, nil
}

// buildCaches are directories outside the project that builds write to
// (Go, npm, cargo caches); sandboxed commands may write there.
func buildCaches() []string {
	var dirs []string
	for _, env := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "XDG_CACHE_HOME"} {
		if v := os.Getenv(env); filepath.IsAbs(v) {
			dirs = append(dirs, v)
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		for _, d := range []string{".cache", "go", ".npm", ".cargo/registry", ".cargo/git", ".m2/repository", ".gradle/caches"} {
			dirs = append(dirs, filepath.Join(home, d))
		}
	}
	return dirs
}

// attach puts the sandbox on tb's shell runner (run_shell_command and
// --test-cmd) and on aider's (with the network, which aider needs for its
// model), and checkpoints before every allowed change.
func (s *safety) attach(tb *Toolbox) {
	tb.Shell.Prepare = s.prepareCmd
	tb.Aider.Prepare = s.prepareAider
	tb.Executor.Gate = &checkpointGate{inner: tb.Executor.Gate, s: s}
}

// checkpointGate takes a checkpoint after the inner gate allows a file
// write or a shell command that is not read-only, just before it runs.
type checkpointGate struct {
	inner tools.Gate
	s     *safety
}

func (g *checkpointGate) Check(ctx context.Context, spec tools.Spec, args json.RawMessage) (tools.Decision, error) {
	d := tools.Decision{Allow: true, Rule: "no-gate"}
	if g.inner != nil {
		var err error
		if d, err = g.inner.Check(ctx, spec, args); err != nil || !d.Allow {
			return d, err
		}
	}
	reason, needed := g.s.needsCheckpoint(spec, args)
	if !needed {
		return d, nil
	}
	if err := g.s.take(ctx, reason); err != nil {
		return tools.Decision{Rule: "checkpoint-failed", Reason: fmt.Sprintf(
			"not run: the checkpoint that makes this change undoable failed (%v); nothing was changed", err)}, nil
	}
	return d, nil
}

// beforeTests takes a checkpoint before --test-cmd runs, unless the
// policy sees the command as read-only: test suites can write too.
func (s *safety) beforeTests(ctx context.Context, command string) error {
	if s.readOnly(command) {
		return nil
	}
	if err := s.take(ctx, "before the test command: "+command); err != nil {
		return fmt.Errorf("checkpoint before the test command: %w", err)
	}
	return nil
}

// needsCheckpoint says whether a call may change files, and how to
// label the checkpoint taken before it.
func (s *safety) needsCheckpoint(spec tools.Spec, args json.RawMessage) (string, bool) {
	var a struct {
		Command  *string `json:"command"`
		Filepath string  `json:"filepath"`
		Path     string  `json:"path"`
	}
	_ = json.Unmarshal(args, &a)
	switch spec.SideEffect {
	case tools.Read, tools.Network:
		return "", false
	case tools.Write:
		return "before " + spec.Name + " " + a.Filepath + a.Path, true
	}
	if a.Command != nil && s.readOnly(*a.Command) {
		return "", false
	}
	if a.Command != nil {
		return "before " + spec.Name + ": " + *a.Command, true
	}
	return "before " + spec.Name, true
}

// CheckCommand prints what the policy decides about command (reach policy
// check) and returns 0 allow, 1 ask, 2 deny.
func CheckCommand(out, errOut io.Writer, cfg *config.Config, dir, command string) int {
	root, err := workspace.New(dir)
	if err != nil {
		fmt.Fprintf(errOut, "reach: %v\n", err)
		return ExitUsage
	}
	s, err := newSafety(context.Background(), cfg, root, nil)
	if err != nil {
		fmt.Fprintf(errOut, "reach: %v\n", err)
		return ExitUsage
	}
	if err := s.build(); err != nil {
		fmt.Fprintf(errOut, "reach: %v\n", err)
		return ExitFailed
	}
	rep := s.policy.Check(command)
	fmt.Fprintf(out, "decision: %s\nrule: %s\n", rep.Verdict.Action, rep.Verdict.Rule)
	if rep.Verdict.Reason != "" {
		fmt.Fprintf(out, "reason: %s\n", rep.Verdict.Reason)
	}
	fmt.Fprintf(out, "read-only: %v\ncommands:\n", rep.ReadOnly)
	for _, c := range rep.Commands {
		fmt.Fprintf(out, "  %-5s %s  [%s]\n", c.Action, c.Command, c.Rule)
	}
	switch rep.Verdict.Action {
	case approval.Allow:
		return 0
	case approval.Deny:
		return 2
	}
	return 1
}

// SandboxStatus says in one line what the sandbox does on this machine
// with cfg (for reach doctor).
func SandboxStatus(cfg *config.Config, dir string) string {
	sb, err := newSandbox(cfg, dir, sandbox.Probe())
	if err != nil {
		return err.Error()
	}
	return sb.Describe()
}
