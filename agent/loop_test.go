package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/tools"
)

// fakeClient replays replies and records every request.
type fakeClient struct {
	mu      sync.Mutex
	replies []llm.Message
	reqs    []llm.Request
	usage   llm.Usage
}

func (f *fakeClient) Complete(ctx context.Context, req llm.Request, onText func(string)) (llm.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	f.reqs = append(f.reqs, req)
	if len(f.replies) == 0 {
		return llm.Response{}, errors.New("script exhausted")
	}
	m := f.replies[0]
	f.replies = f.replies[1:]
	if onText != nil && m.Content != "" {
		onText(m.Content)
	}
	return llm.Response{Message: m, Usage: f.usage, Requests: 1}, nil
}

func call(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: args}
}

func reply(calls ...llm.ToolCall) llm.Message {
	return llm.Message{Role: llm.Assistant, ToolCalls: calls}
}

func text(s string) llm.Message { return llm.Message{Role: llm.Assistant, Content: s} }

// echoTool records its arguments and echoes them.
func echoTool(name string, got *[]string) tools.Tool {
	return tools.Tool{
		Spec: tools.Spec{
			Name:       name,
			Summary:    "echo",
			Parameters: json.RawMessage(`{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}`),
			SideEffect: tools.Read,
			Groups:     []string{tools.GroupBase},
		},
		Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
			*got = append(*got, string(raw))
			return tools.OK("echo " + string(raw))
		},
	}
}

func newLoop(t *testing.T, client llm.Client, reg *tools.Registry) (*Loop, *events.Recorder) {
	t.Helper()
	rec := &events.Recorder{}
	return &Loop{Client: client, Exec: &tools.Executor{Registry: reg}, Sink: rec, Model: "m", RecursionLimit: 10}, rec
}

func toolMessages(msgs []llm.Message) []llm.Message {
	var out []llm.Message
	for _, m := range msgs {
		if m.Role == llm.ToolRole {
			out = append(out, m)
		}
	}
	return out
}

func TestLoopAnswersEachCall(t *testing.T) {
	t.Parallel()
	var got []string
	reg := tools.NewRegistry()
	if err := reg.Register(echoTool("echo", &got), echoTool("hidden", &got)); err != nil {
		t.Fatal(err)
	}
	offered := reg.Select(func(s tools.Spec) bool { return s.Name == "echo" })

	tests := []struct {
		name      string
		call      llm.ToolCall
		wantRan   bool
		wantError string
	}{
		{"valid call runs", call("a", "echo", `{"x":1}`), true, ""},
		{"unknown tool", call("b", "nope", `{}`), false, `unknown tool "nope". Available tools: echo`},
		{"not JSON", call("c", "echo", `{"x":`), false, "arguments are not valid JSON"},
		{"schema: missing field", call("d", "echo", `{}`), false, "arguments do not match the tool's schema"},
		{"schema: wrong type", call("e", "echo", `{"x":"one"}`), false, "at /x"},
		{"schema: extra field", call("f", "echo", `{"x":1,"y":2}`), false, `unknown argument "y"`},
		{"not offered in phase", call("g", "hidden", `{"x":1}`), false, `tool "hidden" is not available in this phase`},
		{"arguments not an object", call("h", "echo", `[1]`), false, "must be a JSON object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			client := &fakeClient{replies: []llm.Message{reply(tc.call), text("done")}}
			loop, _ := newLoop(t, client, reg)
			out, err := loop.Run(context.Background(), "research", []llm.Message{{Role: llm.User, Content: "go"}}, offered)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if out.Final != "done" || out.Turns != 2 {
				t.Fatalf("final=%q turns=%d, want done/2", out.Final, out.Turns)
			}
			if (len(got) == 1) != tc.wantRan {
				t.Fatalf("tool ran=%v, want %v", len(got) == 1, tc.wantRan)
			}
			tm := toolMessages(out.Messages)
			if len(tm) != 1 || tm[0].ToolCallID != tc.call.ID {
				t.Fatalf("tool messages = %+v, want one answering %s", tm, tc.call.ID)
			}
			var res tools.Result
			if err := json.Unmarshal([]byte(tm[0].Content), &res); err != nil {
				t.Fatalf("tool message is not a result object: %v", err)
			}
			if tc.wantError == "" && !res.Success {
				t.Fatalf("unexpected error result: %s", res.Error)
			}
			if tc.wantError != "" && (res.Success || !strings.Contains(res.Error, tc.wantError)) {
				t.Fatalf("error = %q, want it to contain %q", res.Error, tc.wantError)
			}
			// The second request carries the tool answer back to the model.
			second := client.reqs[1].Messages
			if last := second[len(second)-1]; last.Role != llm.ToolRole || last.ToolCallID != tc.call.ID {
				t.Fatalf("second request ends with %+v", last)
			}
		})
	}
}

func TestLoopRunsSeveralCallsInOrder(t *testing.T) {
	t.Parallel()
	var got []string
	reg := tools.NewRegistry()
	if err := reg.Register(echoTool("echo", &got)); err != nil {
		t.Fatal(err)
	}
	client := &fakeClient{replies: []llm.Message{reply(call("1", "echo", `{"x":1}`), call("2", "echo", `{"x":2}`), call("3", "echo", `{"x":3}`)), text("ok")}}
	loop, rec := newLoop(t, client, reg)
	out, err := loop.Run(context.Background(), "implementation", nil, reg.Specs())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != `{"x":1},{"x":2},{"x":3}` {
		t.Fatalf("ran %v", got)
	}
	var ids []string
	for _, m := range toolMessages(out.Messages) {
		ids = append(ids, m.ToolCallID)
	}
	if strings.Join(ids, ",") != "1,2,3" {
		t.Fatalf("tool_call_ids %v", ids)
	}
	var kinds []string
	for _, e := range rec.Events() {
		kinds = append(kinds, e.Type())
	}
	want := "tool_call,tool_result,tool_call,tool_result,tool_call,tool_result,text_delta,message"
	if strings.Join(kinds, ",") != want {
		t.Fatalf("events %v, want %s", kinds, want)
	}
}

func TestLoopRefusesThirdIdenticalCall(t *testing.T) {
	t.Parallel()
	var got []string
	reg := tools.NewRegistry()
	if err := reg.Register(echoTool("echo", &got)); err != nil {
		t.Fatal(err)
	}
	same := func(id string) llm.Message { return reply(call(id, "echo", `{"x": 7}`)) }
	// Key order and spacing differ but the call is the same.
	client := &fakeClient{replies: []llm.Message{same("a"), reply(call("b", "echo", `{"x":7}`)), same("c"), reply(call("d", "echo", `{"x":8}`)), text("done")}}
	loop, _ := newLoop(t, client, reg)
	out, err := loop.Run(context.Background(), "research", nil, reg.Specs())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("tool ran %d times, want 3 (third identical call refused): %v", len(got), got)
	}
	tm := toolMessages(out.Messages)
	if !strings.Contains(tm[2].Content, "same arguments") {
		t.Fatalf("third call answer = %s", tm[2].Content)
	}
	if !strings.Contains(tm[3].Content, `"success":true`) {
		t.Fatalf("a different call after the refusal must run: %s", tm[3].Content)
	}
}

func TestLoopRecursionLimit(t *testing.T) {
	t.Parallel()
	var got []string
	reg := tools.NewRegistry()
	if err := reg.Register(echoTool("echo", &got)); err != nil {
		t.Fatal(err)
	}
	var replies []llm.Message
	for i := 0; i < 10; i++ {
		replies = append(replies, reply(call("x", "echo", `{"x":`+string(rune('0'+i))+`}`)))
	}
	client := &fakeClient{replies: replies}
	loop, _ := newLoop(t, client, reg)
	loop.RecursionLimit = 3
	_, err := loop.Run(context.Background(), "research", nil, reg.Specs())
	var le *LimitError
	if !errors.As(err, &le) || le.What != "recursion" || !strings.Contains(le.Msg, "--recursion-limit") {
		t.Fatalf("err = %v, want recursion LimitError naming the flag", err)
	}
	if len(client.reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(client.reqs))
	}
}

func TestLoopBudget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		meter   *Meter
		wantErr string
	}{
		{"tokens", &Meter{MaxTokens: 150}, "tokens"},
		{"cost", &Meter{MaxCost: 0.001, Price: func(u llm.Usage) float64 { return float64(u.Total()) * 1e-5 }}, "cost"},
		{"confirmed goes on", &Meter{MaxTokens: 150, Confirm: func(context.Context, string) (bool, error) { return true, nil }}, ""},
		{"declined stops", &Meter{MaxTokens: 150, Confirm: func(context.Context, string) (bool, error) { return false, nil }}, "tokens"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			reg := tools.NewRegistry()
			if err := reg.Register(echoTool("echo", &got)); err != nil {
				t.Fatal(err)
			}
			client := &fakeClient{usage: llm.Usage{PromptTokens: 80, CompletionTokens: 20}, replies: []llm.Message{
				reply(call("1", "echo", `{"x":1}`)), reply(call("2", "echo", `{"x":2}`)), text("done")}}
			loop, _ := newLoop(t, client, reg)
			loop.Meter = tc.meter
			_, err := loop.Run(context.Background(), "research", nil, reg.Specs())
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if tot := tc.meter.Totals(); tot.Usage.Total() != 300 || tot.Requests != 3 {
					t.Fatalf("totals %+v", tot)
				}
				return
			}
			var le *LimitError
			if !errors.As(err, &le) || le.What != tc.wantErr {
				t.Fatalf("err = %v, want %s limit", err, tc.wantErr)
			}
			if len(client.reqs) != 2 {
				t.Fatalf("%d requests, want 2 (stop right after the budget passed)", len(client.reqs))
			}
		})
	}
}

func TestLoopCancelled(t *testing.T) {
	t.Parallel()
	reg := tools.NewRegistry()
	ctx, cancel := context.WithCancel(context.Background())
	blocking := tools.Tool{
		Spec: tools.Spec{Name: "block", Summary: "b", Parameters: json.RawMessage(`{"type":"object"}`), Groups: []string{tools.GroupBase}},
		Run: func(ctx context.Context, _ json.RawMessage) tools.Result {
			cancel()
			<-ctx.Done()
			return tools.Fail("cancelled")
		},
	}
	if err := reg.Register(blocking); err != nil {
		t.Fatal(err)
	}
	client := &fakeClient{replies: []llm.Message{reply(call("1", "block", `{}`), call("2", "block", `{}`)), text("never")}}
	loop, _ := newLoop(t, client, reg)
	out, err := loop.Run(ctx, "research", nil, reg.Specs())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if tm := toolMessages(out.Messages); len(tm) != 2 || tm[1].ToolCallID != "2" || !strings.Contains(tm[1].Content, "interrupted") {
		t.Fatalf("every call must be answered after an interrupt: %+v", tm)
	}
}

func TestLoopFillsMissingCallIDs(t *testing.T) {
	t.Parallel()
	var got []string
	reg := tools.NewRegistry()
	if err := reg.Register(echoTool("echo", &got)); err != nil {
		t.Fatal(err)
	}
	client := &fakeClient{replies: []llm.Message{reply(call("", "echo", `{"x":1}`)), text("ok")}}
	loop, _ := newLoop(t, client, reg)
	out, err := loop.Run(context.Background(), "research", nil, reg.Specs())
	if err != nil {
		t.Fatal(err)
	}
	asst := out.Messages[0]
	tm := toolMessages(out.Messages)
	if asst.ToolCalls[0].ID == "" || tm[0].ToolCallID != asst.ToolCalls[0].ID {
		t.Fatalf("call id %q answered by %q", asst.ToolCalls[0].ID, tm[0].ToolCallID)
	}
}
