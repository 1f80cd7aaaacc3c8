// Package llm is reach's view of a chat model: messages, tool calls,
// streaming and usage, behind a one-method Client interface.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Role of a message in the conversation.
type Role string

const (
	System    Role = "system"
	User      Role = "user"
	Assistant Role = "assistant"
	ToolRole  Role = "tool"
)

// Message is one entry of the conversation history.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a function call requested by the model. Arguments is the
// raw JSON text the model produced (it may be malformed).
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolDef is a tool offered to the model.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Request is one model turn to send.
type Request struct {
	Model       string
	Messages    []Message
	Tools       []ToolDef
	Temperature *float32
}

// Usage counts tokens of one or more turns.
type Usage struct {
	PromptTokens     int `json:"input_tokens"`
	CompletionTokens int `json:"output_tokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{PromptTokens: u.PromptTokens + o.PromptTokens, CompletionTokens: u.CompletionTokens + o.CompletionTokens}
}

// Total is input plus output tokens.
func (u Usage) Total() int { return u.PromptTokens + u.CompletionTokens }

// Response is the model's complete reply to one Request.
type Response struct {
	Message      Message // role assistant; content and/or tool calls
	Usage        Usage
	FinishReason string
	// Requests counts the HTTP requests made, retries included.
	Requests int
	// RequestBytes counts the bytes of the request bodies sent.
	RequestBytes int
}

// Client sends one turn and returns the reply. onText, when not nil,
// receives the text of the reply as it streams in.
type Client interface {
	Complete(ctx context.Context, req Request, onText func(delta string)) (Response, error)
}

// ProviderError is a failure of the model provider that retries could not
// fix: authentication, an unreachable endpoint, an unknown model, or
// transient errors that outlasted every retry.
type ProviderError struct {
	Status   int    // HTTP status, 0 when none was received
	Message  string // what the provider or the transport said
	Hint     string // what the user can do about it
	Attempts int
	Err      error
}

func (e *ProviderError) Error() string {
	msg := "model provider error"
	if e.Status != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	if e.Hint != "" {
		msg += ". " + e.Hint
	}
	return msg
}

func (e *ProviderError) Unwrap() error { return e.Err }

// IsProviderError reports whether err is (or wraps) a *ProviderError.
func IsProviderError(err error) bool {
	var pe *ProviderError
	return errors.As(err, &pe)
}
