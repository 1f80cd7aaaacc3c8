package output

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/reach-agent/reach/events"
)

// StreamJSON writes one JSON object per line per event (stream-json).
// Text deltas are not written: the complete message follows them.
type StreamJSON struct {
	Out io.Writer
	mu  sync.Mutex
}

// Emit implements events.Sink.
func (s *StreamJSON) Emit(e events.Event) {
	if _, ok := e.(events.TextDelta); ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	writeLine(s.Out, e)
}

// JSON writes a single object when the run ends: the result, plus the
// messages and tool calls that led to it.
type JSON struct {
	Out io.Writer

	mu        sync.Mutex
	init      *events.Init
	messages  []events.Message
	toolCalls int
	toolErrs  int
}

// Emit implements events.Sink.
func (j *JSON) Emit(e events.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch e := e.(type) {
	case events.Init:
		j.init = &e
	case events.Message:
		j.messages = append(j.messages, e)
	case events.ToolResult:
		j.toolCalls++
		if !e.Success {
			j.toolErrs++
		}
	case events.Result:
		obj := struct {
			Type string `json:"type"`
			events.Result
			SessionID  string           `json:"session_id,omitempty"`
			Model      string           `json:"model,omitempty"`
			ToolCalls  int              `json:"tool_calls"`
			ToolErrors int              `json:"tool_errors"`
			Messages   []events.Message `json:"messages"`
		}{Type: e.Type(), Result: e, ToolCalls: j.toolCalls, ToolErrors: j.toolErrs, Messages: j.messages}
		if obj.Messages == nil {
			obj.Messages = []events.Message{}
		}
		if j.init != nil {
			obj.SessionID, obj.Model = j.init.SessionID, j.init.Model
		}
		enc := json.NewEncoder(j.Out)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(obj)
	}
}

// writeLine encodes e with its "type" field first.
func writeLine(w io.Writer, e events.Event) {
	body, err := json.Marshal(e)
	if err != nil {
		return
	}
	line := make([]byte, 0, len(body)+32)
	line = append(line, `{"type":`...)
	typ, _ := json.Marshal(e.Type())
	line = append(line, typ...)
	if len(body) > 2 {
		line = append(line, ',')
		line = append(line, body[1:]...)
	} else {
		line = append(line, '}')
	}
	line = append(line, '\n')
	_, _ = w.Write(line)
}
