package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reach-agent/reach/agent"
	"github.com/reach-agent/reach/approval"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/iostreams"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/output"
	"github.com/reach-agent/reach/phases"
	"github.com/reach-agent/reach/tools/human"
	"github.com/reach-agent/reach/workspace"
)

// Task is everything RunTask needs besides the configuration.
type Task struct {
	IO  *iostreams.IOStreams
	Cfg *config.Config
	Dir string // the project root
	Now func() time.Time

	// CommandLine is recorded with the session; ResumeID, when not 0,
	// continues that session instead of starting one (app/session.go).
	CommandLine string
	ResumeID    int64

	// Front-end overrides, set by the terminal UI (app/tui.go); nil keeps
	// the output format's sink, the line prompter and plain steps.
	Sink     events.Sink
	Prompter approval.Prompter
	Steps    *StepControl
}

// RunTask runs the configured task end to end and returns the exit code.
// Every outcome, including errors, ends with a result event.
func RunTask(ctx context.Context, t Task) int {
	now := t.Now
	if now == nil {
		now = time.Now
	}
	if t.Sink == nil && useTUI(t) {
		return runTUI(ctx, t)
	}
	start := now()
	sink := t.Sink
	if sink == nil {
		sink = newSink(t.IO, t.Cfg)
	}
	if log, closer, err := openLog(t.Cfg.ProjectStateDir, t.Cfg.LogLevel); err == nil {
		defer closer.Close()
		sink = events.Tee(sink, logSink{log: log})
	}
	run, err := startSession(ctx, t, sink, now)
	if run != nil {
		sink = run.sink
	}
	meter := &agent.Meter{Sink: sink}
	var rep agent.Report
	if err == nil {
		rep, err = runTask(ctx, t, sink, meter, now, run)
	}
	code := ExitCode(err)
	if err == nil && rep.Status == "failed" {
		code = ExitFailed
	}
	tot := meter.Totals()
	res := events.Result{
		Status:   status(code),
		ExitCode: code,
		Summary:  rep.Summary,
		Usage:    events.Usage{InputTokens: tot.Usage.PromptTokens, OutputTokens: tot.Usage.CompletionTokens, CostUSD: tot.CostUSD, Requests: tot.Requests},
		CostUSD:  tot.CostUSD,
		Duration: now().Sub(start).Seconds(),
	}
	if t.Cfg.ResearchAndPlanOnly && len(rep.Plan) > 0 {
		res.Plan = formatPlan(rep.Plan)
	}
	switch {
	case err != nil:
		res.Error = userMessage(err)
	case rep.FailedReason != "":
		res.Error = rep.FailedReason
	}
	sink.Emit(res)
	run.finish(code, tot)
	return code
}

func runTask(ctx context.Context, t Task, sink events.Sink, meter *agent.Meter, now func() time.Time, run *sessionRun) (agent.Report, error) {
	cfg := t.Cfg
	if err := cfg.RequireTask(); err != nil {
		return agent.Report{}, err
	}
	if err := cfg.CheckCredentials(); err != nil {
		return agent.Report{}, err
	}
	root, err := workspace.New(t.Dir)
	if err != nil {
		return agent.Report{}, err
	}
	interactive := t.IO.Interactive() || t.Prompter != nil
	prompter := t.Prompter
	if interactive && prompter == nil {
		prompter = human.NewConsole(t.IO.In, t.IO.ErrOut, true) // approvals, ask_human and chat share the terminal
	}
	safe, err := newSafety(ctx, cfg, root, sink) // policy, sandbox, checkpoints (app/safety.go)
	if err == nil {
		err = safe.prepare()
	}
	if err != nil {
		return agent.Report{}, err
	}
	gate := approval.NewGate(prompter, sink, approval.Options{Cowboy: cfg.Cowboy, Interactive: interactive, Policy: safe})
	tb, err := run.toolbox(root, gate, cfg, prompter, meter)
	if err == nil {
		err = tb.Integrate(cfg)
	}
	if err == nil {
		safe.attach(tb)
	}
	if err != nil {
		return agent.Report{}, err
	}
	ground, err := tb.Ground(ctx, cfg, sink)
	if err != nil {
		return agent.Report{}, err
	}
	defer ground.Close()
	if err := ground.Track(tb, cfg, run.id(), sink); err != nil { // quality, retrieval, audit (app/audit.go)
		return agent.Report{}, err
	}
	project, err := phases.LoadProject(ctx, root.Dir())
	if err != nil {
		sink.Emit(events.Notice{Level: "warn", Text: err.Error()})
	}
	client := t.Steps.Client(newClient(cfg.Endpoint))
	model := cfg.Model
	// Retrieval's first pass over very many MCP servers (app/audit.go),
	// counted in the budgets like every model call.
	ground.PickServersWith(client, model, func(ctx context.Context, resp llm.Response) { _ = meter.Add(ctx, resp) })
	if info, ok := modelInfo(cfg, model); ok {
		meter.Price = func(u llm.Usage) float64 { return u.Cost(info) }
	}
	if cfg.MaxTokens != nil {
		meter.MaxTokens = *cfg.MaxTokens
	}
	if cfg.MaxCost != nil {
		meter.MaxCost = *cfg.MaxCost
	}
	if prompter != nil && !cfg.ExitAtLimit {
		meter.Confirm = func(ctx context.Context, q string) (bool, error) {
			ans, err := prompter.Ask(ctx, q+" (y/n)", []string{"y", "n"})
			return ans == "y", err
		}
	}
	var temp *float32
	if cfg.Temperature != nil {
		v := float32(*cfg.Temperature)
		temp = &v
	}
	loop := &agent.Loop{Client: client, Exec: t.Steps.Executor(tb.Executor), Sink: sink, Model: model, Temperature: temp, RecursionLimit: cfg.RecursionLimit, Meter: meter, Offer: ground.ToolOffer()}
	runner := &agent.Runner{
		Loop: loop, Registry: tb.Registry, Memory: tb.Memory, Project: project, Sink: sink, Now: now,
		Chain: chain(cfg), Phases: phases.Options{UseAider: cfg.UseAider},
	}
	run.configure(runner, cfg, client, meter)
	if cfg.TestCmd != "" {
		runner.Tester = newTester(cfg, tb, gate, prompter, safe)
	}
	sink.Emit(events.Init{SessionID: run.id(), Model: model, Provider: cfg.Provider, Task: cfg.Task(), Cwd: root.Dir(), Cowboy: cfg.Cowboy, Time: now()})
	return run.drive(ctx, runner, t, prompter)
}

func chain(cfg *config.Config) agent.Chain {
	switch {
	case cfg.ResearchOnly:
		return agent.ResearchOnly
	case cfg.ResearchAndPlanOnly:
		return agent.ResearchAndPlanOnly
	}
	return agent.Full
}

func newClient(e config.Endpoint) llm.Client {
	return llm.NewOpenAI(llm.OpenAIConfig{
		BaseURL:  e.BaseURL,
		APIKey:   e.APIKey.Value(),
		Provider: e.Provider,
		KeyEnv:   e.APIKeyEnv,
		Stream:   true,
	})
}

// newTester wires --test-cmd to the shell runner, the approval prompter
// and the cowboy state (which "c" at a shell prompt may have turned on).
func newTester(cfg *config.Config, tb *Toolbox, gate *approval.Gate, p approval.Prompter, safe *safety) *agent.Tester {
	t := &agent.Tester{
		Command:    cfg.TestCmd,
		MaxRetries: cfg.MaxTestCmdRetries,
		Auto:       cfg.AutoTest,
		Cowboy:     cfg.Cowboy,
		Exec: func(ctx context.Context, command string) (int, string, bool, error) {
			if err := safe.beforeTests(ctx, command); err != nil {
				return 0, "", false, err
			}
			out, err := tb.Shell.Run(ctx, command, tb.Root.Dir(), cfg.TestCmdTimeout)
			if err != nil {
				return 0, "", false, fmt.Errorf("run test command: %w", err)
			}
			return out.ExitCode, out.Text, out.TimedOut, nil
		},
	}
	if p != nil {
		t.Ask = func(ctx context.Context, q string, choices []string) (string, error) {
			if gate.Cowboy() {
				return "y", nil
			}
			return p.Ask(ctx, q, choices)
		}
	}
	return t
}

func newSink(io *iostreams.IOStreams, cfg *config.Config) events.Sink {
	switch cfg.OutputFormat {
	case config.OutputJSON:
		return &output.JSON{Out: io.Out}
	case config.OutputStreamJSON:
		return &output.StreamJSON{Out: io.Out}
	}
	return &output.Plain{Out: io.Out, Progress: io.ErrOut, ShowCost: cfg.ShowCost}
}

func formatPlan(plan []string) string {
	var b strings.Builder
	for i, p := range plan {
		fmt.Fprintf(&b, "%d. %s\n", i+1, strings.TrimSpace(p))
	}
	return b.String()
}

// userMessage is the one line a user sees for err.
func userMessage(err error) string {
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	return err.Error()
}
