package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/phases"
	"github.com/reach-agent/reach/tools"
)

// Memory is what the runner reads back from the run's notes and plan.
type Memory interface {
	ResearchNotes() []string
	Tasks() []string
}

// Chain says which phases run.
type Chain int

const (
	Full                Chain = iota // research → planning → implementation
	ResearchOnly                     // --research-only
	ResearchAndPlanOnly              // --research-and-plan-only
)

// Runner chains the phases of one task.
type Runner struct {
	Loop     *Loop
	Registry *tools.Registry
	Memory   Memory
	Project  phases.Project
	Chain    Chain
	Phases   phases.Options
	Tester   *Tester // nil without --test-cmd
	Sink     events.Sink
	Now      func() time.Time

	// Resume, when set, skips the steps an earlier run completed; Steps,
	// when set, records each completed step (see resume.go).
	Resume *Progress
	Steps  StepRecorder
	// WorkingMemory, when set, renders the memory a phase's prompt carries.
	WorkingMemory func(ctx context.Context, phase string, c phases.Context) string
	// ChatHistory is the conversation so far of a resumed chat, user and
	// assistant messages that Chat puts after its system prompt.
	ChatHistory []llm.Message
}

// Report is what a finished run produced.
type Report struct {
	Status          string // success or failed
	Summary         string // the last reply of the last phase that ran
	ResearchSummary string
	Plan            []string
	FailedReason    string
}

// Run researches, plans and implements task according to the chain.
func (r *Runner) Run(ctx context.Context, task string) (Report, error) {
	base := phases.Context{Task: task, Project: r.Project}
	if r.Now != nil {
		base.Date = r.Now()
	}
	var rep Report

	resume := r.Resume
	if resume == nil {
		resume = &Progress{}
	}
	research := Outcome{Final: resume.ResearchSummary}
	if !resume.ResearchDone {
		var err error
		if research, err = r.phase(ctx, phases.Research, base, 0); err != nil {
			return rep, err
		}
		r.record("research", func(s StepRecorder) error { return s.ResearchDone(ctx, research.Final) })
	}
	rep.ResearchSummary = research.Final
	rep.Summary = research.Final
	if r.Chain == ResearchOnly {
		rep.Status = "success"
		return rep, nil
	}

	base.ResearchSummary = research.Final
	base.ResearchNotes = r.Memory.ResearchNotes()
	var planning Outcome
	plan := resume.Plan
	if !resume.PlanDone {
		r.record("the start of planning", func(s StepRecorder) error { return s.PlanStarting(ctx) })
		var err error
		if planning, err = r.phase(ctx, phases.Planning, base, 0); err != nil {
			return rep, err
		}
		plan = r.Memory.Tasks()
	}
	if len(plan) == 0 {
		// No task recorded: the planner's reply is the single task.
		spec := strings.TrimSpace(planning.Final)
		if spec == "" {
			spec = task
		}
		plan = []string{spec}
	}
	if !resume.PlanDone {
		r.record("planning", func(s StepRecorder) error { return s.PlanDone(ctx, plan) })
	}
	rep.Plan = plan
	rep.Summary = planning.Final
	if r.Chain == ResearchAndPlanOnly {
		rep.Status = "success"
		return rep, nil
	}

	base.ResearchNotes = r.Memory.ResearchNotes()
	base.Plan = plan
	rep.Status = "success"
	for i, spec := range plan {
		if i < resume.TasksDone {
			continue
		}
		c := base
		c.TaskIndex, c.TaskSpec = i+1, spec
		if r.Tester != nil {
			c.TestCmd = r.Tester.Command
		}
		out, err := r.phase(ctx, phases.Implementation, c, len(plan))
		if err != nil {
			return rep, err
		}
		rep.Summary = out.Final
		if r.Tester == nil {
			r.record(fmt.Sprintf("task %d", i+1), func(s StepRecorder) error { return s.TaskDone(ctx, i+1) })
			continue
		}
		passed, reason, err := r.testLoop(ctx, c, out)
		if err != nil {
			return rep, err
		}
		if passed || reason == "" {
			r.record(fmt.Sprintf("task %d", i+1), func(s StepRecorder) error { return s.TaskDone(ctx, i+1) })
		}
		if !passed && reason != "" {
			rep.Status = "failed"
			rep.FailedReason = reason
		}
	}
	return rep, nil
}

// phase runs one phase (or one implementation task) from a fresh history.
func (r *Runner) phase(ctx context.Context, name string, c phases.Context, taskCount int) (Outcome, error) {
	offered := phases.Toolset(r.Registry, name, r.Phases)
	c.ToolNames = tools.Names(offered)
	if r.WorkingMemory != nil {
		c.WorkingMemory = r.WorkingMemory(ctx, name, c)
	}
	ev := events.Phase{Name: name}
	if name == phases.Implementation {
		ev.TaskIndex, ev.TaskCount, ev.Task = c.TaskIndex, taskCount, c.TaskSpec
	}
	r.emit(ev)
	msgs := []llm.Message{
		{Role: llm.System, Content: phases.SystemPrompt(name, c)},
		{Role: llm.User, Content: phases.UserPrompt(name, c)},
	}
	return r.Loop.Run(ctx, name, msgs, offered)
}

// testLoop runs the test command after a task and, while it fails, hands
// its output back to the implementer for another round. It reports
// whether the tests passed; reason is empty when they were not run.
func (r *Runner) testLoop(ctx context.Context, c phases.Context, out Outcome) (bool, string, error) {
	t := r.Tester
	offered := phases.Toolset(r.Registry, phases.Implementation, r.Phases)
	msgs := out.Messages
	for round := 0; ; round++ {
		run, err := t.shouldRun(ctx)
		if err != nil {
			return false, "", err
		}
		if !run {
			r.emit(events.Notice{Level: "info", Text: "tests not run for task " + fmt.Sprint(c.TaskIndex) + t.skipReason()})
			return false, "", nil
		}
		r.emit(events.Notice{Level: "info", Text: "running tests: " + t.Command})
		res, err := t.run(ctx)
		if err != nil {
			return false, "", err
		}
		if res.passed {
			r.emit(events.Notice{Level: "info", Text: "tests passed"})
			return true, "", nil
		}
		if round >= t.MaxRetries {
			reason := fmt.Sprintf("tests still fail after %d fix rounds: %s", t.MaxRetries, res.summary)
			r.emit(events.Notice{Level: "error", Text: reason})
			return false, reason, nil
		}
		r.emit(events.Notice{Level: "warn", Text: fmt.Sprintf("tests failed (%s); fix round %d of %d", res.summary, round+1, t.MaxRetries)})
		msgs = append(msgs, llm.Message{Role: llm.User, Content: fmt.Sprintf(
			"The test command `%s` failed (%s). Its last %d lines of output:\n\n```\n%s\n```\n\nFix the cause, then reply without a tool call.",
			t.Command, res.summary, TestTailLines, res.tail)})
		next, err := r.Loop.Run(ctx, phases.Implementation, msgs, offered)
		if err != nil {
			return false, "", err
		}
		msgs = next.Messages
	}
}

func (r *Runner) emit(e events.Event) {
	if r.Sink != nil {
		r.Sink.Emit(e)
	}
}
