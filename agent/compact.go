package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/llm"
)

// Compaction defaults.
const (
	// CompactAt is the share of the context window the history may fill
	// before it is compacted.
	CompactAt = 0.8
	// KeepLastMessages stay verbatim at the end of a compacted history.
	KeepLastMessages = 6
)

// Compactor keeps a conversation under CompactAt of the model's context
// window: when the history would pass it, the older turns are summarised
// by the model and replaced by that summary, while the system prompt
// (task, plan, working memory), the phase's first message (the task of the
// phase) and the last turns stay verbatim.
type Compactor struct {
	Client llm.Client
	Model  string
	// Window is the model's context window in tokens
	// (llm.LookupModel(model).ContextWindow).
	Window int
	// Keep is how many trailing messages stay verbatim (default
	// KeepLastMessages).
	Keep int
	Sink events.Sink
	// Meter, when set, counts the summarising call.
	Meter *Meter
}

// EstimateTokens guesses the prompt size of msgs: four bytes a token,
// plus a little per message.
func EstimateTokens(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += 4 + len(m.Content)/4
		for _, tc := range m.ToolCalls {
			n += 4 + (len(tc.Name)+len(tc.Arguments))/4
		}
	}
	return n
}

// Compact returns msgs, compacted when they exceed the budget. When the
// summary cannot be made it says so and returns msgs unchanged: the next
// model call may still fit.
func (c *Compactor) Compact(ctx context.Context, msgs []llm.Message) []llm.Message {
	budget := int(float64(c.Window) * CompactAt)
	if c.Window <= 0 || EstimateTokens(msgs) <= budget {
		return msgs
	}
	head, middle, tail := c.split(msgs)
	if len(middle) == 0 {
		return msgs
	}
	summary, err := c.summarise(ctx, middle)
	if err != nil {
		c.notice("warn", fmt.Sprintf("could not compact the conversation (%v); going on with the full history", err))
		return msgs
	}
	out := append([]llm.Message(nil), head...)
	out = append(out, llm.Message{Role: llm.User, Content: "[Summary of the earlier part of this conversation, written to save context]\n\n" + summary})
	out = append(out, tail...)
	c.notice("info", fmt.Sprintf("compacted the conversation: %d messages (~%d tokens) summarised, ~%d tokens now", len(middle), EstimateTokens(middle), EstimateTokens(out)))
	return out
}

// split keeps the leading system and first user message, and a tail that
// starts at an assistant or user message so that no tool result is cut
// from its call.
func (c *Compactor) split(msgs []llm.Message) (head, middle, tail []llm.Message) {
	h := 0
	for h < len(msgs) && msgs[h].Role == llm.System {
		h++
	}
	if h < len(msgs) && msgs[h].Role == llm.User {
		h++
	}
	keep := c.Keep
	if keep <= 0 {
		keep = KeepLastMessages
	}
	t := max(len(msgs)-keep, h)
	for t > h && msgs[t].Role == llm.ToolRole {
		t--
	}
	return msgs[:h], msgs[h:t], msgs[t:]
}

const summaryPrompt = `Summarise the conversation below between a coding agent and its tools, for the agent itself to continue
the work. Keep: what was found (files, functions, line numbers, facts), what was changed, what failed and why,
decisions taken, and what remains to do. Be concise and concrete; do not invent anything.`

func (c *Compactor) summarise(ctx context.Context, msgs []llm.Message) (string, error) {
	var b strings.Builder
	for _, m := range msgs {
		switch m.Role {
		case llm.Assistant:
			if m.Content != "" {
				fmt.Fprintf(&b, "ASSISTANT: %s\n", m.Content)
			}
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(&b, "ASSISTANT calls %s(%s)\n", tc.Name, tc.Arguments)
			}
		case llm.ToolRole:
			fmt.Fprintf(&b, "TOOL RESULT: %s\n", m.Content)
		default:
			fmt.Fprintf(&b, "%s: %s\n", strings.ToUpper(string(m.Role)), m.Content)
		}
	}
	transcript := b.String()
	// The transcript itself must fit: keep its head and tail.
	if limit := c.Window * 4 * 6 / 10; limit > 0 && len(transcript) > limit {
		transcript = transcript[:limit/2] + "\n[… middle of the transcript left out …]\n" + transcript[len(transcript)-limit/2:]
	}
	zero := float32(0)
	req := llm.Request{Model: c.Model, Temperature: &zero, Messages: []llm.Message{
		{Role: llm.System, Content: summaryPrompt},
		{Role: llm.User, Content: strings.ToValidUTF8(transcript, "")},
	}}
	resp, err := c.Client.Complete(ctx, req, nil)
	if err != nil {
		return "", err
	}
	if c.Meter != nil {
		if err := c.Meter.Add(ctx, resp); err != nil {
			return "", err
		}
	}
	s := strings.TrimSpace(resp.Message.Content)
	if s == "" {
		return "", fmt.Errorf("the model returned an empty summary")
	}
	return s, nil
}

func (c *Compactor) notice(level, text string) {
	if c.Sink != nil {
		c.Sink.Emit(events.Notice{Level: level, Text: text})
	}
}
