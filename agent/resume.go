package agent

import (
	"context"
	"fmt"

	"github.com/reach-agent/reach/events"
)

// Progress is how far an earlier run of the same session got; a resumed
// Runner skips what it completed.
type Progress struct {
	ResearchDone    bool
	ResearchSummary string
	PlanDone        bool
	Plan            []string
	TasksDone       int // implementation tasks completed, from the first
}

// StepRecorder is told as each step of a run completes, so that a run
// killed at any point can be resumed from its last completed step.
type StepRecorder interface {
	ResearchDone(ctx context.Context, summary string) error
	// PlanStarting is called before planning runs, to drop the tasks an
	// interrupted planning phase may have recorded.
	PlanStarting(ctx context.Context) error
	PlanDone(ctx context.Context, plan []string) error
	TaskDone(ctx context.Context, index int) error
}

// record reports a step to r.Steps; a failure to record is a warning, not
// the end of the run: the work itself is done.
func (r *Runner) record(what string, f func(StepRecorder) error) {
	if r.Steps == nil {
		return
	}
	if err := f(r.Steps); err != nil {
		r.emit(events.Notice{Level: "warn", Text: fmt.Sprintf("could not record that %s completed (a resume would redo it): %v", what, err)})
	}
}
