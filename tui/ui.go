// Package tui is reach's terminal interface: a Bubble Tea program that
// renders the agent's events and puts the agent's questions to the human.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reach-agent/reach/approval"
	"github.com/reach-agent/reach/events"
)

// frameInterval paces wake-ups: events that arrive within one interval
// are applied together and drawn once.
const frameInterval = 16 * time.Millisecond

// Options configures a UI.
type Options struct {
	In      io.Reader
	Out     io.Writer
	Hooks   Hooks
	NoColor bool
	// Width and Height are the size before the terminal reports one; 0
	// lets Bubble Tea ask the terminal.
	Width, Height int
}

// UI runs the terminal interface. It is an events.Sink whose Emit never
// blocks the agent, and an approval.Prompter whose questions appear inside
// the interface. Emit, Ask and AskText are safe for concurrent use.
type UI struct {
	prog  *tea.Program
	model *Model

	mu    sync.Mutex
	queue []any         // events.Event and promptMsg, in order
	wake  chan struct{} // one slot: a wake-up is pending
	done  chan struct{} // closed when Run returns
}

var (
	_ events.Sink       = (*UI)(nil)
	_ approval.Prompter = (*UI)(nil)
)

// New returns a UI ready to Run.
func New(opts Options) *UI {
	u := &UI{wake: make(chan struct{}, 1), done: make(chan struct{})}
	u.model = newModel(opts.Hooks, time.Now, u.drain, opts.Width, opts.Height, opts.NoColor)
	popts := []tea.ProgramOption{tea.WithInput(opts.In), tea.WithOutput(opts.Out), tea.WithoutSignalHandler()}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	u.prog = tea.NewProgram(u.model, popts...)
	return u
}

// Run shows the interface until the user quits. It returns when the
// program has ended and the terminal is restored.
func (u *UI) Run() error {
	defer close(u.done)
	go u.pump()
	if _, err := u.prog.Run(); err != nil {
		return fmt.Errorf("run the terminal UI: %w", err)
	}
	return nil
}

// Finish tells the UI that the run is over: it keeps showing the session
// until the user quits.
func (u *UI) Finish() {
	u.Emit(nil)
	select {
	case <-u.done:
	default:
		go u.prog.Send(finishedMsg{})
	}
}

// Emit implements events.Sink: the event is queued and the UI woken.
// Consecutive text deltas are merged.
func (u *UI) Emit(e events.Event) {
	u.mu.Lock()
	if e != nil {
		u.push(e)
	}
	u.mu.Unlock()
	u.signal()
}

// push queues an item; the lock is held. Consecutive text deltas of a
// phase, and consecutive output of a running tool, are merged into one.
func (u *UI) push(e any) {
	if len(u.queue) > 0 {
		switch d := e.(type) {
		case events.TextDelta:
			if last, ok := u.queue[len(u.queue)-1].(events.TextDelta); ok && last.Phase == d.Phase {
				last.Text += d.Text
				u.queue[len(u.queue)-1] = last
				return
			}
		case events.ToolOutput:
			if last, ok := u.queue[len(u.queue)-1].(events.ToolOutput); ok && last.ID == d.ID {
				last.Text += d.Text
				u.queue[len(u.queue)-1] = last
				return
			}
		}
	}
	u.queue = append(u.queue, e)
}

func (u *UI) signal() {
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

// drain hands the queued events to the model.
func (u *UI) drain() []any {
	u.mu.Lock()
	defer u.mu.Unlock()
	q := u.queue
	u.queue = nil
	return q
}

// pump turns signals into wake messages, at most one per frame.
func (u *UI) pump() {
	for {
		select {
		case <-u.done:
			return
		case <-u.wake:
		}
		start := time.Now()
		u.prog.Send(wakeMsg{})
		if d := frameInterval - time.Since(start); d > 0 {
			select {
			case <-u.done:
				return
			case <-time.After(d):
			}
		}
	}
}

// ErrClosed is returned (wrapping io.EOF) by Ask and AskText when the UI
// has ended and nobody can answer.
var ErrClosed = fmt.Errorf("the terminal UI has closed: %w", io.EOF)

// Ask implements approval.Prompter: the question appears in a box and a
// single key from choices answers it.
func (u *UI) Ask(ctx context.Context, question string, choices []string) (string, error) {
	if len(choices) == 0 {
		return "", errors.New("ask: no choices to offer")
	}
	return u.ask(ctx, &prompt{question: question, choices: choices, reply: make(chan string, 1)})
}

// AskText asks a question answered with free, multi-line text (Ctrl+D
// sends it). For ask_human and "what next?" after an interruption.
func (u *UI) AskText(ctx context.Context, question string) (string, error) {
	return u.ask(ctx, &prompt{question: question, reply: make(chan string, 1)})
}

// ReadMessage is AskText under the name ask_human and chat read the
// human's messages by, so both use the UI's editor instead of stdin.
func (u *UI) ReadMessage(ctx context.Context, prompt string) (string, error) {
	return u.AskText(ctx, strings.TrimSpace(prompt))
}

func (u *UI) ask(ctx context.Context, p *prompt) (string, error) {
	select {
	case <-u.done:
		return "", ErrClosed
	default:
	}
	// The prompt goes through the event queue, after the events that led
	// to it (the tool call being approved).
	u.mu.Lock()
	u.push(promptMsg{p})
	u.mu.Unlock()
	u.signal()
	select {
	case answer := <-p.reply:
		return answer, nil
	case <-ctx.Done():
		go u.prog.Send(promptGoneMsg{p})
		return "", ctx.Err()
	case <-u.done:
		return "", ErrClosed
	}
}
