package session

import (
	"context"
	"strings"
	"testing"

	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/tools"
)

func TestSessionTools(t *testing.T) {
	t.Parallel()
	mem := &memory.Scratch{}
	reg := tools.NewRegistry()
	if err := reg.Register(ResearchNotes(mem), RequestTask(mem)); err != nil {
		t.Fatal(err)
	}
	ex := &tools.Executor{Registry: reg}
	all := tools.Names(reg.Specs())
	tests := []struct {
		tool, args string
		ok         bool
		want       string
	}{
		{"emit_research_notes", `{"notes":"Greeting() is in greet.go"}`, true, "Research note #1 stored."},
		{"emit_research_notes", `{"notes":""}`, false, "minLength"},
		{"emit_research_notes", `{"notes":"   "}`, false, "empty note"},
		{"request_task_implementation", `{"task_spec":"change greet.go"}`, true, "Task 1 recorded"},
		{"request_task_implementation", `{"task_spec":"run the tests"}`, true, "Task 2 recorded"},
		{"request_task_implementation", `{"spec":"x"}`, false, "task_spec"},
	}
	for _, tc := range tests {
		res := ex.Execute(context.Background(), tools.Call{Name: tc.tool, Arguments: tc.args}, all)
		got := res.Output + res.Error
		if res.Success != tc.ok || !strings.Contains(got, tc.want) {
			t.Errorf("%s %s: success=%v %q, want %v %q", tc.tool, tc.args, res.Success, got, tc.ok, tc.want)
		}
	}
	if notes := mem.ResearchNotes(); len(notes) != 1 || notes[0] != "Greeting() is in greet.go" {
		t.Fatalf("notes %q", notes)
	}
	if tasks := mem.Tasks(); strings.Join(tasks, "|") != "change greet.go|run the tests" {
		t.Fatalf("tasks %q", tasks)
	}
}
