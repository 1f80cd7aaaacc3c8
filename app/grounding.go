package app

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/reach-agent/reach/approval"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/iostreams"
	"github.com/reach-agent/reach/mcp"
	"github.com/reach-agent/reach/output"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/custom"
	"github.com/reach-agent/reach/tools/toolsearch"
	"github.com/reach-agent/reach/version"
	"github.com/reach-agent/reach/workspace"
)

// Grounding is the external reach of a run: the MCP servers it started
// and, after Track, the quality records, tool retrieval and audit log.
// Close it when the run ends.
type Grounding struct {
	mcp   *mcp.Manager
	track *tracking
}

// Close saves the quality records, closes the audit log and stops the
// MCP servers. A nil Grounding is fine.
func (g *Grounding) Close() error {
	if g == nil {
		return nil
	}
	var errs []error
	if g.track != nil {
		errs = append(errs, g.track.close())
	}
	if g.mcp != nil {
		errs = append(errs, g.mcp.Close())
	}
	return errors.Join(errs...)
}

// Ground registers the custom tools of --custom-tools and the tools of the
// MCP servers of --mcp-config (or .reach/mcp.json). A server that cannot
// start is reported on sink and skipped; a broken configuration file is
// an error, since the user asked for it by name.
func (tb *Toolbox) Ground(ctx context.Context, cfg *config.Config, sink events.Sink) (*Grounding, error) {
	if sink == nil {
		sink = events.Discard{}
	}
	if cfg.CustomTools != "" {
		m, err := custom.Load(cfg.CustomTools)
		if err != nil {
			return nil, &config.UsageError{Msg: fmt.Sprintf("--custom-tools: %v", err)}
		}
		ts, err := m.Build(tb.Root.Dir())
		if err == nil {
			err = tb.Registry.Register(ts...)
		}
		if err != nil {
			return nil, fmt.Errorf("register custom tools: %w", err)
		}
	}
	g := &Grounding{}
	if cfg.MCPConfig == "" {
		return g, nil
	}
	mc, err := mcp.LoadConfig(cfg.MCPConfig)
	if err != nil {
		return nil, &config.UsageError{Msg: fmt.Sprintf("--mcp-config: %v", err)}
	}
	g.mcp = mcp.NewManager(mc, mcp.Options{
		Dir:     tb.Root.Dir(),
		Version: version.String(),
		Report: func(server string, err error) {
			sink.Emit(events.Notice{Level: "warn", Text: fmt.Sprintf("%v (its tools are skipped)", err)})
		},
	})
	ts, _ := g.mcp.Tools(ctx) // failures were reported; the rest is usable
	var errs []error
	for _, t := range ts {
		if err := tb.Registry.Register(t); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		sink.Emit(events.Notice{Level: "warn", Text: fmt.Sprintf("some MCP tools were skipped: %v", errors.Join(errs...))})
	}
	return g, nil
}

// ServeMCP serves reach's own tools over MCP on the streams of io until
// the client disconnects. Calls pass the same executor, approval policy
// and checkpoints as an agent run; with no terminal to ask, commands that
// need approval are refused unless --cowboy-mode. Every call is audited
// (session mcp-<time>, phase "mcp") and counted in the quality records,
// as in a run; warnings go to stderr, since stdout is the protocol.
func ServeMCP(ctx context.Context, io *iostreams.IOStreams, cfg *config.Config, dir string) (err error) {
	root, err := workspace.New(dir)
	if err != nil {
		return err
	}
	gate := approval.NewGate(nil, events.Discard{}, approval.Options{Cowboy: cfg.Cowboy})
	tb, err := NewToolbox(root, gate)
	if err == nil {
		err = tb.Integrate(cfg)
	}
	if err != nil {
		return err
	}
	g := &Grounding{}
	session := "mcp-" + time.Now().UTC().Format("20060102-150405.000")
	tr, err := g.trackCalls(tb, cfg, session, &output.Plain{Out: io.ErrOut, Progress: io.ErrOut})
	if err != nil {
		return err
	}
	tr.phase = ServePhase
	defer func() { err = errors.Join(err, g.Close()) }()
	return mcp.Serve(ctx, io.In, io.Out, tb.Registry.Select(mcp.Served), tb.Executor, version.String())
}

// ServePhase is the phase the audit log gives calls served over MCP.
const ServePhase = "mcp"

// AllToolSpecs registers every tool a run would have (built-in,
// integrations, custom, MCP) and returns their specs; call the returned
// function to stop the MCP servers.
func AllToolSpecs(ctx context.Context, io *iostreams.IOStreams, cfg *config.Config, dir string) ([]tools.Spec, func(), error) {
	root, err := workspace.New(dir)
	if err != nil {
		return nil, nil, err
	}
	tb, err := NewToolbox(root, nil)
	if err == nil {
		err = tb.Integrate(cfg)
	}
	if err != nil {
		return nil, nil, err
	}
	ground, err := tb.Ground(ctx, cfg, &output.Plain{Out: io.ErrOut, Progress: io.ErrOut})
	if err != nil {
		return nil, nil, err
	}
	return tb.Registry.Specs(), func() { ground.Close() }, nil
}

// ListedSpecs are the tools `reach tools list` shows: every registered
// tool and tool_search, which a run adds when retrieval is active.
func ListedSpecs(tb *Toolbox) []tools.Spec {
	specs := tb.Registry.Specs()
	if _, ok := tb.Registry.Lookup(toolsearch.Name); ok {
		return specs
	}
	specs = append(specs, toolsearch.ListedSpec())
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs
}
