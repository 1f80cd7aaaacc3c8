package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/phases"
)

// steps records what a StepRecorder is told.
type steps struct{ got []string }

func (s *steps) ResearchDone(_ context.Context, summary string) error {
	s.got = append(s.got, "research:"+summary)
	return nil
}
func (s *steps) PlanStarting(context.Context) error { s.got = append(s.got, "plan-start"); return nil }
func (s *steps) PlanDone(_ context.Context, plan []string) error {
	s.got = append(s.got, "plan:"+strings.Join(plan, "|"))
	return nil
}
func (s *steps) TaskDone(_ context.Context, i int) error {
	s.got = append(s.got, fmt.Sprintf("task:%d", i))
	return nil
}

func TestRunnerRecordsAndResumesSteps(t *testing.T) {
	t.Parallel()
	full := []llm.Message{
		text("research done"),
		reply(call("p1", "request_task_implementation", `{"task_spec":"set it to A"}`), call("p2", "request_task_implementation", `{"task_spec":"set it to B"}`)),
		text("two tasks"),
		reply(call("i1", "set", `{"v":"A"}`)), text("did A"),
		reply(call("i2", "set", `{"v":"B"}`)), text("did B"),
	}
	tests := []struct {
		name     string
		resume   *Progress
		replies  []llm.Message
		want     []string // recorded steps
		first    string   // the first request's phase marker
		requests int
	}{
		{"fresh run", nil, full,
			[]string{"research:research done", "plan-start", "plan:set it to A|set it to B", "task:1", "task:2"}, "RESEARCH phase", 7},
		{"after research", &Progress{ResearchDone: true, ResearchSummary: "stored summary"}, full[1:],
			[]string{"plan-start", "plan:set it to A|set it to B", "task:1", "task:2"}, "PLANNING phase", 6},
		{"after task 1", &Progress{ResearchDone: true, PlanDone: true, Plan: []string{"set it to A", "set it to B"}, TasksDone: 1}, full[5:],
			[]string{"task:2"}, "task 2 of 2", 2},
		{"all done", &Progress{ResearchDone: true, PlanDone: true, Plan: []string{"set it to A"}, TasksDone: 1}, nil, nil, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := &world{}
			client := &fakeClient{replies: append([]llm.Message(nil), tt.replies...)}
			r, _, _ := newRunner(t, client, w, Full)
			rec := &steps{}
			r.Resume, r.Steps = tt.resume, rec
			r.WorkingMemory = func(_ context.Context, phase string, _ phases.Context) string { return "FACT for " + phase }
			rep, err := r.Run(context.Background(), "change the value")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rec.got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("recorded %q, want %q", rec.got, tt.want)
			}
			if len(client.reqs) != tt.requests {
				t.Fatalf("%d requests, want %d", len(client.reqs), tt.requests)
			}
			if tt.requests == 0 {
				if rep.Status != "success" {
					t.Fatalf("report %+v", rep)
				}
				return
			}
			sys := client.reqs[0].Messages[0].Content
			if !strings.Contains(sys, tt.first) {
				t.Fatalf("first request is not %q:\n%s", tt.first, sys)
			}
			if !strings.Contains(sys, "# Working memory\nFACT for ") {
				t.Fatalf("working memory not in the prompt:\n%s", sys)
			}
			if tt.resume != nil && tt.resume.ResearchDone && !strings.Contains(client.reqs[0].Messages[0].Content, "stored summary") && tt.resume.TasksDone == 0 {
				t.Fatalf("stored research summary not used:\n%s", sys)
			}
			if w.content != "B" {
				t.Fatalf("content %q", w.content)
			}
		})
	}
}

func TestChatContinuesOneConversation(t *testing.T) {
	t.Parallel()
	client := &fakeClient{replies: []llm.Message{
		text("hello, what now?"),
		reply(call("i1", "set", `{"v":"Z"}`)), text("set it to Z"),
	}}
	w := &world{}
	r, _, _ := newRunner(t, client, w, Full)
	msgs := []string{"set the value to Z", ""}
	rep, err := r.Chat(context.Background(), "hi", func(context.Context) (string, error) {
		if len(msgs) == 0 {
			return "", io.EOF
		}
		m := msgs[0]
		msgs = msgs[1:]
		return m, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if w.content != "Z" || rep.Summary != "set it to Z" || len(client.reqs) != 3 {
		t.Fatalf("content %q report %+v, %d requests", w.content, rep, len(client.reqs))
	}
	second := client.reqs[1].Messages
	if len(second) != 4 || second[1].Content != "hi" || second[2].Content != "hello, what now?" || second[3].Content != "set the value to Z" {
		t.Fatalf("history of the second turn: %+v", second)
	}
	if !strings.Contains(offeredNames(client.reqs[1]), "set") || !strings.Contains(second[0].Content, "talking with a developer") {
		t.Fatalf("chat toolset or prompt: %s", offeredNames(client.reqs[1]))
	}
	// A read error ends the chat with that error.
	r2, _, _ := newRunner(t, &fakeClient{}, w, Full)
	boom := errors.New("terminal gone")
	if _, err := r2.Chat(context.Background(), "", func(context.Context) (string, error) { return "", boom }); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
}
