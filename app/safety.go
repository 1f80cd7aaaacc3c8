package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

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
type safety struct {
	policy      *policy.Policy
	sandbox     *sandbox.Sandbox
	aider       *sandbox.Sandbox // the same confinement, with the network
	checkpoints *checkpoint.Store
	sink        events.Sink
}

// newSafety builds the policy, sandbox and checkpoint store for root. A
// bad [policy] rule is a usage error. When the sandbox cannot confine on
// this kernel, sink hears it once, plainly.
func newSafety(ctx context.Context, cfg *config.Config, root *workspace.Root, sink events.Sink) (*safety, error) {
	if sink == nil {
		sink = events.Discard{}
	}
	sb, err := newSandbox(cfg, root.Dir())
	if err != nil {
		return nil, err
	}
	pol, err := newPolicy(cfg, root.Dir(), sb)
	if err != nil {
		return nil, err
	}
	aiderCfg := *cfg
	aiderCfg.AllowNetwork = true
	aiderSB, err := newSandbox(&aiderCfg, root.Dir())
	if err != nil {
		return nil, err
	}
	store, err := checkpoint.Open(ctx, root.Dir())
	if err != nil {
		return nil, err
	}
	if cfg.Sandbox != config.SandboxOff && !sb.Confines() {
		sink.Emit(events.Notice{Level: "warn", Text: "sandbox: " + sb.Describe()})
	}
	return &safety{policy: pol, sandbox: sb, aider: aiderSB, checkpoints: store, sink: sink}, nil
}

func newSandbox(cfg *config.Config, root string) (*sandbox.Sandbox, error) {
	return sandbox.New(sandbox.Options{
		Mode:         sandbox.Mode(cfg.Sandbox),
		AllowNetwork: cfg.AllowNetwork,
		Root:         root,
		Extra:        buildCaches(),
		Support:      sandbox.Probe(),
	})
}

func newPolicy(cfg *config.Config, root string, sb *sandbox.Sandbox) (*policy.Policy, error) {
	pol, err := policy.New(policy.Options{
		Root: root, Env: os.Environ(), Sandboxed: sb.Confines(),
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
	tb.Shell.Prepare = s.sandbox.Prepare
	tb.Aider.Prepare = s.aider.Prepare
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
	if _, _, err := g.s.checkpoints.Take(ctx, reason); err != nil {
		return tools.Decision{Rule: "checkpoint-failed", Reason: fmt.Sprintf(
			"not run: the checkpoint that makes this change undoable failed (%v); nothing was changed", err)}, nil
	}
	return d, nil
}

// beforeTests takes a checkpoint before --test-cmd runs, unless the
// policy sees the command as read-only: test suites can write too.
func (s *safety) beforeTests(ctx context.Context, command string) error {
	if s.policy.Check(command).ReadOnly {
		return nil
	}
	if _, _, err := s.checkpoints.Take(ctx, "before the test command: "+command); err != nil {
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
	if a.Command != nil && s.policy.Check(*a.Command).ReadOnly {
		return "", false
	}
	if a.Command != nil {
		return "before " + spec.Name + ": " + *a.Command, true
	}
	return "before " + spec.Name, true
}

// CheckCommand prints what the policy decides about command (reach policy
// check) and returns 0 allow, 1 ask, 2 deny.
func CheckCommand(out, errOut interface{ Write([]byte) (int, error) }, cfg *config.Config, dir, command string) int {
	root, err := workspace.New(dir)
	if err != nil {
		fmt.Fprintf(errOut, "reach: %v\n", err)
		return ExitUsage
	}
	sb, err := newSandbox(cfg, root.Dir())
	if err != nil {
		fmt.Fprintf(errOut, "reach: %v\n", err)
		return ExitFailed
	}
	pol, err := newPolicy(cfg, root.Dir(), sb)
	if err != nil {
		fmt.Fprintf(errOut, "reach: %v\n", err)
		return ExitUsage
	}
	rep := pol.Check(command)
	fmt.Fprintf(out, "decision: %s\nrule: %s\n", rep.Verdict.Action, rep.Verdict.Rule)
	if rep.Verdict.Reason != "" {
		fmt.Fprintf(out, "reason: %s\n", rep.Verdict.Reason)
	}
	fmt.Fprintf(out, "read-only: %v\ncommands:\n", rep.ReadOnly)
	for _, c := range rep.Commands {
		fmt.Fprintf(out, "  %-5s %s  [%s]\n", c.Action, c.Command, c.Rule)
	}
	return int(map[string]int{"allow": 0, "ask": 1, "deny": 2}[rep.Verdict.Action.String()])
}

// SandboxStatus says in one line what the sandbox does on this machine
// with cfg (for reach doctor).
func SandboxStatus(cfg *config.Config, dir string) string {
	sb, err := newSandbox(cfg, dir)
	if err != nil {
		return err.Error()
	}
	return sb.Describe()
}
