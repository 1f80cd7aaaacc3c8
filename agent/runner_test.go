package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/phases"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/session"
)

// world is a tiny fake repository: one "file" the edit tool changes.
type world struct{ content string }

func (w *world) registry(t *testing.T, mem *memory.Scratch) *tools.Registry {
	t.Helper()
	reg := tools.NewRegistry()
	edit := tools.Tool{
		Spec: tools.Spec{Name: "set", Summary: "set the file", SideEffect: tools.Write, Groups: []string{tools.GroupImplementation},
			Parameters: json.RawMessage(`{"type":"object","properties":{"v":{"type":"string"}},"required":["v"]}`)},
		Run: func(_ context.Context, raw json.RawMessage) tools.Result {
			a, _ := tools.Decode[struct{ V string }](raw)
			w.content = a.V
			return tools.OK("set")
		},
	}
	if err := reg.Register(edit, session.ResearchNotes(mem), session.RequestTask(mem)); err != nil {
		t.Fatal(err)
	}
	return reg
}

func newRunner(t *testing.T, client llm.Client, w *world, chain Chain) (*Runner, *memory.Scratch, *events.Recorder) {
	mem := &memory.Scratch{}
	reg := w.registry(t, mem)
	rec := &events.Recorder{}
	loop := &Loop{Client: client, Exec: &tools.Executor{Registry: reg}, Sink: rec, RecursionLimit: 20}
	return &Runner{Loop: loop, Registry: reg, Memory: mem, Chain: chain, Sink: rec, Project: phases.Project{Root: "/repo", Listing: "a.go\n"}}, mem, rec
}

func offeredNames(req llm.Request) string {
	var n []string
	for _, d := range req.Tools {
		n = append(n, d.Name)
	}
	return strings.Join(n, ",")
}

func TestRunnerFullChain(t *testing.T) {
	t.Parallel()
	w := &world{content: "old"}
	client := &fakeClient{replies: []llm.Message{
		reply(call("r1", "emit_research_notes", `{"notes":"the value lives in the file"}`)),
		text("research done"),
		reply(call("p1", "request_task_implementation", `{"task_spec":"set it to A"}`), call("p2", "request_task_implementation", `{"task_spec":"set it to B"}`)),
		text("two tasks"),
		reply(call("i1", "set", `{"v":"A"}`)), text("did A"),
		reply(call("i2", "set", `{"v":"B"}`)), text("did B"),
	}}
	r, _, rec := newRunner(t, client, w, Full)
	rep, err := r.Run(context.Background(), "change the value")
	if err != nil {
		t.Fatal(err)
	}
	if w.content != "B" || rep.Status != "success" || rep.Summary != "did B" || len(rep.Plan) != 2 {
		t.Fatalf("content=%q report=%+v", w.content, rep)
	}
	// Each phase offers its own tools.
	if got := offeredNames(client.reqs[0]); got != "emit_research_notes" {
		t.Fatalf("research offered %s", got)
	}
	if got := offeredNames(client.reqs[2]); got != "request_task_implementation" {
		t.Fatalf("planning offered %s", got)
	}
	if got := offeredNames(client.reqs[4]); got != "set" {
		t.Fatalf("implementation offered %s", got)
	}
	// Planning sees the research notes; implementation sees the plan and its task.
	if sys := client.reqs[2].Messages[0].Content; !strings.Contains(sys, "the value lives in the file") || !strings.Contains(sys, "research done") {
		t.Fatalf("planning prompt lacks research output:\n%s", sys)
	}
	if sys := client.reqs[6].Messages[0].Content; !strings.Contains(sys, "task 2 of 2") || !strings.Contains(sys, "1. set it to A") {
		t.Fatalf("implementation prompt lacks plan/task:\n%s", sys)
	}
	var phasesSeen []string
	for _, e := range rec.Events() {
		if p, ok := e.(events.Phase); ok {
			phasesSeen = append(phasesSeen, p.Name)
		}
	}
	if strings.Join(phasesSeen, ",") != "research,planning,implementation,implementation" {
		t.Fatalf("phases %v", phasesSeen)
	}
}

func TestRunnerChains(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		chain     Chain
		replies   []llm.Message
		wantReqs  int
		wantPlan  []string
		wantValue string
	}{
		{"research only leaves files alone", ResearchOnly, []llm.Message{text("found it")}, 1, nil, "old"},
		{"plan only", ResearchAndPlanOnly, []llm.Message{text("found"), reply(call("p", "request_task_implementation", `{"task_spec":"do X"}`)), text("plan")}, 3, []string{"do X"}, "old"},
		{"no task recorded: final reply is the task", Full, []llm.Message{text("found"), text("just set it to C"), reply(call("i", "set", `{"v":"C"}`)), text("did C")}, 4, []string{"just set it to C"}, "C"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := &world{content: "old"}
			client := &fakeClient{replies: tc.replies}
			r, _, _ := newRunner(t, client, w, tc.chain)
			rep, err := r.Run(context.Background(), "task")
			if err != nil {
				t.Fatal(err)
			}
			if len(client.reqs) != tc.wantReqs || w.content != tc.wantValue || strings.Join(rep.Plan, "|") != strings.Join(tc.wantPlan, "|") {
				t.Fatalf("reqs=%d value=%q plan=%q", len(client.reqs), w.content, rep.Plan)
			}
		})
	}
}

func TestRunnerTestLoop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		maxRetries int
		replies    []llm.Message
		ask        func(context.Context, string, []string) (string, error)
		auto       bool
		wantStatus string
		wantRuns   int
	}{
		{"a failing check is fixed in one round", 3, []llm.Message{
			text("r"), text("set it"),
			reply(call("i", "set", `{"v":"broken"}`)), text("done"),
			reply(call("j", "set", `{"v":"good"}`)), text("fixed"),
		}, nil, true, "success", 2},
		{"still failing after the retries", 1, []llm.Message{
			text("r"), text("set it"),
			reply(call("i", "set", `{"v":"broken"}`)), text("done"),
			reply(call("j", "set", `{"v":"worse"}`)), text("tried"),
		}, nil, true, "failed", 2},
		{"human declines", 3, []llm.Message{text("r"), text("set it"), reply(call("i", "set", `{"v":"broken"}`)), text("done")},
			func(context.Context, string, []string) (string, error) { return "n", nil }, false, "success", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := &world{content: "old"}
			client := &fakeClient{replies: tc.replies}
			r, _, _ := newRunner(t, client, w, Full)
			runs := 0
			r.Tester = &Tester{Command: "check", MaxRetries: tc.maxRetries, Auto: tc.auto, Ask: tc.ask,
				Exec: func(ctx context.Context, cmd string) (int, string, bool, error) {
					runs++
					if w.content == "good" {
						return 0, "ok", false, nil
					}
					return 1, strings.Repeat("noise\n", 300) + "FAIL: value is " + w.content, false, nil
				}}
			rep, err := r.Run(context.Background(), "task")
			if err != nil {
				t.Fatal(err)
			}
			if rep.Status != tc.wantStatus || runs != tc.wantRuns {
				t.Fatalf("status=%s runs=%d, want %s/%d (%s)", rep.Status, runs, tc.wantStatus, tc.wantRuns, rep.FailedReason)
			}
			if tc.wantRuns < 2 {
				return
			}
			// The fix round got the failing output's tail, capped at 200 lines.
			fix := client.reqs[4].Messages
			last := fix[len(fix)-1]
			if last.Role != llm.User || !strings.Contains(last.Content, "FAIL: value is broken") || strings.Count(last.Content, "noise") != TestTailLines-1 {
				t.Fatalf("fix message: %d noise lines\n%.300s", strings.Count(last.Content, "noise"), last.Content)
			}
		})
	}
}
