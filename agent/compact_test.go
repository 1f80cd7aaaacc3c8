package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/llm/llmtest"
	"github.com/reach-agent/reach/tools"
)

func bigTool() tools.Tool {
	return tools.Tool{
		Spec: tools.Spec{Name: "big", Summary: "returns a lot", SideEffect: tools.Read, Groups: []string{tools.GroupBase},
			Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)},
		Run: func(_ context.Context, raw json.RawMessage) tools.Result {
			a, _ := tools.Decode[struct{ N int }](raw)
			return tools.OK(fmt.Sprintf("chunk %d: %s", a.N, strings.Repeat("data ", 150)))
		},
	}
}

func isSummaryRequest(r llmtest.Request) bool {
	return len(r.Messages) > 0 && strings.HasPrefix(r.Messages[0].Content, "Summarise the conversation")
}

func TestCompactionKeepsTaskAndLastTurnsVerbatim(t *testing.T) {
	t.Parallel()
	const window = 1000 // tokens: compaction starts past ~800
	var mu sync.Mutex
	calls := 0
	var turns []llmtest.Turn
	for range 40 {
		turns = append(turns, llmtest.Dynamic(func(r llmtest.Request) llmtest.Turn {
			if isSummaryRequest(r) {
				return llmtest.Reply("SUMMARY: read chunks, all fine.")
			}
			mu.Lock()
			defer mu.Unlock()
			calls++
			if calls > 8 {
				return llmtest.Reply("done")
			}
			return llmtest.Calls(llmtest.Call(fmt.Sprintf("c%d", calls), "big", fmt.Sprintf(`{"n":%d}`, calls)))
		}))
	}
	srv := llmtest.NewServer(t, turns...)
	client := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "k", Retry: llm.RetryPolicy{MaxAttempts: 1}})
	reg := tools.NewRegistry()
	if err := reg.Register(bigTool()); err != nil {
		t.Fatal(err)
	}
	rec := &events.Recorder{}
	meter := &Meter{}
	comp := &Compactor{Client: client, Model: "tiny", Window: window, Sink: rec, Meter: meter}
	loop := &Loop{Client: client, Exec: &tools.Executor{Registry: reg}, Sink: rec, Model: "tiny", Meter: meter, Compact: comp.Compact, RecursionLimit: 20}
	msgs := []llm.Message{{Role: llm.System, Content: "SYSTEM: task, plan, working memory"}, {Role: llm.User, Content: "TASK: read every chunk"}}
	out, err := loop.Run(context.Background(), "research", msgs, reg.Specs())
	if err != nil {
		t.Fatal(err)
	}
	if out.Final != "done" {
		t.Fatalf("final %q", out.Final)
	}
	var summaries, after int
	for _, r := range srv.Requests() {
		if isSummaryRequest(r) {
			summaries++
			if r.Temperature == nil || *r.Temperature != 0 || len(r.Tools) != 0 {
				t.Fatalf("summary request: temperature %v tools %v", r.Temperature, r.Tools)
			}
			continue
		}
		if EstimateTokens(r.Messages) > window {
			t.Fatalf("a request of ~%d tokens passed the window", EstimateTokens(r.Messages))
		}
		if summaries == 0 {
			continue
		}
		after++
		if r.Messages[0].Content != msgs[0].Content || r.Messages[1].Content != msgs[1].Content {
			t.Fatalf("system prompt or task not kept verbatim: %+v", r.Messages[:2])
		}
		if !strings.Contains(r.Messages[2].Content, "SUMMARY: read chunks") {
			t.Fatalf("no summary after the task: %+v", r.Messages[2])
		}
		// Every tool result still follows its call.
		ids := map[string]bool{}
		for _, m := range r.Messages {
			for _, tc := range m.ToolCalls {
				ids[tc.ID] = true
			}
			if m.Role == llm.ToolRole && !ids[m.ToolCallID] {
				t.Fatalf("tool result %s without its call", m.ToolCallID)
			}
		}
	}
	if summaries == 0 || after == 0 {
		t.Fatalf("%d summaries, %d requests after one", summaries, after)
	}
	// The last call and its result are verbatim in the final request.
	last := srv.Requests()[len(srv.Requests())-1]
	if m := last.LastMessage(); m.Role != llm.ToolRole || !strings.Contains(m.Content, "chunk 8: data") {
		t.Fatalf("last turn not kept: %+v", m)
	}
	if meter.Totals().Requests != len(srv.Requests()) {
		t.Fatalf("meter counted %d requests of %d", meter.Totals().Requests, len(srv.Requests()))
	}
}

func TestCompactionFailureKeepsTheHistory(t *testing.T) {
	t.Parallel()
	client := &fakeClient{} // exhausted: every call fails
	rec := &events.Recorder{}
	comp := &Compactor{Client: client, Window: 50, Sink: rec}
	msgs := []llm.Message{{Role: llm.System, Content: "s"}, {Role: llm.User, Content: "task"}}
	for i := range 10 {
		msgs = append(msgs, llm.Message{Role: llm.Assistant, Content: strings.Repeat("x", 100) + fmt.Sprint(i)})
	}
	got := comp.Compact(context.Background(), msgs)
	if len(got) != len(msgs) {
		t.Fatalf("history changed after a failed summary: %d → %d", len(msgs), len(got))
	}
	evs := rec.Events()
	if len(evs) != 1 || !strings.Contains(evs[0].(events.Notice).Text, "could not compact") {
		t.Fatalf("events: %+v", evs)
	}
	// Under the budget nothing happens.
	small := msgs[:3]
	if got := (&Compactor{Client: client, Window: 10_000}).Compact(context.Background(), small); len(got) != 3 {
		t.Fatal("a small history was compacted")
	}
}
