package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/reach-agent/reach/agent"
	"github.com/reach-agent/reach/audit"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/iostreams"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/phases"
	"github.com/reach-agent/reach/quality"
	"github.com/reach-agent/reach/retrieval"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/toolsearch"
)

// QualityFile is where tool quality records live in the state dir;
// concurrent runs merge into it on save (quality.Tracker.Save).
const QualityFile = "tool_quality.json"

// tracking is the run-time side of the grounding layer: the quality
// tracker, tool retrieval and the audit log of one session.
type tracking struct {
	session string
	phase   string // of every call when there is no retrieval (mcp serve)
	tracker *quality.Tracker
	offer   *toolsearch.Offer // nil without retrieval
	log     *audit.Log
	sink    events.Sink

	mu       sync.Mutex
	reported bool // an audit write failure was reported
}

// Track turns on, for the session, everything that watches tool calls:
// the executor's guard (retries, breaker, rate limit, write repeats),
// quality records (persisted in the state dir, feeding the ranking
// penalty), tool retrieval with tool_search above max_tools, and the
// audit log (<state dir>/audit/<session>.jsonl). Close the Grounding to
// save them.
func (g *Grounding) Track(tb *Toolbox, cfg *config.Config, session string, sink events.Sink) error {
	tr, err := g.trackCalls(tb, cfg, session, sink)
	if err != nil {
		return err
	}
	opts := toolsearch.Options{
		Task:    cfg.Task(),
		Penalty: func(s tools.Spec) float64 { return tr.tracker.Penalty(quality.Key(s.Backend, s.Name)) },
		Allowed: scopeAllowed,
		Report: func(err error) {
			tr.sink.Emit(events.Notice{Level: "warn", Text: "tool retrieval: " + err.Error()})
		},
	}
	if e := Embedder(cfg, cfg.EmbeddingModel); e != nil {
		opts.Embedder = e
	}
	tr.offer = toolsearch.New(opts)
	if err := tb.Registry.RegisterTrusted(tr.offer.Tool()); err != nil {
		return fmt.Errorf("register %s: %w", toolsearch.Name, err)
	}
	return nil
}

// trackCalls is the part of Track that needs no model: guard, quality
// records and audit log, every call of the executor written under phase
// (when there is no retrieval to say which phase). `reach mcp serve` uses
// it alone.
func (g *Grounding) trackCalls(tb *Toolbox, cfg *config.Config, session string, sink events.Sink) (*tracking, error) {
	if sink == nil {
		sink = events.Discard{}
	}
	if session == "" {
		session = "run-" + time.Now().UTC().Format("20060102-150405.000")
	}
	if _, err := EnsureStateDir(cfg.ProjectStateDir, "audit"); err != nil {
		return nil, err
	}
	tracker, err := quality.Open(filepath.Join(cfg.ProjectStateDir, QualityFile))
	if err != nil {
		// Lost statistics cost ranking accuracy, not the run.
		sink.Emit(events.Notice{Level: "warn", Text: err.Error() + "; starting tool quality records afresh"})
		tracker, _ = quality.Open("")
	}
	log, err := audit.Open(audit.Dir(cfg.ProjectStateDir), session)
	if err != nil {
		return nil, err
	}
	tr := &tracking{session: session, tracker: tracker, log: log, sink: sink}
	tb.Executor.Guard = &tools.Guard{}
	tb.Executor.Audit = tr.record
	g.track = tr
	return tr, nil
}

// PickServersWith turns on retrieval's first pass: when a phase's tools
// come from toolsearch.DefaultServerThreshold MCP servers or more, model
// is asked once which servers the task needs; the call's usage goes to
// onUsage (the run's budget meter). No-op before Track.
func (g *Grounding) PickServersWith(client llm.Client, model string, onUsage func(context.Context, llm.Response)) {
	if g == nil || g.track == nil || g.track.offer == nil {
		return
	}
	g.track.offer.SetServerPicker(toolsearch.ServerPicker{Client: client, Model: model, OnUsage: onUsage}, 0)
}

// Embedder is the main endpoint's /embeddings for model, behind the
// on-disk cache of the state dir; nil when model is "" (embeddings off).
func Embedder(cfg *config.Config, model string) *retrieval.Cache {
	if model == "" {
		return nil
	}
	return &retrieval.Cache{
		Inner: &retrieval.Endpoint{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey.Value(), Model: model},
		Model: model,
		Dir:   filepath.Join(cfg.ProjectStateDir, "cache", "embeddings"),
	}
}

// ToolPenalty is the quality penalty of the recorded tools, for
// `reach tools search`; every tool gets 1 when nothing is recorded.
func ToolPenalty(cfg *config.Config) func(tools.Spec) float64 {
	tr, err := quality.Open(filepath.Join(cfg.ProjectStateDir, QualityFile))
	if err != nil {
		return func(tools.Spec) float64 { return 1 }
	}
	return func(s tools.Spec) float64 { return tr.Penalty(quality.Key(s.Backend, s.Name)) }
}

// scopeAllowed is the scope filter of retrieval: planning is read-only
// (SPEC §2), so external tools that write or execute are not offered there.
func scopeAllowed(phase string, s tools.Spec) bool {
	if phase == phases.Planning {
		return s.SideEffect == tools.Read || s.SideEffect == tools.Network
	}
	return true
}

// ToolOffer is the run's tool retrieval for agent.Loop.Offer; nil before
// Track.
func (g *Grounding) ToolOffer() agent.ToolOffer {
	if g == nil || g.track == nil {
		return nil
	}
	return g.track.offer
}

// record is the executor's audit hook: one audit line, one quality record.
func (tr *tracking) record(_ context.Context, rec tools.CallRecord) {
	var cur toolsearch.Turn
	if tr.offer != nil {
		cur = tr.offer.Current()
	} else {
		cur.Phase = tr.phase
	}
	e := audit.Entry{
		Time: rec.Start, Session: tr.session, Phase: cur.Phase, Tool: rec.Call.Name, Backend: rec.Spec.Backend,
		CallID: rec.Call.ID, Offered: cur.Offered, Arguments: json.RawMessage(rec.Call.Arguments),
		Ran: rec.Ran, DurationMS: float64(rec.Duration.Microseconds()) / 1000,
		Success: rec.Result.Success, ReturnCode: rec.Result.ReturnCode,
		ResultBytes: len(rec.Result.Output) + len(rec.Result.Error),
		Summary:     audit.Summarize(rec.Result.Success, rec.Result.Output, rec.Result.Error),
	}
	for _, c := range cur.Ranked {
		e.Candidates = append(e.Candidates, audit.Candidate{Name: c.Name, Score: c.Score})
	}
	e.Decision, e.Rule = decisionOf(rec)
	if err := tr.log.Write(e); err != nil {
		tr.mu.Lock()
		first := !tr.reported
		tr.reported = true
		tr.mu.Unlock()
		if first {
			tr.sink.Emit(events.Notice{Level: "warn", Text: err.Error()})
		}
	}
	if rec.Ran && rec.Spec.Name != "" {
		tr.tracker.Record(quality.Key(rec.Spec.Backend, rec.Spec.Name), rec.Result.Success, rec.Duration, rec.Start)
	}
}

// decisionOf names what let the call run or stopped it.
func decisionOf(rec tools.CallRecord) (decision, rule string) {
	switch {
	case rec.Spec.Name == "":
		return audit.Invalid, "unknown-tool"
	case rec.Decision == nil && rec.Ran:
		return audit.Allowed, "no-gate"
	case rec.Decision == nil:
		return audit.Invalid, "not-offered-or-invalid-arguments"
	}
	rule = rec.Decision.Rule
	switch {
	case strings.HasPrefix(rule, "human:"):
		decision = audit.Asked
	case !rec.Decision.Allow:
		decision = audit.Denied
	case !rec.Ran:
		decision = audit.Guarded
		rule = "breaker-or-rate-limit"
	default:
		decision = audit.Allowed
	}
	return decision, rule
}

// close saves the quality records and closes the audit log; a failure
// is also told on the sink, since Close usually runs deferred.
func (tr *tracking) close() error {
	err := errors.Join(tr.tracker.Save(), tr.log.Close())
	if err != nil {
		tr.sink.Emit(events.Notice{Level: "warn", Text: err.Error()})
	}
	return err
}

// ShowAudit prints the audit log of session (the latest when "").
func ShowAudit(io *iostreams.IOStreams, cfg *config.Config, session string) error {
	path, err := audit.Find(audit.Dir(cfg.ProjectStateDir), session)
	if err != nil {
		return err
	}
	entries, damaged, err := audit.Read(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "Audit log %s: %d calls\n", path, len(entries))
	if damaged > 0 {
		fmt.Fprintf(io.ErrOut, "%d damaged lines skipped\n", damaged)
	}
	return audit.Format(io.Out, entries)
}

// ToolStats prints the quality records: calls, success rate, p50/p95
// duration and the ranking penalty of every tool seen.
func ToolStats(io *iostreams.IOStreams, cfg *config.Config) error {
	tr, err := quality.Open(filepath.Join(cfg.ProjectStateDir, QualityFile))
	if err != nil {
		return err
	}
	all := tr.All()
	if len(all) == 0 {
		fmt.Fprintf(io.Out, "No tool calls recorded yet in %s.\n", cfg.ProjectStateDir)
		return nil
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TOOL\tCALLS\tSUCCESS\tRECENT\tP50 MS\tP95 MS\tPENALTY")
	for _, k := range keys {
		s := all[k]
		rate := 0.0
		if s.Calls > 0 {
			rate = float64(s.Successes) / float64(s.Calls)
		}
		fmt.Fprintf(w, "%s\t%d\t%.0f%%\t%.0f%%\t%.0f\t%.0f\t%.2f\n", k, s.Calls, 100*rate, 100*s.RecentRate(), s.Percentile(0.5), s.Percentile(0.95), s.Penalty())
	}
	return w.Flush()
}
