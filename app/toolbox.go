package app

import (
	"fmt"
	"time"

	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/edit"
	"github.com/reach-agent/reach/tools/nav"
	"github.com/reach-agent/reach/tools/recall"
	"github.com/reach-agent/reach/tools/session"
	"github.com/reach-agent/reach/tools/shell"
	"github.com/reach-agent/reach/workspace"
)

// Toolbox is the registry of a run with everything its tools need.
type Toolbox struct {
	Root     *workspace.Root
	Registry *tools.Registry
	Executor *tools.Executor
	Memory   *memory.Session
	Shell    *shell.Runner // run_shell_command and --test-cmd
	// Aider runs aider (--use-aider). It is sandboxed like Shell but keeps
	// the network: aider must reach its model.
	Aider *shell.Runner
}

// NewToolbox registers every built-in tool for root. gate may be nil
// (everything allowed), e.g. for listing.
func NewToolbox(root *workspace.Root, gate tools.Gate) (*Toolbox, error) {
	return newToolbox(root, gate, memory.InProcess())
}

// newToolbox is NewToolbox with the memory of a session (app/session.go).
func newToolbox(root *workspace.Root, gate tools.Gate, mem *memory.Session) (*Toolbox, error) {
	tb := &Toolbox{Root: root, Registry: tools.NewRegistry(), Memory: mem, Shell: &shell.Runner{}, Aider: &shell.Runner{}}
	var all []tools.Tool
	all = append(all, nav.Tools(root)...)
	all = append(all, edit.Tools(root, edit.Options{})...)
	all = append(all, shell.Tool(root, tb.Shell))
	all = append(all, session.ResearchNotes(tb.Memory), session.RequestTask(tb.Memory))
	all = append(all, recall.Tools(root, tb.Memory)...)
	if err := tb.Registry.RegisterTrusted(all...); err != nil {
		return nil, fmt.Errorf("build tool registry: %w", err)
	}
	tb.Executor = &tools.Executor{Registry: tb.Registry, Gate: gate, DefaultTimeout: 2 * time.Minute}
	return tb, nil
}
