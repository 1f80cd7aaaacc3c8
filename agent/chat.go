package agent

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/phases"
	"github.com/reach-agent/reach/tools"
)

// Chat holds a conversation (--chat): each message of the human starts a
// new agent turn with the chat toolset, continuing one history. first, when
// not empty, is the opening message (the -m task); next reads the
// following ones and returns io.EOF (or an empty message) when the human
// is done.
func (r *Runner) Chat(ctx context.Context, first string, next func(ctx context.Context) (string, error)) (Report, error) {
	c := phases.Context{Task: first, Project: r.Project}
	if r.Now != nil {
		c.Date = r.Now()
	}
	offered := phases.Toolset(r.Registry, phases.Chat, r.Phases)
	c.ToolNames = tools.Names(offered)
	if r.WorkingMemory != nil {
		c.WorkingMemory = r.WorkingMemory(ctx, phases.Chat, c)
	}
	r.emit(events.Phase{Name: phases.Chat})
	msgs := []llm.Message{{Role: llm.System, Content: phases.SystemPrompt(phases.Chat, c)}}
	msgs = append(msgs, r.ChatHistory...)
	rep := Report{Status: "success"}
	msg := first
	for {
		if strings.TrimSpace(msg) == "" {
			var err error
			msg, err = next(ctx)
			if errors.Is(err, io.EOF) || (err == nil && strings.TrimSpace(msg) == "") {
				return rep, nil
			}
			if err != nil {
				return rep, err
			}
		}
		msgs = append(msgs, llm.Message{Role: llm.User, Content: msg})
		out, err := r.Loop.Run(ctx, phases.Chat, msgs, offered)
		if err != nil {
			return rep, err
		}
		msgs, rep.Summary, msg = out.Messages, out.Final, ""
	}
}
