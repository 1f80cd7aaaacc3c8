// Package agent runs the ReAct loop: it sends the conversation and a
// phase's tools to the model, executes the tool calls it gets back through
// the executor, and chains the research, planning and implementation
// phases into one run.
package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/tools"
)

// Executor runs one tool call; *tools.Executor implements it.
type Executor interface {
	Execute(ctx context.Context, call tools.Call, offered []string) tools.Result
}

// LimitError reports that a run hit one of its limits (exit code 4).
type LimitError struct {
	What string // "recursion", "cost", "tokens"
	Msg  string
}

func (e *LimitError) Error() string { return e.Msg }

// Loop drives one conversation until the model answers without calling a
// tool, or a limit is reached.
type Loop struct {
	Client      llm.Client
	Exec        Executor
	Sink        events.Sink
	Model       string
	Temperature *float32
	// RecursionLimit is the number of model turns allowed per Run.
	RecursionLimit int
	Meter          *Meter
	// Compact, when set, may shorten the history before each model turn
	// (see Compactor).
	Compact func(ctx context.Context, msgs []llm.Message) []llm.Message
	// Offer, when set, picks each turn's tools from the phase's tools
	// (tool retrieval, see ToolOffer); nil offers them all.
	Offer ToolOffer
}

// Outcome is what a finished conversation produced.
type Outcome struct {
	Final    string        // the model's last reply text
	Messages []llm.Message // the whole history, for continuing it
	Turns    int
}

// maxRepeats is how many identical consecutive calls are run; the next one
// is refused.
const maxRepeats = 2

// Run continues the conversation msgs in phase with the offered tools.
func (l *Loop) Run(ctx context.Context, phase string, msgs []llm.Message, offered []tools.Spec) (Outcome, error) {
	defs := toolDefs(offered)
	names := tools.Names(offered)
	sink := l.Sink
	if sink == nil {
		sink = events.Discard{}
	}
	var repeat repeatDetector
	var lastUsed []string
	for turn := 1; ; turn++ {
		if l.RecursionLimit > 0 && turn > l.RecursionLimit {
			return Outcome{Messages: msgs, Turns: turn - 1}, &LimitError{
				What: "recursion",
				Msg:  fmt.Sprintf("%s phase reached the recursion limit of %d model turns; raise it with --recursion-limit or split the task", phase, l.RecursionLimit),
			}
		}
		if err := ctx.Err(); err != nil {
			return Outcome{Messages: msgs, Turns: turn - 1}, err
		}
		if l.Compact != nil {
			msgs = l.Compact(ctx, msgs)
		}
		if l.Offer != nil {
			cur := l.Offer.Offer(ctx, OfferTurn{Phase: phase, Turn: turn, Messages: msgs, Tools: offered, LastUsed: lastUsed})
			defs, names = toolDefs(cur), tools.Names(cur)
		}
		req := llm.Request{Model: l.Model, Messages: msgs, Tools: defs, Temperature: l.Temperature}
		resp, err := l.Client.Complete(ctx, req, func(delta string) {
			sink.Emit(events.TextDelta{Phase: phase, Text: delta})
		})
		if err != nil {
			return Outcome{Messages: msgs, Turns: turn - 1}, fmt.Errorf("%s phase, turn %d: %w", phase, turn, err)
		}
		reply := resp.Message
		reply.Role = llm.Assistant
		msgs = append(msgs, reply)
		if reply.Content != "" {
			sink.Emit(events.Message{Phase: phase, Text: reply.Content})
		}
		if l.Meter != nil {
			if err := l.Meter.Add(ctx, resp); err != nil {
				return Outcome{Final: reply.Content, Messages: msgs, Turns: turn}, err
			}
		}
		if len(reply.ToolCalls) == 0 {
			return Outcome{Final: reply.Content, Messages: msgs, Turns: turn}, nil
		}
		lastUsed = nil
		for i, tc := range reply.ToolCalls {
			lastUsed = append(lastUsed, tc.Name)
			if tc.ID == "" {
				// Some servers omit ids; the tool message must still match.
				tc.ID = fmt.Sprintf("call_%d_%d", turn, i)
				reply.ToolCalls[i].ID = tc.ID
			}
			sink.Emit(events.ToolCall{Phase: phase, ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
			start := time.Now()
			var res tools.Result
			if repeat.seen(tc) > maxRepeats {
				res = tools.Fail(fmt.Sprintf("refused: this is call %d in a row of %s with the same arguments; the earlier results are above. Do something different: other arguments, another tool, or answer without a tool call", repeat.count, tc.Name))
			} else {
				// A tool that streams (a shell command) shows its output live.
				live := tools.WithProgress(ctx, func(text string) {
					sink.Emit(events.ToolOutput{ID: tc.ID, Text: text})
				})
				res = l.Exec.Execute(live, tools.Call{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments}, names)
			}
			sink.Emit(events.ToolResult{Phase: phase, ID: tc.ID, Name: tc.Name, Success: res.Success, Output: res.Output, Error: res.Error, ReturnCode: res.ReturnCode, DurationMS: time.Since(start).Milliseconds()})
			msgs = append(msgs, llm.Message{Role: llm.ToolRole, ToolCallID: tc.ID, Content: resultText(res)})
			if err := ctx.Err(); err != nil {
				// Answer the remaining calls so the history stays valid for a resume.
				for _, rest := range reply.ToolCalls[i+1:] {
					msgs = append(msgs, llm.Message{Role: llm.ToolRole, ToolCallID: rest.ID, Content: resultText(tools.Fail("not run: the run was interrupted"))})
				}
				return Outcome{Messages: msgs, Turns: turn}, err
			}
		}
	}
}

// repeatDetector counts identical consecutive calls.
type repeatDetector struct {
	last  string
	count int
}

func (r *repeatDetector) seen(tc llm.ToolCall) int {
	key := tc.Name + "\x00" + canonicalJSON(tc.Arguments)
	if key == r.last {
		r.count++
	} else {
		r.last, r.count = key, 1
	}
	return r.count
}

func toolDefs(specs []tools.Spec) []llm.ToolDef {
	defs := make([]llm.ToolDef, len(specs))
	for i, s := range specs {
		defs[i] = llm.ToolDef{Name: s.Name, Description: s.Summary, Parameters: s.Parameters}
	}
	return defs
}

// IsLimit reports whether err is a *LimitError.
func IsLimit(err error) bool {
	var le *LimitError
	return errors.As(err, &le)
}
