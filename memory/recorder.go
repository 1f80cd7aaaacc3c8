package memory

import (
	"context"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/reach-agent/reach/events"
)

// Recorder batching: rows are written when this many are waiting, at each
// phase change and at the end, and otherwise every FlushInterval.
const (
	FlushRows     = 64
	FlushInterval = time.Second
	maxStepText   = 4096
)

// Recorder is an events.Sink that passes every event on to the next sink
// and writes the trajectory (one row per model turn and per tool call,
// with tokens, cost and errors) to the store in batches: streamed text
// deltas are never written, and rows go in one transaction per batch.
type Recorder struct {
	next    events.Sink
	store   *Store
	session int64
	human   func() int64
	now     func() time.Time

	mu    sync.Mutex
	buf   []Step
	text  string // the current turn's reply text
	phase string
	calls map[string]events.ToolCall
	last  events.Usage // running totals at the previous turn
	err   error        // the first write error, reported once

	flushMu sync.Mutex
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

// NewRecorder starts a recorder for session writing into store. human
// gives the id of the newest human input (nil: none) that rows point at.
func NewRecorder(next events.Sink, store *Store, session int64, human func() int64) *Recorder {
	if next == nil {
		next = events.Discard{}
	}
	if human == nil {
		human = func() int64 { return 0 }
	}
	r := &Recorder{
		next: next, store: store, session: session, human: human, now: time.Now,
		calls: map[string]events.ToolCall{}, stop: make(chan struct{}), stopped: make(chan struct{}),
	}
	go r.tick()
	return r
}

func (r *Recorder) tick() {
	defer close(r.stopped)
	t := time.NewTicker(FlushInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			r.Flush()
		case <-r.stop:
			return
		}
	}
}

// Emit implements events.Sink.
func (r *Recorder) Emit(e events.Event) {
	r.next.Emit(e)
	flush := false
	r.mu.Lock()
	switch ev := e.(type) {
	case events.Message:
		r.text, r.phase = ev.Text, ev.Phase
	case events.Usage:
		r.buf = append(r.buf, Step{
			Phase: r.phase, Kind: KindModelTurn, Output: clip(r.text), Success: true,
			InputTokens: ev.InputTokens - r.last.InputTokens, OutputTokens: ev.OutputTokens - r.last.OutputTokens,
			CostUSD: ev.CostUSD - r.last.CostUSD, HumanInput: r.human(), At: r.now(),
		})
		r.last, r.text = ev, ""
	case events.ToolCall:
		r.calls[ev.ID] = ev
	case events.ToolResult:
		call := r.calls[ev.ID]
		delete(r.calls, ev.ID)
		r.buf = append(r.buf, Step{
			Phase: ev.Phase, Kind: KindToolCall, Name: ev.Name, Arguments: clip(call.Arguments), Output: clip(ev.Output),
			Success: ev.Success, Error: clip(ev.Error), DurationMS: ev.DurationMS, HumanInput: r.human(), At: r.now(),
		})
	case events.Phase:
		r.phase = ev.Name
		flush = true
	case events.Result:
		if ev.Error != "" {
			r.buf = append(r.buf, Step{Kind: KindError, Name: ev.Status, Error: clip(ev.Error), HumanInput: r.human(), At: r.now()})
		}
		flush = true
	}
	flush = flush || len(r.buf) >= FlushRows
	r.mu.Unlock()
	if flush {
		r.Flush()
	}
}

// Flush writes the waiting rows now.
func (r *Recorder) Flush() {
	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	r.mu.Lock()
	batch := r.buf
	r.buf = nil
	r.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*BusyTimeout)
	defer cancel()
	if err := r.store.AppendTrajectory(ctx, r.session, batch); err != nil {
		r.mu.Lock()
		first := r.err == nil
		if first {
			r.err = err
		}
		r.mu.Unlock()
		if first {
			r.next.Emit(events.Notice{Level: "warn", Text: fmt.Sprintf("the trajectory could not be saved: %v", err)})
		}
	}
}

// Close stops the timer and writes what is left.
func (r *Recorder) Close() {
	r.once.Do(func() {
		close(r.stop)
		<-r.stopped
		r.Flush()
	})
}

// clip shortens text kept in the trajectory.
func clip(s string) string {
	if len(s) <= maxStepText {
		return s
	}
	cut := maxStepText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("…[%d bytes more]", len(s)-cut)
}
