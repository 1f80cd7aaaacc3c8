package expert

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/llm/llmtest"
	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// newExpert returns an expert talking to its own scripted server, with a
// memory holding one item of each kind.
func newExpert(t *testing.T, turns ...llmtest.Turn) (*Expert, *llmtest.Server, *tools.Executor) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "calc.go"), []byte("package calc\n\nfunc Add(a, b int) int { return a - b }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.InProcess()
	ctx := context.Background()
	mem.AddRelatedFiles(ctx, []string{"calc.go"})
	mem.AddResearchNote(ctx, "Add is used by the CLI")
	mem.AddKeySnippet(ctx, memory.Snippet{Filepath: "calc.go", LineNumber: 3, Snippet: "return a - b", Description: "suspicious"})
	mem.AddKeyFacts(ctx, []string{"tests run with go test ./..."})
	srv := llmtest.NewServer(t, turns...)
	client := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "expert-key", IdleTimeout: 200 * time.Millisecond,
		Retry: llm.RetryPolicy{MaxAttempts: 2, Base: time.Millisecond, Max: time.Millisecond}})
	e := &Expert{Client: client, Model: "expert-model", Root: root, Memory: mem}
	reg := tools.NewRegistry()
	if err := reg.Register(e.Tools()...); err != nil {
		t.Fatal(err)
	}
	return e, srv, &tools.Executor{Registry: reg}
}

func TestAskExpertAssemblesTheQuestionInOrder(t *testing.T) {
	t.Parallel()
	e, srv, ex := newExpert(t, llmtest.Reply("Add subtracts: use a + b."))
	ctx := context.Background()
	names := []string{"emit_expert_context", "ask_expert"}
	for _, c := range []string{"the failing test says 2+2=0", "CI uses Go 1.26"} {
		if res := ex.Execute(ctx, tools.Call{Name: "emit_expert_context", Arguments: fmt.Sprintf(`{"context":%q}`, c)}, names); !res.Success {
			t.Fatal(res.Error)
		}
	}
	res := ex.Execute(ctx, tools.Call{Name: "ask_expert", Arguments: `{"question":"Why does Add(2,2) return 0?"}`}, names)
	if !res.Success || res.Output != "Add subtracts: use a + b." {
		t.Fatalf("ask_expert: %+v", res)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != "expert-model" || r.Temperature == nil || *r.Temperature != 0 || len(r.Tools) != 0 {
		t.Fatalf("request: model %q temperature %v tools %v", r.Model, r.Temperature, r.Tools)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer expert-key" {
		t.Fatalf("auth header %q", got)
	}
	q := r.LastMessage().Content
	order := []string{
		"# Related Files", "## calc.go", "return a - b }",
		"# Research Notes", "- Add is used by the CLI",
		"# Key Snippets", "### calc.go:3 — suspicious",
		"# Key Facts About This Project", "- tests run with go test ./...",
		"# Additional Context", "the failing test says 2+2=0", "CI uses Go 1.26",
		"# Question", "Why does Add(2,2) return 0?",
		"**DO NOT OVERTHINK**",
	}
	pos := 0
	for _, want := range order {
		i := strings.Index(q[pos:], want)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", want, q)
		}
		pos += i + len(want)
	}
	if !strings.HasSuffix(q, Brake) {
		t.Fatalf("question does not end with the brake:\n%s", q)
	}
	// The additional context was sent, so it is gone.
	if got := e.pending(); len(got) != 0 {
		t.Fatalf("context left after a successful answer: %v", got)
	}
	want := e.Question(context.Background(), "x", nil)
	if strings.Contains(want, "# Additional Context") {
		t.Fatalf("empty sections must be left out:\n%s", want)
	}
}

func TestExpertFailuresAreToolErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		turns []llmtest.Turn
		want  string
	}{
		{"garbage", []llmtest.Turn{llmtest.Garbage(), llmtest.Garbage()}, "the expert could not answer"},
		{"timeout", []llmtest.Turn{llmtest.Hang(), llmtest.Hang()}, "the expert could not answer"},
		{"empty answer", []llmtest.Turn{llmtest.Reply("  ")}, "empty answer"},
		{"auth", []llmtest.Turn{llmtest.Fault(401, "")}, "401"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, _, ex := newExpert(t, tt.turns...)
			ctx := context.Background()
			names := []string{"emit_expert_context", "ask_expert"}
			ex.Execute(ctx, tools.Call{Name: "emit_expert_context", Arguments: `{"context":"keep me"}`}, names)
			res := ex.Execute(ctx, tools.Call{Name: "ask_expert", Arguments: `{"question":"q?"}`}, names)
			if res.Success || !strings.Contains(res.Error, tt.want) {
				t.Fatalf("got %+v, want an error with %q", res, tt.want)
			}
			if got := e.pending(); len(got) != 1 || got[0] != "keep me" {
				t.Fatalf("context must survive a failed ask: %v", got)
			}
		})
	}
}

func TestRelatedFilesAreCapped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := strings.Repeat("line\n", MaxFileLines-5)
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644)
	os.WriteFile(filepath.Join(dir, "small.txt"), []byte(strings.Repeat("x\n", 20)), 0o644)
	os.WriteFile(filepath.Join(dir, "late.txt"), []byte("late\n"), 0o644)
	root, _ := workspace.New(dir)
	mem := memory.InProcess()
	mem.AddRelatedFiles(context.Background(), []string{"big.txt", "gone.txt", "small.txt", "late.txt"})
	os.Remove(filepath.Join(dir, "gone.txt"))
	e := &Expert{Root: root, Memory: mem}
	q := e.Question(context.Background(), "q", nil)
	if n := strings.Count(q, "line\n") + strings.Count(q, "x\n"); n != MaxFileLines {
		t.Fatalf("%d file lines in the question, want %d", n, MaxFileLines)
	}
	for _, want := range []string{"## gone.txt\n(could not be read", "[small.txt truncated", "[late.txt and later files left out"} {
		if !strings.Contains(q, want) {
			t.Errorf("question lacks %q", want)
		}
	}
}
