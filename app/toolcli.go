package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/reach-agent/reach/approval"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/iostreams"
	"github.com/reach-agent/reach/output"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/human"
	"github.com/reach-agent/reach/workspace"
)

// ListTools prints every registered tool: name, backend, side effect, summary.
func ListTools(io *iostreams.IOStreams, cfg *config.Config, dir string) error {
	root, err := workspace.New(dir)
	if err != nil {
		return err
	}
	tb, err := NewToolbox(root, nil)
	if err == nil {
		err = tb.Integrate(cfg)
	}
	if err != nil {
		return err
	}
	ground, err := tb.Ground(context.Background(), cfg, &output.Plain{Out: io.ErrOut, Progress: io.ErrOut})
	if err != nil {
		return err
	}
	defer ground.Close()
	w := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tBACKEND\tSIDE EFFECT\tSUMMARY")
	for _, s := range ListedSpecs(tb) {
		summary := s.Summary
		if i := strings.Index(summary, ". "); i > 0 && !io.IsStdoutTTY() {
			summary = summary[:i+1]
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", s.Name, s.Backend, s.SideEffect, summary)
	}
	return w.Flush()
}

// CallTool runs one tool through the executor, as the agent would, and
// prints its JSON result. Exit 0: the tool ran; 1: it returned an error;
// 2: unknown tool or arguments that are not a JSON object.
func CallTool(ctx context.Context, io *iostreams.IOStreams, cfg *config.Config, dir, name, raw string) int {
	var obj map[string]any
	if err := json.Unmarshal([]byte(raw), &obj); err != nil {
		fmt.Fprintf(io.ErrOut, "reach: arguments for %s are not a JSON object: %v (quote them: reach tools call %s '{\"key\":\"value\"}')\n", name, err, name)
		return ExitUsage
	}
	root, err := workspace.New(dir)
	if err != nil {
		fmt.Fprintf(io.ErrOut, "reach: %v\n", err)
		return ExitUsage
	}
	interactive := io.Interactive()
	var prompter approval.Prompter
	if interactive {
		prompter = human.NewConsole(io.In, io.ErrOut, true)
	}
	safe, err := newSafety(ctx, cfg, root, events.Discard{}) // policy, sandbox, checkpoints (app/safety.go)
	if err != nil {
		fmt.Fprintf(io.ErrOut, "reach: %v\n", err)
		return ExitUsage
	}
	gate := approval.NewGate(prompter, events.Discard{}, approval.Options{Cowboy: cfg.Cowboy, Interactive: interactive, Policy: safe})
	tb, err := NewToolbox(root, gate)
	if err == nil {
		err = tb.Integrate(cfg)
	}
	if err != nil {
		fmt.Fprintf(io.ErrOut, "reach: %v\n", err)
		return ExitFailed
	}
	safe.attach(tb)
	ground, err := tb.Ground(ctx, cfg, &output.Plain{Out: io.ErrOut, Progress: io.ErrOut})
	if err != nil {
		fmt.Fprintf(io.ErrOut, "reach: %v\n", err)
		return ExitUsage
	}
	defer ground.Close()
	if _, ok := tb.Registry.Lookup(name); !ok {
		fmt.Fprintf(io.ErrOut, "reach: unknown tool %q; see reach tools list\n", name)
		return ExitUsage
	}
	res := tb.Executor.Execute(ctx, tools.Call{ID: "cli", Name: name, Arguments: raw}, tools.Names(tb.Registry.Specs()))
	enc := json.NewEncoder(io.Out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		fmt.Fprintf(io.ErrOut, "reach: print result: %v\n", err)
		return ExitFailed
	}
	if !res.Success {
		return ExitFailed
	}
	return ExitOK
}
