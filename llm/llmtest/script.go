// Package llmtest is a scripted OpenAI-compatible chat completions server
// for tests: it replays a list of turns (replies, faults, garbage, hangs)
// and records what it received.
//
// Script is a plain http.Handler, usable from a TestMain or a helper
// binary; NewServer wraps it in an httptest server tied to a testing.TB.
package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/reach-agent/reach/llm"
)

// Turn is one scripted answer to a chat completion request. Exactly one
// kind applies, checked in this order: Respond (dynamic), Hang, Garbage,
// Status (a fault), else a reply made of Text and/or ToolCalls.
type Turn struct {
	// Text of the reply.
	Text string `json:"text,omitempty"`
	// ToolCalls of the reply; an empty ID becomes "call_<turn>_<i>".
	ToolCalls []llm.ToolCall `json:"tool_calls,omitempty"`
	// Usage reported; when zero it is estimated as bytes/4 of the request
	// body and of the reply.
	Usage llm.Usage `json:"usage,omitzero"`
	// FinishReason reported (default "tool_calls" with calls, else "stop").
	FinishReason string `json:"finish_reason,omitempty"`
	// ChunkSize splits streamed text and tool-call arguments into pieces
	// of at most this many bytes (never inside a UTF-8 sequence); 0 sends
	// each whole.
	ChunkSize int `json:"chunk_size,omitempty"`
	// OmitIndex leaves the index out of streamed tool-call deltas, as
	// some servers do.
	OmitIndex bool `json:"omit_index,omitempty"`
	// DropAfter aborts the connection after this many stream events (a
	// mid-stream failure); 0 never does.
	DropAfter int `json:"drop_after,omitempty"`
	// StreamError, when set, replaces the stream event after DropAfter
	// events with an error event (data: {"error": …}) that ends the reply,
	// as OpenRouter does when the upstream fails mid-stream. A
	// non-streaming request gets 200 with that error object.
	StreamError string `json:"stream_error,omitempty"`

	// Status makes the turn a fault: this HTTP status with Body (default
	// an OpenAI-style error object) and an optional Retry-After header.
	Status     int    `json:"status,omitempty"`
	Body       string `json:"body,omitempty"`
	RetryAfter string `json:"retry_after,omitempty"`

	// Garbage answers 200 with a body that is neither JSON nor SSE.
	Garbage bool `json:"garbage,omitempty"`
	// Hang never answers; the handler returns when the client gives up or
	// the script is closed.
	Hang bool `json:"hang,omitempty"`
	// Respond decides the turn from the request (a dynamic turn).
	Respond func(Request) Turn `json:"-"`
}

// Reply is a text reply.
func Reply(text string) Turn { return Turn{Text: text} }

// Calls is a reply made of tool calls.
func Calls(calls ...llm.ToolCall) Turn { return Turn{ToolCalls: calls} }

// Call is a tool call for a reply.
func Call(id, name, arguments string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: arguments}
}

// Fault answers with an HTTP error status and body ("" for a default body).
func Fault(status int, body string) Turn { return Turn{Status: status, Body: body} }

// RateLimited answers 429 with the given Retry-After header ("" for none).
func RateLimited(retryAfter string) Turn {
	return Turn{Status: http.StatusTooManyRequests, RetryAfter: retryAfter}
}

// Garbage answers 200 with a body that is not JSON.
func Garbage() Turn { return Turn{Garbage: true} }

// Hang never answers.
func Hang() Turn { return Turn{Hang: true} }

// Dynamic decides the turn from the request it answers.
func Dynamic(f func(Request) Turn) Turn { return Turn{Respond: f} }

// Request is a chat completion request as the server received it.
type Request struct {
	Model        string
	Messages     []llm.Message
	Tools        []string // names of the offered tools, in order
	Stream       bool
	IncludeUsage bool
	Temperature  *float64
	Body         []byte
	Header       http.Header
}

// LastMessage is the last message of the request (zero when none).
func (r Request) LastMessage() llm.Message {
	if len(r.Messages) == 0 {
		return llm.Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

// Script replays turns to POST …/chat/completions, one per request, and
// answers GET …/models. It is an http.Handler; the zero value is not
// usable, call NewScript.
type Script struct {
	// Models listed by GET /v1/models (default "test-model").
	Models []string
	// OnProblem, when set, is told about requests the script cannot answer
	// (script exhausted, undecodable body).
	OnProblem func(msg string)

	mu       sync.Mutex
	turns    []Turn
	next     int
	requests []Request
	problems []string
	closed   chan struct{}
	once     sync.Once
}

// NewScript returns a handler that replays turns in order.
func NewScript(turns ...Turn) *Script {
	return &Script{turns: append([]Turn(nil), turns...), closed: make(chan struct{})}
}

// Append adds turns to the end of the script.
func (s *Script) Append(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

// Requests returns the chat completion requests received so far.
func (s *Script) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Remaining counts the turns not played yet.
func (s *Script) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) - s.next
}

// Problems returns what the script could not answer, in order.
func (s *Script) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// Close releases hanging handlers. The script answers nothing afterwards
// (each request gets 503).
func (s *Script) Close() { s.once.Do(func() { close(s.closed) }) }

func (s *Script) problem(msg string) {
	s.mu.Lock()
	s.problems = append(s.problems, msg)
	report := s.OnProblem
	s.mu.Unlock()
	if report != nil {
		report(msg)
	}
}

// ServeHTTP implements http.Handler.
func (s *Script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case <-s.closed:
		writeError(w, http.StatusServiceUnavailable, "llmtest script closed")
		return
	default:
	}
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		s.serveModels(w)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.serveChat(w, r)
	default:
		writeError(w, http.StatusNotFound, fmt.Sprintf("llmtest: no route for %s %s", r.Method, r.URL.Path))
	}
}

func (s *Script) serveModels(w http.ResponseWriter) {
	models := s.Models
	if len(models) == 0 {
		models = []string{"test-model"}
	}
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list"}
	for _, m := range models {
		list.Data = append(list.Data, model{ID: m, Object: "model", OwnedBy: "llmtest"})
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Script) serveChat(w http.ResponseWriter, r *http.Request) {
	req, err := decodeRequest(r)
	if err != nil {
		s.problem(err.Error())
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	n := s.next
	var turn Turn
	exhausted := n >= len(s.turns)
	if !exhausted {
		turn = s.turns[n]
		s.next++
	}
	s.mu.Unlock()
	if exhausted {
		s.problem(fmt.Sprintf("llmtest: script exhausted: request %d (model %q, last message %.80q) has no turn", n+1, req.Model, req.LastMessage().Content))
		writeError(w, http.StatusInternalServerError, "script exhausted")
		return
	}
	for turn.Respond != nil {
		turn = turn.Respond(req)
	}
	s.play(w, r, req, turn, n)
}

// play answers one request with one turn.
func (s *Script) play(w http.ResponseWriter, r *http.Request, req Request, turn Turn, n int) {
	switch {
	case turn.Hang:
		select {
		case <-r.Context().Done():
		case <-s.closed:
		}
	case turn.Garbage:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, "<html><body>502 upstream hiccup, not JSON</body></html>\n")
	case turn.Status != 0:
		if turn.RetryAfter != "" {
			w.Header().Set("Retry-After", turn.RetryAfter)
		}
		if turn.Body == "" {
			writeError(w, turn.Status, http.StatusText(turn.Status))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(turn.Status)
		fmt.Fprint(w, turn.Body)
	case turn.StreamError != "" && !req.Stream:
		writeError(w, http.StatusOK, turn.StreamError)
	default:
		reply := newReply(req, turn, n)
		if req.Stream {
			reply.stream(w, s.closed)
			return
		}
		writeJSON(w, http.StatusOK, reply.completion())
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client may be gone; nothing to do
}

func writeError(w http.ResponseWriter, status int, msg string) {
	type apiError struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	writeJSON(w, status, map[string]apiError{"error": {Message: msg, Type: "llmtest"}})
}
