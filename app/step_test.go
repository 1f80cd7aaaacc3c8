package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/tools"
)

// blockingClient waits for its context on the first call and answers the
// later ones, recording every request.
type blockingClient struct {
	mu      sync.Mutex
	reqs    []llm.Request
	started chan struct{}
}

func (c *blockingClient) Complete(ctx context.Context, req llm.Request, _ func(string)) (llm.Response, error) {
	c.mu.Lock()
	c.reqs = append(c.reqs, req)
	n := len(c.reqs)
	c.mu.Unlock()
	if n == 1 {
		close(c.started)
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	}
	return llm.Response{Message: llm.Message{Role: llm.Assistant, Content: "ok"}}, nil
}

func TestStepControlModelCall(t *testing.T) {
	conv := []llm.Message{{Role: llm.System, Content: "sys"}, {Role: llm.User, Content: "task"}}
	tests := []struct {
		name     string
		answer   string
		wantErr  bool
		wantStop bool
	}{
		{name: "guidance continues with a note", answer: "use the other file"},
		{name: "empty answer stops the run", answer: "  ", wantErr: true, wantStop: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stopped := false
			s := &StepControl{
				Ask:  func(context.Context, string) (string, error) { return tt.answer, nil },
				Stop: func() { stopped = true },
			}
			inner := &blockingClient{started: make(chan struct{})}
			c := s.Client(inner)
			go func() { <-inner.started; s.Interrupt() }()
			resp, err := c.Complete(context.Background(), llm.Request{Messages: conv}, nil)
			if (err != nil) != tt.wantErr || stopped != tt.wantStop {
				t.Fatalf("err = %v, stopped = %v", err, stopped)
			}
			if tt.wantErr {
				return
			}
			if resp.Message.Content != "ok" || len(inner.reqs) != 2 {
				t.Fatalf("resp %+v after %d requests", resp, len(inner.reqs))
			}
			retry := inner.reqs[1].Messages
			if len(retry) != 3 || retry[2].Role != llm.User || !strings.Contains(retry[2].Content, "use the other file") {
				t.Fatalf("retry lacks the human's words: %+v", retry)
			}
			// A later turn of the same conversation keeps the note in place.
			later := append(append([]llm.Message{}, conv...), llm.Message{Role: llm.Assistant, Content: "ok"})
			if _, err := c.Complete(context.Background(), llm.Request{Messages: later}, nil); err != nil {
				t.Fatal(err)
			}
			got := inner.reqs[2].Messages
			if len(got) != 4 || got[2].Role != llm.User || got[3].Content != "ok" {
				t.Fatalf("note not kept at its place: %+v", got)
			}
			// Another conversation does not get it.
			other := []llm.Message{{Role: llm.System, Content: "other phase"}, {Role: llm.User, Content: "x"}}
			if _, err := c.Complete(context.Background(), llm.Request{Messages: other}, nil); err != nil {
				t.Fatal(err)
			}
			if n := len(inner.reqs[3].Messages); n != 2 {
				t.Fatalf("note leaked into another conversation: %d messages", n)
			}
		})
	}
}

type blockingExec struct{}

func (blockingExec) Execute(ctx context.Context, _ tools.Call, _ []string) tools.Result {
	<-ctx.Done()
	return tools.Fail("killed")
}

func TestStepControlTool(t *testing.T) {
	s := &StepControl{Ask: func(context.Context, string) (string, error) { return "skip the tests", nil }}
	s.Interrupt() // between steps: the next one is interrupted at once
	res := s.Executor(blockingExec{}).Execute(context.Background(), tools.Call{Name: "run_shell_command"}, nil)
	if res.Success || !strings.Contains(res.Error, "skip the tests") {
		t.Fatalf("result = %+v", res)
	}
}

func TestStepControlRunCancelled(t *testing.T) {
	// A cancelled run is not an interruption: nobody is asked.
	s := &StepControl{Ask: func(context.Context, string) (string, error) {
		t.Error("asked after the run was cancelled")
		return "", nil
	}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := s.Executor(blockingExec{}).Execute(ctx, tools.Call{}, nil)
	if res.Error != "killed" {
		t.Fatalf("result = %+v", res)
	}
	var nilControl *StepControl
	if _, err := nilControl.Client(&blockingClient{started: make(chan struct{})}).Complete(ctx, llm.Request{}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("nil control should pass calls through: %v", err)
	}
}
