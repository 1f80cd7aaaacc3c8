package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reach-agent/reach/llm/llmtest"
	"github.com/reach-agent/reach/memory"
)

const twoFiles = "package greet\n\nfunc A() string { return \"a\" }\n"

// twoTaskScript researches, plans two tasks and implements the first.
func twoTaskScript() []llmtest.Turn {
	return []llmtest.Turn{
		llmtest.Calls(llmtest.Call("r1", "emit_research_notes", `{"notes":"greet.go holds A"}`),
			llmtest.Call("r2", "emit_key_facts", `{"facts":["greet.go is the only source file"]}`)),
		llmtest.Reply("A is in greet.go."),
		llmtest.Calls(llmtest.Call("p1", "request_task_implementation", `{"task_spec":"make A return \"b\""}`),
			llmtest.Call("p2", "request_task_implementation", `{"task_spec":"add func B returning \"b\""}`)),
		llmtest.Reply("two tasks"),
		llmtest.Calls(llmtest.Call("i1", "file_str_replace", `{"filepath":"greet.go","old_str":"return \"a\"","new_str":"return \"b\""}`)),
		llmtest.Reply("A returns b."),
	}
}

func task2Turns() []llmtest.Turn {
	return []llmtest.Turn{
		llmtest.Calls(llmtest.Call("j1", "file_str_replace", `{"filepath":"greet.go","old_str":"func A() string { return \"b\" }","new_str":"func A() string { return \"b\" }\n\nfunc B() string { return \"b\" }"}`)),
		llmtest.Reply("B added."),
	}
}

func TestKilledRunResumesFromTheLastCompletedStep(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": twoFiles})
	// The first run hangs in task 2; it is killed there with SIGKILL.
	s := llmtest.NewServer(t, append(twoTaskScript(), llmtest.Hang())...)
	cmd := exec.Command(binary, "-m", "change greet.go", "--cowboy-mode")
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "OPENAI_API_KEY=k", "OPENAI_BASE_URL=" + s.URL()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(s.Requests()) < 7 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the run never reached task 2 (%d requests):\n%s", len(s.Requests()), stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// While it runs, the session cannot be resumed by a second reach.
	busy := run(t, dir, map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": s.URL()}, "resume", "1", "--cowboy-mode")
	if busy.code != 2 || !strings.Contains(busy.stderr, fmt.Sprintf("session 1 is still running in process %d", cmd.Process.Pid)) {
		t.Errorf("resume of a running session: exit %d\n%s", busy.code, busy.stderr)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// Killed, it is listed as interrupted, not as running.
	killed := run(t, dir, nil, "sessions", "list")
	if killed.code != 0 || !strings.Contains(killed.stdout, "interrupted") || strings.Contains(killed.stdout, "running") {
		t.Errorf("sessions list after the kill (exit %d):\n%s%s", killed.code, killed.stdout, killed.stderr)
	}
	why := run(t, dir, nil, "sessions", "show", "1")
	if want := fmt.Sprintf("Session 1 — interrupted (its process %d ended without finishing it", cmd.Process.Pid); !strings.Contains(why.stdout, want) {
		t.Errorf("sessions show after the kill lacks %q:\n%s", want, why.stdout)
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, "greet.go")), `return "b"`) {
		t.Fatal("task 1 was not applied before the kill")
	}

	// The database is intact and knows how far the run got.
	ctx := context.Background()
	store, err := memory.Open(ctx, filepath.Join(dir, ".reach", memory.DBFile))
	if err != nil {
		t.Fatalf("database after SIGKILL: %v", err)
	}
	info, err := store.Get(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	if info.Status != memory.StatusRunning || info.Runner.PID != cmd.Process.Pid || !info.ResearchDone || !info.PlanDone || info.TasksDone() != 1 || len(info.Plan) != 2 {
		t.Fatalf("session after the kill: %+v", info)
	}

	// Resume against a new server: only task 2 is left to do.
	s2 := llmtest.NewServer(t, task2Turns()...)
	res := run(t, dir, map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": s2.URL()}, "resume", "--cowboy-mode")
	if res.code != 0 {
		t.Fatalf("resume exit %d:\n%s", res.code, res.stderr)
	}
	t.Logf("resume of a killed session took %s (2 model turns)", res.duration)
	reqs := s2.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests on resume, want 2", len(reqs))
	}
	sys := reqs[0].Messages[0].Content
	if !strings.Contains(sys, "IMPLEMENTATION phase") || !strings.Contains(sys, "task 2 of 2") || !strings.Contains(sys, "A is in greet.go.") {
		t.Fatalf("resume did not start at task 2 with the stored research:\n%s", sys)
	}
	if !strings.Contains(sys, "greet.go is the only source file") {
		t.Fatalf("the stored key fact is not in the working memory:\n%s", sys)
	}
	if got := readFile(t, filepath.Join(dir, "greet.go")); !strings.Contains(got, "func B()") {
		t.Fatalf("task 2 not applied:\n%s", got)
	}

	list := run(t, dir, nil, "sessions", "list")
	if list.code != 0 || !strings.Contains(list.stdout, "completed") || !strings.Contains(list.stdout, "2/2 tasks") {
		t.Fatalf("sessions list (exit %d):\n%s%s", list.code, list.stdout, list.stderr)
	}
	show := run(t, dir, nil, "sessions", "show", "1")
	for _, want := range []string{"Session 1 — completed", "Task:     change greet.go", "[x] 1. make A return", "[x] 2. add func B", "research", "emit_research_notes", "file_str_replace", "Tokens:"} {
		if !strings.Contains(show.stdout, want) {
			t.Errorf("sessions show lacks %q:\n%s", want, show.stdout)
		}
	}
}

func TestSessionErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		args  []string
		code  int
		want  string
	}{
		{"resume without sessions", nil, []string{"resume"}, 2, "nothing to resume"},
		{"resume unknown id", func(t *testing.T, dir string) {
			s := llmtest.NewServer(t, llmtest.Reply("done"))
			run(t, dir, env(s), "-m", "x", "--research-only")
		}, []string{"resume", "42"}, 2, "session 42 does not exist"},
		{"resume bad id", nil, []string{"resume", "abc"}, 2, "not a session id"},
		{"show unknown", nil, []string{"sessions", "show", "7"}, 2, "session 7 does not exist"},
		{"corrupt database", func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, ".reach"), 0o755)
			os.WriteFile(filepath.Join(dir, ".reach", memory.DBFile), bytes.Repeat([]byte("junk"), 1000), 0o644)
		}, []string{"-m", "x"}, 1, "is corrupt or not a database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := repo(t, map[string]string{"a.txt": "a\n"})
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			s := llmtest.NewServer(t)
			res := run(t, dir, env(s), tt.args...)
			if res.code != tt.code || !strings.Contains(res.stderr+res.stdout, tt.want) {
				t.Fatalf("exit %d, want %d with %q:\n%s%s", res.code, tt.code, tt.want, res.stdout, res.stderr)
			}
			if tt.name == "corrupt database" {
				if !strings.Contains(res.stderr+res.stdout, "--project-state-dir") || len(s.Requests()) != 0 {
					t.Fatalf("no way out offered, or the run went on:\n%s", res.stderr)
				}
				if b, _ := os.ReadFile(filepath.Join(dir, ".reach", memory.DBFile)); !bytes.Equal(b, bytes.Repeat([]byte("junk"), 1000)) {
					t.Fatal("the corrupt database was reset")
				}
			}
		})
	}
}

func TestWipeProjectMemoryAndRecall(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"a.txt": "a\n"})
	s := llmtest.NewServer(t,
		llmtest.Calls(llmtest.Call("f", "emit_key_facts", `{"facts":["the payment gateway retries three times"]}`)),
		llmtest.Reply("noted"),
		llmtest.Reply("second run, about payments"),
		llmtest.Reply("third run after the wipe"),
	)
	for i, args := range [][]string{
		{"-m", "learn about the payment gateway", "--research-only"},
		{"-m", "change the payment gateway retries", "--research-only"},
		{"-m", "change the payment gateway retries", "--research-only", "--wipe-project-memory"},
	} {
		if res := run(t, dir, env(s), args...); res.code != 0 {
			t.Fatalf("run %d: exit %d\n%s", i+1, res.code, res.stderr)
		}
	}
	reqs := s.Requests()
	if !strings.Contains(reqs[2].Messages[0].Content, "the payment gateway retries three times") {
		t.Fatalf("the second session did not recall the first one's fact:\n%s", reqs[2].Messages[0].Content)
	}
	if strings.Contains(reqs[3].Messages[0].Content, "retries three times") {
		t.Fatal("the fact survived --wipe-project-memory")
	}
	list := run(t, dir, nil, "sessions", "list")
	if strings.Count(list.stdout, "\n") != 2 {
		t.Fatalf("after the wipe only the new session is listed:\n%s", list.stdout)
	}
}

func TestExpertAndHumanInARun(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"a.txt": "alpha\n"})
	main := llmtest.NewServer(t,
		llmtest.Calls(llmtest.Call("e0", "emit_related_files", `{"files":["a.txt"]}`),
			llmtest.Call("e1", "emit_expert_context", `{"context":"the user wants speed"}`),
			llmtest.Call("e2", "ask_expert", `{"question":"Which algorithm?"}`),
			llmtest.Call("h1", "ask_human", `{"question":"OK to proceed?"}`)),
		llmtest.Reply("done"),
	)
	expertSrv := llmtest.NewServer(t, llmtest.Reply("Use a hash map."))
	e := env(main)
	e["EXPERT_OPENAI_BASE_URL"] = expertSrv.URL()
	res := run(t, dir, e, "-m", "pick an algorithm", "--research-only", "--hil")
	if res.code != 0 {
		t.Fatalf("exit %d:\n%s", res.code, res.stderr)
	}
	ereqs := expertSrv.Requests()
	if len(ereqs) != 1 || ereqs[0].Temperature == nil || *ereqs[0].Temperature != 0 {
		t.Fatalf("expert requests: %+v", ereqs)
	}
	q := ereqs[0].LastMessage().Content
	if !strings.Contains(q, "# Related Files\n\n## a.txt\n```\nalpha\n```") || !strings.Contains(q, "# Additional Context\n\nthe user wants speed") || !strings.HasSuffix(q, "**DO NOT OVERCOMPLICATE**") {
		t.Fatalf("expert question:\n%s", q)
	}
	msgs := main.Requests()[1].Messages
	var expertAnswer, humanAnswer string
	for _, m := range msgs {
		switch m.ToolCallID {
		case "e2":
			expertAnswer = m.Content
		case "h1":
			humanAnswer = m.Content
		}
	}
	if !strings.Contains(expertAnswer, "Use a hash map.") || !strings.Contains(humanAnswer, "no human is available") {
		t.Fatalf("expert %q, human %q", expertAnswer, humanAnswer)
	}
}

func TestChatFromAPipe(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"a.txt": "a\n"})
	s := llmtest.NewServer(t, llmtest.Reply("Hi! a.txt holds one line."))
	cmd := exec.Command(binary, "--chat")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "OPENAI_API_KEY=k", "OPENAI_BASE_URL=" + s.URL()}
	cmd.Stdin = strings.NewReader("what is in a.txt?\nplease tell me\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("chat: %v\n%s", err, out)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].LastMessage().Content != "what is in a.txt?\nplease tell me" {
		t.Fatalf("chat requests: %+v", reqs)
	}
	if !strings.Contains(string(out), "a.txt holds one line") {
		t.Fatalf("reply not shown:\n%s", out)
	}
}

func TestChatResumeCarriesTheConversation(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"a.txt": "a\n"})
	chat := func(input, reply string, args ...string) []llmtest.Request {
		t.Helper()
		s := llmtest.NewServer(t, llmtest.Reply(reply))
		cmd := exec.Command(binary, args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "OPENAI_API_KEY=k", "OPENAI_BASE_URL=" + s.URL()}
		cmd.Stdin = strings.NewReader(input)
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), reply) {
			t.Fatalf("reach %v: %v\n%s", args, err, out)
		}
		return s.Requests()
	}
	chat("what is in a.txt?\n", "a.txt holds one line.", "--chat")
	reqs := chat("and what did you tell me?\n", "I said a.txt holds one line.", "resume", "1")
	if len(reqs) != 1 {
		t.Fatalf("%d requests on resume, want 1", len(reqs))
	}
	var got []string
	for _, m := range reqs[0].Messages[1:] { // after the system prompt
		got = append(got, string(m.Role)+": "+m.Content)
	}
	want := []string{"user: what is in a.txt?", "assistant: a.txt holds one line.", "user: and what did you tell me?"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("resumed conversation:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestBudgets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"token budget hit", []string{"--max-tokens", "10", "--exit-at-limit"}, 4, "token budget reached"},
		{"cost budget of zero", []string{"--max-cost", "0"}, 2, "--max-cost"},
		{"token budget of zero", []string{"--max-tokens", "0"}, 2, "--max-tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := repo(t, map[string]string{"a.txt": "a\n"})
			s := llmtest.NewServer(t, llmtest.Calls(llmtest.Call("r", "read_file_tool", `{"filepath":"a.txt"}`)), llmtest.Reply("done"))
			args := append([]string{"-m", "read a.txt", "--research-only", "--output-format", "json"}, tt.args...)
			res := run(t, dir, env(s), args...)
			if res.code != tt.code || !strings.Contains(res.stdout+res.stderr, tt.want) {
				t.Fatalf("exit %d, want %d with %q:\n%s%s", res.code, tt.code, tt.want, res.stdout, res.stderr)
			}
			if tt.code != 4 {
				return
			}
			show := run(t, dir, nil, "sessions", "show", "1")
			if !strings.Contains(show.stdout, "Session 1 — limit") || !strings.Contains(show.stdout, "reach resume 1") {
				t.Fatalf("session after the budget:\n%s", show.stdout)
			}
		})
	}
}
