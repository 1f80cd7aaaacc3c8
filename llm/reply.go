package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// streamTurn makes one streaming request and assembles the reply.
func streamTurn(ctx context.Context, client *openai.Client, creq openai.ChatCompletionRequest, tr *attemptTransport, onText func(string)) (Response, error) {
	creq.Stream = true
	creq.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	stream, err := client.CreateChatCompletionStream(ctx, creq)
	if err != nil {
		return Response{}, err
	}
	defer stream.Close()
	var b replyBuilder
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Response{}, err
		}
		b.add(chunk, onText)
	}
	switch {
	case b.chunks == 0:
		return Response{}, fmt.Errorf("%w: no data events in the stream", errInvalidResponse)
	case b.finish == "" && !tr.done():
		return Response{}, errTruncated
	}
	return b.response(), nil
}

// completeTurn makes one non-streaming request.
func completeTurn(ctx context.Context, client *openai.Client, creq openai.ChatCompletionRequest) (Response, error) {
	r, err := client.CreateChatCompletion(ctx, creq)
	if err != nil {
		return Response{}, err
	}
	if len(r.Choices) == 0 {
		return Response{}, fmt.Errorf("%w: no choices in the reply", errInvalidResponse)
	}
	ch := r.Choices[0]
	msg := Message{Role: Assistant, Content: ch.Message.Content}
	if msg.Content == "" {
		msg.Content = ch.Message.Refusal
	}
	for i, tc := range ch.Message.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: callID(tc.ID, i), Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return Response{
		Message:      msg,
		Usage:        Usage{PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens},
		FinishReason: finishReason(string(ch.FinishReason), len(msg.ToolCalls) > 0),
	}, nil
}

// callID keeps the provider's id, or makes one up so that the tool result
// can still refer to the call.
func callID(id string, i int) string {
	if id != "" {
		return id
	}
	return fmt.Sprintf("call_%d", i)
}

func finishReason(r string, calls bool) string {
	switch {
	case r != "" && r != string(openai.FinishReasonNull):
		return r
	case calls:
		return string(openai.FinishReasonToolCalls)
	}
	return string(openai.FinishReasonStop)
}

// replyBuilder assembles a streamed reply. Tool-call deltas are matched by
// their Index; the id and name come in the first delta of a call and the
// arguments are split over many. For servers that omit Index, a delta
// with a new id starts a new call and one without an id continues the
// last call. A delta whose Index is taken by a call with a different id
// also starts a new call (some servers number every call 0).
type replyBuilder struct {
	text    strings.Builder
	calls   []ToolCall
	args    []*strings.Builder
	byIndex map[int]int
	finish  string
	usage   *openai.Usage
	chunks  int
}

func (b *replyBuilder) add(chunk openai.ChatCompletionStreamResponse, onText func(string)) {
	b.chunks++
	if chunk.Usage != nil {
		b.usage = chunk.Usage
	}
	for _, ch := range chunk.Choices {
		if ch.Index != 0 {
			continue
		}
		if text := ch.Delta.Content + ch.Delta.Refusal; text != "" {
			b.text.WriteString(text)
			if onText != nil {
				onText(text)
			}
		}
		for _, tc := range ch.Delta.ToolCalls {
			b.addCall(tc)
		}
		if r := string(ch.FinishReason); r != "" && r != string(openai.FinishReasonNull) {
			b.finish = r
		}
	}
}

func (b *replyBuilder) addCall(tc openai.ToolCall) {
	i := b.slot(tc)
	call := &b.calls[i]
	if tc.ID != "" {
		call.ID = tc.ID
	}
	switch name := tc.Function.Name; {
	case name == "" || name == call.Name:
	case call.Name == "":
		call.Name = name
	default: // a server that streams the name in pieces
		call.Name += name
	}
	b.args[i].WriteString(tc.Function.Arguments)
}

func (b *replyBuilder) slot(tc openai.ToolCall) int {
	if tc.Index != nil {
		if i, ok := b.byIndex[*tc.Index]; ok && (tc.ID == "" || b.calls[i].ID == "" || tc.ID == b.calls[i].ID) {
			return i
		}
		if b.byIndex == nil {
			b.byIndex = map[int]int{}
		}
		b.byIndex[*tc.Index] = b.newCall()
		return b.byIndex[*tc.Index]
	}
	if last := len(b.calls) - 1; last >= 0 && (tc.ID == "" || tc.ID == b.calls[last].ID) {
		return last
	}
	return b.newCall()
}

func (b *replyBuilder) newCall() int {
	b.calls = append(b.calls, ToolCall{})
	b.args = append(b.args, &strings.Builder{})
	return len(b.calls) - 1
}

func (b *replyBuilder) response() Response {
	msg := Message{Role: Assistant, Content: b.text.String()}
	for i, c := range b.calls {
		c.ID = callID(c.ID, i)
		c.Arguments = b.args[i].String()
		msg.ToolCalls = append(msg.ToolCalls, c)
	}
	resp := Response{Message: msg, FinishReason: finishReason(b.finish, len(msg.ToolCalls) > 0)}
	if b.usage != nil {
		resp.Usage = Usage{PromptTokens: b.usage.PromptTokens, CompletionTokens: b.usage.CompletionTokens}
	}
	return resp
}
