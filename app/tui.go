package app

import (
	"context"
	"fmt"
	"sync"

	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/output"
	"github.com/reach-agent/reach/tools/human"
	"github.com/reach-agent/reach/tui"
)

// The UI reads ask_human answers and chat messages in its own editor.
var _ human.Reader = (*tui.UI)(nil)

// useTUI reports whether the run should show the terminal UI: a human at
// a terminal on both ends, text output, and no --no-tui. A run that cannot
// start (no task, no key) reports that as plain text instead.
func useTUI(t Task) bool {
	if !t.IO.IsStdinTTY() || !t.IO.IsStdoutTTY() || t.Cfg.NoTUI || t.Cfg.OutputFormat != config.OutputText {
		return false
	}
	return t.Cfg.RequireTask() == nil && t.Cfg.CheckCredentials() == nil
}

// runTUI runs the task behind the terminal UI: the agent works in a
// goroutine and reports to the UI, which also answers its questions. When
// the user quits, the run is cancelled, and the final answer is printed
// to stdout so it stays on the terminal after the UI is gone.
func runTUI(ctx context.Context, t Task) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	steps := &StepControl{Stop: cancel}
	ui := tui.New(tui.Options{
		In: t.IO.In, Out: t.IO.Out, NoColor: !t.IO.ColorEnabled(),
		Hooks: tui.Hooks{Interrupt: steps.Interrupt, Quit: cancel},
	})
	steps.Ask = ui.AskText
	last := &lastResult{Sink: ui}
	t.Sink, t.Prompter, t.Steps = last, ui, steps

	codes := make(chan int, 1)
	go func() {
		code := RunTask(ctx, t)
		ui.Finish()
		codes <- code
	}()
	err := ui.Run()
	cancel()
	code := <-codes
	if err != nil {
		fmt.Fprintf(t.IO.ErrOut, "reach: %s\n", err)
	}
	if r, ok := last.result(); ok {
		(&output.Plain{Out: t.IO.Out, Progress: t.IO.ErrOut, ShowCost: t.Cfg.ShowCost}).Emit(r)
	}
	return code
}

// lastResult passes events on and keeps the final result.
type lastResult struct {
	events.Sink
	mu  sync.Mutex
	res *events.Result
}

func (l *lastResult) Emit(e events.Event) {
	if r, ok := e.(events.Result); ok {
		l.mu.Lock()
		l.res = &r
		l.mu.Unlock()
	}
	l.Sink.Emit(e)
}

func (l *lastResult) result() (events.Result, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.res == nil {
		return events.Result{}, false
	}
	return *l.res, true
}
