package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/reach-agent/reach/agent"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/tools"
)

// InterruptQuestion is asked after Esc interrupted a step (RA.Aid's words).
const InterruptQuestion = "Why did you interrupt me? Say what to do next (an empty answer stops the run)."

// errStepInterrupted is the cause of a step's context cancelled by Esc.
var errStepInterrupted = errors.New("step interrupted by the user")

// StepControl lets a front end interrupt the current step — one model
// call or one tool call — without ending the run: the step's context is
// cancelled, the human is asked what to do next, and the answer goes to
// the model (as the tool's result, or as a user message before the model
// call is repeated). An empty answer stops the run. A nil *StepControl
// changes nothing.
type StepControl struct {
	Ask  func(ctx context.Context, question string) (string, error)
	Stop func() // ends the whole run

	mu      sync.Mutex
	cancel  context.CancelCauseFunc // of the current step
	pending bool                    // Esc came between steps
	notes   []note
}

// note is a human message injected into a conversation at a position.
type note struct {
	first string // the content of the conversation's first message
	at    int
	msg   llm.Message
}

// Interrupt cancels the current step, or the next one to start.
func (s *StepControl) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel(errStepInterrupted)
		return
	}
	s.pending = true
}

// begin starts a step; end reports whether Interrupt cancelled it.
func (s *StepControl) begin(ctx context.Context) (context.Context, func() bool) {
	sctx, cancel := context.WithCancelCause(ctx)
	s.mu.Lock()
	s.cancel = cancel
	if s.pending {
		s.pending = false
		cancel(errStepInterrupted)
	}
	s.mu.Unlock()
	return sctx, func() bool {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		interrupted := ctx.Err() == nil && errors.Is(context.Cause(sctx), errStepInterrupted)
		cancel(nil)
		return interrupted
	}
}

// whatNext asks the human after an interruption; "" means stop.
func (s *StepControl) whatNext(ctx context.Context) string {
	if s.Ask == nil {
		s.stop()
		return ""
	}
	answer, err := s.Ask(ctx, InterruptQuestion)
	answer = strings.TrimSpace(answer)
	if err != nil || answer == "" {
		s.stop()
		return ""
	}
	return answer
}

func (s *StepControl) stop() {
	if s.Stop != nil {
		s.Stop()
	}
}

// Client wraps c so that its calls are interruptible steps.
func (s *StepControl) Client(c llm.Client) llm.Client {
	if s == nil {
		return c
	}
	return &stepClient{s: s, inner: c}
}

// Executor wraps e so that each tool call is an interruptible step.
func (s *StepControl) Executor(e agent.Executor) agent.Executor {
	if s == nil {
		return e
	}
	return &stepExecutor{s: s, inner: e}
}

type stepClient struct {
	s     *StepControl
	inner llm.Client
}

// Complete runs the model call as a step. When it is interrupted and the
// human says what to do, their words are added to the conversation (and
// kept there for its later turns) and the call is made again.
func (c *stepClient) Complete(ctx context.Context, req llm.Request, onText func(string)) (llm.Response, error) {
	for {
		sent := req
		sent.Messages = c.s.withNotes(req.Messages)
		sctx, end := c.s.begin(ctx)
		resp, err := c.inner.Complete(sctx, sent, onText)
		if !end() {
			return resp, err
		}
		answer := c.s.whatNext(ctx)
		if answer == "" {
			return llm.Response{}, context.Canceled
		}
		c.s.addNote(req.Messages, llm.Message{Role: llm.User, Content: "I interrupted you. " + answer})
	}
}

// withNotes returns msgs with the notes of this conversation inserted.
func (s *StepControl) withNotes(msgs []llm.Message) []llm.Message {
	s.mu.Lock()
	notes := s.notes
	s.mu.Unlock()
	if len(notes) == 0 || len(msgs) == 0 {
		return msgs
	}
	out := msgs
	copied := false
	for i := len(notes) - 1; i >= 0; i-- { // later positions first
		n := notes[i]
		if n.first != msgs[0].Content || n.at > len(msgs) {
			continue
		}
		if !copied {
			out = slices.Clone(msgs)
			copied = true
		}
		out = slices.Insert(out, n.at, n.msg)
	}
	return out
}

// addNote records msg to follow the conversation msgs from now on.
func (s *StepControl) addNote(msgs []llm.Message, msg llm.Message) {
	first := ""
	if len(msgs) > 0 {
		first = msgs[0].Content
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notes = append(s.notes, note{first: first, at: len(msgs), msg: msg})
}

type stepExecutor struct {
	s     *StepControl
	inner agent.Executor
}

// Execute runs the tool call as a step; an interrupted call fails with
// the human's words, which the model reads as the result.
func (e *stepExecutor) Execute(ctx context.Context, call tools.Call, offered []string) tools.Result {
	sctx, end := e.s.begin(ctx)
	res := e.inner.Execute(sctx, call, offered)
	if !end() {
		return res
	}
	answer := e.s.whatNext(ctx)
	if answer == "" {
		return tools.Fail("interrupted by the user, who stopped the run")
	}
	return tools.Fail("The user interrupted this tool call and said: " + answer)
}
