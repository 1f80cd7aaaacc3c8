package aider

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/aider/aidertest"
	"github.com/reach-agent/reach/tools/shell"
)

func TestAiderOutputStreams(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"greet.go": "return \"Hello world\"\n"})
	fake := aidertest.New(t, aidertest.Options{From: "Hello world", To: "Hello universe"})
	reg := tools.NewRegistry()
	if err := reg.Register(Tool(root, &shell.Runner{}, Options{Binary: fake.Path})); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var live strings.Builder
	ctx := tools.WithProgress(context.Background(), func(s string) { mu.Lock(); live.WriteString(s); mu.Unlock() })
	res := (&tools.Executor{Registry: reg}).Execute(ctx, tools.Call{ID: "1", Name: "run_programming_task", Arguments: `{"instructions":"x","files":["greet.go"]}`}, []string{"run_programming_task"})
	if !res.Success {
		t.Fatalf("result = %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if live.Len() == 0 || !strings.Contains(res.Output, strings.TrimSpace(live.String())) {
		t.Errorf("live output %q is not what aider printed: %q", live.String(), res.Output)
	}
}
