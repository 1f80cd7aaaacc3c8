package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reach-agent/reach/llm"
)

// wireRequest is the part of a chat completion request the script reads.
type wireRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []wireCall      `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool     `json:"stream"`
	Temperature   *float64 `json:"temperature"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type wireCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func decodeRequest(r *http.Request) (Request, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return Request{}, fmt.Errorf("llmtest: read request body: %w", err)
	}
	var wr wireRequest
	if err := json.Unmarshal(body, &wr); err != nil {
		return Request{}, fmt.Errorf("llmtest: decode request body: %w", err)
	}
	req := Request{
		Model: wr.Model, Stream: wr.Stream, Temperature: wr.Temperature,
		IncludeUsage: wr.StreamOptions != nil && wr.StreamOptions.IncludeUsage,
		Body:         body, Header: r.Header.Clone(),
	}
	for _, m := range wr.Messages {
		msg := llm.Message{Role: llm.Role(m.Role), Content: contentText(m.Content), ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		req.Messages = append(req.Messages, msg)
	}
	for _, t := range wr.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	return req, nil
}

// contentText reads a message content: a string or an array of parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// reply is a scripted reply ready to be written either way.
type reply struct {
	turn         Turn
	id           string
	model        string
	finish       string
	usage        llm.Usage
	includeUsage bool
}

func newReply(req Request, t Turn, n int) reply {
	r := reply{turn: t, id: fmt.Sprintf("chatcmpl-llmtest-%d", n+1), model: req.Model, includeUsage: req.IncludeUsage}
	out := len(t.Text)
	t.ToolCalls = append([]llm.ToolCall(nil), t.ToolCalls...)
	for i := range t.ToolCalls {
		if t.ToolCalls[i].ID == "" {
			t.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", n+1, i)
		}
		out += len(t.ToolCalls[i].Name) + len(t.ToolCalls[i].Arguments)
	}
	r.turn = t
	r.usage = t.Usage
	if r.usage == (llm.Usage{}) {
		r.usage = llm.Usage{PromptTokens: max(1, len(req.Body)/4), CompletionTokens: max(1, out/4)}
	}
	r.finish = t.FinishReason
	if r.finish == "" {
		r.finish = "stop"
		if len(t.ToolCalls) > 0 {
			r.finish = "tool_calls"
		}
	}
	return r
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (r reply) wireUsage() *wireUsage {
	return &wireUsage{r.usage.PromptTokens, r.usage.CompletionTokens, r.usage.Total()}
}

type wireMessage struct {
	Role      string     `json:"role,omitempty"`
	Content   *string    `json:"content,omitempty"`
	ToolCalls []wireCall `json:"tool_calls,omitempty"`
}

type wireChoice struct {
	Index        int          `json:"index"`
	Message      *wireMessage `json:"message,omitempty"`
	Delta        *wireMessage `json:"delta,omitempty"`
	FinishReason *string      `json:"finish_reason"`
}

type wireCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage,omitempty"`
}

func (r reply) completion() wireCompletion {
	text := r.turn.Text
	msg := &wireMessage{Role: "assistant", Content: &text}
	for _, c := range r.turn.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, callDelta(nil, c.ID, c.Name, c.Arguments))
	}
	return wireCompletion{
		ID: r.id, Object: "chat.completion", Created: time.Now().Unix(), Model: r.model,
		Choices: []wireChoice{{Message: msg, FinishReason: &r.finish}},
		Usage:   r.wireUsage(),
	}
}

func callDelta(index *int, id, name, args string) wireCall {
	c := wireCall{Index: index, ID: id}
	if id != "" {
		c.Type = "function"
	}
	c.Function.Name, c.Function.Arguments = name, args
	return c
}

// events lists the stream's data events in order, [DONE] excluded.
func (r reply) events() []wireCompletion {
	chunk := func(d *wireMessage, finish *string) wireCompletion {
		return wireCompletion{ID: r.id, Object: "chat.completion.chunk", Model: r.model,
			Choices: []wireChoice{{Delta: d, FinishReason: finish}}}
	}
	evs := []wireCompletion{chunk(&wireMessage{Role: "assistant"}, nil)}
	for _, piece := range split(r.turn.Text, r.turn.ChunkSize) {
		evs = append(evs, chunk(&wireMessage{Content: &piece}, nil))
	}
	for i, c := range r.turn.ToolCalls {
		var index *int
		if !r.turn.OmitIndex {
			index = &i
		}
		evs = append(evs, chunk(&wireMessage{ToolCalls: []wireCall{callDelta(index, c.ID, c.Name, "")}}, nil))
		for _, piece := range split(c.Arguments, r.turn.ChunkSize) {
			evs = append(evs, chunk(&wireMessage{ToolCalls: []wireCall{callDelta(index, "", "", piece)}}, nil))
		}
	}
	evs = append(evs, chunk(&wireMessage{}, &r.finish))
	if r.includeUsage {
		evs = append(evs, wireCompletion{ID: r.id, Object: "chat.completion.chunk", Model: r.model,
			Choices: []wireChoice{}, Usage: r.wireUsage()})
	}
	return evs
}

// stream writes the reply as server-sent events, flushing each one.
func (r reply) stream(w http.ResponseWriter, closed <-chan struct{}) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for i, ev := range r.events() {
		if r.turn.StreamError != "" && i >= r.turn.DropAfter {
			b, _ := json.Marshal(map[string]map[string]string{"error": {"message": r.turn.StreamError, "type": "llmtest"}})
			fmt.Fprintf(w, "data: %s\n\n", b)
			return
		}
		if r.turn.DropAfter > 0 && i >= r.turn.DropAfter {
			panic(http.ErrAbortHandler) // cut the connection mid-stream
		}
		select {
		case <-closed:
			return
		default:
		}
		b, err := json.Marshal(ev)
		if err != nil {
			return // cannot happen: plain structs
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return // the client went away
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// split cuts s into pieces of at most size bytes without breaking a UTF-8
// sequence (a piece holds at least one rune). Empty s gives no piece.
func split(s string, size int) []string {
	if s == "" {
		return nil
	}
	if size <= 0 || size >= len(s) {
		return []string{s}
	}
	var pieces []string
	for len(s) > 0 {
		n := 0
		for n < len(s) {
			_, w := utf8.DecodeRuneInString(s[n:])
			if n > 0 && n+w > size {
				break
			}
			n += w
		}
		pieces = append(pieces, s[:n])
		s = s[n:]
	}
	return pieces
}
