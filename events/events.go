// Package events defines the one typed stream a run emits — phases, text,
// tool calls and results, approvals, usage, the final result — and the
// Sink that front ends (plain text, JSON, the TUI) implement.
package events

import (
	"sync"
	"time"
)

// Event is one thing that happened during a run. Type is the stream-json
// "type" field.
type Event interface {
	Type() string
}

// Sink receives events in order. Implementations must be safe for use by
// one producer; Emit must not block for long.
type Sink interface {
	Emit(Event)
}

// Init starts a run.
type Init struct {
	SessionID string    `json:"session_id"`
	Model     string    `json:"model"`
	Provider  string    `json:"provider"`
	Task      string    `json:"task"`
	Cwd       string    `json:"cwd"`
	Cowboy    bool      `json:"cowboy_mode"`
	Time      time.Time `json:"time"`
}

// Phase marks the start of a phase (and, in implementation, of a task).
type Phase struct {
	Name      string `json:"phase"`
	TaskIndex int    `json:"task_index,omitempty"` // 1-based, implementation only
	TaskCount int    `json:"task_count,omitempty"`
	Task      string `json:"task,omitempty"`
}

// TextDelta is a piece of streamed assistant text. It is not written to
// stream-json (Message carries the whole text) but drives live views.
type TextDelta struct {
	Phase string `json:"phase"`
	Text  string `json:"text"`
}

// Message is a complete assistant message.
type Message struct {
	Phase string `json:"phase"`
	Text  string `json:"text"`
}

// ToolCall is a call the model made, before it runs.
type ToolCall struct {
	Phase     string `json:"phase"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolResult is the outcome of a call.
type ToolResult struct {
	Phase      string `json:"phase"`
	ID         string `json:"id"`
	Name       string `json:"name"`
	Success    bool   `json:"success"`
	Output     string `json:"output,omitempty"`
	Error      string `json:"error,omitempty"`
	ReturnCode *int   `json:"return_code,omitempty"`
	DurationMS int64  `json:"duration_ms"`
}

// ToolOutput is a piece of a running tool's output (a shell command's
// stdout and stderr), reported while it runs so front ends can show it
// live. Text continues the previous chunk of the same call: it usually
// holds whole lines, but a line the command has not finished may be
// split across chunks. Chunks are rate-limited and may skip output (they
// then say so); the ToolResult that follows carries the output the model
// gets.
type ToolOutput struct {
	ID   string `json:"id"` // the tool call's id
	Text string `json:"text"`
}

// Approval records a question put to the human and its answer.
type Approval struct {
	Tool     string `json:"tool"`
	Command  string `json:"command"`
	Decision string `json:"decision"` // yes, no, cowboy, denied
	Reason   string `json:"reason,omitempty"`
}

// Usage reports tokens and cost after a model turn (running totals).
type Usage struct {
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	Requests     int     `json:"requests"`
}

// Notice is a line of progress or warning for the human.
type Notice struct {
	Level string `json:"level"` // info, warn, error
	Text  string `json:"text"`
}

// Result ends a run.
type Result struct {
	Status   string  `json:"status"` // success, failed, limit, error, interrupted
	ExitCode int     `json:"exit_code"`
	Summary  string  `json:"summary,omitempty"`
	Plan     string  `json:"plan,omitempty"`
	Error    string  `json:"error,omitempty"`
	Usage    Usage   `json:"usage"`
	CostUSD  float64 `json:"cost_usd"`
	Duration float64 `json:"duration_s"`
}

func (Init) Type() string       { return "init" }
func (Phase) Type() string      { return "phase" }
func (TextDelta) Type() string  { return "text_delta" }
func (Message) Type() string    { return "message" }
func (ToolCall) Type() string   { return "tool_call" }
func (ToolResult) Type() string { return "tool_result" }
func (ToolOutput) Type() string { return "tool_output" }
func (Approval) Type() string   { return "approval" }
func (Usage) Type() string      { return "usage" }
func (Notice) Type() string     { return "notice" }
func (Result) Type() string     { return "result" }

// Discard drops every event.
type Discard struct{}

func (Discard) Emit(Event) {}

// Recorder keeps every event; for tests.
type Recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *Recorder) Emit(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// Events returns a copy of what was emitted.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}
