package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/llm/llmtest"
)

const greetGo = `package greet

// Greeting is what the program says.
func Greeting() string {
	return "Hello world"
}
`

func env(s *llmtest.Server) map[string]string {
	return map[string]string{"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": s.URL()}
}

// editScript is the research → plan → implement conversation of the
// greeting change, with streaming chunks small enough to split every
// tool call's arguments.
func editScript() []llmtest.Turn {
	chunked := func(t llmtest.Turn) llmtest.Turn { t.ChunkSize = 7; return t }
	return []llmtest.Turn{
		// research
		chunked(llmtest.Calls(llmtest.Call("r1", "ripgrep_search", `{"pattern":"Hello world"}`))),
		chunked(llmtest.Calls(llmtest.Call("r2", "read_file_tool", `{"filepath":"greet.go"}`),
			llmtest.Call("r3", "emit_research_notes", `{"notes":"greet.go:5 returns \"Hello world\" from Greeting()."}`))),
		chunked(llmtest.Reply("The greeting is the string literal in greet.go, Greeting().")),
		// planning
		chunked(llmtest.Calls(llmtest.Call("p1", "request_task_implementation", `{"task_spec":"In greet.go change the returned string \"Hello world\" to \"Hello universe\"."}`))),
		chunked(llmtest.Reply("One task: change the literal in greet.go.")),
		// implementation
		chunked(llmtest.Calls(llmtest.Call("i1", "file_str_replace", `{"filepath":"greet.go","old_str":"return \"Hello world\"","new_str":"return \"Hello universe\""}`))),
		chunked(llmtest.Reply("Changed the greeting in greet.go to \"Hello universe\".")),
	}
}

func TestFullRunEditsTheFile(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t, editScript()...)
	res := run(t, dir, env(s), "-m", "change the greeting in greet.go to Hello universe", "--cowboy-mode", "--log-level", "info")
	if res.code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", res.code, res.stderr)
	}
	if got := readFile(t, filepath.Join(dir, "greet.go")); !strings.Contains(got, `return "Hello universe"`) {
		t.Fatalf("greet.go not edited:\n%s", got)
	}
	if !strings.Contains(res.stdout, "Hello universe") {
		t.Fatalf("stdout lacks the summary: %q", res.stdout)
	}
	for _, want := range []string{"== research ==", "== planning ==", "== implementation: task 1 of 1 ==", "-> file_str_replace"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("progress lacks %q:\n%s", want, res.stderr)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 7 || s.Remaining() != 0 {
		t.Fatalf("%d requests, %d turns left", len(reqs), s.Remaining())
	}
	bytes := 0
	for _, r := range reqs {
		bytes += len(r.Body)
		if !r.Stream || r.Model == "" {
			t.Fatalf("request not streamed or without model: %+v", r)
		}
	}
	// The tool results went back with their ids.
	last := reqs[6].Messages
	if m := last[len(last)-1]; m.ToolCallID != "i1" || !strings.Contains(m.Content, `"success":true`) || !strings.Contains(m.Content, "+\\treturn \\\"Hello universe\\\"") {
		t.Fatalf("edit result sent back: %+v", m)
	}
	log := readFile(t, filepath.Join(dir, ".reach", "logs", "reach.log"))
	if !strings.Contains(log, "tool call") || !strings.Contains(log, "file_str_replace") {
		t.Fatalf("log lacks the tool calls:\n%s", log)
	}
	if st := gitStatus(t, dir); st != " M greet.go" {
		t.Fatalf("git status %q: the state directory must ignore itself", st)
	}
	t.Logf("scripted edit scenario: %d model requests, %d request bytes, wall %s", len(reqs), bytes, res.duration)
}

func TestResearchOnlyLeavesFilesUntouched(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t,
		// The model tries to edit during research: the tool is not offered.
		llmtest.Calls(llmtest.Call("r1", "file_str_replace", `{"filepath":"greet.go","old_str":"world","new_str":"universe"}`)),
		llmtest.Reply("The greeting lives in greet.go."),
	)
	res := run(t, dir, env(s), "--research-only", "-m", "where is the greeting?")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if got := readFile(t, filepath.Join(dir, "greet.go")); got != greetGo {
		t.Fatalf("greet.go changed during research:\n%s", got)
	}
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (no planning)", len(reqs))
	}
	if m := reqs[1].LastMessage(); !strings.Contains(m.Content, "not available in this phase") {
		t.Fatalf("refusal sent back: %q", m.Content)
	}
	for _, name := range reqs[0].Tools {
		if name == "file_str_replace" || name == "put_complete_file_contents" {
			t.Fatalf("research offers %s", name)
		}
	}
	if strings.TrimSpace(res.stdout) != "The greeting lives in greet.go." {
		t.Fatalf("stdout %q", res.stdout)
	}
}

func TestTestLoopFixesAFailingCheck(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t,
		llmtest.Reply("Greeting() in greet.go."),
		llmtest.Reply("Change the literal to Hello universe."),
		// First attempt is wrong.
		llmtest.Calls(llmtest.Call("i1", "file_str_replace", `{"filepath":"greet.go","old_str":"Hello world","new_str":"Hello universa"}`)),
		llmtest.Reply("Done."),
		// The test output comes back; fix it.
		llmtest.Dynamic(func(r llmtest.Request) llmtest.Turn {
			if m := r.LastMessage(); m.Role != "user" || !strings.Contains(m.Content, "greeting is wrong") {
				return llmtest.Reply("I did not get the test output: " + m.Content)
			}
			return llmtest.Calls(llmtest.Call("i2", "file_str_replace", `{"filepath":"greet.go","old_str":"Hello universa","new_str":"Hello universe"}`))
		}),
		llmtest.Reply("Fixed the typo."),
	)
	check := `grep -q '"Hello universe"' greet.go || { echo "greeting is wrong"; exit 1; }`
	res := run(t, dir, env(s), "--cowboy-mode", "--test-cmd", check, "--auto-test", "-m", "greet the universe")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if got := readFile(t, filepath.Join(dir, "greet.go")); !strings.Contains(got, `"Hello universe"`) {
		t.Fatalf("not fixed:\n%s", got)
	}
	if !strings.Contains(res.stderr, "tests failed") || !strings.Contains(res.stderr, "tests passed") {
		t.Fatalf("test rounds not reported:\n%s", res.stderr)
	}
}

func TestStreamJSON(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t, editScript()...)
	res := run(t, dir, env(s), "--output-format", "stream-json", "--cowboy-mode", "-m", "greet the universe")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	var types []string
	var last map[string]any
	sc := bufio.NewScanner(strings.NewReader(res.stdout))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line is not JSON: %q: %v", sc.Text(), err)
		}
		typ, _ := ev["type"].(string)
		types = append(types, typ)
		last = ev
	}
	if types[0] != "init" || types[len(types)-1] != "result" {
		t.Fatalf("event types %v", types)
	}
	for _, want := range []string{"phase", "message", "tool_call", "tool_result"} {
		if !strings.Contains(strings.Join(types, ","), want) {
			t.Fatalf("no %s event in %v", want, types)
		}
	}
	usage, _ := last["usage"].(map[string]any)
	if last["status"] != "success" || last["exit_code"] != float64(0) || usage == nil || usage["input_tokens"].(float64) <= 0 {
		t.Fatalf("result event %v", last)
	}
	if _, ok := last["cost_usd"]; !ok {
		t.Fatalf("result lacks cost_usd: %v", last)
	}
}

func TestJSONOutputIsOneObject(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t, llmtest.Reply("Found it."))
	res := run(t, dir, env(s), "--output-format", "json", "--research-only", "-m", "where?")
	var obj map[string]any
	if err := json.Unmarshal([]byte(res.stdout), &obj); err != nil || res.code != 0 {
		t.Fatalf("exit %d, stdout %q: %v", res.code, res.stdout, err)
	}
	if obj["type"] != "result" || obj["summary"] != "Found it." || obj["status"] != "success" {
		t.Fatalf("object %v", obj)
	}
}

func TestProviderFaultsAreRetried(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t, llmtest.RateLimited("0"), llmtest.Fault(500, ""), llmtest.Reply("Found it after retries."))
	res := run(t, dir, env(s), "--research-only", "-m", "where?")
	if res.code != 0 || !strings.Contains(res.stdout, "after retries") {
		t.Fatalf("exit %d stdout %q stderr %s", res.code, res.stdout, res.stderr)
	}
	if n := len(s.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
}

func TestShellWithoutTerminalIsRefused(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t,
		llmtest.Calls(llmtest.Call("s1", "run_shell_command", `{"command":"touch created-by-shell"}`)),
		llmtest.Reply("Could not run it."),
	)
	res := run(t, dir, env(s), "--research-only", "-m", "try the shell")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "created-by-shell")); err == nil {
		t.Fatal("the command ran without approval")
	}
	if m := s.Requests()[1].LastMessage(); !strings.Contains(m.Content, "--cowboy-mode") {
		t.Fatalf("refusal does not say how to allow it: %s", m.Content)
	}
}

func TestRecursionLimitExits4(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t,
		llmtest.Calls(llmtest.Call("a", "read_file_tool", `{"filepath":"greet.go"}`)),
		llmtest.Calls(llmtest.Call("b", "read_file_tool", `{"filepath":"greet.go","offset":2}`)),
	)
	res := run(t, dir, env(s), "--research-only", "--recursion-limit", "2", "-m", "loop")
	if res.code != 4 || !strings.Contains(res.stderr, "recursion limit") {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
}
